import {
  type ConditionExpression,
  checkExpressionParameters,
  type UpdatePlan,
  updateFromAttributeUpdates,
} from '../expressions/index.js';
import type { AttributeValueUpdate } from '../expressions/legacy/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { attributeMap, attributeUpdates, expressionString, tableName } from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import type { Shape } from './shape.js';
import { expressionAttributeMembers, legacyConditionMembers, writeReturnMembers } from './sharedMembers.js';
import { type ConditionalWriteInput, prepareWriteCondition, type WriteReturnInput } from './writeRequest.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html */
export interface UpdateItemInput extends ConditionalWriteInput, WriteReturnInput {
  TableName: string;
  Key: AttributeMap;
  AttributeUpdates?: Record<string, AttributeValueUpdate>;
  UpdateExpression?: string;
  ReturnValues?: 'ALL_NEW' | 'UPDATED_OLD' | 'ALL_OLD' | 'NONE' | 'UPDATED_NEW';
}

export const updateItemShape: Record<string, Shape> = {
  TableName: tableName,
  Key: attributeMap(true),
  AttributeUpdates: attributeUpdates,
  ...legacyConditionMembers,
  UpdateExpression: expressionString,
  ConditionExpression: expressionString,
  ...expressionAttributeMembers,
  ...writeReturnMembers,
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
