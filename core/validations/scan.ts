import { ValidationException } from '../errors/index.js';
import { checkExpressionParameters } from '../expressions/index.js';
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

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html */
export interface ScanInput extends ReadRequestInput {
  ScanFilter?: Record<string, LegacyCondition>;
  Segment?: number;
  TotalSegments?: number;
}

export const scanShape: Record<string, Shape> = {
  ...readTargetMembers,
  AttributesToGet: attributesToGet,
  Limit: { kind: 'integer', min: 1 },
  Select: select,
  ScanFilter: conditionMap,
  ConditionalOperator: conditionalOperator,
  ExclusiveStartKey: attributeMap(),
  ReturnConsumedCapacity: returnConsumedCapacity,
  // Segments: TotalSegments 1..1,000,000 and Segment 0..999,999 (docs/dynamodb.md §6.4.1).
  TotalSegments: { kind: 'integer', min: 1, max: 1_000_000 },
  Segment: { kind: 'integer', min: 0, max: 999_999 },
  ProjectionExpression: expressionString,
  FilterExpression: expressionString,
  ...expressionAttributeMembers,
  ConsistentRead: { kind: 'boolean' },
};

/** Stateless checks of Scan in the service's order (docs/dynamodb.md §8.3). */
export function validateScan(input: ScanInput, deserialized: Deserialized): PreparedReadRequest {
  checkExpressionParameters('Scan', input as unknown as Record<string, unknown>);
  checkSelect(input, '');
  throwAttributeProblem(deserialized, 'ScanFilter');
  checkStartKeyValues(deserialized);
  if (input.Segment !== undefined && input.TotalSegments === undefined) {
    throw new ValidationException(
      'The TotalSegments parameter is required but was not present in the request when Segment parameter is present',
    );
  }
  if (input.TotalSegments !== undefined && input.Segment === undefined) {
    throw new ValidationException(
      'The Segment parameter is required but was not present in the request when parameter TotalSegments is present',
    );
  }
  if (
    input.Segment !== undefined &&
    input.TotalSegments !== undefined &&
    input.Segment >= input.TotalSegments
  ) {
    throw new ValidationException(
      `The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: ${input.Segment} is not less than TotalSegments: ${input.TotalSegments}`,
    );
  }
  return prepareReadExpressions(
    input,
    deserialized,
    { name: 'ScanFilter', value: input.ScanFilter },
    undefined,
    'Scan',
  );
}
