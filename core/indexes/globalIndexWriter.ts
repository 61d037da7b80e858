import type { ChangeEvent, TableRef } from '../changeEvent.js';
import type { Engine } from '../engine.js';
import type { AttributeMap } from '../model/attributeValue.js';
import type { Region } from '../store/region.js';
import { storedOf } from '../store/storedImages.js';
import type { SecondaryIndex, Table } from '../store/table.js';
import { GlobalIndexApplier } from './globalIndexApplier.js';
import type { IndexView } from './indexChange.js';
import { indexView, putEntry, removeEntry } from './maintenance.js';

/**
 * The engine's index-writer port, handed to the gsi-maintainer function (which decides what
 * changes; this only finds the index and stores or removes the entry). Structurally it is the
 * `IndexWriter` of `functions/shared/ports.ts`, and the `FeedIndexWriter` of the maintainer's
 * internal entry point (`applyFeedChange`: changes of the table's own feed, applied from the
 * stored texts by `GlobalIndexApplier`).
 *
 * The maintainer calls it once per index per change (`globalIndexes`, then `put`/`remove`), so
 * finding the table must not parse the ARN each time: ARNs are parsed once, and a table's index
 * views (and applier) are kept until its set of indexes (or their status) changes.
 */
export class GlobalIndexWriter {
  private readonly arns = new Map<string, TableAddress | null>();
  private readonly indexesOf = new WeakMap<Table, CachedIndexes>();

  constructor(private readonly engine: Engine) {}

  globalIndexes(tableArn: string): readonly IndexView[] {
    const table = this.table(tableArn);
    return table === undefined ? [] : this.cached(table).views;
  }

  put(tableArn: string, indexName: string, image: AttributeMap): void {
    const table = this.table(tableArn);
    const index = table?.globalSecondaryIndexes.get(indexName);
    if (index) putEntry(table!, index, image, storedOf(image));
  }

  remove(tableArn: string, indexName: string, image: AttributeMap): void {
    const table = this.table(tableArn);
    const index = table?.globalSecondaryIndexes.get(indexName);
    if (index) removeEntry(table!, index, image);
  }

  /**
   * Applies one change of a table's internal feed to every GSI of the table (not DELETING), as
   * `put`/`remove` driven by `planIndexChange` would, from the stored texts. A change of a table
   * since deleted (or replaced by one of the same name) is ignored.
   */
  applyFeedChange(event: ChangeEvent): void {
    this.applierOf(event.table)?.apply(event.oldItem, event.newItem);
  }

  /**
   * `applyFeedChange` for each change in order, until one throws; returns how many were applied.
   * Nothing else runs meanwhile, so each table is looked up once per call, not once per change
   * (a region, a table and its GSIs' states: ~0.15 µs a change in bench/gsi.ts).
   *
   * Entries are stored as each change is applied. Holding a batch's entry writes back and storing
   * them sorted by index, partition and key (so that consecutive inserts share tree paths) was
   * slower: two GSIs, batches of 100, 70.4k → 67.7k writes/s; batches of 1000, 77.7k → 73.2k
   * (medians of 8 processes, alternating builds). Sorting cost more than the locality saved.
   */
  applyFeedChanges(changes: readonly { readonly change: ChangeEvent }[]): number {
    let ref: TableRef | undefined;
    let applier: GlobalIndexApplier | undefined;
    let applied = 0;
    try {
      for (; applied < changes.length; applied++) {
        const event = changes[applied]!.change;
        if (event.table !== ref) {
          ref = event.table;
          applier = this.applierOf(ref);
        }
        applier?.apply(event.oldItem, event.newItem);
      }
    } catch {
      // The caller reports this change and every later one as failed.
    }
    return applied;
  }

  /** The applier of a table's live GSIs; undefined when the table is gone (or replaced). */
  private applierOf(ref: TableRef): GlobalIndexApplier | undefined {
    const { accountId, region, tableName, tableId } = ref;
    const table = this.engine.region(accountId, region).tables.get(tableName);
    if (table === undefined || table.tableId !== tableId) return undefined;
    const cached = this.cached(table);
    cached.applier ??= new GlobalIndexApplier(
      table,
      cached.indexes.filter((index) => index.status !== 'DELETING'),
    );
    return cached.applier;
  }

  /** What is kept of a table's GSIs, rebuilt when they (or their states) change. */
  private cached(table: Table): CachedIndexes {
    const cached = this.indexesOf.get(table);
    if (cached !== undefined && sameIndexes(cached, table)) return cached;
    const indexes: SecondaryIndex[] = [];
    const statuses: string[] = [];
    const views: IndexView[] = [];
    for (const index of table.globalSecondaryIndexes.values()) {
      indexes.push(index);
      statuses.push(index.status);
      if (index.status !== 'DELETING') views.push(indexView(index, table));
    }
    const fresh: CachedIndexes = { indexes, statuses, views, applier: undefined };
    this.indexesOf.set(table, fresh);
    return fresh;
  }

  /** The table an ARN (`arn:aws:dynamodb:<region>:<account>:table/<name>[/...]`) names, if any. */
  private table(tableArn: string): Table | undefined {
    let address = this.arns.get(tableArn);
    if (address === undefined) {
      const match = /^arn:aws:dynamodb:([^:]+):([^:]+):table\/([^/]+)/.exec(tableArn);
      address = match ? { region: this.engine.region(match[2]!, match[1]!), name: match[3]! } : null;
      // Bounded: a long-lived writer fed arbitrary ARNs must not grow without limit.
      if (this.arns.size >= 1024) this.arns.clear();
      this.arns.set(tableArn, address);
    }
    return address === null ? undefined : address.region.tables.get(address.name);
  }
}

/** Where an ARN's table lives (regions are never removed; tables are looked up each time). */
interface TableAddress {
  readonly region: Region;
  readonly name: string;
}

interface CachedIndexes {
  readonly indexes: readonly SecondaryIndex[];
  readonly statuses: readonly string[];
  readonly views: readonly IndexView[];
  applier: GlobalIndexApplier | undefined;
}

/** Whether the table still has exactly these GSIs, in these states. */
function sameIndexes(cached: CachedIndexes, table: Table): boolean {
  if (cached.indexes.length !== table.globalSecondaryIndexes.size) return false;
  let i = 0;
  for (const index of table.globalSecondaryIndexes.values()) {
    if (cached.indexes[i] !== index || cached.statuses[i] !== index.status) return false;
    i++;
  }
  return true;
}
