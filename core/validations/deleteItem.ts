import { ValidationException } from '../errors/index.js';
import { type ConditionExpression, checkExpressionParameters } from '../expressions/index.js';
import type { ExpectedAttributeValue } from '../expressions/legacy/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
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
import { prepareWriteCondition, throwAttributeProblem } from './putItem.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html */
export interface DeleteItemInput {
  TableName: string;
  Key: AttributeMap;
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

export const deleteItemShape: Record<string, Shape> = {
  TableName: tableName,
  Key: attributeMap(true),
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

export interface PreparedDelete {
  condition: ConditionExpression | undefined;
}

export function validateDeleteItem(input: DeleteItemInput, deserialized: Deserialized): PreparedDelete {
  checkExpressionParameters('DeleteItem', input as unknown as Record<string, unknown>);
  throwAttributeProblem(deserialized, 'Key');
  // The service's DeleteItem text mirrors PutItem's (spec §4.2.4, [DERIVED]).
  if (input.ReturnValues !== undefined && input.ReturnValues !== 'NONE' && input.ReturnValues !== 'ALL_OLD') {
    throw new ValidationException('ReturnValues can only be ALL_OLD or NONE');
  }
  return { condition: prepareWriteCondition(input, deserialized) };
}
