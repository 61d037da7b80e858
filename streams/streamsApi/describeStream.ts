import type { StructureShape } from '../../core/validations/shape.js';
import type { Shard } from '../shard.js';
import { defineStreamsOperation } from './operation.js';
import { limit, parseStreamArn, shardId, streamArn, streamNotFound } from './shapes.js';

export interface DescribeStreamInput {
  StreamArn: string;
  Limit?: number;
  ExclusiveStartShardId?: string;
  ShardFilter?: { Type?: 'CHILD_SHARDS'; ShardId?: string };
}

const shardFilter: StructureShape = {
  kind: 'structure',
  name: 'ShardFilter',
  members: { Type: { kind: 'string', enum: ['CHILD_SHARDS'] }, ShardId: shardId },
};

/**
 * DescribeStream (docs/streams-and-lambda.md §1.4): status, view type, key schema and the shards with their
 * lineage and sequence number ranges, in lexical ShardId order, paged by `Limit` (≤ 100) and
 * `ExclusiveStartShardId` (any id: shards after it in that order, Alternator `list_shards`).
 * `ShardFilter {Type: CHILD_SHARDS, ShardId}` lists the children of one shard.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_DescribeStream.html
 */
export const describeStream = defineStreamsOperation<DescribeStreamInput>({
  name: 'DescribeStream',
  shape: {
    StreamArn: { ...streamArn, required: true },
    Limit: limit(100),
    ExclusiveStartShardId: shardId,
    ShardFilter: shardFilter,
  },
  validate(input) {
    parseStreamArn(input.StreamArn);
  },
  execute(context, input) {
    const stream = context.findStream(input.StreamArn);
    if (stream === undefined) throw streamNotFound(input.StreamArn);
    let shards: Shard[] = [...stream.shards].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const parent = input.ShardFilter?.ShardId;
    if (input.ShardFilter?.Type === 'CHILD_SHARDS' && parent !== undefined)
      shards = shards.filter((shard) => shard.parentId === parent);
    const start = input.ExclusiveStartShardId;
    if (start !== undefined) shards = shards.filter((shard) => shard.id > start);
    const page = shards.slice(0, input.Limit ?? 100);
    const description: Record<string, unknown> = {
      StreamArn: stream.arn,
      StreamLabel: stream.label,
      StreamStatus: stream.status(context.now, context.transientDelayMs),
      StreamViewType: stream.viewType,
      CreationRequestDateTime: stream.createdAt / 1000,
      TableName: stream.tableName,
      KeySchema: stream.keySchema.map((element) => ({ ...element })),
      Shards: page.map((shard) => shard.describe()),
    };
    if (page.length < shards.length) description.LastEvaluatedShardId = page.at(-1)!.id;
    return { StreamDescription: description };
  },
});
