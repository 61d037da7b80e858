import { ValidationException } from '../errors/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { itemSize, MAX_ITEM_SIZE } from '../model/itemSize.js';
import { AttributeMessages } from '../model/parseAttributeValue.js';
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
  // No length constraint on the map itself: an empty one gets its own sentence (below).
  RequestItems: {
    kind: 'map',
    required: true,
    key: tableNameKey,
    value: {
      kind: 'list',
      minLength: 1,
      maxLength: MAX_BATCH_WRITES,
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

/** Item sizes of the puts, in request order per table (computed once). */
export interface PreparedBatchWrite {
  sizes: Map<WriteRequest, number>;
}

/** Stateless checks; duplicates are found after the table lookup (docs/dynamodb.md §7.2.2, §8.5). */
export function validateBatchWriteItem(
  input: BatchWriteItemInput,
  deserialized: Deserialized,
): PreparedBatchWrite {
  // The bespoke sentence the newer framework has not replaced in any region for BatchWriteItem
  // (2026, docs/dynamodb.md §7.2.1; BatchGetItem's moved to the constraint list).
  if (Object.keys(input.RequestItems).length === 0)
    throw new ValidationException('The requestItems parameter is required for BatchWriteItem');
  let total = 0;
  for (const requests of Object.values(input.RequestItems)) total += requests.length;
  if (total > MAX_BATCH_WRITES)
    throw new ValidationException('Too many items requested for the BatchWriteItem call');
  const problem = deserialized.attributeProblems.get('RequestItems');
  const sizes = new Map<WriteRequest, number>();
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
      const size = itemSize(request.PutRequest.Item);
      if (size > MAX_ITEM_SIZE)
        throw new ValidationException('Item size has exceeded the maximum allowed size');
      sizes.set(request, size);
    }
  }
  return { sizes };
}
