import { ValidationException } from '../errors/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { MAX_ITEM_SIZE } from '../model/itemSize.js';
import { AttributeMessages } from '../model/parseAttributeValue.js';
import { StoredItem } from '../store/storedItem.js';
import { tableNameKey } from './batchGetItem.js';
import { attributeMap, returnConsumedCapacity, returnItemCollectionMetrics } from './common.js';
import type { Deserialized } from './deserialize.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html */
export interface WriteRequest {
  PutRequest?: { Item: AttributeMap };
  DeleteRequest?: { Key: AttributeMap };
}

export interface BatchWriteItemInput {
  RequestItems: Record<string, WriteRequest[]>;
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  ReturnItemCollectionMetrics?: 'SIZE' | 'NONE';
}

/** 25 put or delete requests per call (docs/dynamodb.md §7.2.1). */
export const MAX_BATCH_WRITES = 25;

export const batchWriteItemShape: Record<string, Shape> = {
  // The order the service walks them (dynalite's tests).
  ReturnConsumedCapacity: returnConsumedCapacity,
  ReturnItemCollectionMetrics: returnItemCollectionMetrics,
  // The newer framework's entries for an empty map and for a table's list of requests past 25:
  // `Value at 'RequestItems' …` (eu-west-2 since October 2026), `Value at 'RequestItems.<t>.member'
  // …` (eu-north-1 since August 2026); a bad table name keeps the older entry
  // (docs/dynamodb.md §7.2.1).
  RequestItems: {
    kind: 'map',
    required: true,
    key: tableNameKey,
    minLength: 1,
    framework: 'newer',
    value: {
      kind: 'list',
      minLength: 1,
      maxLength: MAX_BATCH_WRITES,
      framework: 'newer',
      member: {
        kind: 'structure',
        name: 'WriteRequest',
        members: {
          PutRequest: { kind: 'structure', name: 'PutRequest', members: { Item: attributeMap(true) } },
          DeleteRequest: { kind: 'structure', name: 'DeleteRequest', members: { Key: attributeMap(true) } },
        },
      },
    },
  },
};

/** The puts' items as they will be stored (text and size from one walk, made once). */
export interface PreparedBatchWrite {
  stored: Map<WriteRequest, StoredItem>;
}

/** Stateless checks; duplicates are found after the table lookup (docs/dynamodb.md §7.2.2, §8.5). */
export function validateBatchWriteItem(
  input: BatchWriteItemInput,
  deserialized: Deserialized,
): PreparedBatchWrite {
  let total = 0;
  for (const requests of Object.values(input.RequestItems)) total += requests.length;
  if (total > MAX_BATCH_WRITES)
    throw new ValidationException('Too many items requested for the BatchWriteItem call');
  const problem = deserialized.attributeProblems.get('RequestItems');
  const stored = new Map<WriteRequest, StoredItem>();
  for (const requests of Object.values(input.RequestItems)) {
    for (const request of requests) {
      // An empty request object reads as "more than one datatypes set" (sic, docs/dynamodb.md §7.2.1).
      if ((request.PutRequest === undefined) === (request.DeleteRequest === undefined)) {
        throw new ValidationException(AttributeMessages.severalTypes);
      }
    }
  }
  if (problem) throw new ValidationException(problem.message);
  for (const requests of Object.values(input.RequestItems)) {
    for (const request of requests) {
      if (request.PutRequest === undefined) continue;
      const item = StoredItem.fromItem(request.PutRequest.Item);
      if (item.size > MAX_ITEM_SIZE)
        throw new ValidationException('Item size has exceeded the maximum allowed size');
      stored.set(request, item);
    }
  }
  return { stored };
}
