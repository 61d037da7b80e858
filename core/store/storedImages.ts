import type { AttributeMap } from '../model/attributeValue.js';
import type { StoredItem } from './storedItem.js';

/**
 * Remembers which stored item a decoded image came from, so a consumer handed the image (an
 * index writer with an ALL projection) can keep the stored text instead of serialising the item
 * again. Weak: images are forgotten with their records.
 */
const origins = new WeakMap<AttributeMap, StoredItem>();

export function rememberStored(image: AttributeMap, stored: StoredItem): void {
  origins.set(image, stored);
}

export function storedOf(image: AttributeMap): StoredItem | undefined {
  return origins.get(image);
}
