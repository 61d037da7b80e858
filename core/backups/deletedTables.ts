import { type FrozenItems, ItemStore } from '../store/itemStore.js';
import type { StoredItem } from '../store/storedItem.js';
import { keyShapeOf } from '../store/table.js';
import { extractItemKey } from '../validations/keys.js';
import type { TableSchema } from './tableSchema.js';

/**
 * A deleted table's items as a frozen copy again, from its SYSTEM backup's items (read back from
 * the data directory after a restart, docs/backups.md §8): a point-in-time restore of the deleted
 * table sets keys of that copy back to their values then, so each item needs its key. Made when a
 * restore first asks, not at start.
 */
export function frozenFromItems(schema: TableSchema, items: Iterable<StoredItem>): FrozenItems {
  const shape = keyShapeOf(schema.keySchema, schema.attributeDefinitions);
  const store = new ItemStore(shape.range !== undefined);
  for (const item of items) {
    const key = extractItemKey(item.decode(), shape);
    store.set(key.hashKey, key.rangeKey, item);
  }
  return store.freeze();
}
