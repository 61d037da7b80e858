import { ValidationException } from '../../errors/index.js';
import type { KeyConditionPart } from '../../expressions/index.js';
import type { AttributeValue } from '../../model/attributeValue.js';
import { compareScalars } from '../../model/compare.js';
import { encodeKeyValue } from '../../model/keyCodec.js';
import type { KeyDefinition, KeyShape } from '../../store/table.js';
import { KeyMessages } from '../../validations/keys.js';

/**
 * A Query's key condition checked against the key schema (docs/dynamodb.md §6.1.3) and turned into a
 * partition key and bounds on the encoded sort key.
 */
export interface KeyRange {
  /** Encoded partition key. */
  hashKey: string;
  /** The sort-key condition, if any. */
  range: KeyConditionPart | undefined;
  lower: { key: string; inclusive: boolean } | undefined;
  upper: { key: string; inclusive: boolean } | undefined;
  /** begins_with: every encoded sort key in range starts with this. */
  prefix: string | undefined;
}

function scalarOf(value: AttributeValue, type: string): string | undefined {
  return (value as Record<string, unknown>)[type] as string | undefined;
}

const typeMismatch = () =>
  new ValidationException(
    'One or more parameter values were invalid: Condition parameter type does not match schema type',
  );

/**
 * Plans a Query's key condition, walking the key schema as the service does (recorded in
 * dynalite's tests, docs/dynamodb.md §6.1.3): for the partition key, then the sort key,
 *
 * 1. `beforeAttribute` (the start key's piece for that attribute, docs/dynamodb.md §6.2.5);
 * 2. on a table or index without a sort key, more than one condition: `Query key condition not
 *    supported` (so `y = :a and z = :a` reads so, not as a missing key);
 * 3. no condition on it: `Query condition missed key schema element: <k>` (for the sort key only
 *    when there are two conditions);
 * 4. a legacy operator that cannot drive a lookup (NULL, NE, IN…): not indexable;
 * 5. a value of another type: the schema type mismatch;
 * 6. the partition key compared with anything but `=`: not supported;
 * 7. an empty S or B value: the empty key text of docs/dynamodb.md §2.3.3 (2026).
 */
export function planKeyRange(
  parts: readonly KeyConditionPart[],
  key: KeyShape,
  beforeAttribute?: (definition: KeyDefinition, isHash: boolean) => void,
): KeyRange {
  let hashPart: KeyConditionPart | undefined;
  let rangePart: KeyConditionPart | undefined;
  const walk = (definition: KeyDefinition, isHash: boolean): void => {
    beforeAttribute?.(definition, isHash);
    if (isHash && key.range === undefined && parts.length > 1)
      throw new ValidationException('Query key condition not supported');
    const part = parts.find((candidate) => candidate.attributeName === definition.name);
    if (part === undefined) {
      if (isHash || parts.length > 1)
        throw new ValidationException(`Query condition missed key schema element: ${definition.name}`);
      return;
    }
    if (part.notIndexable)
      throw new ValidationException('Attempted conditional constraint is not an indexable operation');
    const scalars = part.values.map((value) => scalarOf(value, definition.type));
    if (scalars.some((scalar) => scalar === undefined)) throw typeMismatch();
    if (isHash && part.operator !== '=') throw new ValidationException('Query key condition not supported');
    if (definition.type !== 'N' && scalars.includes('')) {
      throw new ValidationException(KeyMessages.emptyInItem(definition.name, definition.type));
    }
    if (isHash) hashPart = part;
    else rangePart = part;
  };
  walk(key.hash, true);
  if (key.range !== undefined) walk(key.range, false);
  const hashValue = scalarOf(hashPart!.values[0]!, key.hash.type)!;
  const result: KeyRange = {
    hashKey: encodeKeyValue(key.hash.type, hashValue),
    range: rangePart,
    lower: undefined,
    upper: undefined,
    prefix: undefined,
  };
  if (rangePart === undefined || key.range === undefined) return result;
  const rangeType = key.range.type;
  const encoded = rangePart.values.map((value) => {
    const scalar = scalarOf(value, rangeType);
    if (scalar === undefined) throw typeMismatch();
    return encodeKeyValue(rangeType, scalar);
  });
  const [first, second] = encoded as [string, string | undefined];
  switch (rangePart.operator) {
    case '=':
      result.lower = { key: first, inclusive: true };
      result.upper = { key: first, inclusive: true };
      break;
    case '<':
      result.upper = { key: first, inclusive: false };
      break;
    case '<=':
      result.upper = { key: first, inclusive: true };
      break;
    case '>':
      result.lower = { key: first, inclusive: false };
      break;
    case '>=':
      result.lower = { key: first, inclusive: true };
      break;
    case 'BETWEEN':
      result.lower = { key: first, inclusive: true };
      result.upper = { key: second!, inclusive: true };
      break;
    case 'begins_with':
      if (rangeType === 'N') {
        throw new ValidationException(
          'Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N',
        );
      }
      result.lower = { key: first, inclusive: true };
      result.prefix = first;
      break;
  }
  return result;
}

/** Whether an encoded sort key satisfies the range (used to place iteration and check start keys). */
export function inRange(range: KeyRange, encodedSortKey: string): boolean {
  if (range.prefix !== undefined) return encodedSortKey.startsWith(range.prefix);
  if (range.lower) {
    if (encodedSortKey < range.lower.key || (!range.lower.inclusive && encodedSortKey === range.lower.key))
      return false;
  }
  if (range.upper) {
    if (encodedSortKey > range.upper.key || (!range.upper.inclusive && encodedSortKey === range.upper.key))
      return false;
  }
  return true;
}

/** Exact evaluation of the sort-key condition on a value (for start-key checks). */
export function satisfiesRange(part: KeyConditionPart, value: AttributeValue): boolean {
  const compare = (other: AttributeValue) => compareScalars(value, other);
  switch (part.operator) {
    case '=':
      return compare(part.values[0]!) === 0;
    case '<':
      return (compare(part.values[0]!) ?? 0) < 0;
    case '<=':
      return (compare(part.values[0]!) ?? 1) <= 0;
    case '>':
      return (compare(part.values[0]!) ?? 0) > 0;
    case '>=':
      return (compare(part.values[0]!) ?? -1) >= 0;
    case 'BETWEEN':
      return (compare(part.values[0]!) ?? -1) >= 0 && (compare(part.values[1]!) ?? 1) <= 0;
    case 'begins_with': {
      const prefix = part.values[0]!;
      if ('S' in value && 'S' in prefix) return value.S.startsWith(prefix.S);
      if ('B' in value && 'B' in prefix) {
        return Buffer.from(value.B, 'base64')
          .subarray(0, Buffer.from(prefix.B, 'base64').length)
          .equals(Buffer.from(prefix.B, 'base64'));
      }
      return false;
    }
  }
}
