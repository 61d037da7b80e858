import { ValidationException } from '../errors/index.js';
import { checkExpressionParameters, checkKeyConditions } from '../expressions/index.js';
import type { LegacyCondition } from '../expressions/legacy/index.js';
import {
  attributeMap,
  attributesToGet,
  conditionalOperator,
  conditionMap,
  dataPlaneTableName,
  expressionAttributeNames,
  expressionAttributeValues,
  expressionString,
  indexName,
  returnConsumedCapacity,
  select,
} from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import {
  checkSelect,
  checkStartKeyValues,
  type PreparedReadRequest,
  prepareLegacyReadMembers,
  prepareReadExpressions,
  type ReadRequestInput,
} from './readRequest.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html */
export interface QueryInput extends ReadRequestInput {
  KeyConditions?: Record<string, LegacyCondition>;
  QueryFilter?: Record<string, LegacyCondition>;
  ScanIndexForward?: boolean;
  KeyConditionExpression?: string;
}

/**
 * Members in the order the service walks them for the constraint list, which decides the ten
 * entries it reports when there are more (recorded in dynalite's tests, docs/dynamodb.md §1.2.8).
 * `Limit` is checked by the newer framework: `Value at 'Limit' …` (2026, docs/dynamodb.md §1.2.10).
 */
export const queryShape: Record<string, Shape> = {
  Select: select,
  IndexName: indexName,
  ReturnConsumedCapacity: returnConsumedCapacity,
  QueryFilter: conditionMap,
  TableName: dataPlaneTableName,
  ConditionalOperator: conditionalOperator,
  AttributesToGet: attributesToGet,
  Limit: { kind: 'integer', min: 1, framework: 'newer' },
  KeyConditions: conditionMap,
  ExclusiveStartKey: attributeMap(),
  ConsistentRead: { kind: 'boolean' },
  ScanIndexForward: { kind: 'boolean' },
  KeyConditionExpression: expressionString,
  FilterExpression: expressionString,
  ProjectionExpression: expressionString,
  ExpressionAttributeValues: expressionAttributeValues,
  ExpressionAttributeNames: expressionAttributeNames,
};

/**
 * Stateless checks of Query in the service's order (docs/dynamodb.md §8.3): mixed parameters,
 * QueryFilter (values, then each condition's arguments and types), AttributesToGet, Select, the
 * values of the start key, a key condition at all, the expressions, then KeyConditions.
 */
export function validateQuery(input: QueryInput, deserialized: Deserialized): PreparedReadRequest {
  checkExpressionParameters('Query', input as unknown as Record<string, unknown>);
  const legacy = prepareLegacyReadMembers(input, deserialized, {
    name: 'QueryFilter',
    value: input.QueryFilter,
  });
  checkSelect(input, '1 validation error detected: ');
  checkStartKeyValues(deserialized);
  if (input.KeyConditions === undefined && input.KeyConditionExpression === undefined) {
    throw new ValidationException(
      'Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.',
    );
  }
  const prepared = prepareReadExpressions(input, deserialized, legacy, 'Query');
  if (input.KeyConditions) {
    // Legacy KeyConditions: stateless checks after the expressions (a FilterExpression may come
    // with them); turned into parts after the table lookup (docs/dynamodb.md §6.1.3, §8.3).
    throwAttributeProblem(deserialized, 'KeyConditions');
    checkKeyConditions(input.KeyConditions);
  }
  return prepared;
}
