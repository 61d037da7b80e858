import { close, closeSync, fdatasync, openSync, writevSync } from 'node:fs';
import { promisify } from 'node:util';
import type { BinaryWriter } from './binary.js';
import { type DataDirectory, syncDirectory } from './dataDirectory.js';
import type { Durability } from './durability.js';
import type { DurableMark } from './durableMark.js';
import { LogWriteError } from './errors.js';
import { newRecordWriter } from './walRecords.js';

const fdatasyncAsync = promisify(fdatasync);
const closeAsync = promisify(close);

export { DURABILITY_MODES, type Durability } from './durability.js';

/** everysec: one fsync a second, as Redis. */
const EVERYSEC_MS = 1000;

/**
 * The mark is rewritten at most this often, this long after the log moved: a 64-byte `pwrite`
 * took 13 µs on the 2-core machine of the README's figures (the log's own append `writev`, 21 µs),
 * too much for every event-loop turn under load. A mark that lags this much only weakens its
 * proof (records written in the last 10 ms before a crash pass for a torn write), never falsifies
 * it (docs/persistence.md §3.1).
 */
const MARK_INTERVAL_MS = 10;

/**
 * ...and fsynced at most once a second, off every answer's path: its version on disk matters only
 * after the machine stops, and an fsync of its own per group commit cost `always` a fifth of its
 * throughput in a WalWriter-only A/B here.
 */
const MARK_SYNC_MS = 1000;

interface Batch {
  readonly bytes: Buffer;
  readonly lastLsn: number;
}
/** Marks where the log moves to a new segment (before a snapshot, so older segments can go). */
const ROTATE = 'rotate';

interface Waiter {
  readonly lsn: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Waiters for an LSN to pass a mark (written, fsynced), released in LSN order. */
class WaiterQueue {
  private readonly waiters: Waiter[] = [];
  private head = 0;

  get size(): number {
    return this.waiters.length - this.head;
  }

  add(lsn: number): Promise<void> {
    return new Promise((resolve, reject) => this.waiters.push({ lsn, resolve, reject }));
  }

  release(upTo: number): void {
    const waiters = this.waiters;
    while (this.head < waiters.length && waiters[this.head]!.lsn <= upTo) waiters[this.head++]!.resolve();
    if (this.head > 1024 && this.head * 2 > waiters.length) {
      waiters.splice(0, this.head);
      this.head = 0;
    }
  }

  rejectAll(error: unknown): void {
    for (let index = this.head; index < this.waiters.length; index++) this.waiters[index]!.reject(error);
    this.waiters.length = 0;
    this.head = 0;
  }
}

export interface WalWriterOptions {
  readonly directory: DataDirectory;
  readonly durability: Durability;
  /** A segment this long is closed and the next one started (default 64 MiB). */
  readonly segmentBytes: number;
  /** LSN of the next record. */
  readonly nextLsn: number;
  /** The last segment to keep appending to (recovery truncated it to its intact records). */
  readonly tail?: { readonly path: string; readonly bytes: number };
  /** Told once when writing fails; every later wait fails too. */
  readonly onError: (error: LogWriteError) => void;
  /**
   * The log's mark, rewritten and fsynced within `MARK_INTERVAL_MS` of the log moving, never on
   * an answer's path: recovery's proof of what was written.
   */
  readonly mark?: DurableMark;
}

/**
 * Appends records to the log. The engine's thread encodes records into a buffer as changes
 * commit (a few microseconds each); at the end of the event-loop turn one `writev` hands the
 * turn's records to the OS (microseconds: the page cache), and fsyncs run on libuv's thread pool,
 * one at a time, each covering everything written before it started.
 */
export class WalWriter {
  /** LSN of the last record appended, written, fsynced. */
  appendedLsn: number;
  writtenLsn: number;
  durableLsn: number;
  /** Bytes appended since the last `cut()` (what a snapshot would make unnecessary). */
  bytesSinceCut = 0;
  /** How many writes and fsyncs ran (group commit: requests per fsync, in the bench). */
  writes = 0;
  fsyncs = 0;
  /** The records not yet handed to the write. */
  readonly records: BinaryWriter = newRecordWriter();
  private readonly batches: (Batch | typeof ROTATE)[] = [];
  private fd: number;
  private segmentPath: string;
  private segmentBytes: number;
  /** Segments ended but not yet fsynced and closed (the next fsync does it). */
  private readonly ended: number[] = [];
  private readonly written = new WaiterQueue();
  private readonly synced = new WaiterQueue();
  private scheduled = false;
  private syncing: Promise<void> | undefined;
  private syncDue = false;
  private failure: LogWriteError | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** An fsync of the mark under way. */
  private markSyncing: Promise<void> | undefined;
  /** Set while a rewrite of the mark is due (`MARK_INTERVAL_MS`). */
  private markTimer: NodeJS.Timeout | undefined;
  /** Fsyncs the mark when it changed (`MARK_SYNC_MS`). */
  private markSyncTimer: NodeJS.Timeout | undefined;
  /** Set by `close`: the mark gets its last version there, and no timer may touch its fd after. */
  private closing = false;

  constructor(private readonly options: WalWriterOptions) {
    this.appendedLsn = this.writtenLsn = this.durableLsn = options.nextLsn - 1;
    this.segmentPath = options.tail?.path ?? options.directory.segmentPath(options.nextLsn);
    this.fd = openSync(this.segmentPath, 'a');
    this.segmentBytes = options.tail?.bytes ?? 0;
    if (options.tail === undefined) syncDirectory(options.directory.walDir);
    if (options.durability === 'everysec') {
      this.timer = setInterval(() => {
        if (this.appendedLsn > this.durableLsn) {
          this.syncDue = true;
          this.schedule();
        }
      }, EVERYSEC_MS);
      this.timer.unref();
    }
    if (options.mark !== undefined) {
      this.markSyncTimer = setInterval(() => this.syncMark(), MARK_SYNC_MS);
      this.markSyncTimer.unref();
    }
  }

  get durability(): Durability {
    return this.options.durability;
  }

  /** The error that stopped the log, if any. */
  get failed(): LogWriteError | undefined {
    return this.failure;
  }

  /** The LSN the next record gets (the caller writes it into `records`, then calls `appended`). */
  nextLsn(): number {
    return this.appendedLsn + 1;
  }

  /** Records that the record `lsn` (of `bytes` bytes) was written into `records`. */
  appended(lsn: number, bytes: number): void {
    this.appendedLsn = lsn;
    this.bytesSinceCut += bytes;
    // A failed log keeps nothing: memory would only grow (the failure is reported once).
    if (this.failure !== undefined) this.records.offset = 0;
    else this.schedule();
  }

  /** Resolves once every record up to `lsn` is written to the OS (survives a crash of eddy). */
  whenWritten(lsn: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (lsn <= this.writtenLsn) return Promise.resolve();
    return this.written.add(lsn);
  }

  /** Resolves once every record up to `lsn` is fsynced (survives a crash of the machine). */
  durable(lsn: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (lsn <= this.durableLsn) return Promise.resolve();
    const promise = this.synced.add(lsn);
    this.schedule();
    return promise;
  }

  /** Writes and fsyncs everything appended so far. */
  flush(): Promise<void> {
    return this.durable(this.appendedLsn);
  }

  /**
   * Ends the current segment after the records appended so far: the next record starts a new
   * segment named by its LSN. Returns the number of bytes appended since the previous cut.
   */
  cut(): number {
    this.takeRecords();
    this.batches.push(ROTATE);
    this.schedule();
    const bytes = this.bytesSinceCut;
    this.bytesSinceCut = 0;
    return bytes;
  }

  /** Writes, fsyncs and closes. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.closing = true;
    if (this.markTimer !== undefined) clearTimeout(this.markTimer);
    if (this.markSyncTimer !== undefined) clearInterval(this.markSyncTimer);
    const mark = this.options.mark;
    try {
      if (this.failure === undefined) await this.flush();
      await this.syncing;
      await this.markSyncing;
      if (this.failure === undefined && mark !== undefined) {
        mark.record(this.writtenLsn, this.durableLsn);
        await mark.sync();
      }
    } finally {
      for (const fd of this.ended.splice(0)) closeSync(fd);
      closeSync(this.fd);
      mark?.close();
    }
  }

  private takeRecords(): void {
    if (this.records.offset === 0) return;
    this.batches.push({ bytes: this.records.take(), lastLsn: this.appendedLsn });
  }

  private schedule(): void {
    if (this.scheduled || this.failure !== undefined) return;
    this.scheduled = true;
    // setImmediate: every request handled in this event-loop turn joins the batch, and the
    // answers (waiting on `whenWritten`) go out right after the write.
    setImmediate(() => {
      this.scheduled = false;
      this.writeOut();
    });
  }

  /** Writes every pending batch (synchronously), then starts an fsync if one is due. */
  private writeOut(): void {
    try {
      this.takeRecords();
      for (const batch of this.batches.splice(0)) {
        if (batch === ROTATE) this.rotate();
        else {
          writeFully(this.fd, batch.bytes);
          this.writes++;
          this.segmentBytes += batch.bytes.length;
          this.writtenLsn = batch.lastLsn;
          if (this.segmentBytes >= this.options.segmentBytes) this.rotate();
        }
      }
    } catch (error) {
      this.fail(error);
      return;
    }
    this.written.release(this.writtenLsn);
    this.markMoved();
    const due = this.options.durability === 'always' || this.syncDue || this.synced.size > 0;
    if (due && this.syncing === undefined && this.durableLsn < this.writtenLsn) this.syncing = this.sync();
    else if (this.synced.size > 0) this.synced.release(this.durableLsn);
  }

  /** Fsyncs until everything written is durable; records written meanwhile join the next fsync. */
  private async sync(): Promise<void> {
    try {
      while (this.durableLsn < this.writtenLsn && this.failure === undefined) {
        this.syncDue = false;
        const target = this.writtenLsn;
        const ended = this.ended.splice(0);
        await Promise.all([
          fdatasyncAsync(this.fd),
          ...ended.map((fd) => fdatasyncAsync(fd).then(() => closeAsync(fd))),
        ]);
        this.fsyncs++;
        this.durableLsn = target;
        this.markMoved();
        this.synced.release(target);
        if (this.options.durability !== 'always' && this.synced.size === 0 && !this.syncDue) break;
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.syncing = undefined;
    }
  }

  /**
   * The log moved (written or fsynced further): the mark is rewritten within `MARK_INTERVAL_MS`,
   * with what is true then; it is only ever rewritten after what it claims happened.
   */
  private markMoved(): void {
    if (this.options.mark === undefined || this.markTimer !== undefined || this.failure !== undefined) return;
    if (this.closing) return;
    this.markTimer = setTimeout(() => {
      this.markTimer = undefined;
      if (this.failure !== undefined) return;
      try {
        this.options.mark!.record(this.writtenLsn, this.durableLsn);
      } catch (error) {
        this.fail(error);
      }
    }, MARK_INTERVAL_MS);
    this.markTimer.unref();
  }

  /** Fsyncs the mark's last version if it claims more than the one on disk (one at a time). */
  private syncMark(): void {
    const mark = this.options.mark;
    if (mark === undefined || this.failure !== undefined || this.markSyncing !== undefined) return;
    if (this.closing || mark.durableLsn <= mark.syncedDurableLsn) return;
    this.markSyncing = mark.sync().then(
      () => {
        this.markSyncing = undefined;
      },
      (error: unknown) => {
        this.markSyncing = undefined;
        this.fail(error);
      },
    );
  }

  /** Starts the next segment, named by the LSN its first record will have. */
  private rotate(): void {
    if (this.segmentBytes === 0) return;
    // The ended segment must be durable before anything after it is: the next fsync does both,
    // in every mode (even `no`: a segment cut short before a later one would be a hole that
    // stops recovery, not just lost writes). Segments end every 64 MiB or snapshot: rare.
    this.ended.push(this.fd);
    this.syncDue = true;
    this.segmentPath = this.options.directory.segmentPath(this.writtenLsn + 1);
    this.fd = openSync(this.segmentPath, 'a');
    this.segmentBytes = 0;
    syncDirectory(this.options.directory.walDir);
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = new LogWriteError(this.segmentPath, { cause: error });
    this.written.rejectAll(this.failure);
    this.synced.rejectAll(this.failure);
    this.records.offset = 0;
    this.batches.length = 0;
    this.options.onError(this.failure);
  }
}

/** writev until every byte is written (a file write may be short). */
function writeFully(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writevSync(fd, [bytes.subarray(offset)]);
}
