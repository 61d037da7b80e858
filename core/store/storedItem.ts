import { randomBytes } from 'node:crypto';
import type { Item } from '../model/attributeValue.js';
import { decodeItem, encodeItemSized } from './itemCodec.js';

/**
 * An item at rest: its canonical DynamoDB JSON text and its size by the AWS rules.
 *
 * Text, not objects: measured on a 245-byte item, parsed objects cost ~2.9× the JSON's size on
 * the heap, text ~1.4× (the bench reports the table's figure). The wire path is text already,
 * persistence writes it as is, and no reader can mutate what is stored.
 */
export class StoredItem {
  constructor(
    readonly json: string,
    readonly size: number,
  ) {}

  /**
   * Stores an item as canonical text (see `itemCodec.ts`): equal items have equal text. Its size
   * comes from the same walk unless the caller measured it already.
   */
  static fromItem(item: Item, size?: number): StoredItem {
    const encoded = encodeItemSized(item);
    return new StoredItem(encoded.json, size ?? encoded.size);
  }

  /** A fresh copy of the item (safe to mutate; maps may be ordinary objects: read with hasOwn). */
  decode(): Item {
    return decodeItem(this.json);
  }

  /**
   * JSON.stringify hook. Inside `spliceStoredItems` the item stands in as a marker that is then
   * replaced by its stored text; anywhere else it serialises as the decoded item.
   */
  toJSON(): unknown {
    if (activeSplice !== undefined) {
      activeSplice.push(this.json);
      return activeMarker + (activeSplice.length - 1);
    }
    return this.decode();
  }

  /** Equal items have equal canonical text. */
  sameAs(other: StoredItem): boolean {
    return this.json === other.json;
  }
}

let activeSplice: string[] | undefined;
// A per-process random marker: no client string can collide with it.
const activeMarker = `\u0000eddy-${randomBytes(12).toString('hex')}-`;
/** The marker as it appears inside JSON text (the NUL character is escaped). */
const escapedMarker = JSON.stringify(activeMarker).slice(1, -1);

/**
 * Serialises a value whose tree may hold StoredItems, splicing their stored text verbatim: native
 * JSON.stringify does the walk, so this is as fast as plain serialisation.
 */
export function stringifyWithStoredItems(value: unknown): string {
  const previous = activeSplice;
  const spliced: string[] = [];
  activeSplice = spliced;
  let json: string;
  try {
    json = JSON.stringify(value);
  } finally {
    activeSplice = previous;
  }
  if (spliced.length === 0) return json;
  // Markers appear in the text in the order they were produced: splice them in one pass.
  let out = '';
  let from = 0;
  for (let index = 0; index < spliced.length; index++) {
    const quoted = `"${escapedMarker}${index}"`;
    const at = json.indexOf(quoted, from);
    out += json.slice(from, at) + spliced[index];
    from = at + quoted.length;
  }
  return out + json.slice(from);
}
