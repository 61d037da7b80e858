import type { Clock } from '../../core/clock.js';
import type { InternalReader, RecordMaker } from '../internalFeed.js';
import { readShard } from '../reader.js';
import type { Shard } from '../shard.js';
import type { ReaderPlace } from '../shardReaders.js';
import type { Stream } from '../stream.js';

/**
 * A mapping's read position in one shard (or in a table's internal feed): "pull underneath"
 * (docs/architecture.md §3.2). The position moves when records are read; what is processed is the mapping's
 * checkpoint, which it reports back with `commit`.
 */
export interface RecordCursor {
  readonly shardId: string;
  /** Ordinal of the next record to read. */
  readonly nextOrdinal: number;
  /** Reads up to `limit` records from the position and moves past them, made by `make`. */
  read<T>(limit: number, make: RecordMaker<T>): T[];
  /** Records waiting to be read. */
  available(): number;
  /** Commit time of the next unread record, if any. */
  nextAt(): number | undefined;
  /** The shard is closed and everything in it has been read. */
  finished(): boolean;
  /** Calls `wake` when records may have arrived or the shard closed. Returns the unsubscribe. */
  listen(wake: () => void): () => void;
  /** Everything up to and including `ordinal` is processed. */
  commit(ordinal: number): void;
  /** Records lost to retention while the mapping lagged behind (docs/streams-and-lambda.md §1.4.6). */
  readonly trimmedSkips: number;
  /**
   * Whether the reader may read now: false while the shard has as many other readers as its
   * table allows (docs/capacity.md §5.1). Absent: always.
   */
  admit?(): boolean;
  /** The reader stops reading (its place among the shard's readers is free). */
  release?(): void;
}

/** A cursor over one shard of a DynamoDB stream, starting at `startOrdinal`. */
export class ShardCursor implements RecordCursor {
  trimmedSkips = 0;

  constructor(
    private readonly stream: Stream,
    private readonly shard: Shard,
    public nextOrdinal: number,
    private readonly clock: Clock,
    private readonly place?: ReaderPlace,
  ) {}

  get shardId(): string {
    return this.shard.id;
  }

  admit(): boolean {
    return this.place === undefined || this.place.hold();
  }

  release(): void {
    this.place?.release();
  }

  read<T>(limit: number, make: RecordMaker<T>): T[] {
    this.stream.tick(this.clock.now());
    if (this.nextOrdinal <= this.shard.trimmedThrough) {
      // Retention trimmed records before the mapping got to them: they are gone
      // (docs/streams-and-lambda.md §1.4.6).
      this.trimmedSkips++;
      this.nextOrdinal = this.shard.trimHorizonOrdinal;
    }
    const read = readShard(this.stream, this.shard, this.nextOrdinal, { limit }, make);
    this.nextOrdinal = read.nextOrdinal;
    return read.records;
  }

  available(): number {
    return this.shard.size - this.shard.indexAtOrdinal(this.nextOrdinal);
  }

  nextAt(): number | undefined {
    const index = this.shard.indexAtOrdinal(this.nextOrdinal);
    if (index >= this.shard.size) return undefined;
    return this.stream.log.at(this.shard.positionAt(index)).at;
  }

  finished(): boolean {
    return this.shard.closed && this.available() === 0;
  }

  listen(wake: () => void): () => void {
    return this.stream.onChange(wake);
  }

  commit(): void {}
}

/** A cursor over a table's internal feed (one pseudo-shard, `internal`). */
export class InternalFeedCursor implements RecordCursor {
  readonly shardId = 'internal';
  readonly trimmedSkips = 0;

  constructor(private readonly reader: InternalReader) {}

  get nextOrdinal(): number {
    return this.reader.position + 1;
  }

  read<T>(limit: number, make: RecordMaker<T>): T[] {
    return this.reader.readWith(limit, make);
  }

  available(): number {
    return this.reader.available;
  }

  nextAt(): number | undefined {
    const log = this.reader.feed.log;
    return this.reader.position < log.end ? log.at(this.reader.position).at : undefined;
  }

  finished(): boolean {
    return this.reader.done;
  }

  listen(wake: () => void): () => void {
    return this.reader.onAvailable(wake);
  }

  commit(ordinal: number): void {
    this.reader.commit(ordinal);
  }

  /** Moves the read position back to the record after `committed` (a restart). */
  resumeAfter(committed: number): void {
    this.reader.seek(committed + 1);
  }
}
