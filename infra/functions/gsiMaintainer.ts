import type { ChangeEvent } from '../../core/changeEvent.js';
import { parseDuration } from '../../core/clock.js';
import type { Engine } from '../../core/engine.js';
import { fillEntries } from '../../core/indexes/globalIndexApplier.js';
import { GlobalIndexWriter } from '../../core/indexes/globalIndexWriter.js';
import type { StoredItem } from '../../core/store/storedItem.js';
import type { SecondaryIndex, Table } from '../../core/store/table.js';
import { createFeedHandler, type FeedEvent } from '../../functions/gsi-maintainer/feedHandler.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import type { EventSourceMapping } from '../../streams/mapping/eventSourceMapping.js';
import { MappingManager } from '../../streams/mapping/manager.js';
import { LocalFunction } from './localFunction.js';

/**
 * The gsi-maintainer as an internal mapping (docs/architecture.md §2.5: indexes are eventually consistent on
 * purpose): for every table with global secondary indexes, a mapping over the table's internal feed
 * (NEW_AND_OLD_IMAGES) runs `functions/gsi-maintainer` with batching, so GSIs follow their table
 * asynchronously, as in DynamoDB. The mapping hands the function the feed's changes as they are (its internal
 * entry point, `feedHandler.ts`: no Lambda record is built per change), and the engine's writer applies them
 * from the stored texts. It also builds the GSIs added to existing tables (`engine.indexes.builder`) from the
 * stored items, with the same entry and projection code (`fillEntries`).
 *
 * Lives in infra (not streams) because it wires a function, the engine's index writer and the
 * mappings together (docs/architecture.md §1.2).
 *
 * @example
 * ```ts
 * const engine = new Engine({ globalIndexes: 'external' });
 * const changeLog = ChangeLog.attach(engine);
 * const gsi = startGsiMaintainer({ engine, changeLog, propagationDelay: [5, 50] });
 * // writes...
 * await engine.settled(); // every GSI has caught up
 * ```
 */
export interface GsiMaintainerOptions {
  /** An engine with `globalIndexes: 'external'`. */
  readonly engine: Engine;
  /** The engine's change log (attached before this is started). */
  readonly changeLog: ChangeLog;
  /** Where the internal mappings live (default: a new manager registered with `engine.settled()`). */
  readonly manager?: MappingManager;
  /** Changes per invocation (default 1000). */
  readonly batchSize?: number;
  /** MaximumBatchingWindowInSeconds (default 0). */
  readonly batchingWindowInSeconds?: number;
  /** Delay before a change reaches the indexes: fixed (ms or `'250ms'`) or a random [min, max] ms. */
  readonly propagationDelay?: number | string | readonly [number, number];
  /** The random source of the delay range (default Math.random). */
  readonly random?: () => number;
  /**
   * How the backfill of a GSI added to an existing table goes (UpdateTable Create): when it
   * starts, about once a second meanwhile, and when it is done.
   */
  readonly onBackfill?: (progress: BackfillProgress) => void;
}

/** The backfill of one new GSI, as `onBackfill` hears of it. */
export interface BackfillProgress {
  readonly tableName: string;
  readonly indexName: string;
  /** Items indexed so far, of `total` (the table's items when the backfill started). */
  readonly done: number;
  readonly total: number;
  /** Real time since the backfill started, ms. */
  readonly elapsedMs: number;
  readonly finished: boolean;
}

/** Least real time between two progress reports of one backfill, ms. */
const BACKFILL_REPORT_INTERVAL_MS = 1000;

/** One index's backlog and lag. */
export interface IndexLag {
  readonly tableName: string;
  readonly indexName: string;
  /** Changes of the table not yet applied. */
  readonly backlog: number;
  /** How far (ms) the oldest unapplied change is behind the clock. */
  readonly lagMs: number;
}

export interface GsiMaintainer {
  readonly manager: MappingManager;
  /** Stops applying changes (they wait in the feed); indexes go stale. */
  pause(): void;
  resume(): void;
  lag(): IndexLag[];
  /** The backfills running now (UpdateTable Create), each with how far it has come. */
  backfills(): BackfillProgress[];
  /** Stops every table's mapping and the builder. */
  close(): void;
}

/**
 * Changes per invocation. Each invocation has a fixed cost (context, timeout timer, middy, the
 * pipeline's per-batch steps) that batches of 1000 spread ten times thinner than batches of 100:
 * PutItem of new items with two GSIs, the maintainer caught up, 100 → 1000 gave 68k → 73k
 * writes/s (medians of 16 processes, alternating; 1000 faster in 12 of the 16 pairs), and a
 * backlog of 100,000 changes (one GSI) was caught up in 356–362 ms instead of 447–481, with the
 * same longest event-loop stall (16–27 ms either way). A batch takes what is waiting, no more: at
 * bench/gsi's paced 20,000 writes/s batches stay small, and lag p99 stayed within its 2 ms target
 * (0.22–1.26 ms over 4 runs, the highest on a loaded machine). When a change cost ~19 µs, the
 * sizes measured alike.
 */
const DEFAULT_BATCH_SIZE = 1000;

/** Items indexed per turn of the event loop while a new GSI is backfilled (~1–2 ms each). */
const BACKFILL_CHUNK = 1000;

export function startGsiMaintainer(options: GsiMaintainerOptions): GsiMaintainer {
  const { engine, changeLog } = options;
  if (engine.indexes.mode !== 'external')
    throw new Error(
      "startGsiMaintainer: the engine maintains its GSIs itself (use globalIndexes: 'external')",
    );
  const manager =
    options.manager ??
    new MappingManager({ changeLog, functions: { resolve: () => undefined }, settler: engine });
  const fn = new LocalFunction(
    {
      name: 'gsi-maintainer',
      handler: createFeedHandler({ indexWriter: new GlobalIndexWriter(engine) }),
      timeout: 900,
      logLimit: 0,
    },
    { clock: engine.clock, accountId: manager.accountId, region: manager.region },
  );
  const delay = delayOf(options.propagationDelay, options.random ?? Math.random);
  const mappings = new Map<string, { mapping: EventSourceMapping; table: Table; tableName: string }>();
  const plain = new Set<string>();
  let paused = false;

  const mappingFor = (table: Table, accountId: string, region: string, event?: ChangeEvent) => {
    const known = mappings.get(table.tableId);
    if (known !== undefined) return known.mapping;
    const feed = changeLog.internalFeed(accountId, region, table.name);
    // The feed holds a change only while some reader is registered: the table's first change
    // (the one that made us notice the table) may have gone by unheld. Hold it now.
    const log = feed.log;
    const held = event !== undefined && log.end > log.head && log.at(log.end - 1) === event;
    const reader = feed.register('LATEST');
    if (held) reader.position = reader.committed = log.end - 1;
    else if (event !== undefined) feed.append(event);
    const mapping = manager.createInternal({
      tableName: table.name,
      accountId,
      region,
      fn,
      reader,
      settings: {
        BatchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
        MaximumBatchingWindowInSeconds: options.batchingWindowInSeconds ?? 0,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        Enabled: !paused,
      },
      ...(delay === undefined ? {} : { dueOf: (record) => record.event.at + delay() }),
      // A pending record is a FeedChange (its change and sequence number): the batch goes as is.
      eventOf: (records): FeedEvent<ChangeEvent> => ({ Changes: records }),
    });
    mappings.set(table.tableId, { mapping, table, tableName: table.name });
    return mapping;
  };

  const tableOf = (event: ChangeEvent): Table | undefined => {
    const table = engine.region(event.table.accountId, event.table.region).tables.get(event.table.tableName);
    return table?.tableId === event.table.tableId ? table : undefined;
  };

  // New tables (and GSIs added to them) are announced before their first write: read from there.
  const stopTables = engine.onTableChange(({ region, table, kind }) => {
    if (kind === 'deleted') {
      const known = mappings.get(table.tableId);
      if (known !== undefined) manager.delete(known.mapping.uuid);
      mappings.delete(table.tableId);
      plain.delete(table.tableId);
    } else if (table.globalSecondaryIndexes.size > 0) {
      plain.delete(table.tableId);
      mappingFor(table, region.accountId, region.name);
    }
  });
  // A fallback for tables that appear unannounced: it listens after the change log (attached
  // first), so it sees the table's first change.
  const stopListening = engine.onCommit((event) => {
    const id = event.table.tableId;
    if (plain.has(id) || mappings.has(id)) return;
    const table = tableOf(event);
    if (table === undefined) return;
    if (table.globalSecondaryIndexes.size === 0) plain.add(id);
    else mappingFor(table, event.table.accountId, event.table.region, event);
  });
  for (const region of engine.allRegions())
    for (const table of region.tables.values())
      if (table.globalSecondaryIndexes.size > 0) mappingFor(table, region.accountId, region.name);

  // Backfill (UpdateTable Create): the entries of the table's items as they stand now, written
  // straight from the stored items through the entry and projection code the feed's changes use
  // (an INSERT through the handler would only decide "put" for each). bench/gsi.ts, 100,000
  // items: decoding them into INSERT records and invoking per 100 took 1.6 s; this, ~0.35-0.45 s.
  // `settled()` means indexes caught up: a GSI still being backfilled has not.
  const backfills = new Set<Promise<void>>();
  // Where each running backfill stands (the console's Tables view shows done / total).
  const progress = new Map<SecondaryIndex, () => BackfillProgress>();
  const stopSettling = engine.addSettler(async () => {
    while (backfills.size > 0) await Promise.allSettled([...backfills]);
  });
  engine.indexes.builder = (table, index) => {
    const running = backfill(table, index);
    backfills.add(running);
    void running
      .finally(() => {
        backfills.delete(running);
        progress.delete(index);
      })
      .catch(() => {});
    return running;
  };
  const backfill = async (table: Table, index: SecondaryIndex): Promise<void> => {
    const region = [...engine.allRegions()].find((candidate) => candidate.tables.get(table.name) === table);
    if (region === undefined) return;
    plain.delete(table.tableId);
    const mapping = mappingFor(table, region.accountId, region.name);
    // The snapshot and the feed's backlog together bring every item to its latest state: each
    // item's last change in the feed ends where the snapshot stands (at least once, idempotent).
    // Unordered: the service's scan order is not needed, and placing every new partition in it
    // would hash each one.
    const items: StoredItem[] = [];
    for (const { item } of table.items.unordered()) items.push(item);
    const started = performance.now();
    let done = 0;
    const now = (finished: boolean): BackfillProgress => ({
      tableName: table.name,
      indexName: index.name,
      done,
      total: items.length,
      elapsedMs: performance.now() - started,
      finished,
    });
    // From here, before waiting for the batch in flight: the index is being built.
    if (items.length > 0) progress.set(index, () => now(false));
    const enabled = mapping.running;
    mapping.stop();
    while (mapping.counters.inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
    const live = () =>
      region.tables.get(table.name) === table && table.globalSecondaryIndexes.get(index.name) === index;
    let reported = started;
    const report = (finished: boolean) => {
      // An empty table has nothing to backfill, nor to report.
      if (items.length > 0) options.onBackfill?.(now(finished));
    };
    report(false);
    // Chunks keep the event loop turning (requests, timers) while a large table is indexed.
    for (let from = 0; from < items.length && live(); from += BACKFILL_CHUNK) {
      done = Math.min(items.length, from + BACKFILL_CHUNK);
      fillEntries(table, index, items, from, done);
      if (done < items.length && performance.now() - reported >= BACKFILL_REPORT_INTERVAL_MS) {
        reported = performance.now();
        report(false);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (live()) {
      done = items.length;
      report(true);
    }
    if (enabled && mappings.get(table.tableId)?.mapping === mapping) mapping.start();
  };

  return {
    manager,
    pause() {
      paused = true;
      for (const { mapping } of mappings.values()) manager.disable(mapping.uuid);
    },
    resume() {
      paused = false;
      for (const { mapping } of mappings.values()) manager.enable(mapping.uuid);
    },
    backfills() {
      return [...progress.values()].map((now) => now());
    },
    lag() {
      const lags: IndexLag[] = [];
      for (const { mapping, table, tableName } of mappings.values()) {
        const state = manager.inspect(mapping.uuid);
        for (const indexName of table.globalSecondaryIndexes.keys())
          lags.push({ tableName, indexName, backlog: state.backlog, lagMs: state.iteratorAgeMs });
      }
      return lags;
    },
    close() {
      stopListening();
      stopTables();
      stopSettling();
      engine.indexes.builder = undefined;
      for (const { mapping } of mappings.values()) manager.delete(mapping.uuid);
      mappings.clear();
      if (options.manager === undefined) manager.close();
    },
  };
}

function delayOf(
  setting: GsiMaintainerOptions['propagationDelay'],
  random: () => number,
): (() => number) | undefined {
  if (setting === undefined) return undefined;
  if (Array.isArray(setting)) {
    const [min, max] = setting as readonly [number, number];
    return () => min + random() * (max - min);
  }
  const fixed = parseDuration(setting as number | string);
  return fixed > 0 ? () => fixed : undefined;
}

/** `backfilling GSI ByStatus of Orders: 40,000 of 100,000 items (40%)`, or when done, its time. */
export function describeBackfill(progress: BackfillProgress): string {
  const what = `GSI ${progress.indexName} of ${progress.tableName}`;
  const total = progress.total.toLocaleString('en-US');
  if (progress.finished)
    return `backfilled ${what}: ${total} items in ${(progress.elapsedMs / 1000).toFixed(1)} s`;
  const percent = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
  return `backfilling ${what}: ${progress.done.toLocaleString('en-US')} of ${total} items (${percent}%)`;
}
