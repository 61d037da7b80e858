import { hash as digest } from 'node:crypto';
import { type AttributeMap, getAttribute, type ScalarKeyType } from '../model/attributeValue.js';
import { base64ByteLength } from '../model/binary.js';
import { decodeKeyValue, encodeKeyValue, keyHashBytes, scanHashPrefix } from '../model/keyCodec.js';
import { utf8Length } from '../model/utf8.js';
import type { KeyDefinition, SecondaryIndex, Table } from '../store/table.js';
import { MAX_HASH_KEY_BYTES, MAX_RANGE_KEY_BYTES } from '../validations/keys.js';
import { type CompositeKey, compositeKeyOf, isComposite, joinKeyValues } from './compositeKey.js';

/**
 * Where an item sits in an index. Index key values need not be unique, so an entry's sort key is
 * the index sort value followed by a tie-breaker that makes it unique:
 *
 * - GSI: the table key, ordered by the hash of its bytes, as the service orders items sharing a
 *   GSI key (docs/dynamodb.md §6.3.3, §6.4.2), then the table key itself;
 * - LSI: the table sort key (the partition is the table's).
 *
 * Parts are joined order-preservingly: NUL is escaped as NUL 0x01 and a part ends with NUL NUL,
 * so comparing joined strings compares the parts one by one.
 */
const TERMINATOR = '\u0000\u0000';

export function escapePart(encoded: string): string {
  return encoded.includes('\u0000') ? encoded.replaceAll('\u0000', '\u0000\u0001') : encoded;
}

function unescapePart(escaped: string): string {
  return escaped.includes('\u0000') ? escaped.replaceAll('\u0000\u0001', '\u0000') : escaped;
}

/** The encoded index sort value at the start of an entry's sort key ('' when the index has none). */
export function entrySortValue(entryRangeKey: string): string {
  let at = entryRangeKey.indexOf(TERMINATOR);
  // Skip escaped NULs (NUL 0x01) that are not terminators.
  while (at !== -1 && entryRangeKey.charCodeAt(at + 1) !== 0) at = entryRangeKey.indexOf(TERMINATOR, at + 1);
  return unescapePart(at === -1 ? entryRangeKey : entryRangeKey.slice(0, at));
}

/** The first entry sort key with this index sort value (a lower bound for Query). */
export function entryLowerBound(encodedSortValue: string): string {
  return escapePart(encodedSortValue) + TERMINATOR;
}

/** A key just above every entry with this index sort value (an upper bound for reversed Query). */
export function entryUpperBound(encodedSortValue: string): string {
  return `${escapePart(encodedSortValue)}\u0000\u0002`;
}

function scalarOf(item: AttributeMap, name: string, type: ScalarKeyType): string | undefined {
  const value = getAttribute(item, name) as Record<string, unknown> | undefined;
  const scalar = value?.[type];
  return typeof scalar === 'string' ? scalar : undefined;
}

/** Whether a key value of its declared type can key an index entry (non-empty S/B, within size). */
export function fits(type: ScalarKeyType, value: string, isHash: boolean): boolean {
  if (type === 'N') return true;
  if (value === '') return false;
  const limit = isHash ? MAX_HASH_KEY_BYTES : MAX_RANGE_KEY_BYTES;
  // A UTF-16 unit is at most 3 UTF-8 bytes: short strings fit without being measured.
  if (value.length * 3 <= limit) return true;
  return (type === 'S' ? utf8Length(value) : base64ByteLength(value)) <= limit;
}

export interface EntryKey {
  /** Encoded index partition key. */
  hashKey: string;
  /** Index sort value ‖ tie-breaker (see above). */
  rangeKey: string;
}

/**
 * The entry key of an item in an index, or undefined when the item is not in it: an index key
 * attribute is missing, of another type, empty or too large (sparse indexes; items that violate
 * an index added later stay out of it, docs/dynamodb.md §3.3.6).
 */
export function entryKeyOf(index: SecondaryIndex, table: Table, item: AttributeMap): EntryKey | undefined {
  // Multi-attribute keys have their own room (compositeKey.ts).
  if (isComposite(index)) return compositeEntryKey(compositeKeyOf(index, table)!, table, item);
  const { hash, range } = index.key;
  const hashValue = scalarOf(item, hash.name, hash.type);
  if (hashValue === undefined || !fits(hash.type, hashValue, true)) return undefined;
  let rangeValue: string | undefined;
  if (range) {
    rangeValue = scalarOf(item, range.name, range.type);
    if (rangeValue === undefined || !fits(range.type, rangeValue, false)) return undefined;
  }
  const tableHash = scalarOf(item, table.key.hash.name, table.key.hash.type)!;
  const tableRange = table.key.range
    ? scalarOf(item, table.key.range.name, table.key.range.type)!
    : undefined;
  if (index.kind === 'GSI') return globalEntryKey(index, table, hashValue, rangeValue, tableHash, tableRange);
  const sortValue = range ? encodeKeyValue(range.type, rangeValue!) : '';
  const tieBreaker = table.key.range ? encodeKeyValue(table.key.range.type, tableRange!) : '';
  return {
    hashKey: encodeKeyValue(hash.type, hashValue),
    rangeKey: escapePart(sortValue) + TERMINATOR + tieBreaker,
  };
}

/**
 * The entry key of a GSI entry from its key values (already checked with `fits`): what
 * `entryKeyOf` computes from an item, for callers that read the values from stored text.
 */
export function globalEntryKey(
  index: SecondaryIndex,
  table: Table,
  hashValue: string,
  rangeValue: string | undefined,
  tableHash: string,
  tableRange: string | undefined,
): EntryKey {
  const range = index.key.range;
  const sortValue = range ? encodeKeyValue(range.type, rangeValue!) : '';
  return {
    hashKey: encodeKeyValue(index.key.hash.type, hashValue),
    rangeKey: escapePart(sortValue) + globalTieSuffix(table, tableHash, tableRange),
  };
}

/**
 * The last GSI tie-breaker computed (by the table's key shape, not the table: a deleted table is
 * not kept alive). A change is applied as remove(old) then put(new) on each index, all with the
 * same table key: one MD5 per change instead of one per entry (4 with two GSIs; bench/gsi.ts:
 * ~0.7 µs each and 3 Buffers of garbage).
 */
let lastTie: { key: Table['key']; hash: string; range: string | undefined; suffix: string } | undefined;

/**
 * What follows the sort value in a GSI entry's sort key: the terminator, then the tie-breaker
 * (the table key's scan-order hash, then the table key itself).
 */
function globalTieSuffix(table: Table, tableHash: string, tableRange: string | undefined): string {
  const last = lastTie;
  if (last !== undefined && last.key === table.key && last.hash === tableHash && last.range === tableRange)
    return last.suffix;
  const suffix = tieSuffix(table, tableHash, tableRange);
  lastTie = { key: table.key, hash: tableHash, range: tableRange, suffix };
  return suffix;
}

/** `globalTieSuffix` without the cache (for a caller that makes it once per change itself). */
export function tieSuffix(table: Table, tableHash: string, tableRange: string | undefined): string {
  const { hash, range } = table.key;
  const suffix =
    TERMINATOR +
    scanHashPrefixOf(hash.type, tableHash, range?.type, tableRange) +
    escapePart(encodeKeyValue(hash.type, tableHash)) +
    TERMINATOR +
    (range ? encodeKeyValue(range.type, tableRange!) : '');
  suffix.charCodeAt(suffix.length >> 1); // flatten once: it is appended to up to 2 keys per index
  return suffix;
}

/**
 * `scanHashPrefix(keyHashBytes(hash), keyHashBytes(range))`. String keys hash as their UTF-8
 * bytes, which is what `hash()` makes of a string: hashing "Outliers" ‖ hash ‖ range as one
 * string gives the same digest without allocating Buffers.
 *
 * Node's one-shot `hash` is the fastest MD5 measured for these ~35-byte inputs: 0.32–0.46 µs,
 * against js-md5 0.54, spark-md5 0.73, hash-wasm 0.74 and @noble/hashes 2.4 µs, and 0.55–0.85 µs
 * for an allocation-free RFC 1321 block written for this in JS (loop and unrolled forms). Asking
 * for 'latin1' or a Buffer instead of 'hex' saves nothing (0.40–0.47 and 1.05 µs).
 */
function scanHashPrefixOf(
  hashType: ScalarKeyType,
  hashValue: string,
  rangeType: ScalarKeyType | undefined,
  rangeValue: string | undefined,
): string {
  if (hashType === 'S' && (rangeType === undefined || rangeType === 'S'))
    return digest('md5', `Outliers${hashValue}${rangeValue ?? ''}`, 'hex').slice(0, 6);
  const rangeBytes = rangeType === undefined ? undefined : keyHashBytes(rangeType, rangeValue!);
  return scanHashPrefix(keyHashBytes(hashType, hashValue), rangeBytes);
}

/** Decodes an index partition key back to its wire value (for LastEvaluatedKey). */
export function decodeIndexHash(index: SecondaryIndex, hashKey: string): string {
  return decodeKeyValue(index.key.hash.type, hashKey);
}

function definedScalarOf(item: AttributeMap, definition: KeyDefinition): string | undefined {
  const value = getAttribute(item, definition.name) as Record<string, unknown> | undefined;
  const scalar = value?.[definition.type];
  return typeof scalar === 'string' ? scalar : undefined;
}

/** The scalars of `definitions` in an item, or undefined when one is missing or cannot key. */
function valuesOf(
  item: AttributeMap,
  definitions: readonly KeyDefinition[],
  isHash: boolean,
): string[] | undefined {
  const values: string[] = [];
  for (const definition of definitions) {
    const value = definedScalarOf(item, definition);
    if (value === undefined || !fits(definition.type, value, isHash)) return undefined;
    values.push(value);
  }
  return values;
}

/**
 * The entry key of an item in a multi-attribute GSI, or undefined when the item is not in it: an
 * item is indexed only when it has every key attribute, of its declared type and non-empty
 * (moto's aws_verified `test_items_missing_range_key_excluded`, 2026).
 */
function compositeEntryKey(composite: CompositeKey, table: Table, item: AttributeMap): EntryKey | undefined {
  const hashValues = valuesOf(item, composite.hash, true);
  if (hashValues === undefined) return undefined;
  const rangeValues = valuesOf(item, composite.range, false);
  if (rangeValues === undefined) return undefined;
  const tableHash = definedScalarOf(item, table.key.hash)!;
  const tableRange = table.key.range ? definedScalarOf(item, table.key.range)! : undefined;
  const sortValue = composite.range.length === 0 ? '' : joinKeyValues(composite.range, rangeValues);
  return {
    hashKey: joinKeyValues(composite.hash, hashValues),
    rangeKey: escapePart(sortValue) + tieSuffix(table, tableHash, tableRange),
  };
}
