import type { DynamoDBRecord } from 'aws-lambda';
import { compareRecordedOrder } from './lambdaRecord.js';

/** The records read from one shard in one polling round, in the shard's (sequence) order. */
export interface ShardRecords {
  readonly shardId: string;
  readonly parentShardId: string | undefined;
  readonly records: readonly DynamoDBRecord[];
}

/**
 * Puts the records of several shards into one recording order: each shard keeps its own order
 * (records of one item are on one shard, in the order of the writes:
 * docs/streams-and-lambda.md §1.3.8, §1.3.9), a child shard's records come after its parent's
 * (docs/streams-and-lambda.md §1.4.3), and among the shards' next records the oldest
 * ApproximateCreationDateTime goes first, then the lowest sequence number. No order exists between items on
 * different shards (docs/streams-and-lambda.md §1.3.9); this one is the closest to the order of the writes
 * that the records tell.
 *
 * ```
 * shard A:        a1(t1) a2(t3)
 * shard B:        b1(t2)
 * child of A:     c1(t2)              (read after A ended)
 * mergeShards:    a1 b1 a2 c1
 * ```
 *
 * @example
 * ```ts
 * mergeShards([{ shardId: 'A', parentShardId: undefined, records: [a1, a2] }, { shardId: 'B', parentShardId: undefined, records: [b1] }]);
 * ```
 */
export function mergeShards(shards: readonly ShardRecords[]): DynamoDBRecord[] {
  const next = new Map<string, number>(shards.map((shard) => [shard.shardId, 0]));
  const exhausted = (shard: ShardRecords) => next.get(shard.shardId)! >= shard.records.length;
  const byId = new Map(shards.map((shard) => [shard.shardId, shard]));
  const merged: DynamoDBRecord[] = [];
  for (;;) {
    let best: ShardRecords | undefined;
    let bestRecord: DynamoDBRecord | undefined;
    for (const shard of shards) {
      if (exhausted(shard)) continue;
      const parent = shard.parentShardId === undefined ? undefined : byId.get(shard.parentShardId);
      if (parent !== undefined && !exhausted(parent)) continue;
      const record = shard.records[next.get(shard.shardId)!]!;
      if (bestRecord === undefined || compareRecordedOrder(record, bestRecord) < 0) {
        best = shard;
        bestRecord = record;
      }
    }
    if (best === undefined || bestRecord === undefined) return merged;
    merged.push(bestRecord);
    next.set(best.shardId, next.get(best.shardId)! + 1);
  }
}
