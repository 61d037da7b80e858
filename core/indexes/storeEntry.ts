import type { IndexEntry } from '../store/indexEntry.js';
import type { SecondaryIndex } from '../store/table.js';

/**
 * Stores an index entry under its key. Keys live as long as the entry, and may be built from
 * substrings of an item's stored text (`storedImage.ts`), which V8 keeps whole while a substring
 * of it lives: a sort key (a concatenation) is flattened, which copies its pieces, and a
 * partition key that starts a new partition is stored as a copy (`ItemStore.set`'s `keyOf`).
 * That copy used to be made after the fact (insert, then delete and store again under the copy:
 * three store operations where one does), which was the common case for an index whose key is
 * unique per item (bench/workloadCases' ByEmail: every put-new and put-moved change starts a
 * partition).
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
  // `fresh`: the caller expects no entry under this key (see `ItemStore.insert`).
  if (fresh) items.insert(hashKey, rangeKey, entry, detached);
  else items.set(hashKey, rangeKey, entry, detached);
}

/**
 * A copy of a string that shares no storage with a larger one (the concatenation is flattened by
 * the slice). V8 copies substrings shorter than 13 characters: only longer ones can refer to a
 * parent.
 */
export function detached(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
