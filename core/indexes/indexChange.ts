import { type AttributeMap, type AttributeValue, getAttribute } from '../model/attributeValue.js';
import { base64ByteLength } from '../model/binary.js';
import { attributeValuesEqual } from '../model/compare.js';
import { utf8Length } from '../model/utf8.js';

/**
 * How one table write changes one index (seed global-secondary-indexes, "Write Capacity Units"):
 *
 * - `put`: the item enters the index (one write);
 * - `replace`: an index key changed: delete the old entry, put the new one (two writes);
 * - `delete`: the item leaves the index (one write);
 * - `update`: only projected attributes changed (one write);
 * - `none`: in the index neither before nor after, or nothing it holds changed.
 *
 * Pure: it reads DynamoDB JSON images and an index description only, so the gsi-maintainer
 * function and the engine (local indexes, capacity) share one rule.
 */
export type IndexChange = 'none' | 'put' | 'delete' | 'replace' | 'update';

export interface IndexView {
  indexName: string;
  /** Index key attributes with their declared types (HASH first). */
  keys: readonly { name: string; type: 'S' | 'N' | 'B'; keyType: 'HASH' | 'RANGE' }[];
  /** Attribute names the index holds (keys included), or undefined for ALL. */
  projected: ReadonlySet<string> | undefined;
}

const MAX_HASH_KEY_BYTES = 2048;
const MAX_RANGE_KEY_BYTES = 1024;

/** The index key values of an image, or undefined when the item is not in the index (sparse). */
export function indexKeyValues(
  view: IndexView,
  image: AttributeMap | undefined,
): AttributeValue[] | undefined {
  if (image === undefined) return undefined;
  const values: AttributeValue[] = [];
  for (const key of view.keys) {
    const value = getAttribute(image, key.name);
    if (value === undefined) return undefined;
    const scalar = (value as Record<string, unknown>)[key.type];
    if (typeof scalar !== 'string') return undefined;
    if (key.type !== 'N' && scalar === '') return undefined;
    const bytes = key.type === 'S' ? utf8Length(scalar) : key.type === 'B' ? base64ByteLength(scalar) : 0;
    if (bytes > (key.keyType === 'HASH' ? MAX_HASH_KEY_BYTES : MAX_RANGE_KEY_BYTES)) return undefined;
    values.push(value);
  }
  return values;
}

function projectedEqual(view: IndexView, oldImage: AttributeMap, newImage: AttributeMap): boolean {
  const names = view.projected ?? new Set([...Object.keys(oldImage), ...Object.keys(newImage)]);
  for (const name of names) {
    const before = getAttribute(oldImage, name);
    const after = getAttribute(newImage, name);
    if (before === undefined && after === undefined) continue;
    if (before === undefined || after === undefined || !attributeValuesEqual(before, after)) return false;
  }
  return true;
}

export function planIndexChange(
  view: IndexView,
  oldImage: AttributeMap | undefined,
  newImage: AttributeMap | undefined,
): IndexChange {
  const before = indexKeyValues(view, oldImage);
  const after = indexKeyValues(view, newImage);
  if (before === undefined && after === undefined) return 'none';
  if (before === undefined) return 'put';
  if (after === undefined) return 'delete';
  for (let i = 0; i < before.length; i++) if (!attributeValuesEqual(before[i]!, after[i]!)) return 'replace';
  return projectedEqual(view, oldImage!, newImage!) ? 'none' : 'update';
}

/** Index writes a change costs (multiply by the entry's 1 KB units). */
export function indexChangeWrites(change: IndexChange): number {
  return change === 'replace' ? 2 : change === 'none' ? 0 : 1;
}
