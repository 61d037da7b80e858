import type { DynamoDBRecord } from 'aws-lambda';
import { type GroupedObservable, groupBy, type Observable, type OperatorFunction } from '../rxjs.js';

/**
 * A text that identifies an item by its `Keys` (attribute names sorted, so equal keys give equal
 * text whatever order the attributes come in).
 */
export function itemKeyOf(record: DynamoDBRecord): string {
  const keys = (record.dynamodb?.Keys ?? {}) as Record<string, unknown>;
  const names = Object.keys(keys).sort();
  return JSON.stringify(names.map((name) => [name, keys[name]]));
}

/**
 * Splits the records into one Observable per item (by `Keys`); each group sees its item's
 * records in commit order (docs/streams-and-lambda.md §1.3.8), so per-item work can run in order with
 * `concatMap` inside the group while different items proceed independently.
 *
 * ```
 * source:           -a1-b1-a2-b2-|
 * groupByItemKey(): -A--B--------|
 *   A:               a1----a2----|
 *   B:                  b1----b2-|
 * ```
 *
 * @example
 * ```ts
 * changes$(changeLog, 'Accounts')
 *   .pipe(groupByItemKey(), mergeMap((item$) => item$.pipe(concatMap(applyInOrder))))
 *   .subscribe();
 * ```
 */
export function groupByItemKey<T extends DynamoDBRecord>(
  options: { duration?: (group: GroupedObservable<string, T>) => Observable<unknown> } = {},
): OperatorFunction<T, GroupedObservable<string, T>> {
  return options.duration === undefined
    ? groupBy((record: T) => itemKeyOf(record))
    : groupBy((record: T) => itemKeyOf(record), { duration: options.duration });
}
