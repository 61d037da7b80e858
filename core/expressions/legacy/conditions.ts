import { ValidationException } from '../../errors/index.js';
import type { AttributeValue } from '../../model/attributeValue.js';
import type { ConditionExpression, KeyConditionPart } from '../index.js';
import { KeyConditionMessages } from '../keyCondition.js';
import type { Condition } from '../resolved.js';
import { checkComparison, comparisonCondition, joinConditions } from './comparison.js';
import { type ExpectedAttributeValue, INVALID, type LegacyCondition } from './types.js';

const hasOwn = Object.prototype.hasOwnProperty;

function present(entry: object, member: string): boolean {
  return hasOwn.call(entry, member) && (entry as Record<string, unknown>)[member] != null;
}

/**
 * `Expected` (+ ConditionalOperator) → condition, with the checks of docs/dynamodb.md §5.4.3, attribute by
 * attribute: Value with AttributeValueList; ComparisonOperator with Exists, without values, then
 * the value checks of docs/dynamodb.md §5.4.4; AttributeValueList without ComparisonOperator; Exists versus
 * Value. `Value` alone (or with `Exists: true`) means EQ; `Exists: false` means the attribute is absent.
 *
 * @example
 * ```ts
 * const condition = conditionFromExpected({ version: { Value: { N: '3' } } }, undefined);
 * condition.evaluate({ version: { N: '3' } }); // true
 * ```
 */
export function conditionFromExpected(
  expected: Record<string, ExpectedAttributeValue>,
  conditionalOperator: 'AND' | 'OR' | undefined,
): ConditionExpression {
  const names = Object.keys(expected);
  const conditions: Condition[] = [];
  for (const name of names) {
    const entry = expected[name]!;
    const suffix = ` for Attribute: ${name}`;
    if (present(entry, 'AttributeValueList') && present(entry, 'Value')) {
      throw new ValidationException(
        `${INVALID}Value and AttributeValueList cannot be used together${suffix}`,
      );
    }
    if (present(entry, 'ComparisonOperator')) {
      const operator = entry.ComparisonOperator!;
      if (present(entry, 'Exists')) {
        throw new ValidationException(
          `${INVALID}Exists and ComparisonOperator cannot be used together${suffix}`,
        );
      }
      if (
        operator !== 'NULL' &&
        operator !== 'NOT_NULL' &&
        !present(entry, 'AttributeValueList') &&
        !present(entry, 'Value')
      ) {
        throw new ValidationException(
          `${INVALID}Value or AttributeValueList must be used with ComparisonOperator: ${operator}${suffix}`,
        );
      }
      const values = entry.AttributeValueList ?? (entry.Value === undefined ? [] : [entry.Value]);
      checkComparison(operator, values);
      conditions.push(comparisonCondition(name, operator, values));
    } else if (present(entry, 'AttributeValueList')) {
      throw new ValidationException(
        `${INVALID}AttributeValueList can only be used with a ComparisonOperator${suffix}`,
      );
    } else {
      const exists = entry.Exists ?? true;
      if (exists && !present(entry, 'Value')) {
        throw new ValidationException(
          `${INVALID}Value must be provided when Exists is ${entry.Exists === undefined ? 'null' : 'true'}${suffix}`,
        );
      }
      if (!exists && present(entry, 'Value')) {
        throw new ValidationException(`${INVALID}Value cannot be used when Exists is false${suffix}`);
      }
      conditions.push(
        exists ? comparisonCondition(name, 'EQ', [entry.Value!]) : comparisonCondition(name, 'NULL', []),
      );
    }
  }
  return joinConditions(conditions, names, conditionalOperator);
}

/**
 * QueryFilter / ScanFilter (+ ConditionalOperator) → condition, with the checks of docs/dynamodb.md §5.4.4.
 */
export function conditionFromFilter(
  filter: Record<string, LegacyCondition>,
  conditionalOperator: 'AND' | 'OR' | undefined,
): ConditionExpression {
  const names = Object.keys(filter);
  const conditions: Condition[] = [];
  for (const name of names) {
    const { ComparisonOperator: operator, AttributeValueList: values = [] } = filter[name]!;
    checkComparison(operator, values);
    conditions.push(comparisonCondition(name, operator, values));
  }
  return joinConditions(conditions, names, conditionalOperator);
}

const KEY_OPERATORS: Readonly<Record<string, KeyConditionPart['operator']>> = {
  EQ: '=',
  LT: '<',
  LE: '<=',
  GT: '>',
  GE: '>=',
  BETWEEN: 'BETWEEN',
  BEGINS_WITH: 'begins_with',
};

/**
 * The stateless checks of KeyConditions (docs/dynamodb.md §5.4.4, then `Conditions can be of length 1 or 2
 * only`). `keyConditionsToParts` runs them too; call this one in the validation phase when the
 * conversion waits for the table lookup.
 */
export function checkKeyConditions(keyConditions: Record<string, LegacyCondition>): void {
  const names = Object.keys(keyConditions);
  for (const name of names) {
    const { ComparisonOperator: operator, AttributeValueList: values = [] } = keyConditions[name]!;
    checkComparison(operator, values);
  }
  if (names.length < 1 || names.length > 2)
    throw new ValidationException(KeyConditionMessages.conditionCount);
}

/**
 * KeyConditions → key condition parts (schema checks are the Query action's). Operators that
 * cannot drive a key lookup (NE, NULL, NOT_NULL, CONTAINS, NOT_CONTAINS, IN) come back marked
 * `notIndexable`: the service refuses them with `Attempted conditional constraint is not an
 * indexable operation` only when it reaches their key attribute, after a missing key element
 * (docs/dynamodb.md §6.1.3).
 */
export function keyConditionsToParts(keyConditions: Record<string, LegacyCondition>): KeyConditionPart[] {
  checkKeyConditions(keyConditions);
  return Object.keys(keyConditions).map((attributeName) => {
    const { ComparisonOperator: operator, AttributeValueList: values = [] } = keyConditions[attributeName]!;
    const mapped = hasOwn.call(KEY_OPERATORS, operator) ? KEY_OPERATORS[operator] : undefined;
    if (mapped === undefined) return { attributeName, operator: '=', values, notIndexable: true };
    return { attributeName, operator: mapped, values: values as readonly AttributeValue[] };
  });
}
