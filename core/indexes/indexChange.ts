import { type AttributeMap, type AttributeValue, getAttribute } from '../model/attributeValue.js';
import { base64ByteLength, compareBinary } from '../model/binary.js';
import { attributeValuesEqual } from '../model/compare.js';
import { compareNumbers } from '../model/number.js';
import { utf8Length } from '../model/utf8.js';

/**
 * How one table write changes one index (docs/dynamodb.md §4.3.4, the write capacity rules of GSI.html):
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
  if (!inIndex(view, image)) return undefined;
  return view.keys.map((key) => getAttribute(image!, key.name)!);
}

/** Whether an image has every index key, of its declared type, non-empty and within size. */
function inIndex(view: IndexView, image: AttributeMap | undefined): boolean {
  if (image === undefined) return false;
  const keys = view.keys;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = getAttribute(image, key.name);
    if (value === undefined) return false;
    const scalar = (value as Record<string, unknown>)[key.type];
    if (typeof scalar !== 'string') return false;
    if (key.type === 'N') continue;
    if (scalar === '') return false;
    const limit = key.keyType === 'HASH' ? MAX_HASH_KEY_BYTES : MAX_RANGE_KEY_BYTES;
    // A UTF-16 unit is at most 3 UTF-8 bytes: short strings fit without being measured.
    if (scalar.length * 3 <= limit) continue;
    const bytes = key.type === 'S' ? utf8Length(scalar) : base64ByteLength(scalar);
    if (bytes > limit) return false;
  }
  return true;
}

/**
 * Whether two index key values of one declared type are equal, as `attributeValuesEqual` says:
 * S by text, N numerically, B by bytes. Equal texts are equal values, whatever the type.
 */
export function sameKeyValue(type: 'S' | 'N' | 'B', before: string, after: string): boolean {
  if (before === after) return true;
  if (type === 'S') return false;
  return type === 'N' ? compareNumbers(before, after) === 0 : compareBinary(before, after) === 0;
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
  const before = inIndex(view, oldImage);
  const after = inIndex(view, newImage);
  if (!before && !after) return 'none';
  if (!before) return 'put';
  if (!after) return 'delete';
  for (const key of view.keys) {
    const oldValue = (getAttribute(oldImage!, key.name) as Record<string, string>)[key.type]!;
    const newValue = (getAttribute(newImage!, key.name) as Record<string, string>)[key.type]!;
    if (!sameKeyValue(key.type, oldValue, newValue)) return 'replace';
  }
  return projectedEqual(view, oldImage!, newImage!) ? 'none' : 'update';
}

/** Index writes a change costs (multiply by the entry's 1 KB units). */
export function indexChangeWrites(change: IndexChange): number {
  return change === 'replace' ? 2 : change === 'none' ? 0 : 1;
}
