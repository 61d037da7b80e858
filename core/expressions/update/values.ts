import { ValidationException } from '../../errors/index.js';
import { type AttributeValue, type Item, isSetType, typeOf } from '../../model/attributeValue.js';
import { addNumbers } from '../../model/number.js';
import { UpdateMessages } from '../errors.js';
import { listOf, readPath } from '../paths.js';
import type { UpdateValue } from './resolve.js';

/**
 * The value computations of an update, done against the item as it was before any write
 * (docs/dynamodb.md §5.3.4): SET operands, `+` / `-` (exact, with the service's overflow text), list_append,
 * if_not_exists, and the set arithmetic of ADD and DELETE. Errors are runtime ValidationExceptions
 * without an expression prefix (docs/dynamodb.md §5.3.3–5.3.5).
 */

function incorrectType(): never {
  throw new ValidationException(UpdateMessages.operandType);
}

export function evaluateUpdateValue(value: UpdateValue, item: Item | undefined): AttributeValue {
  switch (value.kind) {
    case 'value':
      return value.value;
    case 'path': {
      const found = readPath(item, value.path);
      if (found === undefined) throw new ValidationException(UpdateMessages.missingAttribute);
      return found;
    }
    case 'ifNotExists':
      return readPath(item, value.path) ?? evaluateUpdateValue(value.fallback, item);
    case 'listAppend': {
      const left = listOf(evaluateUpdateValue(value.left, item));
      const right = listOf(evaluateUpdateValue(value.right, item));
      if (left === undefined || right === undefined) return incorrectType();
      return { L: [...left, ...right] };
    }
    case 'arithmetic': {
      const left = evaluateUpdateValue(value.left, item);
      const right = evaluateUpdateValue(value.right, item);
      if (typeOf(left) !== 'N' || typeOf(right) !== 'N') return incorrectType();
      return sum((left as { N: string }).N, (right as { N: string }).N, value.operator);
    }
  }
}

/** Normalised integers of at most 15 digits: their sum is exact in a double (counters, ids). */
const SMALL_INTEGER = /^(?:0|-?[1-9]\d{0,14})$/;

/** Exact `a ± b`; results beyond the number range fail with the service's text (docs/dynamodb.md §2.2.5). */
export function sum(a: string, b: string, operator: '+' | '-' = '+'): AttributeValue {
  if (SMALL_INTEGER.test(a) && SMALL_INTEGER.test(b)) {
    return { N: String(operator === '+' ? Number(a) + Number(b) : Number(a) - Number(b)) };
  }
  const result = addNumbers(a, b, operator);
  if (!result.ok) throw new ValidationException(result.message);
  return { N: result.value };
}

/** Set members after adding `more` (existing order kept, new members appended). */
export function setUnion(
  type: 'SS' | 'NS' | 'BS',
  members: readonly string[],
  more: readonly string[],
): AttributeValue {
  const present = new Set(members);
  const out = [...members];
  for (const member of more) {
    if (!present.has(member)) {
      present.add(member);
      out.push(member);
    }
  }
  return { [type]: out } as AttributeValue;
}

/** Set members after removing `less`; undefined when nothing is left (the attribute goes). */
export function setDifference(
  type: 'SS' | 'NS' | 'BS',
  members: readonly string[],
  less: readonly string[],
): AttributeValue | undefined {
  const removed = new Set(less);
  const out = members.filter((member) => !removed.has(member));
  return out.length === 0 ? undefined : ({ [type]: out } as AttributeValue);
}

function setMembers(value: AttributeValue, type: string): string[] {
  return (value as Record<string, string[]>)[type]!;
}

/** ADD: numbers add (a missing attribute counts as 0), sets merge (from the empty set). */
export function addToValue(current: AttributeValue | undefined, operand: AttributeValue): AttributeValue {
  if (current === undefined) return operand;
  const type = typeOf(operand);
  if (typeOf(current) !== type) return incorrectType();
  if (type === 'N') return sum((current as { N: string }).N, (operand as { N: string }).N);
  if (!isSetType(type)) return incorrectType();
  return setUnion(type, setMembers(current, type), setMembers(operand, type));
}

/** What a DELETE leaves: the same item (attribute absent), a smaller set, or nothing. */
export type DeleteOutcome = 'absent' | 'emptied' | AttributeValue;

export function deleteFromValue(current: AttributeValue | undefined, operand: AttributeValue): DeleteOutcome {
  if (current === undefined) return 'absent';
  const type = typeOf(operand);
  if (typeOf(current) !== type || !isSetType(type)) return incorrectType();
  return setDifference(type, setMembers(current, type), setMembers(operand, type)) ?? 'emptied';
}
