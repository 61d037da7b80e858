import type { IndexEntry } from '../store/indexEntry.js';
import type { SecondaryIndex } from '../store/table.js';

/**
 * Stores an index entry under its key. Keys live as long as the entry, and may be built from
 * substrings of an item's stored text (`storedImage.ts`), which V8 keeps whole while a substring
 * of it lives: a sort key (a concatenation) is flattened, which copies its pieces, and a
 * partition key that starts a new partition (rare: checked after the fact, so the common case
 * costs no extra lookup) is stored again as a copy.
 */
export function storeEntry(
  index: SecondaryIndex,
  hashKey: string,
  rangeKey: string,
  entry: IndexEntry,
  fresh = false,
): void {
  rangeKey.charCodeAt(rangeKey.length >> 1);
  const items = index.items;
  const partitions = items.partitionCount;
  // `fresh`: the caller expects no entry under this key (see `ItemStore.insert`).
  if (fresh) items.insert(hashKey, rangeKey, entry);
  else items.set(hashKey, rangeKey, entry);
  // V8 copies substrings shorter than 13 characters; only longer ones can refer to a parent.
  if (hashKey.length >= 13 && items.partitionCount > partitions) {
    items.delete(hashKey, rangeKey);
    items.set(detached(hashKey), rangeKey, entry);
  }
}

/** A copy of a string that shares no storage with a larger one (the concatenation is flattened by the slice). */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}
