import { ValidationException } from '../../errors/index.js';
import type { KeyConditionPart } from '../../expressions/index.js';
import type { AttributeValue } from '../../model/attributeValue.js';
import { compareScalars } from '../../model/compare.js';
import { encodeKeyValue } from '../../model/keyCodec.js';
import type { KeyShape } from '../../store/table.js';

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

export function planKeyRange(parts: readonly KeyConditionPart[], key: KeyShape): KeyRange {
  const hashPart = parts.find((part) => part.attributeName === key.hash.name);
  if (hashPart === undefined)
    throw new ValidationException(`Query condition missed key schema element: ${key.hash.name}`);
  const rangePart = parts.find((part) => part !== hashPart);
  if (rangePart !== undefined) {
    if (key.range === undefined) throw new ValidationException('Query key condition not supported');
    if (rangePart.attributeName !== key.range.name) {
      throw new ValidationException(`Query condition missed key schema element: ${key.range.name}`);
    }
  }
  if (hashPart.operator !== '=') throw new ValidationException('Query key condition not supported');
  const hashValue = scalarOf(hashPart.values[0]!, key.hash.type);
  if (hashValue === undefined) throw typeMismatch();
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
