import type { Clock } from '../../core/clock.js';
import type { KinesisDestination } from '../../core/kinesis/destinations.js';
import { newSalt } from '../../streams/ids.js';
import type { InternalFeed, InternalReader } from '../../streams/internalFeed.js';
import type { KinesisWriter, OutgoingRecord } from './kinesisClient.js';
import { kinesisRecordText, partitionKeyOf } from './kinesisRecord.js';

/**
 * PutRecords limits: 500 records and 5 MiB a call, 1 MiB a record, data and partition key
 * counted together (https://docs.aws.amazon.com/kinesis/latest/APIReference/API_PutRecords.html).
 */
export const PUT_RECORDS_LIMITS = { records: 500, bytes: 5 * 1024 * 1024, recordBytes: 1024 * 1024 } as const;

/** Back-off between attempts of records Kinesis did not take: 100 ms doubling to 5 s. */
const BACKOFF = { first: 100, max: 5000 } as const;

export interface PublisherWiring {
  readonly clock: Clock;
  readonly writer: KinesisWriter;
  readonly region: string;
  readonly log: (level: 'warn' | 'error', message: string) => void;
}

/**
 * Where a destination keeps how far it has written, across restarts (a data directory's
 * checkpoint store): the commit time of the last change Kinesis took.
 */
export interface PublisherPosition {
  get(): number | undefined;
  set(writtenThrough: number): void;
}

/**
 * Writes one table's changes to its Kinesis destination (docs/kinesis-destinations.md §3): a
 * registered reader of the table's internal feed, so a change is held until Kinesis took it. A
 * PutRecords call carries at most one change per item, so a record Kinesis refuses is written
 * again before any later change of its item: every item's changes arrive in commit order, at
 * least once. Started when the destination is enabled (changes from then on wait for ACTIVE);
 * `stopAfterCurrent` (a Disable) writes what was committed so far and stops.
 */
export class DestinationPublisher {
  private readonly reader: InternalReader;
  private readonly salt = newSalt();
  private busy = false;
  /** Waiting out a back-off on the engine's clock (a virtual one moves only when a test moves it). */
  private backingOff = false;
  private closed = false;
  /** Feed position after which nothing more is written (set by a Disable). */
  private stopAt: number | undefined;
  private readonly unsubscribe: () => void;
  /** Records sent and refusals met, for `eddy`'s log and the tests. */
  readonly counts = { records: 0, calls: 0, retries: 0, dropped: 0 };
  /**
   * While a data directory is recovered: the changes its log replays are gathered, none written
   * until `release` says how far the last run wrote.
   */
  private held: boolean;
  /** Changes committed before this time were written by a previous run (`release`). */
  private writtenBefore: number | undefined;
  private position: PublisherPosition | undefined;

  constructor(
    feed: InternalFeed,
    private destination: KinesisDestination,
    private readonly streamName: string,
    private readonly wiring: PublisherWiring,
    private readonly onClosed: () => void,
    held = false,
  ) {
    this.held = held;
    this.reader = feed.register('LATEST');
    this.unsubscribe = this.reader.onAvailable(() => this.wake());
  }

  /** Whether changes may be written now (not while ENABLING). */
  private get writing(): boolean {
    const status = this.destination.status;
    return status === 'ACTIVE' || status === 'UPDATING' || this.stopAt !== undefined;
  }

  /**
   * Starts writing after a recovery: what the previous run wrote (changes committed before the
   * time `position` holds) is skipped, the rest written, and the position kept from now on. The
   * changes of the last millisecond written may be written twice: at least once.
   */
  release(position: PublisherPosition | undefined): void {
    this.position = position;
    const writtenThrough = position?.get();
    if (this.held && writtenThrough !== undefined) this.writtenBefore = writtenThrough;
    this.held = false;
    this.wake();
  }

  /**
   * Follows the destination's entry as the table now holds it: a data directory's replay puts
   * a new entry in place at every table record it replays.
   */
  follows(destination: KinesisDestination): void {
    this.destination = destination;
  }

  /** Whether changes wait to be written (or are in flight). */
  get unsent(): boolean {
    return !this.closed && (this.busy || this.remaining() > 0);
  }

  /** Whether nothing is waiting to be written or in flight. */
  get idle(): boolean {
    if (this.held || this.backingOff) return true;
    return !this.busy && (this.closed || !this.writing || this.remaining() === 0);
  }

  private remaining(): number {
    const end = this.stopAt ?? this.reader.feed.log.end;
    return Math.max(0, end - this.reader.position);
  }

  /** A Disable: write what was committed until now, then stop. */
  stopAfterCurrent(): void {
    this.stopAt ??= this.reader.feed.log.end;
    this.wake();
  }

  /** Looks for work (changes arrived, the destination turned ACTIVE). */
  wake(): void {
    if (this.busy || this.closed || this.held) return;
    if (!this.writing) return;
    void this.pump();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.reader.close();
    this.onClosed();
  }

  private async pump(): Promise<void> {
    this.busy = true;
    try {
      while (!this.closed && this.writing) {
        const batch = this.nextBatch();
        if (batch === undefined) break;
        if (batch.records.length > 0) await this.send(batch.records);
        if (this.closed) return;
        this.reader.commit(batch.lastOrdinal);
        if (batch.lastAt !== undefined) this.position?.set(batch.lastAt);
      }
    } catch (error) {
      this.wiring.log('error', `kinesis destination ${this.destination.streamArn}: ${String(error)}`);
    } finally {
      this.busy = false;
    }
    if (this.closed) return;
    const finished = this.stopAt !== undefined && this.reader.position >= this.stopAt;
    if (finished || this.reader.done) this.close();
    else if (this.writing && this.remaining() > 0) this.wake();
  }

  /**
   * The next PutRecords batch from the reader's position: up to 500 records and 5 MiB, ending
   * before a second change of an item already in it (what is not taken is read again next time).
   */
  private nextBatch():
    | { records: OutgoingRecord[]; lastOrdinal: number; lastAt: number | undefined }
    | undefined {
    const limit = Math.min(PUT_RECORDS_LIMITS.records, this.remaining());
    if (limit === 0) return undefined;
    const changes = this.reader.read(limit);
    const precision = this.destination.precision ?? 'MILLISECOND';
    const options = { region: this.wiring.region, precision, salt: this.salt };
    const records: OutgoingRecord[] = [];
    const items = new Set<string>();
    let bytes = 0;
    let lastOrdinal = changes[0]!.ordinal - 1;
    let lastAt: number | undefined;
    for (const { ordinal, event } of changes) {
      if (this.writtenBefore !== undefined && event.at < this.writtenBefore) {
        // Replayed from the log, and written by the run before the restart.
        lastOrdinal = ordinal;
        continue;
      }
      if (items.has(event.itemKey)) {
        this.reader.seek(ordinal);
        break;
      }
      const data = Buffer.from(kinesisRecordText(event, options), 'utf8');
      const partitionKey = partitionKeyOf(event);
      const size = data.length + partitionKey.length;
      if (size > PUT_RECORDS_LIMITS.recordBytes) {
        // Both images of a 400 KB item in DynamoDB JSON can pass Kinesis's 1 MiB: such a change
        // cannot be written at all. Said in the log, and skipped.
        this.counts.dropped++;
        this.wiring.log(
          'error',
          `kinesis destination ${this.destination.streamArn}: a change of ${event.table.tableName} is ${size} bytes as a record, past Kinesis's 1 MiB; not written`,
        );
        lastOrdinal = ordinal;
        lastAt = event.at;
        continue;
      }
      if (bytes + size > PUT_RECORDS_LIMITS.bytes) {
        this.reader.seek(ordinal);
        break;
      }
      items.add(event.itemKey);
      bytes += size;
      records.push({ data, partitionKey });
      lastOrdinal = ordinal;
      lastAt = event.at;
    }
    return { records, lastOrdinal, lastAt };
  }

  /** Writes every record, sending again those a PutRecords answer (or a failed call) did not take. */
  private async send(records: OutgoingRecord[]): Promise<void> {
    let pending = records;
    let backoff: number = BACKOFF.first;
    while (pending.length > 0 && !this.closed) {
      this.counts.calls++;
      let failed: OutgoingRecord[];
      let reason: string;
      try {
        const outcomes = await this.wiring.writer.putRecords(this.streamName, pending);
        failed = pending.filter((_, index) => outcomes[index] !== undefined);
        const first = outcomes.find((outcome) => outcome !== undefined);
        reason = first === undefined ? '' : `${first.errorCode}: ${first.errorMessage}`;
        this.counts.records += pending.length - failed.length;
      } catch (error) {
        failed = pending;
        reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      if (failed.length === 0) return;
      this.counts.retries += failed.length;
      this.wiring.log(
        'warn',
        `kinesis destination ${this.destination.streamArn}: ${failed.length} of ${pending.length} records not written (${reason}); again in ${backoff} ms`,
      );
      pending = failed;
      this.backingOff = true;
      await new Promise<void>((resolve) => this.wiring.clock.setTimeout(resolve, backoff));
      this.backingOff = false;
      backoff = Math.min(backoff * 2, BACKOFF.max);
    }
  }
}
