import { ValidationException } from '../errors/index.js';
import { checkExpressionParameters } from '../expressions/index.js';
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
import type { Deserialized } from './deserialize.js';
import {
  checkSelect,
  checkStartKeyValues,
  type PreparedReadRequest,
  prepareLegacyReadMembers,
  prepareReadExpressions,
  type ReadRequestInput,
} from './readRequest.js';
import type { Shape } from './shape.js';

/** https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html */
export interface ScanInput extends ReadRequestInput {
  ScanFilter?: Record<string, LegacyCondition>;
  Segment?: number;
  TotalSegments?: number;
}

/**
 * Members in the order the service walks them for the constraint list, which decides the ten
 * entries it reports when there are more (recorded in dynalite's tests, docs/dynamodb.md §1.2.8).
 * The integer members are checked by the newer framework: `Value at 'Limit' …`, `Value at
 * 'Segment' …` (2026, docs/dynamodb.md §1.2.10).
 */
export const scanShape: Record<string, Shape> = {
  Select: select,
  IndexName: indexName,
  // Segments: TotalSegments 1..1,000,000 and Segment 0..999,999 (docs/dynamodb.md §6.4.1).
  TotalSegments: { kind: 'integer', min: 1, max: 1_000_000, framework: 'newer' },
  ReturnConsumedCapacity: returnConsumedCapacity,
  TableName: dataPlaneTableName,
  ConditionalOperator: conditionalOperator,
  ScanFilter: conditionMap,
  Segment: { kind: 'integer', min: 0, max: 999_999, framework: 'newer' },
  Limit: { kind: 'integer', min: 1, framework: 'newer' },
  AttributesToGet: attributesToGet,
  ExclusiveStartKey: attributeMap(),
  FilterExpression: expressionString,
  ProjectionExpression: expressionString,
  ExpressionAttributeValues: expressionAttributeValues,
  ExpressionAttributeNames: expressionAttributeNames,
  ConsistentRead: { kind: 'boolean' },
};

/**
 * Stateless checks of Scan in the service's order (docs/dynamodb.md §8.3): mixed parameters,
 * Select, AttributesToGet, ScanFilter (values, then each condition's arguments and types), the
 * values of the start key, the segments, then the expressions. The Select texts carry the
 * `1 validation error detected: ` envelope and Segment ≥ TotalSegments has lost its suffix in the
 * regions the newer framework has reached (September 2026, docs/dynamodb.md §6.3.1, §6.4.1).
 */
export function validateScan(input: ScanInput, deserialized: Deserialized): PreparedReadRequest {
  checkExpressionParameters('Scan', input as unknown as Record<string, unknown>);
  checkSelect(input, '1 validation error detected: ');
  const legacy = prepareLegacyReadMembers(input, deserialized, {
    name: 'ScanFilter',
    value: input.ScanFilter,
  });
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
      'The Segment parameter is zero-based and must be less than parameter TotalSegments',
    );
  }
  return prepareReadExpressions(input, deserialized, legacy, 'Scan');
}
