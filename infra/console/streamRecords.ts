import type { DynamoDBRecord } from 'aws-lambda';
import { formatSequenceNumber } from '../../streams/sequenceNumber.js';
import type { Stream } from '../../streams/stream.js';
import { toDynamoDBRecord } from '../../streams/streamView.js';
import type { ConsoleSources } from './sources.js';

/** Records a key search looks through, newest first: a search stays bounded on a long stream. */
export const SEARCH_WINDOW = 10_000;
/** Most records one answer carries. */
export const MAX_RECORDS = 500;

/** One shard with its lineage, as DescribeStream names its fields. */
export interface ShardSummary {
  readonly ShardId: string;
  readonly ParentShardId: string | undefined;
  readonly StartingSequenceNumber: string;
  readonly EndingSequenceNumber: string | undefined;
  readonly records: number;
  readonly createdAt: number;
  readonly closedAt: number | undefined;
}

/** `GET /_eddy/api/tables/{Table}/stream`: the stream, its shards and its newest records. */
export interface StreamSummary {
  readonly StreamArn: string;
  readonly StreamLabel: string;
  readonly StreamViewType: string;
  readonly enabled: boolean;
  /** Log positions: records `head`..`end - 1` are retained. */
  readonly head: number;
  readonly end: number;
  readonly Shards: readonly ShardSummary[];
  /** Newest first. */
  readonly Records: readonly DynamoDBRecord[];
}

/** The table's current stream (or undefined when it never had one enabled). */
export function tableStream(sources: ConsoleSources, tableName: string): Stream | undefined {
  return sources.changeLog.tableStream(sources.accountId, sources.region, tableName);
}

/**
 * The stream of a table with its newest `limit` records; with `key`, only records whose keys'
 * JSON contains that text (case-sensitive), among the newest `SEARCH_WINDOW`.
 */
export function describeTableStream(
  sources: ConsoleSources,
  tableName: string,
  options: { readonly limit?: number; readonly key?: string } = {},
): StreamSummary | undefined {
  const stream = tableStream(sources, tableName);
  if (stream === undefined) return undefined;
  stream.tick(sources.clock.now());
  const limit = Math.max(1, Math.min(MAX_RECORDS, options.limit ?? 100));
  const log = stream.log;
  const records: DynamoDBRecord[] = [];
  const floor = Math.max(log.head, log.end - SEARCH_WINDOW);
  for (let position = log.end - 1; position >= floor && records.length < limit; position--) {
    const record = recordAt(stream, position);
    if (options.key !== undefined && options.key !== '') {
      if (!JSON.stringify(record.dynamodb?.Keys ?? {}).includes(options.key)) continue;
    }
    records.push(record);
  }
  return {
    StreamArn: stream.arn,
    StreamLabel: stream.label,
    StreamViewType: stream.viewType,
    enabled: stream.enabled,
    head: log.head,
    end: log.end,
    Shards: stream.shards.map((shard) => ({
      ShardId: shard.id,
      ParentShardId: shard.parentId,
      StartingSequenceNumber: formatSequenceNumber(shard.startOrdinal),
      EndingSequenceNumber:
        shard.endOrdinal === undefined ? undefined : formatSequenceNumber(shard.endOrdinal),
      records: shard.size,
      createdAt: shard.createdAt,
      closedAt: shard.closedAt,
    })),
    Records: records,
  };
}

/** The record at a log position, as Lambda and GetRecords show it. */
export function recordAt(stream: Stream, position: number): DynamoDBRecord {
  return toDynamoDBRecord(stream.log.at(position), position + 1, {
    region: stream.region,
    viewType: stream.viewType,
    eventSourceArn: stream.arn,
    salt: stream.salt,
  });
}

/** A deletion the ttl-expirer made, as its stream record shows it. */
export interface TtlDeletion {
  readonly table: string;
  readonly record: DynamoDBRecord;
}

/**
 * The newest deletions made by TTL (records whose `userIdentity` is the DynamoDB service,
 * docs/streams-and-lambda.md §1.2.8), newest first, among each stream's newest `SEARCH_WINDOW`
 * records: what the TTL view lists as recent deletions.
 */
export function recentTtlDeletions(sources: ConsoleSources, limit = 20): TtlDeletion[] {
  const found: { at: number; deletion: TtlDeletion }[] = [];
  for (const tableName of sources.engine.region(sources.accountId, sources.region).tables.keys()) {
    const stream = tableStream(sources, tableName);
    if (stream === undefined) continue;
    const log = stream.log;
    let kept = 0;
    const floor = Math.max(log.head, log.end - SEARCH_WINDOW);
    for (let position = log.end - 1; position >= floor && kept < limit; position--) {
      const event = log.at(position);
      if (event.userIdentity === undefined) continue;
      found.push({ at: event.at, deletion: { table: tableName, record: recordAt(stream, position) } });
      kept++;
    }
  }
  return found
    .sort((a, b) => b.at - a.at)
    .slice(0, limit)
    .map((entry) => entry.deletion);
}
