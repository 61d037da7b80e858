import { type AttributeMap, getAttribute, type ScalarKeyType } from '../model/attributeValue.js';
import { base64ByteLength } from '../model/binary.js';
import { decodeKeyValue, encodeKeyValue, keyHashBytes, scanHashPrefix } from '../model/keyCodec.js';
import { utf8Length } from '../model/utf8.js';
import type { SecondaryIndex, Table } from '../store/table.js';
import { MAX_HASH_KEY_BYTES, MAX_RANGE_KEY_BYTES } from '../validations/keys.js';

/**
 * Where an item sits in an index. Index key values need not be unique, so an entry's sort key is
 * the index sort value followed by a tie-breaker that makes it unique:
 *
 * - GSI: the table key, ordered by the hash of its bytes, as the service orders items sharing a
 *   GSI key (spec §6.3.3, §6.4.2), then the table key itself;
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

function fits(type: ScalarKeyType, value: string, isHash: boolean): boolean {
  if (type !== 'N' && value === '') return false;
  const bytes = type === 'S' ? utf8Length(value) : type === 'B' ? base64ByteLength(value) : 0;
  return bytes <= (isHash ? MAX_HASH_KEY_BYTES : MAX_RANGE_KEY_BYTES);
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
 * an index added later stay out of it, spec §3.3.6).
 */
export function entryKeyOf(index: SecondaryIndex, table: Table, item: AttributeMap): EntryKey | undefined {
  const { hash, range } = index.key;
  const hashValue = scalarOf(item, hash.name, hash.type);
  if (hashValue === undefined || !fits(hash.type, hashValue, true)) return undefined;
  let sortValue = '';
  if (range) {
    const rangeValue = scalarOf(item, range.name, range.type);
    if (rangeValue === undefined || !fits(range.type, rangeValue, false)) return undefined;
    sortValue = encodeKeyValue(range.type, rangeValue);
  }
  const tableHash = scalarOf(item, table.key.hash.name, table.key.hash.type)!;
  const tableRange = table.key.range
    ? scalarOf(item, table.key.range.name, table.key.range.type)!
    : undefined;
  const tableRangeEncoded = table.key.range ? encodeKeyValue(table.key.range.type, tableRange!) : '';
  let tieBreaker: string;
  if (index.kind === 'LSI') {
    tieBreaker = tableRangeEncoded;
  } else {
    const hashBytes = keyHashBytes(table.key.hash.type, tableHash);
    const rangeBytes = table.key.range ? keyHashBytes(table.key.range.type, tableRange!) : undefined;
    tieBreaker =
      scanHashPrefix(hashBytes, rangeBytes) +
      escapePart(encodeKeyValue(table.key.hash.type, tableHash)) +
      TERMINATOR +
      tableRangeEncoded;
  }
  return {
    hashKey: encodeKeyValue(hash.type, hashValue),
    rangeKey: escapePart(sortValue) + TERMINATOR + tieBreaker,
  };
}

/** Decodes an index partition key back to its wire value (for LastEvaluatedKey). */
export function decodeIndexHash(index: SecondaryIndex, hashKey: string): string {
  return decodeKeyValue(index.key.hash.type, hashKey);
}
