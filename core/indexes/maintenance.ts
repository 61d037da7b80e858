import type { ItemWrite } from '../engine.js';
import type { AttributeMap, Item } from '../model/attributeValue.js';
import { itemSize } from '../model/itemSize.js';
import type { Region } from '../store/region.js';
import type { StoredItem } from '../store/storedItem.js';
import type { SecondaryIndex, Table } from '../store/table.js';
import { entryKeyOf } from './entryKey.js';
import { fillEntries } from './globalIndexApplier.js';
import { type IndexChange, type IndexView, indexChangeWrites, planIndexChange } from './indexChange.js';
import { projectedNames, projectedNamesOf, storedEntry } from './projection.js';
import { storeEntry } from './storeEntry.js';

/**
 * Keeps secondary indexes in step with their table.
 *
 * Local secondary indexes are strongly consistent in DynamoDB: they change inside the commit.
 * Global secondary indexes are eventually consistent: with `globalIndexes: 'external'` the engine
 * leaves them to the gsi-maintainer function, which reads the change feed and writes through this
 * class's index-writer port (`indexesOf`, `put`, `delete`); with `'synchronous'` (a bare engine,
 * nothing else wired) they change inside the commit too.
 */
export type GlobalIndexMode = 'synchronous' | 'external';

/** Builds a new GSI from a table's existing items (external mode: the maintainer's runner). */
export type IndexBuilder = (table: Table, index: SecondaryIndex) => Promise<void>;

const views = new WeakMap<SecondaryIndex, IndexView>();

/** The pure description of an index used by `planIndexChange`. */
export function indexView(index: SecondaryIndex, table: Table): IndexView {
  let view = views.get(index);
  if (view === undefined) {
    const typeOf = (name: string) =>
      table.attributeDefinitions.find((definition) => definition.AttributeName === name)?.AttributeType ??
      'S';
    view = {
      indexName: index.name,
      keys: index.keySchema.map((element) => ({
        name: element.AttributeName,
        type: typeOf(element.AttributeName),
        keyType: element.KeyType,
      })),
      projected: projectedNamesOf(index, table),
    };
    views.set(index, view);
  }
  return view;
}

export class IndexMaintenance {
  builder: IndexBuilder | undefined;
  private readonly backfills = new Map<SecondaryIndex, Promise<void>>();

  constructor(public mode: GlobalIndexMode) {}

  /**
   * Whether a write to `table` touches an index the engine maintains itself (its LSIs, and its
   * GSIs unless the gsi-maintainer keeps them): the commit point calls `onWrite` only then.
   */
  maintainsOnWrite(table: Table): boolean {
    return (
      table.localSecondaryIndexes.size > 0 ||
      (this.mode !== 'external' && table.globalSecondaryIndexes.size > 0)
    );
  }

  /** Applies a committed write to the indexes the engine maintains itself (`maintainsOnWrite`). */
  onWrite(
    table: Table,
    write: ItemWrite,
    oldImage: () => Item | undefined,
    newImage: () => Item | undefined,
  ): void {
    const before = oldImage();
    const after = newImage();
    for (const index of table.localSecondaryIndexes.values())
      this.apply(table, index, before, after, write.next);
    if (this.mode === 'synchronous') {
      for (const index of table.globalSecondaryIndexes.values()) {
        if (index.status !== 'DELETING') this.apply(table, index, before, after, write.next);
      }
    }
  }

  private apply(
    table: Table,
    index: SecondaryIndex,
    before: Item | undefined,
    after: Item | undefined,
    stored: StoredItem | undefined,
  ): void {
    const change = planIndexChange(indexView(index, table), before, after);
    if (change === 'none') return;
    if ((change === 'delete' || change === 'replace') && before) removeEntry(table, index, before);
    if (change !== 'delete' && after) putEntry(table, index, after, stored);
  }

  /**
   * Index capacity of a write (docs/dynamodb.md §4.3.4): per touched index, its writes × ⌈entry/1 KB⌉.
   * Computed when the write happens, whether the index is updated now or later.
   */
  writeCapacity(table: Table, before: Item | undefined, after: Item | undefined) {
    const global: Record<string, number> = {};
    const local: Record<string, number> = {};
    for (const index of table.secondaryIndexes()) {
      const change: IndexChange = planIndexChange(indexView(index, table), before, after);
      const writes = indexChangeWrites(change);
      if (writes === 0) continue;
      const entry = change === 'delete' ? before! : after!;
      const names = projectedNames(index, table);
      const size = names === undefined ? itemSize(entry) : projectedSize(entry, names);
      const units = writes * Math.max(1, Math.ceil(size / 1024));
      (index.kind === 'GSI' ? global : local)[index.name] = units;
    }
    return { global, local };
  }

  /**
   * Fills a GSI added to an existing table. Synchronous mode fills it now and answers 'done';
   * external mode asks the maintainer's runner (the same handler that applies changes) and
   * answers a promise of its completion.
   */
  backfill(table: Table, index: SecondaryIndex): Promise<void> | 'done' {
    if (this.mode === 'synchronous' || this.builder === undefined) {
      const items: StoredItem[] = [];
      for (const { item } of table.items.unordered()) items.push(item);
      fillEntries(table, index, items);
      return 'done';
    }
    const running = this.builder(table, index);
    this.backfills.set(index, running);
    void running.finally(() => this.backfills.delete(index)).catch(() => {});
    return running;
  }

  /** Resolves when the index's backfill (if any) has finished. */
  backfilled(index: SecondaryIndex): Promise<void> {
    return this.backfills.get(index) ?? Promise.resolve();
  }
}

function projectedSize(item: AttributeMap, names: ReadonlySet<string>): number {
  const projected: AttributeMap = Object.create(null);
  for (const name of names) if (Object.hasOwn(item, name)) projected[name] = item[name]!;
  return itemSize(projected);
}

/** Puts an item's entry into an index (it must belong there). */
export function putEntry(
  table: Table,
  index: SecondaryIndex,
  item: Item,
  stored: StoredItem | undefined,
): void {
  const key = entryKeyOf(index, table, item);
  if (key !== undefined)
    storeEntry(index, key.hashKey, key.rangeKey, storedEntry(index, table, item, stored));
}

/** Removes an item's entry from an index. */
export function removeEntry(table: Table, index: SecondaryIndex, item: Item): void {
  const key = entryKeyOf(index, table, item);
  if (key !== undefined) index.items.delete(key.hashKey, key.rangeKey);
}

/** Finds a table by its ARN (`arn:aws:dynamodb:<region>:<account>:table/<name>`). */
export function tableByArn(
  regionOf: (account: string, region: string) => Region,
  arn: string,
): Table | undefined {
  const match = /^arn:aws:dynamodb:([^:]+):([^:]+):table\/([^/]+)/.exec(arn);
  if (!match) return undefined;
  return regionOf(match[2]!, match[1]!).tables.get(match[3]!);
}
