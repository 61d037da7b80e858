import type { DynamoDBRecord } from 'aws-lambda';
import type { MonoTypeOperatorFunction } from 'rxjs';
import { ofEventName } from './ofEventName.js';

/**
 * Keeps the `MODIFY` records: changed items (including a PutItem that replaces an item,
 * docs/streams-and-lambda.md §1.3.2).
 *
 * ```
 * source:     -i-m-r-m-|
 * modifies(): ---m---m-|
 * ```
 *
 * @example
 * ```ts
 * changes$(changeLog, 'Orders').pipe(modifies()).subscribe((record) => console.log(record.dynamodb?.Keys));
 * ```
 */
export function modifies<T extends DynamoDBRecord>(): MonoTypeOperatorFunction<T> {
  return ofEventName<T>('MODIFY');
}
