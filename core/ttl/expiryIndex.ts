import type { ItemWrite } from '../engine.js';
import { itemKeyOf } from '../model/keyCodec.js';
import { BTree } from '../store/btree.js';
import { compareStrings } from '../store/itemStore.js';
import type { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import { expiryWindow, ttlValueOf } from './expiry.js';
import { attributeNeedle, readTopLevelNumber } from './ttlText.js';

/**
 * A table's items that carry a TTL value, ordered by that value, so the expirer finds the
 * expired ones in O(log n + expired) instead of reading the table (docs/streams-and-lambda.md §5.5).
 *
 * One string per item with a Number TTL attribute, in a B+tree of strings: the TTL value as 8
 * order-preserving bytes, then the item key (`<hash key length>:<hash key><range key>`, the
 * format of `ChangeEvent.itemKey`). Native string order is (TTL, item key) order; the key alone
 * finds the item in the table.
 *
 * Commit-time upkeep needs the TTL value the item had: it is read from the previous item's
 * stored text (`ttlText.ts`), so there is no item → entry map to pay for. Measured with
 * `bench/ttl.ts` at 1,000,000 items: 62 B of heap per TTL'd item (a first version with such a
 * map and object entries took 183 B); a run that finds nothing expired takes ~0.05 ms.
 * Items without a Number TTL have no entry: TTL is not schema, they are simply never found.
 *
 * It exists only while TTL is enabled (`Table.expiryIndex`); enabling builds it from the items
 * already stored (docs/streams-and-lambda.md §5.6: items written before TTL was enabled are covered),
 * disabling drops it.
 */
export interface ExpiryEntry {
  /** The TTL value, epoch seconds. */
  readonly at: number;
  /** The item key: `<hash key length>:<encoded hash key><encoded range key>`. */
  readonly itemKey: string;
}

const scratch = new DataView(new ArrayBuffer(8));

/**
 * A double as 8 chars (0–255) whose string order is numeric order: big-endian IEEE 754 bits,
 * sign bit flipped for positives, every bit inverted for negatives.
 */
export function encodeExpiry(at: number): string {
  scratch.setFloat64(0, at === 0 ? 0 : at); // -0 sorts as 0
  const high = scratch.getUint32(0);
  const low = scratch.getUint32(4);
  const negative = high >= 0x80000000;
  const h = negative ? ~high >>> 0 : (high ^ 0x80000000) >>> 0;
  const l = negative ? ~low >>> 0 : low;
  return String.fromCharCode(
    h >>> 24,
    (h >>> 16) & 255,
    (h >>> 8) & 255,
    h & 255,
    l >>> 24,
    (l >>> 16) & 255,
    (l >>> 8) & 255,
    l & 255,
  );
}

function decodeExpiry(key: string): number {
  const negative = key.charCodeAt(0) < 128;
  for (let i = 0; i < 8; i++) {
    const code = key.charCodeAt(i);
    scratch.setUint8(i, negative ? 255 - code : i === 0 ? code ^ 128 : code);
  }
  return scratch.getFloat64(0);
}

/** The index key of an item: its TTL value, then its item key (flattened: see `flat`). */
export function expiryKey(at: number, itemKey: string): string {
  return flat(encodeExpiry(at) + itemKey);
}

export function parseExpiryKey(key: string): ExpiryEntry {
  return { at: decodeExpiry(key), itemKey: key.slice(8) };
}

/** The encoded hash and range keys of an item key. */
export function splitItemKey(itemKey: string): { hashKey: string; rangeKey: string } {
  const colon = itemKey.indexOf(':');
  const length = Number(itemKey.slice(0, colon));
  const start = colon + 1;
  return { hashKey: itemKey.slice(start, start + length), rangeKey: itemKey.slice(start + length) };
}

/**
 * Concatenations are ropes in V8; reading a character in the middle flattens one into a single
 * sequential string, and the GC then drops the rope (the trick `itemCodec.encodeItem` measured).
 */
function flat(text: string): string {
  text.charCodeAt(text.length >> 1);
  return text;
}

export class ExpiryIndex {
  private readonly byTime = new BTree<string, undefined>(undefined, compareStrings);
  /** `"<name>":`: how the attribute's key appears in canonical item text. */
  private readonly needle: string;

  constructor(readonly attributeName: string) {
    this.needle = attributeNeedle(attributeName);
  }

  /**
   * An index over the table's current items (when TTL is enabled): O(table) reads of the stored
   * text, no decoding; keys are sorted first and inserted in order.
   */
  static build(table: Table, attributeName: string): ExpiryIndex {
    const index = new ExpiryIndex(attributeName);
    const keys: string[] = [];
    for (const { partition, rangeKey, item } of table.items.unordered()) {
      const at = index.ttlOf(item);
      if (at !== undefined) keys.push(expiryKey(at, itemKeyOf(partition.hashKey, rangeKey)));
    }
    keys.sort();
    for (const key of keys) index.byTime.set(key, undefined);
    return index;
  }

  /** Number of items with a Number TTL value. */
  get size(): number {
    return this.byTime.size;
  }

  /** The TTL value of a stored item, read from its text. */
  ttlOf(item: StoredItem): number | undefined {
    return readTopLevelNumber(item.json, this.needle);
  }

  /**
   * Commit-time upkeep (called by `Engine.commitAcross` for every applied write on a table with
   * TTL enabled): the item's entry follows its new TTL value; a delete, or a new value that is
   * not a Number, removes it. `itemKey` is the change event's.
   */
  onCommit(write: ItemWrite, itemKey: string): void {
    const { previous, next } = write;
    let after: number | undefined;
    if (next !== undefined) {
      after =
        write.nextItem !== undefined ? ttlValueOf(write.nextItem, this.attributeName) : this.ttlOf(next);
    }
    const before = previous === undefined ? undefined : this.ttlOf(previous);
    if (before === after) return;
    if (before !== undefined) this.byTime.delete(expiryKey(before, itemKey));
    if (after !== undefined) this.byTime.set(expiryKey(after, itemKey), undefined);
  }

  /** Drops a key (a no-op when absent). */
  remove(key: string): void {
    this.byTime.delete(key);
  }

  /**
   * The index keys of the items expired at `nowMs`, oldest TTL first, strictly after the key
   * `after` when given. O(log n) to find the start, then O(1) per key: keys five or more years
   * old are skipped by where the walk starts, not by reading them.
   *
   * Do not commit while iterating: collect, then delete.
   */
  *expired(nowMs: number, after?: string): Generator<string> {
    const { from, to } = expiryWindow(nowMs);
    const oldest = encodeExpiry(from);
    const end = encodeExpiry(to);
    const start = after !== undefined && after > oldest ? after : oldest;
    const pair: [string, undefined] = ['', undefined];
    for (const [key] of this.byTime.entries(start, pair as (string | undefined)[])) {
      if (key >= end) return;
      if (key === after || key.startsWith(oldest)) continue;
      yield key;
    }
  }

  /** Every entry, in TTL order (inspection and tests). */
  *entries(): Generator<ExpiryEntry> {
    for (const key of this.byTime.keys()) yield parseExpiryKey(key);
  }
}

/**
 * Makes a table's expiry index match its TTL setting: built from the stored items when TTL is
 * enabled, dropped otherwise. UpdateTimeToLive calls it; so should anything that restores tables
 * (persistence), since the index itself is never stored.
 */
export function syncExpiryIndex(table: Table): void {
  const { status, attributeName } = table.timeToLive;
  const enabled = (status === 'ENABLED' || status === 'ENABLING') && attributeName !== undefined;
  table.expiryIndex = enabled ? ExpiryIndex.build(table, attributeName) : undefined;
}
