import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeEvent } from '../../core/changeEvent.js';
import { parseDuration } from '../../core/clock.js';
import type { Engine, TableChange } from '../../core/engine.js';
import type { RequestContext } from '../../core/operation.js';
import type { CheckpointMap, CheckpointStore } from '../../core/persistence/checkpointStore.js';
import type { Region, TransactionToken } from '../../core/store/region.js';
import { ChangeLog } from '../../streams/changeLog.js';
import { useIteratorSecret } from '../../streams/streamsApi/shardIterator.js';
import { LoggedCheckpointStore } from './checkpoints.js';
import { DataDirectory, syncFile } from './dataDirectory.js';
import { DurableMark } from './durableMark.js';
import type { LogWriteError } from './errors.js';
import { iteratorKeyOf } from './iteratorKey.js';
import { completeTransitions } from './lifecycle.js';
import { logLogFailure, logRecovery, type PersistenceLogger } from './persistenceLog.js';
import { type RecoveryReport, recover } from './recovery.js';
import { ReplayableClock } from './replayableClock.js';
import { redeliverAfterRecovery } from './replicationRecovery.js';
import { SnapshotJob, type SnapshotResult } from './snapshotWriter.js';
import { tableDefinition } from './tableCodec.js';
import {
  type TokenEntry,
  writeCheckpointRecord,
  writeCommitRecord,
  writeTableRecord,
  writeTokenRecord,
} from './walRecords.js';
import { type Durability, WalWriter } from './walWriter.js';

export type { PersistenceLogger } from './persistenceLog.js';

export interface PersistenceOptions {
  /** The data directory (created when missing). */
  readonly dataDir: string;
  /** When a write is durable (default `everysec`, see `Durability`). */
  readonly durability?: Durability;
  /** The change log whose streams are kept (default: `ChangeLog.attach(engine)`). */
  readonly changeLog?: ChangeLog;
  /** A log segment this long is closed and another started (default 64 MiB). */
  readonly segmentBytes?: number;
  /** Snapshot once this much log was written since the last one (default 64 MiB). */
  readonly snapshotLogBytes?: number;
  /** ...and at least this often while writes happen (default `'1h'`). */
  readonly snapshotInterval?: number | string;
  /** Snapshot at `close()` so the next start reads no log (default true). */
  readonly snapshotOnClose?: boolean;
  /**
   * Start even when the log lost records it had written (`--accept-data-loss`): keep its longest
   * whole prefix, move the rest to `<dataDir>/damaged/` (default false: refuse, naming the damage).
   */
  readonly acceptDataLoss?: boolean;
  readonly logger?: PersistenceLogger;
  /** Runs after the snapshot is loaded and before the log is replayed (`RecoveryOptions`). */
  readonly beforeReplay?: () => void;
}

/** Why the data directory cannot keep changes any more, for the health check. */
export interface PersistenceProblem {
  readonly reason: string;
  /** The error every waiting call is rejected with (logged once, when it happened). */
  readonly error: LogWriteError;
}

const MIB = 1024 * 1024;
const SILENT: PersistenceLogger = { info() {}, warn() {}, error() {} };

interface PendingCommit {
  readonly commitId: number;
  readonly events: ChangeEvent[];
  readonly tokens: TokenEntry[];
}

/**
 * A data directory under a running engine (issue #10): every change goes to a write-ahead log
 * as it commits, snapshots bound the log, and `open` rebuilds the engine, its streams and the
 * mappings' checkpoints from them. The engine stays in memory and synchronous; only answers wait
 * (`afterCall`): for the end-of-turn log write, and under `always` for its fsync too.
 *
 * @example
 * ```ts
 * const engine = new Engine({ clock: new ReplayableClock() });
 * const streams = new StreamsService(engine);
 * const persistence = await Persistence.open(engine, { dataDir: './.eddy', durability: 'always' });
 * const server = new EddyServer({ engine, port: 8000, afterCall: persistence.afterCall });
 * server.registerService(streams.protocol);
 * await server.listen();
 * // ...
 * await server.close();
 * await persistence.close();
 * ```
 */
export class Persistence {
  readonly checkpoints: CheckpointStore;
  readonly durability: Durability;
  private readonly checkpointMap: CheckpointMap = new Map();
  private wal!: WalWriter;
  private pending: PendingCommit | undefined;
  private sealQueued = false;
  private job: SnapshotJob | undefined;
  private snapshotting: Promise<SnapshotResult | undefined> | undefined;
  private lastSnapshotLsn = 0;
  private readonly loggedTokens = new WeakSet<object>();
  private readonly hookedRegions = new Set<string>();
  private readonly detach: (() => void)[] = [];
  private readonly snapshotListeners: ((lsn: number) => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed: Promise<void> | undefined;
  private recovered!: RecoveryReport;
  private readonly logger: PersistenceLogger;
  private readonly snapshotLogBytes: number;

  private constructor(
    readonly engine: Engine,
    readonly changeLog: ChangeLog,
    readonly directory: DataDirectory,
    private readonly options: PersistenceOptions,
  ) {
    this.durability = options.durability ?? 'everysec';
    this.logger = options.logger ?? SILENT;
    this.snapshotLogBytes = options.snapshotLogBytes ?? 64 * MIB;
    this.checkpoints = new LoggedCheckpointStore(this.checkpointMap, (mappingId, shardId, sequence) =>
      this.logCheckpoint(mappingId, shardId, sequence),
    );
  }

  /**
   * Takes the data directory's lock, recovers the engine's state from it, and starts logging.
   * Call it on a fresh engine (no tables), with its change log attached, before serving.
   * @throws DataDirectoryLockedError, CorruptDataError, IncompleteDataError (nothing is loaded).
   */
  static async open(engine: Engine, options: PersistenceOptions): Promise<Persistence> {
    if (!(engine.clock instanceof ReplayableClock))
      throw new TypeError('Persistence needs an engine built with `clock: new ReplayableClock(...)`');
    for (const region of engine.allRegions())
      if (region.tables.size > 0)
        throw new TypeError(
          'Persistence.open needs an engine without tables: it loads them from the data directory',
        );
    const directory = DataDirectory.open(options.dataDir);
    const changeLog = options.changeLog ?? ChangeLog.attach(engine);
    const persistence = new Persistence(engine, changeLog, directory, options);
    try {
      persistence.start(engine.clock);
    } catch (error) {
      directory.release();
      throw error;
    }
    return persistence;
  }

  /** What recovery found and did. */
  get recovery(): RecoveryReport {
    return this.recovered;
  }

  /**
   * Why changes can no longer be kept (a log write or fsync failed: disk full, EFBIG, EIO), or
   * undefined while all is well. Every call waiting on the log fails from then on, until a restart.
   */
  get problem(): PersistenceProblem | undefined {
    const error = this.wal.failed;
    if (error === undefined) return undefined;
    return { reason: `${error.message}; every call fails until eddy restarts`, error };
  }

  /** LSNs of the last record appended and of the last one fsynced. */
  get appendedLsn(): number {
    return this.wal.appendedLsn;
  }
  get durableLsn(): number {
    return this.wal.durableLsn;
  }

  /** Log writes and fsyncs so far (requests per fsync shows group commit at work). */
  get stats(): { writes: number; fsyncs: number } {
    return { writes: this.wal.writes, fsyncs: this.wal.fsyncs };
  }

  /**
   * Calls `listener` as a snapshot of `lsn` starts, while the state is the snapshot's: components
   * with files of their own save what goes with it (docs/backups.md §8).
   */
  onSnapshot(listener: (lsn: number) => void): void {
    this.snapshotListeners.push(listener);
  }

  /** A path in the data directory for other components' files (its parent directory exists). */
  resolve(...parts: string[]): string {
    return this.directory.resolve(...parts);
  }

  /**
   * Where on-failure destination queues live (`<dataDir>/destinations`, created): pass it as
   * `new LocalDestinations({ directory })`. Their JSON lines files are written and fsynced by
   * the queues themselves, not through the log.
   */
  get destinationsDir(): string {
    const path = join(this.directory.path, 'destinations');
    mkdirSync(path, { recursive: true });
    return path;
  }

  private start(clock: ReplayableClock): void {
    // Before recovery: the streams it restores are read with iterators signed by this key.
    useIteratorSecret(this.changeLog, iteratorKeyOf(this.directory.path, this.logger));
    this.recovered = recover(
      {
        directory: this.directory,
        engine: this.engine,
        clock,
        changeLog: this.changeLog,
        checkpoints: this.checkpointMap,
      },
      {
        acceptDataLoss: this.options.acceptDataLoss === true,
        ...(this.options.beforeReplay === undefined ? {} : { beforeReplay: this.options.beforeReplay }),
      },
    );
    logRecovery(this.logger, this.recovered);
    const { lastLsn, tail, snapshotLsn } = this.recovered;
    this.lastSnapshotLsn = snapshotLsn;
    // What was recovered may sit in the page cache only (a crash of eddy alone): fsynced now, so
    // the fresh mark's claim is true from the start.
    for (const segment of this.directory.segments()) syncFile(segment.path);
    this.wal = new WalWriter({
      directory: this.directory,
      durability: this.durability,
      segmentBytes: this.options.segmentBytes ?? 64 * MIB,
      nextLsn: lastLsn + 1,
      tail,
      mark: new DurableMark(this.directory.markPath, lastLsn),
      onError: (error: LogWriteError) => logLogFailure(this.logger, error),
    });
    this.wal.bytesSinceCut = tail?.bytes ?? 0;
    for (const region of this.engine.allRegions()) this.hookTokens(region);
    this.detach.push(this.engine.onCommit((event) => this.onCommit(event)));
    this.detach.push(this.engine.onTableChange((change) => this.onTableChange(change)));
    completeTransitions(this.engine);
    // Replicated writes a kill cut short go out again, now that commits are logged.
    const redelivered = redeliverAfterRecovery(this.engine);
    if (redelivered > 0)
      this.logger.info(
        { deliveries: redelivered },
        'global tables: replicated writes sent again after a restart',
      );
    const interval = parseDuration(this.options.snapshotInterval ?? '1h');
    this.timer = setInterval(() => void this.snapshotQuietly(), interval);
    this.timer.unref();
    this.logger.info({ dataDir: this.directory.path, ...this.recovered }, 'data directory recovered');
  }

  /**
   * The host's hook, run after every API call and before its answer (`PipelineOptions.afterCall`):
   * logs what the engine does not announce, then waits (`acknowledge`) until the log holds
   * everything the answer may reflect, reads included: an answer never shows what a crash could
   * take back.
   */
  readonly afterCall = (
    target: string,
    input: Record<string, unknown>,
    context: RequestContext,
  ): Promise<void> | undefined => {
    const remembersToken =
      target === 'DynamoDB_20120810.TransactWriteItems' || target === 'DynamoDB_20120810.ExecuteTransaction';
    if (remembersToken && typeof input.ClientRequestToken === 'string') {
      // Regions are hooked on their first commit; a transaction that changed nothing in a region
      // never written before is caught here.
      const region = this.engine.region(context.accountId, context.region);
      const entry = region.transactionTokens.get(input.ClientRequestToken);
      if (entry !== undefined) this.logToken(region, input.ClientRequestToken, entry);
      // A region that holds nothing is not kept by the engine: hooking it would mark its name
      // hooked while the region later kept is another object.
      if (region.holdsSomething) this.hookTokens(region);
    }
    return this.acknowledge();
  };

  /**
   * Seals pending records and returns what an answer must wait for: everything appended so far
   * written to the OS (surviving a crash of eddy), and under `always` fsynced too (surviving a
   * crash of the machine); undefined when that is already so. Rejects when the log failed.
   */
  acknowledge(): Promise<void> | undefined {
    this.seal();
    const wal = this.wal;
    if (wal.failed !== undefined) return Promise.reject(wal.failed);
    if (this.durability === 'always')
      return wal.appendedLsn <= wal.durableLsn ? undefined : wal.durable(wal.appendedLsn);
    return wal.appendedLsn <= wal.writtenLsn ? undefined : wal.whenWritten(wal.appendedLsn);
  }

  /** Writes and fsyncs everything so far, whatever the durability mode. */
  flush(): Promise<void> {
    this.seal();
    return this.wal.flush();
  }

  /**
   * Takes a snapshot now (one at a time: a call during a snapshot gets that one). Resolves with
   * what was written, or undefined when nothing changed since the last one.
   */
  snapshot(): Promise<SnapshotResult | undefined> {
    this.snapshotting ??= this.takeSnapshot().finally(() => {
      this.snapshotting = undefined;
    });
    return this.snapshotting;
  }

  /** Stops: a last snapshot (unless disabled), the log flushed and closed, the lock released. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      if (this.timer !== undefined) clearInterval(this.timer);
      try {
        await this.snapshotting?.catch(() => undefined);
        // A clean stop delivers what waits for the replication lag, so the log holds it: the
        // snapshot seals those commits first, and the seal below does when there is none.
        if (this.wal.failed === undefined) this.engine.replication.flush();
        if (this.options.snapshotOnClose !== false && this.wal.failed === undefined) await this.snapshot();
        this.seal();
        for (const detach of this.detach) detach();
        await this.wal.close();
      } finally {
        this.directory.release();
      }
    })();
    return this.closed;
  }

  private onCommit(event: ChangeEvent): void {
    this.job?.onCommit(event);
    let pending = this.pending;
    if (pending !== undefined && pending.commitId !== event.commitId) {
      this.seal();
      pending = undefined;
    }
    if (pending === undefined) {
      if (!this.hookedRegions.has(`${event.table.accountId}/${event.table.region}`))
        this.hookTokens(this.engine.region(event.table.accountId, event.table.region));
      pending = { commitId: event.commitId, events: [], tokens: [] };
      this.pending = pending;
      if (!this.sealQueued) {
        this.sealQueued = true;
        // A commit's events come out together, synchronously: the group is whole by the next
        // microtask, before any I/O could run.
        queueMicrotask(() => {
          this.sealQueued = false;
          this.seal();
        });
      }
    }
    pending.events.push(event);
  }

  /** Writes the pending commit group as one record. */
  private seal(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    this.append((records, lsn) => writeCommitRecord(records, lsn, pending.events, pending.tokens));
  }

  private onTableChange({ region, table, kind }: TableChange): void {
    this.seal();
    const at = this.engine.clock.now();
    const definition = tableDefinition(table);
    this.append((records, lsn) =>
      writeTableRecord(records, lsn, at, region.accountId, region.name, kind, definition),
    );
  }

  /** Logs every token the region remembers from now on. */
  private hookTokens(region: Region): void {
    const key = `${region.accountId}/${region.name}`;
    if (this.hookedRegions.has(key)) return;
    this.hookedRegions.add(key);
    region.transactionTokens.onRemember = (token, entry) => this.logToken(region, token, entry);
  }

  private logToken(region: Region, token: string, entry: TransactionToken): void {
    if (this.loggedTokens.has(entry)) return;
    this.loggedTokens.add(entry);
    const logged: TokenEntry = { token, fingerprint: entry.fingerprint, completedAt: entry.completedAt };
    // TransactWriteItems remembers its token right after its commit, in the same call: the
    // commit is still pending, so both go in one record: durable together, or not at all.
    if (this.pending !== undefined) this.pending.tokens.push(logged);
    else this.append((records, lsn) => writeTokenRecord(records, lsn, region.accountId, region.name, logged));
  }

  private logCheckpoint(mappingId: string, shardId: string | undefined, sequence: string | undefined) {
    this.seal();
    const lsn = this.append((records, at) =>
      writeCheckpointRecord(records, at, mappingId, shardId, sequence),
    );
    return this.durability === 'always' ? this.wal.durable(lsn) : this.wal.whenWritten(lsn);
  }

  private append(write: (records: WalWriter['records'], lsn: number) => void): number {
    const wal = this.wal;
    const lsn = wal.nextLsn();
    const before = wal.records.offset;
    write(wal.records, lsn);
    wal.appended(lsn, wal.records.offset - before);
    if (wal.bytesSinceCut >= this.snapshotLogBytes && this.snapshotting === undefined)
      setImmediate(() => void this.snapshotQuietly());
    return lsn;
  }

  private async snapshotQuietly(): Promise<void> {
    try {
      await this.snapshot();
    } catch (error) {
      this.logger.error({ err: error }, 'snapshot failed');
    }
  }

  /**
   * Holds snapshots back while `held()` says so: changes a Kinesis destination has not written
   * yet must stay in the log the next start replays (docs/kinesis-destinations.md §3.3).
   */
  holdSnapshotsWhile(held: () => boolean): void {
    this.snapshotsHeld = held;
  }

  private snapshotsHeld: (() => boolean) | undefined;

  private async takeSnapshot(): Promise<SnapshotResult | undefined> {
    if (this.snapshotsHeld?.() === true) return undefined;
    this.seal();
    const lsn = this.wal.appendedLsn;
    if (lsn === this.lastSnapshotLsn) return undefined;
    for (const listener of this.snapshotListeners) listener(lsn);
    const job = new SnapshotJob(
      { engine: this.engine, changeLog: this.changeLog, checkpoints: this.checkpointMap },
      lsn,
    );
    this.job = job;
    this.wal.cut();
    let result: SnapshotResult;
    try {
      result = await job.write(this.directory.snapshotPath(lsn));
    } finally {
      this.job = undefined;
      job.release();
    }
    this.lastSnapshotLsn = lsn;
    this.removeCovered(lsn);
    this.logger.info({ ...result }, 'snapshot written');
    return result;
  }

  /** Deletes older snapshots and the log segments wholly at or before `lsn`. */
  private removeCovered(lsn: number): void {
    for (const snapshot of this.directory.snapshots())
      if (snapshot.lsn < lsn) rmSync(snapshot.path, { force: true });
    const segments = this.directory.segments();
    segments.forEach((segment, index) => {
      const next = segments[index + 1];
      if (next !== undefined && next.lsn <= lsn + 1) rmSync(segment.path, { force: true });
    });
  }
}
