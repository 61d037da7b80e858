import { ValidationException } from '../../errors/index.js';
import { type AttributeValue, typeOf } from '../../model/attributeValue.js';
import { compareScalars } from '../../model/compare.js';
import { CompiledCondition } from '../compile.js';
import type { ConditionExpression, DocumentPath } from '../index.js';
import type { Condition, Operand } from '../resolved.js';
import { INVALID } from './types.js';

/**
 * The legacy ComparisonOperator conditions shared by Expected, QueryFilter, ScanFilter and
 * KeyConditions (docs/dynamodb.md §5.4.3, §5.4.4): argument counts, value types, and the translation into the
 * same condition trees expressions produce, so evaluation is shared.
 */

type Arity = number | 'some';

const ARITY: Readonly<Record<string, Arity>> = {
  NULL: 0,
  NOT_NULL: 0,
  EQ: 1,
  NE: 1,
  LE: 1,
  LT: 1,
  GE: 1,
  GT: 1,
  CONTAINS: 1,
  NOT_CONTAINS: 1,
  BEGINS_WITH: 1,
  IN: 'some',
  BETWEEN: 2,
};

const SCALARS = ['S', 'N', 'B'];
const ALLOWED_TYPES: Readonly<Record<string, readonly string[]>> = {
  EQ: [...SCALARS, 'SS', 'NS', 'BS'],
  NE: [...SCALARS, 'SS', 'NS', 'BS'],
  LE: SCALARS,
  LT: SCALARS,
  GE: SCALARS,
  GT: SCALARS,
  CONTAINS: SCALARS,
  NOT_CONTAINS: SCALARS,
  IN: SCALARS,
  BETWEEN: SCALARS,
  BEGINS_WITH: ['S', 'B'],
};

const hasOwn = Object.prototype.hasOwnProperty;

/** Argument count, same types, allowed types, BETWEEN order — in that order. */
export function checkComparison(operator: string, values: readonly AttributeValue[]): void {
  const arity = hasOwn.call(ARITY, operator) ? ARITY[operator] : undefined;
  const countOk = arity === 'some' ? values.length > 0 : values.length === arity;
  if (!countOk) {
    throw new ValidationException(
      `${INVALID}Invalid number of argument(s) for the ${operator} ComparisonOperator`,
    );
  }
  if (values.length === 0) return;
  const type = typeOf(values[0]!);
  if (values.some((value) => typeOf(value) !== type)) {
    throw new ValidationException(`${INVALID}AttributeValues inside AttributeValueList must be of same type`);
  }
  const allowed = ALLOWED_TYPES[operator];
  if (allowed !== undefined && !allowed.includes(type)) {
    throw new ValidationException(
      `${INVALID}ComparisonOperator ${operator} is not valid for ${type} AttributeValue type`,
    );
  }
  if (operator === 'BETWEEN' && (compareScalars(values[0]!, values[1]!) ?? 0) > 0) {
    throw new ValidationException(
      'The BETWEEN condition was provided a range where the lower bound is greater than the upper bound',
    );
  }
}

/** One legacy condition on a top-level attribute, as a condition tree. */
export function comparisonCondition(
  name: string,
  operator: string,
  values: readonly AttributeValue[],
): Condition {
  const path: DocumentPath = [name];
  const attribute: Operand = { kind: 'path', path };
  const value = (index: number): Operand => ({ kind: 'value', value: values[index]! });
  switch (operator) {
    case 'EQ':
      return { kind: 'compare', operator: '=', left: attribute, right: value(0) };
    case 'NE':
      return { kind: 'compare', operator: '<>', left: attribute, right: value(0) };
    case 'LE':
      return { kind: 'compare', operator: '<=', left: attribute, right: value(0) };
    case 'LT':
      return { kind: 'compare', operator: '<', left: attribute, right: value(0) };
    case 'GE':
      return { kind: 'compare', operator: '>=', left: attribute, right: value(0) };
    case 'GT':
      return { kind: 'compare', operator: '>', left: attribute, right: value(0) };
    case 'NULL':
      return { kind: 'notExists', path };
    case 'NOT_NULL':
      return { kind: 'exists', path };
    case 'CONTAINS':
      return { kind: 'contains', operand: attribute, member: value(0) };
    // NOT_CONTAINS is false for a missing attribute, unlike NE (docs/dynamodb.md §5.4.4).
    case 'NOT_CONTAINS':
      return { kind: 'notContains', operand: attribute, member: value(0) };
    case 'BEGINS_WITH':
      return { kind: 'beginsWith', operand: attribute, prefix: value(0) };
    case 'IN':
      return { kind: 'in', operand: attribute, list: values.map((_, index) => value(index)) };
    default:
      return { kind: 'between', operand: attribute, lower: value(0), upper: value(1) };
  }
}

/** Joins legacy conditions with ConditionalOperator (AND by default); none is always true. */
export function joinConditions(
  conditions: readonly Condition[],
  names: readonly string[],
  conditionalOperator: 'AND' | 'OR' | undefined,
): ConditionExpression {
  const kind = conditionalOperator === 'OR' ? 'or' : 'and';
  let joined: Condition | undefined;
  for (const condition of conditions)
    joined = joined === undefined ? condition : { kind, left: joined, right: condition };
  const paths = names.map((name): DocumentPath => [name]);
  return new CompiledCondition(joined ?? { kind: 'true' }, paths);
}
