import type { DynamoDBRecord } from 'aws-lambda';
import { filter, type MonoTypeOperatorFunction } from '../rxjs.js';

export type EventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/**
 * Keeps the records whose `eventName` is one of `names` (docs/streams-and-lambda.md §1.1.2).
 *
 * ```
 * source:                          -i-m-r-i-|
 * ofEventName('INSERT', 'REMOVE'): -i---r-i-|
 * ```
 *
 * @example
 * ```ts
 * changes$(changeLog, 'Orders').pipe(ofEventName('INSERT', 'MODIFY')).subscribe(upsert);
 * ```
 */
export function ofEventName<T extends DynamoDBRecord>(...names: EventName[]): MonoTypeOperatorFunction<T> {
  const wanted = new Set<string>(names);
  return filter((record) => record.eventName !== undefined && wanted.has(record.eventName));
}
