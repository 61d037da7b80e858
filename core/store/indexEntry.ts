import { StoredItem } from './storedItem.js';

/**
 * What a secondary index stores for an item: a stored item of its own (an ALL projection shares
 * the table's; an entry the engine writes from a decoded image is the projected copy), or a
 * `ProjectedEntry`.
 *
 * A `ProjectedEntry` is how the gsi-maintainer keeps INCLUDE and KEYS_ONLY entries: a reference to
 * the item's stored text (which the table holds anyway) and the entry's size, the projected
 * members being cut from that text when the entry is read. Cutting and keeping a projected text
 * per entry at write time (~125 chars and two objects per entry of bench/gsi.ts's INCLUDE index,
 * 5 of the item's 7 attributes, copied twice by the young-generation GC) cost more than a
 * microsecond a change in profiles; PutItem of new items with two GSIs, the maintainer caught
 * up: 74.2k → 76.5k writes/s (medians of 15 rounds, alternating builds). The first read of an
 * entry pays the cut (~0.65 µs) and keeps it: an entry that is read costs the memory it always
 * did, and a Query of 10 entries runs as fast as before once they are cut (112k/s; 65k/s when
 * every read cut them again).
 *
 * An entry keeps the text it was written from until the maintainer writes it again, which it
 * does when a projected attribute changes (an update that changes only other attributes leaves
 * the entry as it is, as the service does): the cut is the same from either text, and at most
 * one superseded item text per entry stays alive.
 */
export type IndexEntry = StoredItem | ProjectedEntry;

/** How an index cuts its entry out of an item's stored text. */
export interface EntryProjection {
  /** The canonical text of the projected members of `itemJson` (a stored item's text). */
  textOf(itemJson: string): string;
}

export class ProjectedEntry {
  private cut: StoredItem | undefined = undefined;

  constructor(
    /** The item as it was when the entry was written. */
    readonly source: StoredItem,
    readonly projection: EntryProjection,
    /** The projected attributes' size by the item-size rules (IndexSizeBytes, read capacity). */
    readonly size: number,
  ) {}

  /** The entry as a stored item: its projected members' text, cut on the first read. */
  toStoredItem(): StoredItem {
    this.cut ??= new StoredItem(this.projection.textOf(this.source.json), this.size);
    return this.cut;
  }
}

/** The stored item an index entry stands for (what a read of the index answers with). */
export function entryItem(entry: IndexEntry): StoredItem {
  return entry instanceof ProjectedEntry ? entry.toStoredItem() : entry;
}
