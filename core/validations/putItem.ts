import { ValidationException } from '../errors/index.js';
import { type ConditionExpression, checkExpressionParameters } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { itemSizeOfEncoded, MAX_ITEM_SIZE } from '../model/itemSize.js';
import { encodeParsedItem } from '../store/itemCodec.js';
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

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html */
export interface PutItemInput extends ConditionalWriteInput, WriteReturnInput {
  TableName: string;
  Item: AttributeMap;
  ReturnValues?: string;
}

/**
 * Members in the order the service walks them for the constraint list, which decides the ten
 * entries it reports when there are more (recorded in dynalite's tests, docs/dynamodb.md §1.2.8).
 */
export const putItemShape: Record<string, Shape> = {
  ReturnConsumedCapacity: returnConsumedCapacity,
  TableName: dataPlaneTableName,
  Item: attributeMap(true),
  ConditionalOperator: conditionalOperator,
  Expected: expected,
  ReturnValues: returnValues,
  ReturnItemCollectionMetrics: returnItemCollectionMetrics,
  ConditionExpression: expressionString,
  ExpressionAttributeValues: expressionAttributeValues,
  ExpressionAttributeNames: expressionAttributeNames,
  ReturnValuesOnConditionCheckFailure: returnValuesOnConditionCheckFailure,
};

export interface PreparedPut {
  condition: ConditionExpression | undefined;
  size: number;
  /** The item's stored text (`encodeItem`). */
  json: string;
}

/** Stateless checks of PutItem in the service's order (docs/dynamodb.md §8.2). */
export function validatePutItem(input: PutItemInput, deserialized: Deserialized): PreparedPut {
  checkExpressionParameters('PutItem', input as unknown as Record<string, unknown>);
  throwAttributeProblem(deserialized, 'Item');
  checkReturnValuesAllOldOrNone(input.ReturnValues);
  // The stored text is made here, not at the commit: its size measurement reuses it (see
  // `itemSizeOfEncoded`). Encoding cannot fail, so nothing observable moves.
  const json = encodeParsedItem(input.Item);
  const size = itemSizeOfEncoded(input.Item, json);
  if (size > MAX_ITEM_SIZE) throw new ValidationException('Item size has exceeded the maximum allowed size');
  return { condition: prepareWriteCondition(input, deserialized), size, json };
}
