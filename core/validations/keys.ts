import { ValidationException } from '../errors/index.js';
import {
  type AttributeMap,
  type AttributeValue,
  getAttribute,
  newFastAttributeMap,
  type ScalarKeyType,
  setAttribute,
} from '../model/attributeValue.js';
import { base64ByteLength } from '../model/binary.js';
import { encodeKeyValue } from '../model/keyCodec.js';
import { utf8Length } from '../model/utf8.js';
import type { KeyDefinition, KeyShape, SecondaryIndex, Table } from '../store/table.js';

/**
 * Keys checked against a table's schema (docs/dynamodb.md §2.3, §4.1). The checks run after the table lookup,
 * so their messages carry no `1 validation error detected: ` prefix.
 */
export const MAX_HASH_KEY_BYTES = 2048;
export const MAX_RANGE_KEY_BYTES = 1024;

export const KeyMessages = {
  schemaMismatch: 'The provided key element does not match the schema',
  missingInItem: (name: string) =>
    `One or more parameter values were invalid: Missing the key ${name} in the item`,
  typeMismatch: (name: string, expected: string, actual: string) =>
    `One or more parameter values were invalid: Type mismatch for key ${name} expected: ${expected} actual: ${actual}`,
  emptyInItem: (name: string, type: ScalarKeyType) =>
    `One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty ${
      type === 'B' ? 'binary' : 'string'
    } value. Key: ${name}`,
  // In `Key` too since 2026 (GetItem, BatchGetItem, BatchWriteItem's DeleteRequest); before, a
  // Key read `One or more parameter values were invalid: The AttributeValue …` (docs/dynamodb.md §2.3.3).
  emptyInKey: (name: string, type: ScalarKeyType) =>
    `One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty ${
      type === 'B' ? 'binary' : 'string'
    } value. Key: ${name}`,
  // "of2048" is verbatim (docs/dynamodb.md §2.3.2).
  hashTooLarge:
    'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes',
  rangeTooLarge:
    'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes',
  indexTypeMismatch: (name: string, expected: string, actual: string, index: string) =>
    `One or more parameter values were invalid: Type mismatch for Index Key ${name} Expected: ${expected} Actual: ${actual} IndexName: ${index}`,
  emptyIndexKey: (name: string, index: string) =>
    `One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: ${index}, IndexKey: ${name}`,
} as const;

const EMPTY_KEYS: AttributeMap = Object.freeze(Object.create(null));

/** A table key, extracted and encoded. */
export interface ExtractedKey {
  /** Encoded partition key (`encodeKeyValue`). */
  hashKey: string;
  /** Encoded sort key, or '' for hash-only tables. */
  rangeKey: string;
  /** The key attributes as an attribute map (what `Keys` shows in stream records). */
  keys: AttributeMap;
}

function scalarOf(value: AttributeValue, type: ScalarKeyType): string | undefined {
  return (value as Record<string, unknown>)[type] as string | undefined;
}

function keyByteLength(type: ScalarKeyType, value: string): number {
  if (type === 'S') return utf8Length(value);
  if (type === 'B') return base64ByteLength(value);
  return 0; // Number keys are not size-checked (docs/dynamodb.md §2.3.2).
}

function typeName(value: AttributeValue): string {
  for (const key in value) return key;
  return '';
}

function checkKeySize(definition: KeyDefinition, value: string, isHash: boolean): void {
  // A UTF-16 code unit is at most 3 UTF-8 bytes and base64 text is longer than its bytes: a short
  // key fits without measuring (Buffer.byteLength was ~5% of a GetItem, measured).
  if (value.length * 3 <= MAX_RANGE_KEY_BYTES) return;
  const bytes = keyByteLength(definition.type, value);
  if (isHash && bytes > MAX_HASH_KEY_BYTES) throw new ValidationException(KeyMessages.hashTooLarge);
  if (!isHash && bytes > MAX_RANGE_KEY_BYTES) throw new ValidationException(KeyMessages.rangeTooLarge);
}

/**
 * Extracts the table key from a whole item (PutItem's `Item`), with the Item-flavoured messages.
 * BatchWriteItem's PutRequest reports a key of another type as `The provided key element does not
 * match the schema` (`typeMismatch: 'schema'`, recorded in four regions in 2026 and in dynalite's
 * tests, docs/dynamodb.md §4.1.3).
 */
export function extractItemKey(
  item: AttributeMap,
  key: KeyShape,
  typeMismatch: 'item' | 'schema' = 'item',
): ExtractedKey {
  const keys = newFastAttributeMap();
  const hashKey = itemKeyPart(item, key.hash, true, keys, typeMismatch);
  const rangeKey = key.range ? itemKeyPart(item, key.range, false, keys, typeMismatch) : '';
  return { hashKey, rangeKey, keys };
}

function itemKeyPart(
  item: AttributeMap,
  definition: KeyDefinition,
  isHash: boolean,
  keys: AttributeMap,
  typeMismatch: 'item' | 'schema',
): string {
  const value = getAttribute(item, definition.name);
  if (value === undefined) throw new ValidationException(KeyMessages.missingInItem(definition.name));
  const scalar = scalarOf(value, definition.type);
  if (scalar === undefined) {
    throw new ValidationException(
      typeMismatch === 'schema'
        ? KeyMessages.schemaMismatch
        : KeyMessages.typeMismatch(definition.name, definition.type, typeName(value)),
    );
  }
  if (scalar === '' && definition.type !== 'N') {
    throw new ValidationException(KeyMessages.emptyInItem(definition.name, definition.type));
  }
  checkKeySize(definition, scalar, isHash);
  setAttribute(keys, definition.name, keyValue(definition.type, scalar));
  return encodeKeyValue(definition.type, scalar);
}

/** A fresh key value: events keep key values, so they never share the caller's objects. */
function keyValue(type: ScalarKeyType, scalar: string): AttributeValue {
  return (type === 'S' ? { S: scalar } : type === 'N' ? { N: scalar } : { B: scalar }) as AttributeValue;
}

/** Encoded key of a `Key` parameter, checked like `extractKey`, for reads (no key map built). */
export function encodeKey(key: AttributeMap, shape: KeyShape): { hashKey: string; rangeKey: string } {
  return extractKey(key, shape, false);
}

/** Extracts a table key from a `Key` parameter: exactly the key attributes, correctly typed. */
export function extractKey(key: AttributeMap, shape: KeyShape, buildKeys = true): ExtractedKey {
  const expectedCount = shape.range ? 2 : 1;
  let count = 0;
  for (const _ in key) count++;
  if (count !== expectedCount) throw new ValidationException(KeyMessages.schemaMismatch);
  const keys = buildKeys ? newFastAttributeMap() : undefined;
  const hashKey = keyPart(key, shape.hash, true, keys);
  const rangeKey = shape.range ? keyPart(key, shape.range, false, keys) : '';
  return { hashKey, rangeKey, keys: keys ?? EMPTY_KEYS };
}

function keyPart(
  key: AttributeMap,
  definition: KeyDefinition,
  isHash: boolean,
  keys: AttributeMap | undefined,
): string {
  const scalar = checkKeyPiece(key, definition, isHash);
  if (keys !== undefined) setAttribute(keys, definition.name, keyValue(definition.type, scalar));
  return encodeKeyValue(definition.type, scalar);
}

/**
 * One attribute of a `Key` (or a start key) against its definition: present with the declared
 * type, not empty, within the size limits (docs/dynamodb.md §2.3, §4.1.2). Returns its scalar.
 */
export function checkKeyPiece(key: AttributeMap, definition: KeyDefinition, isHash: boolean): string {
  const value = getAttribute(key, definition.name);
  if (value === undefined) throw new ValidationException(KeyMessages.schemaMismatch);
  const scalar = scalarOf(value, definition.type);
  if (scalar === undefined) throw new ValidationException(KeyMessages.schemaMismatch);
  if (scalar === '' && definition.type !== 'N') {
    throw new ValidationException(KeyMessages.emptyInKey(definition.name, definition.type));
  }
  checkKeySize(definition, scalar, isHash);
  return scalar;
}

/**
 * Empty S or B values in the key attributes of a key or item, with the `are not valid` text. A
 * transaction answers these as a whole-request ValidationException before any action runs, where
 * a key of the wrong type cancels that action instead (2026, docs/dynamodb.md §7.3.6). Attributes
 * that are missing or of another type are left to the action.
 */
export function checkNoEmptyKeyValues(key: AttributeMap, shape: KeyShape): void {
  for (const definition of [shape.hash, shape.range]) {
    if (definition === undefined || definition.type === 'N') continue;
    const value = getAttribute(key, definition.name);
    if (value !== undefined && scalarOf(value, definition.type) === '')
      throw new ValidationException(KeyMessages.emptyInItem(definition.name, definition.type));
  }
}

/**
 * Checks the index key attributes an item carries (GSIs before LSIs, docs/dynamodb.md §4.1.3): a present
 * index key must have the declared type, must not be empty and must fit the key size limits.
 * An absent index key is fine: the item is simply not in that index.
 */
export function checkIndexKeys(item: AttributeMap, table: Table): void {
  if (table.globalSecondaryIndexes.size === 0 && table.localSecondaryIndexes.size === 0) return;
  // The two maps in turn, each key part by a call: no generator, no pair arrays. Walking
  // `secondaryIndexes()` with a [definition, isHash] array per index allocated ~0.7 KB a PutItem
  // with two GSIs (heap sampling, bench/gsi.ts's items), a quarter of what index upkeep allocates.
  for (const index of table.globalSecondaryIndexes.values()) checkIndexKey(item, index);
  for (const index of table.localSecondaryIndexes.values()) checkIndexKey(item, index);
}

function checkIndexKey(item: AttributeMap, index: SecondaryIndex): void {
  // LSIs share the table's hash key, already checked.
  if (index.kind !== 'LSI') checkIndexKeyPart(item, index, index.key.hash, true);
  if (index.key.range !== undefined) checkIndexKeyPart(item, index, index.key.range, false);
}

function checkIndexKeyPart(
  item: AttributeMap,
  index: SecondaryIndex,
  definition: KeyDefinition,
  isHash: boolean,
): void {
  const value = getAttribute(item, definition.name);
  if (value === undefined) return;
  const scalar = scalarOf(value, definition.type);
  if (scalar === undefined) {
    throw new ValidationException(
      KeyMessages.indexTypeMismatch(definition.name, definition.type, typeName(value), index.name),
    );
  }
  if (scalar === '' && definition.type !== 'N') {
    throw new ValidationException(KeyMessages.emptyIndexKey(definition.name, index.name));
  }
  checkKeySize(definition, scalar, isHash);
}
