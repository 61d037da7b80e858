import { type AttributeValue, type Item, typeOf } from '../model/attributeValue.js';
import { base64ByteLength } from '../model/binary.js';
import { attributeValuesEqual, compareScalars } from '../model/compare.js';
import { compareNumbers } from '../model/number.js';
import { listOf, mapOf, readPath } from './paths.js';
import type { Condition, Operand } from './resolved.js';

/**
 * Condition evaluation (docs/dynamodb.md §5.2.5). A missing operand makes every comparison, BETWEEN, IN,
 * begins_with and contains false, except `<>`, which is true; values of different types are
 * unequal and unordered; N orders numerically, S by UTF-8 bytes, B by unsigned bytes; sets are
 * unordered. Evaluation never throws.
 */
export function evaluateCondition(condition: Condition, item: Item | undefined): boolean {
  switch (condition.kind) {
    case 'and':
      return evaluateCondition(condition.left, item) && evaluateCondition(condition.right, item);
    case 'or':
      return evaluateCondition(condition.left, item) || evaluateCondition(condition.right, item);
    case 'not':
      return !evaluateCondition(condition.operand, item);
    case 'true':
      return true;
    case 'compare': {
      const left = operandValue(condition.left, item);
      const right = operandValue(condition.right, item);
      if (condition.operator === '<>') {
        return left === undefined || right === undefined || !attributeValuesEqual(left, right);
      }
      if (left === undefined || right === undefined) return false;
      if (condition.operator === '=') return attributeValuesEqual(left, right);
      const order = compareScalars(left, right);
      if (order === undefined) return false;
      switch (condition.operator) {
        case '<':
          return order < 0;
        case '<=':
          return order <= 0;
        case '>':
          return order > 0;
        default:
          return order >= 0;
      }
    }
    case 'between': {
      const value = operandValue(condition.operand, item);
      const lower = operandValue(condition.lower, item);
      const upper = operandValue(condition.upper, item);
      if (value === undefined || lower === undefined || upper === undefined) return false;
      const low = compareScalars(lower, value);
      const high = compareScalars(value, upper);
      return low !== undefined && high !== undefined && low <= 0 && high <= 0;
    }
    case 'in': {
      const value = operandValue(condition.operand, item);
      if (value === undefined) return false;
      for (const candidate of condition.list) {
        const other = operandValue(candidate, item);
        if (other !== undefined && attributeValuesEqual(value, other)) return true;
      }
      return false;
    }
    case 'exists':
      return readPath(item, condition.path) !== undefined;
    case 'notExists':
      return readPath(item, condition.path) === undefined;
    case 'type': {
      const value = operandValue(condition.operand, item);
      return value !== undefined && typeOf(value) === condition.type;
    }
    case 'beginsWith': {
      const value = operandValue(condition.operand, item);
      const prefix = operandValue(condition.prefix, item);
      return value !== undefined && prefix !== undefined && beginsWith(value, prefix);
    }
    case 'contains':
    case 'notContains': {
      const value = operandValue(condition.operand, item);
      const member = operandValue(condition.member, item);
      if (value === undefined || member === undefined) return false;
      return contains(value, member) === (condition.kind === 'contains');
    }
  }
}

export function operandValue(operand: Operand, item: Item | undefined): AttributeValue | undefined {
  switch (operand.kind) {
    case 'path':
      return readPath(item, operand.path);
    case 'value':
      return operand.value;
    case 'size': {
      const value = operandValue(operand.operand, item);
      const size = value === undefined ? undefined : sizeOf(value);
      return size === undefined ? undefined : { N: String(size) };
    }
  }
}

/**
 * `size()`: the length of a string in UTF-16 code units (docs/dynamodb.md §5.2.5: verified for ASCII only; a
 * 2026 report checked against AWS found `size("é𝄞") = 3`, https://github.com/ExtendDB/extenddb/pull/67),
 * bytes of a binary, members of a set, elements of a list, entries of a map. N, BOOL and NULL
 * have no size: the comparison using it is false (docs/dynamodb.md §5.2.5).
 */
export function sizeOf(value: AttributeValue): number | undefined {
  switch (typeOf(value)) {
    case 'S':
      return (value as { S: string }).S.length;
    case 'B':
      return base64ByteLength((value as { B: string }).B);
    case 'SS':
    case 'NS':
    case 'BS':
      return (value as Record<string, string[]>)[typeOf(value)]!.length;
    case 'L':
      return listOf(value)!.length;
    case 'M':
      return Object.keys(mapOf(value)!).length;
    default:
      return undefined;
  }
}

function beginsWith(value: AttributeValue, prefix: AttributeValue): boolean {
  const type = typeOf(value);
  if (type !== typeOf(prefix)) return false;
  if (type === 'S') return (value as { S: string }).S.startsWith((prefix as { S: string }).S);
  if (type !== 'B') return false;
  const bytes = Buffer.from((value as { B: string }).B, 'base64');
  const start = Buffer.from((prefix as { B: string }).B, 'base64');
  return bytes.length >= start.length && bytes.subarray(0, start.length).equals(start);
}

/** Substring of S or B; membership in a set (matching scalar type) or a list (any type). */
export function contains(value: AttributeValue, member: AttributeValue): boolean {
  const type = typeOf(value);
  const memberType = typeOf(member);
  switch (type) {
    case 'S':
      return memberType === 'S' && (value as { S: string }).S.includes((member as { S: string }).S);
    case 'B':
      return (
        memberType === 'B' &&
        Buffer.from((value as { B: string }).B, 'base64').includes(
          Buffer.from((member as { B: string }).B, 'base64'),
        )
      );
    case 'SS':
      return memberType === 'S' && (value as { SS: string[] }).SS.includes((member as { S: string }).S);
    case 'BS':
      return memberType === 'B' && (value as { BS: string[] }).BS.includes((member as { B: string }).B);
    case 'NS': {
      if (memberType !== 'N') return false;
      const wanted = (member as { N: string }).N;
      return (value as { NS: string[] }).NS.some((number) => compareNumbers(number, wanted) === 0);
    }
    case 'L':
      return listOf(value)!.some((element) => attributeValuesEqual(element, member));
    default:
      return false;
  }
}
