import { type AttributeValue, getAttribute, typeOf } from './attributeValue.js';
import { compareBinary } from './binary.js';
import { compareNumbers } from './number.js';
import { compareUtf8 } from './utf8.js';

/**
 * Equality and ordering of attribute values as conditions evaluate them (docs/dynamodb.md §5.2.5): values of
 * different types are unequal and unordered; N compares numerically, S by UTF-8 bytes, B by
 * unsigned bytes; sets ignore order (also nested); lists compare element-wise; maps by entries.
 */
export function attributeValuesEqual(a: AttributeValue, b: AttributeValue): boolean {
  const type = typeOf(a);
  if (type !== typeOf(b)) return false;
  switch (type) {
    case 'S':
      return (a as { S: string }).S === (b as { S: string }).S;
    case 'N':
      return compareNumbers((a as { N: string }).N, (b as { N: string }).N) === 0;
    case 'B':
      return compareBinary((a as { B: string }).B, (b as { B: string }).B) === 0;
    case 'BOOL':
      return (a as { BOOL: boolean }).BOOL === (b as { BOOL: boolean }).BOOL;
    case 'NULL':
      return true;
    case 'SS':
    case 'NS':
    case 'BS': {
      const left = (a as Record<string, string[]>)[type]!;
      const right = (b as Record<string, string[]>)[type]!;
      if (left.length !== right.length) return false;
      const members = new Set(left);
      return right.every((member) => members.has(member));
    }
    case 'L': {
      const left = (a as { L: AttributeValue[] }).L;
      const right = (b as { L: AttributeValue[] }).L;
      return (
        left.length === right.length && left.every((element, i) => attributeValuesEqual(element, right[i]!))
      );
    }
    case 'M': {
      const left = (a as { M: Record<string, AttributeValue> }).M;
      const right = (b as { M: Record<string, AttributeValue> }).M;
      const names = Object.keys(left);
      if (names.length !== Object.keys(right).length) return false;
      return names.every((name) => {
        const other = getAttribute(right, name);
        return other !== undefined && attributeValuesEqual(left[name]!, other);
      });
    }
  }
}

/**
 * Orders two scalar values of the same type (N, S or B). Returns `undefined` when they are not
 * comparable (different or non-scalar types), which makes every ordering comparison false.
 */
export function compareScalars(a: AttributeValue, b: AttributeValue): number | undefined {
  if ('N' in a && 'N' in b) return compareNumbers(a.N, b.N);
  if ('S' in a && 'S' in b) return compareUtf8(a.S, b.S);
  if ('B' in a && 'B' in b) return compareBinary(a.B, b.B);
  return undefined;
}

/**
 * Whole items are equal when they hold the same names with equal values (no-op writes,
 * docs/streams-and-lambda.md §1.3.3).
 */
export function itemsEqual(a: Record<string, AttributeValue>, b: Record<string, AttributeValue>): boolean {
  return attributeValuesEqual({ M: a }, { M: b });
}
