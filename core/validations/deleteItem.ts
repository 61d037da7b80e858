import { type ConditionExpression, checkExpressionParameters } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { attributeMap, expressionString, tableName } from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import type { Shape } from './shape.js';
import { expressionAttributeMembers, legacyConditionMembers, writeReturnMembers } from './sharedMembers.js';
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

export const deleteItemShape: Record<string, Shape> = {
  TableName: tableName,
  Key: attributeMap(true),
  ...legacyConditionMembers,
  ConditionExpression: expressionString,
  ...expressionAttributeMembers,
  ...writeReturnMembers,
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
