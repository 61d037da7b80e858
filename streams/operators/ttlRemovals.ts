import type { DynamoDBRecord } from 'aws-lambda';
import { filter, type MonoTypeOperatorFunction } from '../rxjs.js';

/** The principal DynamoDB's TTL process deletes as (docs/streams-and-lambda.md §1.2.8). */
export const TTL_PRINCIPAL_ID = 'dynamodb.amazonaws.com';

/** Whether a record is a TTL delete: REMOVE by the Service principal `dynamodb.amazonaws.com`. */
export function isTtlRemoval(record: DynamoDBRecord): boolean {
  const identity = record.userIdentity as { type?: unknown; principalId?: unknown } | undefined;
  return (
    record.eventName === 'REMOVE' && identity?.type === 'Service' && identity.principalId === TTL_PRINCIPAL_ID
  );
}

/**
 * Keeps the deletes made by Time to Live, which carry
 * `userIdentity {type: "Service", principalId: "dynamodb.amazonaws.com"}`
 * (docs/streams-and-lambda.md §1.2.8); user deletes carry no identity (docs/streams-and-lambda.md §1.2.9).
 * With `{ exclude: true }`, drops them instead.
 *
 * ```
 * source:        -i-r-t-m-t-|    (r: DeleteItem, t: TTL delete)
 * ttlRemovals(): -----t---t-|
 * ttlRemovals({ exclude: true }): -i-r---m---|
 * ```
 *
 * @example
 * ```ts
 * changes$(changeLog, 'Sessions').pipe(ttlRemovals()).subscribe((record) => archive(record.dynamodb?.OldImage));
 * ```
 */
export function ttlRemovals<T extends DynamoDBRecord>(
  options: { exclude?: boolean } = {},
): MonoTypeOperatorFunction<T> {
  const keep = options.exclude !== true;
  return filter((record) => isTtlRemoval(record) === keep);
}
