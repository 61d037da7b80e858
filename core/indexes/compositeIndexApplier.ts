import type { StoredItem } from '../store/storedItem.js';
import type { SecondaryIndex, Table } from '../store/table.js';
import { entryKeyOf } from './entryKey.js';
import { storedEntry } from './projection.js';
import { storeEntry } from './storeEntry.js';

/**
 * Applies one change of an item to the multi-attribute GSIs of its table (`compositeKey.ts`,
 * docs/multi-attribute-keys.md), for the gsi-maintainer's internal path and the backfill of a new
 * index. The fast path (`GlobalIndexApplier`) reads one or two key fields from the stored texts;
 * these indexes have up to eight, so this path decodes the images and asks `entryKeyOf`, as the
 * Lambda-record path (`putEntry`/`removeEntry`) does.
 *
 * An entry whose key moved is removed and put again; one whose key stayed is rewritten from the
 * new image (the same entry when nothing it projects changed).
 */
export function applyCompositeChange(
  table: Table,
  indexes: readonly SecondaryIndex[],
  oldItem: StoredItem | undefined,
  newItem: StoredItem | undefined,
): void {
  const before = oldItem?.decode();
  const after = newItem?.decode();
  for (const index of indexes) {
    const oldKey = before === undefined ? undefined : entryKeyOf(index, table, before);
    const newKey = after === undefined ? undefined : entryKeyOf(index, table, after);
    const moved =
      oldKey !== undefined &&
      (newKey === undefined || oldKey.hashKey !== newKey.hashKey || oldKey.rangeKey !== newKey.rangeKey);
    if (moved) index.items.delete(oldKey.hashKey, oldKey.rangeKey);
    if (newKey !== undefined)
      storeEntry(
        index,
        newKey.hashKey,
        newKey.rangeKey,
        storedEntry(index, table, after!, newItem),
        oldKey === undefined || moved,
      );
  }
}
