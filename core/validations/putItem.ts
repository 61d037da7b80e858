import { ValidationException } from '../errors/index.js';
import { type ConditionExpression, checkExpressionParameters } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { MAX_ITEM_SIZE } from '../model/itemSize.js';
import { encodeParsedItemSized } from '../store/itemCodec.js';
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
  writeTableName,
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
  TableName: writeTableName,
  Item: attributeMap(true),
  ConditionalOperator: conditionalOperator,
  Expected: expected,
  ReturnValues: returnValues,
  // PutItem's entry is a sentence of its own (2026; docs/dynamodb.md §1.2.10); UpdateItem's and
  // DeleteItem's were not recorded and keep the older entry.
  ReturnItemCollectionMetrics: {
    ...returnItemCollectionMetrics,
    entry: 'ReturnItemCollectionMetrics can only be SIZE or NONE',
  },
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
  // The stored text is made here, not at the commit, in the same walk as the size (see
  // `encodeParsedItemSized`). Encoding cannot fail, so nothing observable moves.
  const { json, size } = encodeParsedItemSized(input.Item);
  if (size > MAX_ITEM_SIZE) throw new ValidationException('Item size has exceeded the maximum allowed size');
  return { condition: prepareWriteCondition(input, deserialized), size, json };
}
