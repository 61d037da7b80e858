import type { ChangeEvent } from '../core/changeEvent.js';
import { EventLog } from './eventLog.js';
import { newSalt } from './ids.js';

/** A record read from a log: its ordinal (sequence number, see `sequenceNumber.ts`) and change. */
export interface FeedRecord {
  readonly ordinal: number;
  readonly event: ChangeEvent;
}

/**
 * Makes the record a reader wants from a change and its ordinal: readers make their own (wire
 * records, pending records), with no FeedRecord in between.
 */
export type RecordMaker<T> = (ordinal: number, event: ChangeEvent) => T;

/** The plain record. */
export const feedRecord: RecordMaker<FeedRecord> = (ordinal, event) => ({ ordinal, event });

/**
 * The internal change feed of one table (docs/architecture.md §3.1): it always exists, whether or not
 * the table has a user-visible stream, and carries every change as NEW_AND_OLD_IMAGES (the GSI
 * maintainer's input). Unlike a stream it has no retention period: it keeps a change only until
 * every registered reader has committed past it, so memory is bounded by the slowest reader's
 * lag, and nothing at all is kept while no reader is registered.
 *
 * @example
 * ```ts
 * const reader = changeLog.internalFeed('000000000000', 'us-east-1', 'Orders').register();
 * const unsubscribe = reader.onAvailable(() => {
 *   const records = reader.read(100);
 *   for (const { event } of records) indexWriter.apply(event);
 *   reader.commit(records.at(-1)!.ordinal);
 * });
 * ```
 */
export class InternalFeed {
  readonly log = new EventLog();
  readonly salt = newSalt();
  private readonly readers = new Set<InternalReader>();
  private ended = false;

  /** Whether the table is gone (its readers see no more changes). */
  get closed(): boolean {
    return this.ended;
  }

  append(event: ChangeEvent): void {
    if (this.readers.size === 0 || this.ended) return;
    this.log.append(event);
    for (const reader of this.readers) reader.notify();
  }

  /**
   * Registers a reader. It starts at the next change (`LATEST`, default) or at the oldest change
   * still held for other readers (`TRIM_HORIZON`).
   */
  register(from: 'LATEST' | 'TRIM_HORIZON' = 'LATEST'): InternalReader {
    const reader = new InternalReader(this, from === 'LATEST' ? this.log.end : this.log.head);
    this.readers.add(reader);
    return reader;
  }

  /**
   * Reads up to `limit` changes from `ordinal` on, without moving any reader: the same
   * read-from-position shape as `readShard` for streams.
   * @throws RangeError when the changes at `ordinal` are no longer held.
   */
  readFrom(ordinal: number, limit = 1000): { records: FeedRecord[]; nextOrdinal: number } {
    const log = this.log;
    const start = Math.max(ordinal - 1, 0);
    if (start < log.head)
      throw new RangeError(`Changes from ${ordinal} were released (oldest held: ${log.head + 1})`);
    const end = Math.min(log.end, start + limit);
    const records: FeedRecord[] = [];
    for (let position = start; position < end; position++)
      records.push(feedRecord(position + 1, log.at(position)));
    return { records, nextOrdinal: Math.max(end, start) + 1 };
  }

  /** The table was deleted: readers drain what is left, then see `ended`. */
  end(): void {
    this.ended = true;
    for (const reader of this.readers) reader.notify();
  }

  /** @internal */
  unregister(reader: InternalReader): void {
    this.readers.delete(reader);
    this.trim();
  }

  /** @internal Drops what every reader has committed past. */
  trim(): void {
    let low = this.log.end;
    for (const reader of this.readers) low = Math.min(low, reader.committed);
    this.log.trimTo(low);
  }
}

/** One registered reader of an internal feed: read from its position, commit what it handled. */
export class InternalReader {
  /** Log position of the next change to read. */
  position: number;
  /** Log position below which this reader needs nothing any more. */
  committed: number;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly feed: InternalFeed,
    start: number,
  ) {
    this.position = start;
    this.committed = start;
  }

  /** Whether the feed ended and this reader has read everything. */
  get done(): boolean {
    return this.feed.closed && this.position >= this.feed.log.end;
  }

  /** Whether changes wait to be read. */
  get available(): number {
    return this.feed.log.end - this.position;
  }

  /**
   * Reads up to `limit` changes from the reader's position and moves the position past them.
   * They stay held until `commit`, so a reader that fails can `rewind()` and read them again.
   */
  read(limit = 1000): FeedRecord[] {
    return this.readWith(limit, feedRecord);
  }

  /** `read`, each record made by `make`. */
  readWith<T>(limit: number, make: RecordMaker<T>): T[] {
    const log = this.feed.log;
    const end = Math.min(log.end, this.position + limit);
    const records: T[] = [];
    for (let position = this.position; position < end; position++)
      records.push(make(position + 1, log.at(position)));
    this.position = end;
    return records;
  }

  /** Marks everything up to and including `ordinal` as handled (default: all read so far). */
  commit(ordinal = this.position): void {
    const position = Math.min(ordinal, this.position);
    if (position <= this.committed) return;
    this.committed = position;
    this.feed.trim();
  }

  /** Goes back to the last committed position (after a failed batch). */
  rewind(): void {
    this.position = this.committed;
  }

  /** Moves the read position to the change with this ordinal (not before the committed one). */
  seek(ordinal: number): void {
    this.position = Math.min(Math.max(ordinal - 1, this.committed), this.feed.log.end);
  }

  /** Calls `listener` whenever changes arrive or the feed ends. Returns the unsubscribe function. */
  onAvailable(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops reading: the feed no longer holds changes for this reader. */
  close(): void {
    this.listeners.clear();
    this.feed.unregister(this);
  }

  /** @internal */
  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
