import {
  type ConditionExpression,
  checkExpressionParameters,
  type UpdatePlan,
  updateFromAttributeUpdates,
} from '../expressions/index.js';
import type { AttributeValueUpdate, ExpectedAttributeValue } from '../expressions/legacy/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import {
  attributeMap,
  attributeUpdates,
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
import { prepareWriteCondition, throwAttributeProblem } from './putItem.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html */
export interface UpdateItemInput {
  TableName: string;
  Key: AttributeMap;
  AttributeUpdates?: Record<string, AttributeValueUpdate>;
  Expected?: Record<string, ExpectedAttributeValue>;
  ConditionalOperator?: 'AND' | 'OR';
  UpdateExpression?: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
  ReturnValues?: 'ALL_NEW' | 'UPDATED_OLD' | 'ALL_OLD' | 'NONE' | 'UPDATED_NEW';
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  ReturnItemCollectionMetrics?: 'SIZE' | 'NONE';
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

export const updateItemShape: Record<string, Shape> = {
  TableName: tableName,
  Key: attributeMap(true),
  AttributeUpdates: attributeUpdates,
  Expected: expected,
  ConditionalOperator: conditionalOperator,
  UpdateExpression: expressionString,
  ConditionExpression: expressionString,
  ExpressionAttributeNames: expressionAttributeNames,
  ExpressionAttributeValues: expressionAttributeValues,
  ReturnValues: returnValues,
  ReturnConsumedCapacity: returnConsumedCapacity,
  ReturnItemCollectionMetrics: returnItemCollectionMetrics,
  ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
};

export interface PreparedUpdate {
  /** Undefined when the request has neither UpdateExpression nor AttributeUpdates. */
  update: UpdatePlan | undefined;
  condition: ConditionExpression | undefined;
}

/** Stateless checks of UpdateItem in the service's order (spec §8.2, §5.3.7). */
export function validateUpdateItem(input: UpdateItemInput, deserialized: Deserialized): PreparedUpdate {
  checkExpressionParameters('UpdateItem', input as unknown as Record<string, unknown>);
  throwAttributeProblem(deserialized, 'Key');
  let update: UpdatePlan | undefined;
  if (input.AttributeUpdates !== undefined) {
    throwAttributeProblem(deserialized, 'AttributeUpdates');
    update = updateFromAttributeUpdates(input.AttributeUpdates);
  }
  const condition = prepareWriteCondition(input, deserialized, (scope) => {
    if (input.UpdateExpression !== undefined) update = scope.parseUpdate(input.UpdateExpression);
  });
  return { update, condition };
}
