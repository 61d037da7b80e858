import type { DynamoDBRecord } from 'aws-lambda';
import type { MonoTypeOperatorFunction } from 'rxjs';
import { ofEventName } from './ofEventName.js';

/**
 * Keeps the `REMOVE` records: deleted items (DeleteItem and TTL deletes, docs/streams-and-lambda.md §1.3.6).
 *
 * ```
 * source:     -i-m-r-i-|
 * removes():  -----r---|
 * ```
 *
 * @example
 * ```ts
 * changes$(changeLog, 'Orders').pipe(removes()).subscribe((record) => console.log(record.dynamodb?.Keys));
 * ```
 */
export function removes<T extends DynamoDBRecord>(): MonoTypeOperatorFunction<T> {
  return ofEventName<T>('REMOVE');
}
