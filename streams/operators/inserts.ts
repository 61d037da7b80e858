import type { DynamoDBRecord } from 'aws-lambda';
import type { MonoTypeOperatorFunction } from 'rxjs';
import { ofEventName } from './ofEventName.js';

/**
 * Keeps the `INSERT` records: new items (PutItem or UpdateItem of a new key,
 * docs/streams-and-lambda.md §1.3.1, §1.3.4).
 *
 * ```
 * source:     -i-m-r-i-|
 * inserts():  -i-----i-|
 * ```
 *
 * @example
 * ```ts
 * changes$(changeLog, 'Orders').pipe(inserts()).subscribe((record) => console.log(record.dynamodb?.Keys));
 * ```
 */
export function inserts<T extends DynamoDBRecord>(): MonoTypeOperatorFunction<T> {
  return ofEventName<T>('INSERT');
}
