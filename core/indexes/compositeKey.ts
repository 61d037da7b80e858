import { createHash } from 'node:crypto';
import { encodeKeyValue, partitionScanKey } from '../model/keyCodec.js';
import type { KeyDefinition, SecondaryIndex, Table } from '../store/table.js';

/**
 * Multi-attribute GSI keys (DynamoDB, November 2025; docs/multi-attribute-keys.md): a GSI's key
 * schema may name up to 4 HASH and up to 4 RANGE attributes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html).
 *
 * An entry's partition key is its HASH values joined, its sort value its RANGE values joined, each
 * value encoded order-preservingly (`keyCodec.ts`) then escaped and terminated as the parts of an
 * entry key are (`entryKey.ts`): comparing joined strings compares the attributes one after
 * another in key-schema order, each by its own type, which is the order the service returns
 * (verified against real AWS in October 2026 by a public conformance suite: "Items sort by the
 * RANGE attributes in the order the key schema lists them, compared one after another"). One
 * HASH (or one RANGE) attribute is encoded as a classic key is, so such an index reads like one.
 */
export interface CompositeKey {
  readonly hash: readonly KeyDefinition[];
  readonly range: readonly KeyDefinition[];
}

/** The part terminator and NUL escape of entry keys (`entryKey.ts`), kept here without a cycle. */
const TERMINATOR = '\u0000\u0000';
const escapePart = (encoded: string) =>
  encoded.includes('\u0000') ? encoded.replaceAll('\u0000', '\u0000\u0001') : encoded;
const composites = new WeakMap<SecondaryIndex, CompositeKey | null>();

/** Whether an index key names more than one HASH or more than one RANGE attribute. */
export function isComposite(index: SecondaryIndex): boolean {
  const schema = index.keySchema;
  return schema.length > 2 || (schema.length === 2 && schema[1]!.KeyType === 'HASH');
}

/** The index's attributes by role, or undefined for a classic one-HASH/one-RANGE key. */
export function compositeKeyOf(index: SecondaryIndex, table: Table): CompositeKey | undefined {
  if (!isComposite(index)) return undefined;
  let composite = composites.get(index);
  if (composite === undefined) {
    const typeOf = (name: string) =>
      table.attributeDefinitions.find((definition) => definition.AttributeName === name)?.AttributeType ??
      'S';
    const of = (keyType: 'HASH' | 'RANGE') =>
      index.keySchema
        .filter((element) => element.KeyType === keyType)
        .map((element) => ({ name: element.AttributeName, type: typeOf(element.AttributeName) }));
    composite = { hash: of('HASH'), range: of('RANGE') };
    composites.set(index, composite);
  }
  return composite ?? undefined;
}

/** Encodes key values (scalars, in `definitions` order) as one order-preserving string. */
export function joinKeyValues(definitions: readonly KeyDefinition[], values: readonly string[]): string {
  if (definitions.length === 1) return encodeKeyValue(definitions[0]!.type, values[0]!);
  let joined = '';
  for (let i = 0; i < values.length; i++)
    joined += escapePart(encodeKeyValue(definitions[i]!.type, values[i]!)) + TERMINATOR;
  return joined;
}

/**
 * Where a partition of a multi-attribute index comes in a Scan: the hash of its joined key, then
 * the key (the service hashes the HASH values together, docs/multi-attribute-keys.md; its exact
 * bytes are not documented, so eddy's Scan order of such an index is its own, stable one).
 */
export function compositeScanKey(composite: CompositeKey, hashKey: string): string {
  if (composite.hash.length === 1) return partitionScanKey(composite.hash[0]!.type, hashKey);
  return createHash('md5').update(hashKey, 'utf8').digest('hex').slice(0, 6) + hashKey;
}
