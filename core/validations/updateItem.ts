import {
  type ConditionExpression,
  checkExpressionParameters,
  type UpdatePlan,
  updateFromAttributeUpdates,
} from '../expressions/index.js';
import type { AttributeValueUpdate } from '../expressions/legacy/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import {
  attributeMap,
  attributeUpdates,
  conditionalOperator,
  dataPlaneTableName,
  expected,
  expressionAttributeNames,
  expressionAttributeValues,
  expressionString,
  returnConsumedCapacity,
  returnItemCollectionMetrics,
  returnValues,
  returnValuesOnConditionCheckFailure,
} from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import type { Shape } from './shape.js';
import { type ConditionalWriteInput, prepareWriteCondition, type WriteReturnInput } from './writeRequest.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html */
export interface UpdateItemInput extends ConditionalWriteInput, WriteReturnInput {
  TableName: string;
  Key: AttributeMap;
  AttributeUpdates?: Record<string, AttributeValueUpdate>;
  UpdateExpression?: string;
  ReturnValues?: 'ALL_NEW' | 'UPDATED_OLD' | 'ALL_OLD' | 'NONE' | 'UPDATED_NEW';
}

/**
 * Members in the order the service walks them for the constraint list, which decides the ten
 * entries it reports when there are more (recorded in dynalite's tests, docs/dynamodb.md §1.2.8).
 */
export const updateItemShape: Record<string, Shape> = {
  ReturnConsumedCapacity: returnConsumedCapacity,
  TableName: dataPlaneTableName,
  ReturnItemCollectionMetrics: returnItemCollectionMetrics,
  ReturnValues: returnValues,
  Key: attributeMap(true),
  ConditionalOperator: conditionalOperator,
  Expected: expected,
  AttributeUpdates: attributeUpdates,
  ConditionExpression: expressionString,
  UpdateExpression: expressionString,
  ExpressionAttributeValues: expressionAttributeValues,
  ExpressionAttributeNames: expressionAttributeNames,
  ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
};

export interface PreparedUpdate {
  /** Undefined when the request has neither UpdateExpression nor AttributeUpdates. */
  update: UpdatePlan | undefined;
  condition: ConditionExpression | undefined;
}

/** Stateless checks of UpdateItem in the service's order (docs/dynamodb.md §8.2, §5.3.7). */
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
