import { type ConditionExpression, checkExpressionParameters } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import {
  attributeMap,
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
import {
  type ConditionalWriteInput,
  checkReturnValuesAllOldOrNone,
  prepareWriteCondition,
  type WriteReturnInput,
} from './writeRequest.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html */
export interface DeleteItemInput extends ConditionalWriteInput, WriteReturnInput {
  TableName: string;
  Key: AttributeMap;
  ReturnValues?: string;
}

/**
 * Members in the order the service walks them for the constraint list, which decides the ten
 * entries it reports when there are more (recorded in dynalite's tests, docs/dynamodb.md §1.2.8).
 */
export const deleteItemShape: Record<string, Shape> = {
  ReturnConsumedCapacity: returnConsumedCapacity,
  TableName: dataPlaneTableName,
  ReturnValues: returnValues,
  ReturnItemCollectionMetrics: returnItemCollectionMetrics,
  Key: attributeMap(true),
  ConditionalOperator: conditionalOperator,
  Expected: expected,
  ConditionExpression: expressionString,
  ExpressionAttributeValues: expressionAttributeValues,
  ExpressionAttributeNames: expressionAttributeNames,
  ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
};

export interface PreparedDelete {
  condition: ConditionExpression | undefined;
}

export function validateDeleteItem(input: DeleteItemInput, deserialized: Deserialized): PreparedDelete {
  checkExpressionParameters('DeleteItem', input as unknown as Record<string, unknown>);
  throwAttributeProblem(deserialized, 'Key');
  checkReturnValuesAllOldOrNone(input.ReturnValues);
  return { condition: prepareWriteCondition(input, deserialized) };
}
