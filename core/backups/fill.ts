import type { Engine, ItemWrite } from '../engine.js';
import type { Item } from '../model/attributeValue.js';
import type { Region } from '../store/region.js';
import { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import { extractItemKey } from '../validations/keys.js';

/** Work for about this long, then let the event loop serve requests (ms). */
export const SLICE_MS = 4;

/** Resolves on the next turn of the event loop (after pending I/O). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One write per item through the commit point (restores and imports fill their new table so). */
export function writeOf(table: Table, stored: StoredItem, item: Item = stored.decode()): ItemWrite {
  const key = extractItemKey(item, table.key);
  return { key, previous: table.items.get(key.hashKey, key.rangeKey), next: stored, nextItem: item };
}

/**
 * Fills a new table with items through the engine's commit point, a slice at a time, yielding to
 * the event loop between slices: local indexes change inside the commit, global ones follow as
 * for any write, and a data directory logs the items like any other write. Returns the count.
 */
export async function fillTable(
  engine: Engine,
  region: Region,
  table: Table,
  items: Iterator<StoredItem>,
  onProgress?: (count: number) => void,
): Promise<number> {
  // The answer goes out first: the table is CREATING, its restore in progress, until the fill
  // has had at least one turn of its own.
  await nextTurn();
  for (;;) {
    const deadline = performance.now() + SLICE_MS;
    let done = false;
    // A table deleted while it fills stops taking items.
    if (region.tables.get(table.name) !== table) return table.items.size;
    while (!done && performance.now() < deadline) {
      for (let i = 0; i < 64; i++) {
        const next = items.next();
        if (next.done === true) {
          done = true;
          break;
        }
        // One commit per item: a later item with the same key then sees the earlier one as its
        // previous item, as a second PutItem would.
        engine.commit(region, table, [writeOf(table, next.value)]);
      }
    }
    onProgress?.(table.items.size);
    if (done) return table.items.size;
    await nextTurn();
  }
}

export { StoredItem };
