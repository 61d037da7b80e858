import type { Item } from '../model/attributeValue.js';
import { itemSize } from '../model/itemSize.js';

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

  static fromItem(item: Item, size = itemSize(item)): StoredItem {
    return new StoredItem(JSON.stringify(item), size);
  }

  /** A fresh copy of the item (safe to mutate; maps may be ordinary objects: read with hasOwn). */
  decode(): Item {
    return JSON.parse(this.json) as Item;
  }
}
