import { ValidationException } from '../errors/index.js';
import { checkExpressionParameters, checkKeyConditions } from '../expressions/index.js';
import type { LegacyCondition } from '../expressions/legacy/index.js';
import {
  attributeMap,
  attributesToGet,
  conditionalOperator,
  conditionMap,
  expressionString,
  returnConsumedCapacity,
  select,
} from './common.js';
import { type Deserialized, throwAttributeProblem } from './deserialize.js';
import {
  checkSelect,
  checkStartKeyValues,
  type PreparedReadRequest,
  prepareReadExpressions,
  type ReadRequestInput,
} from './readRequest.js';
import type { Shape } from './shape.js';
import { expressionAttributeMembers, readTargetMembers } from './sharedMembers.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html */
export interface QueryInput extends ReadRequestInput {
  KeyConditions?: Record<string, LegacyCondition>;
  QueryFilter?: Record<string, LegacyCondition>;
  ScanIndexForward?: boolean;
  KeyConditionExpression?: string;
}

export const queryShape: Record<string, Shape> = {
  ...readTargetMembers,
  Select: select,
  AttributesToGet: attributesToGet,
  Limit: { kind: 'integer', min: 1 },
  ConsistentRead: { kind: 'boolean' },
  KeyConditions: conditionMap,
  QueryFilter: conditionMap,
  ConditionalOperator: conditionalOperator,
  ScanIndexForward: { kind: 'boolean' },
  ExclusiveStartKey: attributeMap(),
  ReturnConsumedCapacity: returnConsumedCapacity,
  ProjectionExpression: expressionString,
  FilterExpression: expressionString,
  KeyConditionExpression: expressionString,
  ...expressionAttributeMembers,
};

/** Stateless checks of Query in the service's order (docs/dynamodb.md §8.3). */
export function validateQuery(input: QueryInput, deserialized: Deserialized): PreparedReadRequest {
  checkExpressionParameters('Query', input as unknown as Record<string, unknown>);
  throwAttributeProblem(deserialized, 'QueryFilter');
  checkSelect(input, '1 validation error detected: ');
  checkStartKeyValues(deserialized);
  if (input.KeyConditions === undefined && input.KeyConditionExpression === undefined) {
    throw new ValidationException(
      'Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.',
    );
  }
  throwAttributeProblem(deserialized, 'KeyConditions');
  // Legacy KeyConditions: stateless checks now; turned into parts after the table lookup, where
  // their non-indexable operators are refused (docs/dynamodb.md §6.1.3, §8.3).
  if (input.KeyConditions) checkKeyConditions(input.KeyConditions);
  return prepareReadExpressions(
    input,
    deserialized,
    { name: 'QueryFilter', value: input.QueryFilter },
    undefined,
    'Query',
  );
}
