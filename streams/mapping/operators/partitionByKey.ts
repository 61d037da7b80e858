import { mergeMap, type OperatorFunction } from '../../rxjs.js';

/** One lane's share of a chunk. */
export interface LaneChunk<T> {
  readonly lane: number;
  readonly records: T[];
}

/**
 * Splits each chunk into `lanes` lanes by a hash of each record's item key, keeping the records'
 * order within each lane: ParallelizationFactor (docs/streams-and-lambda.md §2.1.6) processes up to N batches
 * of a shard at once, and every change of one item goes to the same lane, so per-item order holds.
 *
 * ```
 * source:                 -[a1,b1,a2]-[b2]-|      (a* hash to lane 0, b* to lane 1)
 * partitionByKey(2, key): -(AB)-------C----|      A = {0,[a1,a2]}, B = {1,[b1]}, C = {1,[b2]}
 * ```
 *
 * @example
 * ```ts
 * chunks$.pipe(partitionByKey(4, (record) => record.event.itemKey), groupBy((chunk) => chunk.lane));
 * ```
 */
export function partitionByKey<T>(
  lanes: number,
  keyOf: (record: T) => string,
): OperatorFunction<readonly T[], LaneChunk<T>> {
  return mergeMap((chunk: readonly T[]) => {
    const byLane: T[][] = Array.from({ length: lanes }, () => []);
    for (const record of chunk) byLane[laneOf(keyOf(record), lanes)]!.push(record);
    const out: LaneChunk<T>[] = [];
    byLane.forEach((records, lane) => {
      if (records.length > 0) out.push({ lane, records });
    });
    return out;
  });
}

/** FNV-1a of the key, modulo the lane count: stable, so an item always takes the same lane. */
export function laneOf(key: string, lanes: number): number {
  if (lanes === 1) return 0;
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % lanes;
}
