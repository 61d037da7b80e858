import { ValidationException } from '../errors/index.js';
import {
  type ConditionExpression,
  checkExpressionAttributeNames,
  checkExpressionAttributeValues,
  conditionFromExpected,
  ExpressionScope,
} from '../expressions/index.js';
import type { ExpectedAttributeValue } from '../expressions/legacy/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';

/** PutItem, DeleteItem and UpdateItem share their condition and what they can ask back. */
export interface ConditionalWriteInput {
  Expected?: Record<string, ExpectedAttributeValue>;
  ConditionalOperator?: 'AND' | 'OR';
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
}

export interface WriteReturnInput {
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  ReturnItemCollectionMetrics?: 'SIZE' | 'NONE';
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

/**
 * PutItem and DeleteItem return only the old item; DeleteItem's text mirrors PutItem's
 * (docs/dynamodb.md §4.2.4, [DERIVED]).
 */
export function checkReturnValuesAllOldOrNone(returnValues: string | undefined): void {
  if (returnValues !== undefined && returnValues !== 'NONE' && returnValues !== 'ALL_OLD') {
    throw new ValidationException('ReturnValues can only be ALL_OLD or NONE');
  }
}

/**
 * The condition of a single-item write, from ConditionExpression or legacy Expected, after the
 * names/values checks, in the service's order (docs/dynamodb.md §8.2).
 */
export function prepareWriteCondition(
  input: ConditionalWriteInput,
  deserialized: Deserialized,
  update?: (scope: ExpressionScope) => void,
): ConditionExpression | undefined {
  // No condition, names or values (most writes): nothing below can fail or return anything, so
  // skip making a scope (two Sets) per request.
  if (
    update === undefined &&
    input.Expected === undefined &&
    input.ConditionExpression === undefined &&
    input.ExpressionAttributeNames === undefined &&
    input.ExpressionAttributeValues === undefined &&
    !deserialized.attributeProblems.has('ExpressionAttributeValues')
  )
    return undefined;
  let condition: ConditionExpression | undefined;
  if (input.Expected !== undefined) {
    throwAttributeProblem(deserialized, 'Expected');
    condition = conditionFromExpected(input.Expected, input.ConditionalOperator);
  }
  checkExpressionAttributeNames(input.ExpressionAttributeNames);
  checkExpressionAttributeValues(
    input.ExpressionAttributeValues,
    deserialized.attributeProblems.get('ExpressionAttributeValues'),
  );
  const scope = new ExpressionScope(input.ExpressionAttributeNames, input.ExpressionAttributeValues);
  update?.(scope);
  if (input.ConditionExpression !== undefined)
    condition = scope.parseCondition(input.ConditionExpression, 'Condition');
  scope.checkUnused();
  return condition;
}
