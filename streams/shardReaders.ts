import { LimitExceededException } from '../core/errors/index.js';
import type { Table } from '../core/store/table.js';
import type { ChangeSource } from './changeSource.js';
import type { Stream } from './stream.js';

/**
 * How many processes may read one shard at once (docs/capacity.md §5.1): "For single-Region
 * tables that are not global tables, you can design for up to two processes to read from the same
 * DynamoDB Streams shard at the same time. Exceeding this limit can result in request throttling.
 * For global tables, we recommend you limit the number of simultaneous readers to one"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-dynamodb-streams-simultaneous-shard-readers);
 * GetRecords' LimitExceededException: "More than 2 processes are reading from the same streams
 * shard at the same time"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html).
 * What "at the same time" means is not published: `windowMs` is eddy's choice, one second, four
 * of Lambda's polls ("at a base rate of 4 times per second",
 * https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html).
 */
export const ShardReaderLimits = {
  singleRegion: 2,
  globalTable: 1,
  windowMs: 1000,
} as const;

/**
 * The only text recorded from a throttled GetRecords (HTTP 400 from DynamoDBStreamsClient,
 * aws/aws-sdk-java-v2#470, 2018).
 */
export const SHARD_READERS_EXCEEDED = 'Rate exceeded';

/** A reader that holds its place until released (an event source mapping, the archiver). */
const HELD = Number.POSITIVE_INFINITY;

/**
 * A mapping's place among a shard's readers (docs/capacity.md §5.1): `hold()` at each poll says
 * whether it may read now (once admitted it keeps its place), `release()` when it stops reading
 * the shard.
 */
export interface ReaderPlace {
  hold(): boolean;
  release(): void;
}

/** What the readers need of the engine: the clock and whether capacity is enforced on a table. */
type ReaderSource = Pick<ChangeSource, 'clock' | 'region' | 'capacity'>;

/**
 * The readers of each shard of the streams of one change log (docs/capacity.md §5.1). A reader
 * is a chain of shard iterators (GetShardIterator starts one; each NextShardIterator continues it)
 * that called GetRecords within the last `windowMs`, or a running event source mapping on the
 * shard (Lambda's poller reads it continuously). While capacity is enforced on the stream's
 * table, a reader that finds the shard's places taken is refused: GetRecords answers
 * LimitExceededException, a mapping waits and polls again. Readers are counted whether or not
 * capacity is enforced only for mappings (a place each, taken once), so that enforcement turned
 * on later sees them; iterator chains are not tracked at all while nothing is enforced.
 */
export class ShardReaders {
  /** Per stream ARN and shard id: reader → when it last read (HELD for a mapping). */
  private readonly shards = new Map<string, Map<string, number>>();

  constructor(private readonly source: ReaderSource) {}

  /**
   * GetRecords by an iterator chain: throws LimitExceededException when the shard already has as
   * many other readers as the table allows.
   */
  read(stream: Stream, shardId: string, chain: string): void {
    const limit = this.limitOf(stream);
    if (limit === undefined) return;
    const now = this.source.clock.now();
    if (!this.take(stream, shardId, chain, now, now, limit))
      throw new LimitExceededException(SHARD_READERS_EXCEEDED);
  }

  /** A chain read its closed shard to the end: it reads no more. */
  finished(stream: Stream, shardId: string, chain: string): void {
    this.leave(key(stream, shardId), chain);
  }

  /** A mapping's place among a shard's readers (`ReaderPlace`). */
  place(stream: Stream, shardId: string, reader: string): ReaderPlace {
    const shard = key(stream, shardId);
    return {
      hold: () => {
        if (this.shards.get(shard)?.get(reader) === HELD) return true;
        return this.take(stream, shardId, reader, HELD, this.source.clock.now(), this.limitOf(stream));
      },
      release: () => this.leave(shard, reader),
    };
  }

  private leave(shard: string, reader: string): void {
    const readers = this.shards.get(shard);
    if (readers === undefined) return;
    readers.delete(reader);
    if (readers.size === 0) this.shards.delete(shard);
  }

  /** Forgets every reader (the test kit's reset). */
  clear(): void {
    this.shards.clear();
  }

  /**
   * Takes (or refreshes) a place: `at` is the read's time, HELD for a mapping. Readers whose last
   * read is older than the window before `now` leave first. `limit` undefined: nothing is enforced.
   */
  private take(
    stream: Stream,
    shardId: string,
    reader: string,
    at: number,
    now: number,
    limit: number | undefined,
  ): boolean {
    const shard = key(stream, shardId);
    let readers = this.shards.get(shard);
    if (readers === undefined) {
      readers = new Map();
      this.shards.set(shard, readers);
    }
    const known = readers.get(reader);
    if (known !== undefined) {
      if (known !== HELD) readers.set(reader, at);
      return true;
    }
    const since = now - ShardReaderLimits.windowMs;
    for (const [other, last] of readers) if (last <= since) readers.delete(other);
    if (limit !== undefined && readers.size >= limit) return false;
    readers.set(reader, at);
    return true;
  }

  /** The table's reader limit while capacity is enforced on it; undefined otherwise. */
  private limitOf(stream: Stream): number | undefined {
    const capacity = this.source.capacity;
    if (capacity === undefined) return undefined;
    const table = this.source.region(stream.accountId, stream.region).tables.get(stream.tableName);
    if (table === undefined || table.tableId !== stream.tableId || !capacity.enforces(table))
      return undefined;
    return isGlobalTable(table) ? ShardReaderLimits.globalTable : ShardReaderLimits.singleRegion;
  }
}

function key(stream: Stream, shardId: string): string {
  return `${stream.arn}|${shardId}`;
}

/** A replica of a global table (version 2019.11.21): its shards allow one reader. */
function isGlobalTable(table: Table): boolean {
  return table.replication !== undefined;
}
