import { ValidationException } from '../errors/index.js';
import {
  type ConditionExpression,
  checkExpressionAttributeNames,
  checkExpressionAttributeValues,
  checkExpressionParameters,
  conditionFromExpected,
  ExpressionScope,
} from '../expressions/index.js';
import type { ExpectedAttributeValue } from '../expressions/legacy/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { itemSize, MAX_ITEM_SIZE } from '../model/itemSize.js';
import {
  attributeMap,
  conditionalOperator,
  expected,
  expressionAttributeNames,
  expressionAttributeValues,
  expressionString,
  returnConsumedCapacity,
  returnItemCollectionMetrics,
  returnValues,
  returnValuesOnConditionCheckFailure,
  tableName,
} from './common.js';
import type { Deserialized } from './deserialize.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html */
export interface PutItemInput {
  TableName: string;
  Item: AttributeMap;
  Expected?: Record<string, ExpectedAttributeValue>;
  ConditionalOperator?: 'AND' | 'OR';
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
  ReturnValues?: string;
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  ReturnItemCollectionMetrics?: 'SIZE' | 'NONE';
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

export const putItemShape: Record<string, Shape> = {
  TableName: tableName,
  Item: attributeMap(true),
  Expected: expected,
  ConditionalOperator: conditionalOperator,
  ConditionExpression: expressionString,
  ExpressionAttributeNames: expressionAttributeNames,
  ExpressionAttributeValues: expressionAttributeValues,
  ReturnValues: returnValues,
  ReturnConsumedCapacity: returnConsumedCapacity,
  ReturnItemCollectionMetrics: returnItemCollectionMetrics,
  ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
};

export interface PreparedPut {
  condition: ConditionExpression | undefined;
  size: number;
}

/** Throws the first AttributeValue problem recorded for a member, if any. */
export function throwAttributeProblem(deserialized: Deserialized, member: string): void {
  const problem = deserialized.attributeProblems.get(member);
  if (problem !== undefined) throw new ValidationException(problem.message);
}

/**
 * The condition of a single-item write, from ConditionExpression or legacy Expected, after the
 * names/values checks, in the service's order (spec §8.2).
 */
export function prepareWriteCondition(
  input: {
    Expected?: Record<string, ExpectedAttributeValue>;
    ConditionalOperator?: 'AND' | 'OR';
    ConditionExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: AttributeMap;
  },
  deserialized: Deserialized,
  update?: (scope: ExpressionScope) => void,
): ConditionExpression | undefined {
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

/** Stateless checks of PutItem in the service's order (spec §8.2). */
export function validatePutItem(input: PutItemInput, deserialized: Deserialized): PreparedPut {
  checkExpressionParameters('PutItem', input as unknown as Record<string, unknown>);
  throwAttributeProblem(deserialized, 'Item');
  if (input.ReturnValues !== undefined && input.ReturnValues !== 'NONE' && input.ReturnValues !== 'ALL_OLD') {
    throw new ValidationException('ReturnValues can only be ALL_OLD or NONE');
  }
  const size = itemSize(input.Item);
  if (size > MAX_ITEM_SIZE) throw new ValidationException('Item size has exceeded the maximum allowed size');
  return { condition: prepareWriteCondition(input, deserialized), size };
}
