import type { ChangeEvent } from '../core/changeEvent.js';
import { TrimmedDataAccessException } from '../core/errors/index.js';
import { type FeedRecord, feedRecord, type RecordMaker } from './internalFeed.js';
import { ordinalOf } from './sequenceNumber.js';
import type { Shard } from './shard.js';
import type { Stream } from './stream.js';

/**
 * Reading streams from any position (docs/streams-and-lambda.md §1.5): "pull underneath"
 * (docs/architecture.md §3.2). Readers hold positions, never records, so a reader that failed reads again
 * from where it was, and a slow one costs no memory beyond the log that retention keeps anyway.
 */

/** Where a whole-stream read starts (docs/streams-and-lambda.md §1.5.1 iterator types, plus a time). */
export type StreamPosition =
  | 'TRIM_HORIZON'
  | 'LATEST'
  | { readonly sequenceNumber: string }
  | { readonly afterSequenceNumber: string }
  | { readonly timestamp: number | Date };

export type ShardIteratorType = 'TRIM_HORIZON' | 'LATEST' | 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER';

/** The data an iterator or position points to was trimmed (docs/streams-and-lambda.md §1.5.4). */
export function trimmed(): TrimmedDataAccessException {
  return new TrimmedDataAccessException('The data you are trying to access has been trimmed');
}

/**
 * Log position where a read of the whole stream (all shards, in commit order) starts. Sequence
 * numbers order the whole stream here (see `sequenceNumber.ts`), so a sequence number is a
 * position in every shard at once: "from this record on".
 * @throws TrimmedDataAccessException when the sequence number is older than the trim point.
 */
export function startPosition(stream: Stream, from: StreamPosition): number {
  const log = stream.log;
  if (from === 'TRIM_HORIZON') return log.head;
  if (from === 'LATEST') return log.end;
  if ('timestamp' in from) {
    const time = typeof from.timestamp === 'number' ? from.timestamp : from.timestamp.getTime();
    return log.firstAtOrAfter(time);
  }
  const ordinal =
    'sequenceNumber' in from ? ordinalOf(from.sequenceNumber) : ordinalOf(from.afterSequenceNumber) + 1;
  // Ordinal n is log position n - 1.
  const position = Math.max(0, ordinal - 1);
  if (position < log.head && log.head > 0) throw trimmed();
  return Math.min(position, log.end);
}

/**
 * The ordinal a shard iterator of `type` starts at (docs/streams-and-lambda.md §1.5.1): the first record it
 * returns is the first of the shard whose ordinal is at least this.
 * @throws TrimmedDataAccessException when the sequence number is older than the trim point.
 */
export function iteratorOrdinal(
  stream: Stream,
  shard: Shard,
  type: ShardIteratorType,
  sequenceNumber?: string,
): number {
  switch (type) {
    case 'TRIM_HORIZON':
      return shard.trimHorizonOrdinal;
    case 'LATEST':
      return shard.endOrdinal === undefined ? stream.nextOrdinal : shard.endOrdinal + 1;
    default: {
      const at = ordinalOf(sequenceNumber!);
      const ordinal = type === 'AT_SEQUENCE_NUMBER' ? at : at + 1;
      if (ordinal <= shard.trimmedThrough) throw trimmed();
      return ordinal;
    }
  }
}

export interface ShardReadOptions {
  /** Most records to return (GetRecords: 1000). */
  readonly limit: number;
  /** Stop before this many bytes, counted by `sizeOf`; the first record always comes. */
  readonly maxBytes?: number;
  readonly sizeOf?: (event: ChangeEvent) => number;
}

export interface ShardRead<T = FeedRecord> {
  readonly records: T[];
  /** Where the next read starts. */
  readonly nextOrdinal: number;
  /** The shard is closed and everything in it has been read (docs/streams-and-lambda.md §1.5.7). */
  readonly endOfShard: boolean;
}

/**
 * Reads one shard from `ordinal` on, in sequence-number order (docs/streams-and-lambda.md §1.5.8), each
 * record made by `make` (GetRecords makes wire records, a mapping its pending records).
 * @throws TrimmedDataAccessException when records the position points to were trimmed.
 */
export function readShard(
  stream: Stream,
  shard: Shard,
  ordinal: number,
  options: ShardReadOptions,
): ShardRead;
export function readShard<T>(
  stream: Stream,
  shard: Shard,
  ordinal: number,
  options: ShardReadOptions,
  make: RecordMaker<T>,
): ShardRead<T>;
export function readShard(
  stream: Stream,
  shard: Shard,
  ordinal: number,
  options: ShardReadOptions,
  make: RecordMaker<unknown> = feedRecord,
): ShardRead<unknown> {
  if (ordinal <= shard.trimmedThrough) throw trimmed();
  const records: unknown[] = [];
  let index = shard.indexAtOrdinal(ordinal);
  let bytes = 0;
  let next = ordinal;
  while (index < shard.size && records.length < options.limit) {
    const position = shard.positionAt(index);
    const event = stream.log.at(position);
    if (options.maxBytes !== undefined && options.sizeOf !== undefined) {
      bytes += options.sizeOf(event);
      if (bytes > options.maxBytes && records.length > 0) break;
    }
    const recordOrdinal = position + 1;
    records.push(make(recordOrdinal, event));
    next = recordOrdinal + 1;
    index++;
  }
  return { records, nextOrdinal: next, endOfShard: shard.closed && index >= shard.size };
}

/**
 * Shards in an order that reads every parent before its children (docs/streams-and-lambda.md §1.4.3): a
 * stable topological order of the lineage. Parents that were trimmed away count as done.
 */
export function shardsInReadOrder(shards: readonly Shard[]): Shard[] {
  const byId = new Map(shards.map((shard) => [shard.id, shard]));
  const ordered: Shard[] = [];
  const placed = new Set<string>();
  const place = (shard: Shard) => {
    if (placed.has(shard.id)) return;
    const parent = shard.parentId === undefined ? undefined : byId.get(shard.parentId);
    if (parent !== undefined) place(parent);
    placed.add(shard.id);
    ordered.push(shard);
  };
  for (const shard of [...shards].sort((a, b) => a.createdAt - b.createdAt)) place(shard);
  return ordered;
}

/** The children of a shard (a parent has at most one here, docs/streams-and-lambda.md §1.4.1). */
export function childrenOf(stream: Stream, shardId: string): Shard[] {
  return stream.shards.filter((shard) => shard.parentId === shardId);
}

/** Shards to start a full read from: those whose parent is no longer retained. */
export function rootShards(stream: Stream): Shard[] {
  const ids = new Set(stream.shards.map((shard) => shard.id));
  return stream.shards.filter((shard) => shard.parentId === undefined || !ids.has(shard.parentId));
}
