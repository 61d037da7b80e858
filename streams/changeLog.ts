import type { ChangeEvent } from '../core/changeEvent.js';
import { parseDuration } from '../core/clock.js';
import type { Table } from '../core/store/table.js';
import type { ChangeSource } from './changeSource.js';
import type { InternalFeed } from './internalFeed.js';
import { ShardReaders } from './shardReaders.js';
import type { Stream, StreamSettings } from './stream.js';
import { type StreamRegistry, TableLog } from './tableLog.js';

export interface ChangeLogOptions {
  /**
   * Open shards per stream (default 4). Real streams have one open shard per table partition
   * and a small table has few; 4 keeps DescribeStream short while making sure local code meets
   * the multi-shard facts (no order across items, per-shard iterators, lineage) that a single
   * shard would hide until production.
   */
  shardCount?: number;
  /**
   * Shard rollover period (default `'4h'`, the interval observed on AWS, docs/streams-and-lambda.md §1.4.5).
   */
  rolloverPeriod?: number | string;
  /** Record retention (default `'24h'`, docs/streams-and-lambda.md §1.4.6). */
  retention?: number | string;
  /** Shard iterator lifetime (default `'15m'`, docs/streams-and-lambda.md §1.5.3). */
  iteratorLifetime?: number | string;
}

const attached = new WeakMap<ChangeSource, ChangeLog>();

/**
 * The change log (docs/architecture.md §3): subscribes to the engine's commit port and files every change
 * into the table's internal feed and, while the table's StreamSpecification enables it, its DynamoDB
 * stream. All time comes from the engine clock.
 *
 * Attach it before the first write (the host does at startup): changes committed before it
 * existed are in no stream.
 *
 * @example
 * ```ts
 * const engine = new Engine();
 * const changeLog = ChangeLog.attach(engine);
 * engine.execute('CreateTable', { ...table, StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } });
 * engine.execute('PutItem', { TableName: 'Orders', Item: { id: { S: '1' } } });
 * changeLog.tableStream('000000000000', 'us-east-1', 'Orders')?.log.size; // 1
 * ```
 */
export class ChangeLog implements StreamRegistry {
  readonly settings: StreamSettings;
  readonly iteratorLifetimeMs: number;
  /** Who reads each shard, for the simultaneous-reader limit (docs/capacity.md §5.1). */
  readonly readers: ShardReaders;
  private readonly tables = new Map<string, TableLog>();
  private readonly streams = new Map<string, Stream>();
  private readonly detach: () => void;
  private readonly detachTables: () => void;

  /** The change log of `source`, created (and subscribed) on first use. */
  static attach(source: ChangeSource, options?: ChangeLogOptions): ChangeLog {
    let log = attached.get(source);
    if (log === undefined) {
      log = new ChangeLog(source, options);
      attached.set(source, log);
    }
    return log;
  }

  constructor(
    readonly source: ChangeSource,
    options: ChangeLogOptions = {},
  ) {
    const shardCount = options.shardCount ?? 4;
    if (!Number.isInteger(shardCount) || shardCount < 1)
      throw new RangeError('shardCount must be a positive integer');
    this.settings = {
      shardCount,
      rolloverMs: positive(options.rolloverPeriod ?? '4h', 'rolloverPeriod'),
      retentionMs: positive(options.retention ?? '24h', 'retention'),
    };
    this.iteratorLifetimeMs = positive(options.iteratorLifetime ?? '15m', 'iteratorLifetime');
    this.readers = new ShardReaders(source);
    this.detach = source.onCommit((event) => this.onCommit(event));
    this.detachTables = source.onTableChange?.(() => this.reconcile()) ?? (() => {});
  }

  /**
   * Forgets every stream and feed, as a new change log would hold none, and keeps listening (the
   * test kit's `reset`, after `Engine.reset`).
   */
  reset(): void {
    this.tables.clear();
    this.streams.clear();
    this.readers.clear();
  }

  private closeListeners = new Set<() => void>();
  private isClosed = false;

  /** Whether `close` was called: nothing more will be filed. */
  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Stops listening to commits (streams stay readable) and tells live readers (`changes$`) that
   * nothing more will come, so they complete once they have delivered what is filed.
   */
  close(): void {
    this.detach();
    this.detachTables();
    if (attached.get(this.source) === this) attached.delete(this.source);
    if (this.isClosed) return;
    this.isClosed = true;
    const listeners = [...this.closeListeners];
    this.closeListeners.clear();
    for (const listener of listeners) listener();
  }

  /** Calls `listener` once when the log closes; returns the unsubscribe function. */
  onClose(listener: () => void): () => void {
    if (this.isClosed) {
      listener();
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  now(): number {
    return this.source.clock.now();
  }

  /** The commit listener: the per-write cost of streams. */
  private onCommit(event: ChangeEvent): void {
    let tableLog = this.tables.get(event.table.tableId);
    if (tableLog === undefined) tableLog = this.adopt(event);
    if (tableLog.stale) tableLog.sync(event.at);
    tableLog.current?.append(event);
    tableLog.internal.append(event);
  }

  private adopt(event: ChangeEvent): TableLog {
    const ref = event.table;
    const table = this.source.region(ref.accountId, ref.region).tables.get(ref.tableName);
    const tableLog = new TableLog(ref, table?.tableId === ref.tableId ? table : undefined, this);
    this.tables.set(ref.tableId, tableLog);
    return tableLog;
  }

  private tableLogOf(table: Table, accountId: string, region: string): TableLog {
    let tableLog = this.tables.get(table.tableId);
    if (tableLog === undefined) {
      tableLog = new TableLog(table.ref(accountId, region), table, this);
      this.tables.set(table.tableId, tableLog);
    }
    return tableLog;
  }

  /**
   * Brings every stream in step with the tables and the clock: stream settings changed without
   * writes, deleted tables, rollover, trimming, expiry of disabled streams. Every Streams API
   * call and every reader runs it first, so enabling or disabling takes effect with no writes.
   */
  reconcile(): void {
    const now = this.now();
    const live = new Set<string>();
    for (const region of this.source.allRegions()) {
      for (const table of region.tables.values()) {
        if (table.status === 'DELETING') continue;
        live.add(table.tableId);
        const known = this.tables.get(table.tableId);
        if (known === undefined && table.stream === undefined) continue;
        const tableLog = known ?? this.tableLogOf(table, region.accountId, region.name);
        if (tableLog.stale) tableLog.sync(now);
      }
    }
    for (const [tableId, tableLog] of this.tables) {
      if (live.has(tableId)) continue;
      tableLog.gone(now);
      this.tables.delete(tableId);
    }
    for (const [arn, stream] of this.streams) {
      if (stream.expired(now)) this.streams.delete(arn);
      else stream.maintain(now);
    }
  }

  /** A stream by ARN (after `reconcile`, so expired streams are gone). */
  stream(arn: string): Stream | undefined {
    this.reconcile();
    return this.streams.get(arn);
  }

  /** Every retained stream of an account and region, by ARN order. */
  listStreams(accountId: string, region: string): Stream[] {
    this.reconcile();
    const list: Stream[] = [];
    for (const stream of this.streams.values())
      if (stream.accountId === accountId && stream.region === region) list.push(stream);
    return list.sort((a, b) => (a.arn < b.arn ? -1 : a.arn > b.arn ? 1 : 0));
  }

  /** The table's enabled stream, if any. */
  tableStream(accountId: string, region: string, tableName: string): Stream | undefined {
    this.reconcile();
    const table = this.source.region(accountId, region).tables.get(tableName);
    if (table === undefined) return undefined;
    return this.tables.get(table.tableId)?.current;
  }

  /**
   * The internal feed of a table (always there, whatever its StreamSpecification).
   * @throws Error when the table does not exist.
   */
  internalFeed(accountId: string, region: string, tableName: string): InternalFeed {
    const table = this.source.region(accountId, region).tables.get(tableName);
    if (table === undefined) throw new Error(`No table ${tableName} in ${accountId}/${region}`);
    return this.tableLogOf(table, accountId, region).internal;
  }

  /** Every retained stream, enabled or not (persistence saves them all). */
  retainedStreams(): Stream[] {
    return [...this.streams.values()];
  }

  /**
   * Puts back streams a data directory kept (`new Stream(init, settings, restored)`), then
   * reconciles: each table whose enabled stream setting names one of them adopts it as its
   * current stream instead of starting a new one.
   */
  restoreStreams(streams: readonly Stream[]): void {
    for (const stream of streams) this.streams.set(stream.arn, stream);
    this.reconcile();
  }

  /** @internal StreamRegistry */
  streamByArn(arn: string): Stream | undefined {
    return this.streams.get(arn);
  }

  /** @internal StreamRegistry */
  addStream(stream: Stream): void {
    this.streams.set(stream.arn, stream);
  }
}

function positive(duration: number | string, name: string): number {
  const ms = parseDuration(duration);
  if (!(ms > 0)) throw new RangeError(`${name} must be a positive duration`);
  return ms;
}
