import { itemKeyOf } from '../model/keyCodec.js';
import type { FrozenItems } from '../store/itemStore.js';
import type { StoredItem } from '../store/storedItem.js';

/**
 * The items of a frozen copy, with some keys set to other values (null: absent): a table as it
 * was at time T is its copy now with `TableHistory.valuesAt(T)` applied (docs/backups.md §3).
 * Keys in `overrides` the copy does not hold (deleted since T) come last.
 */
export function* itemsOf(
  frozen: FrozenItems,
  overrides?: ReadonlyMap<string, StoredItem | null>,
): Generator<StoredItem> {
  if (overrides === undefined || overrides.size === 0) {
    yield* frozen.singles;
    for (const tree of frozen.trees) yield* tree.values();
    return;
  }
  const pending = new Map(overrides);
  const resolve = (hashKey: string, rangeKey: string, item: StoredItem): StoredItem | null => {
    const key = itemKeyOf(hashKey, rangeKey);
    if (!pending.has(key)) return item;
    const value = pending.get(key)!;
    pending.delete(key);
    return value;
  };
  for (let index = 0; index < frozen.singles.length; index++) {
    const value = resolve(frozen.singleKeys[index]!, '', frozen.singles[index]!);
    if (value !== null) yield value;
  }
  for (let index = 0; index < frozen.trees.length; index++) {
    const hashKey = frozen.treeKeys[index]!;
    for (const [rangeKey, item] of frozen.trees[index]!.entries()) {
      const value = resolve(hashKey, rangeKey, item);
      if (value !== null) yield value;
    }
  }
  for (const value of pending.values()) if (value !== null) yield value;
}

/** Count and size of what `itemsOf` yields, without keeping the items. */
export function measure(items: Iterable<StoredItem>): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const item of items) {
    count++;
    bytes += item.size;
  }
  return { count, bytes };
}
