import { ValidationException } from '../errors/index.js';
import { checkExpressionParameters, type ProjectionPlan } from '../expressions/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { canonicalJson } from '../model/canonicalJson.js';
import {
  attributeMap,
  attributesToGet,
  expressionAttributeNames,
  expressionString,
  returnConsumedCapacity,
  tableName,
} from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import { prepareProjection } from './getItem.js';
import type { Shape, StringShape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html */
export interface KeysAndAttributes {
  Keys: AttributeMap[];
  AttributesToGet?: string[];
  ConsistentRead?: boolean;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

export interface BatchGetItemInput {
  RequestItems: Record<string, KeysAndAttributes>;
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
}

/**
 * Table names as map keys: their constraints print inside `Map keys must satisfy constraint`
 * (docs/dynamodb.md §7.1.1).
 */
export const tableNameKey: StringShape = { ...tableName, required: false };

/** At most 100 keys per call, over all tables (docs/dynamodb.md §7.1.1). */
export const MAX_BATCH_GET_KEYS = 100;

export const batchGetItemShape: Record<string, Shape> = {
  // ReturnConsumedCapacity first: the order the service walks them (dynalite's tests).
  ReturnConsumedCapacity: returnConsumedCapacity,
  // The newer framework reports the lengths of RequestItems and of each Keys list without the
  // value: `Value at 'RequestItems' …`, `Value at 'RequestItems.<t>.member.Keys' …`; a bad table
  // name still echoes the map, as JSON (2026, docs/dynamodb.md §7.1.1).
  RequestItems: {
    kind: 'map',
    required: true,
    key: tableNameKey,
    minLength: 1,
    maxLength: 100,
    framework: 'newer',
    echo: 'json',
    value: {
      kind: 'structure',
      name: 'KeysAndAttributes',
      members: {
        Keys: {
          kind: 'list',
          member: attributeMap(),
          required: true,
          minLength: 1,
          maxLength: 100,
          framework: 'newer',
        },
        AttributesToGet: attributesToGet,
        ConsistentRead: { kind: 'boolean' },
        ProjectionExpression: expressionString,
        ExpressionAttributeNames: expressionAttributeNames,
      },
    },
  },
};

export interface PreparedBatchGet {
  projections: Map<string, ProjectionPlan | undefined>;
}

/**
 * A key as received, member order ignored: BatchGetItem compares raw text
 * (docs/dynamodb.md §7.1.2, §9.10). `canonicalJson` walks without recursion: a member the service
 * ignores may nest arrays deeply.
 */
function rawKeyText(key: unknown): string {
  return canonicalJson(key);
}

/**
 * Stateless checks of BatchGetItem: key limit and duplicates come before table existence
 * (docs/dynamodb.md §8.5).
 */
export function validateBatchGetItem(input: BatchGetItemInput, deserialized: Deserialized): PreparedBatchGet {
  throwAttributeProblem(deserialized, 'RequestItems');
  let total = 0;
  for (const request of Object.values(input.RequestItems)) total += request.Keys.length;
  if (total > MAX_BATCH_GET_KEYS)
    throw new ValidationException('Too many items requested for the BatchGetItem call');
  const rawRequests = deserialized.raw.RequestItems as Record<string, { Keys: unknown[] }>;
  const projections = new Map<string, ProjectionPlan | undefined>();
  for (const [table, request] of Object.entries(input.RequestItems)) {
    const seen = new Set<string>();
    for (const key of rawRequests[table]?.Keys ?? []) {
      if (key === null) continue;
      const text = rawKeyText(key);
      if (seen.has(text)) throw new ValidationException('Provided list of item keys contains duplicates');
      seen.add(text);
    }
    checkExpressionParameters('BatchGetItem', request as unknown as Record<string, unknown>);
    projections.set(table, prepareProjection(request));
  }
  return { projections };
}
