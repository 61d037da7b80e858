import { ValidationException } from '../errors/index.js';
import {
  type ConditionExpression,
  checkExpressionAttributeNames,
  checkExpressionAttributeValues,
  conditionFromFilter,
  ExpressionScope,
  type KeyConditionPart,
  type ProjectionPlan,
  projectionFromAttributesToGet,
} from '../expressions/index.js';
import type { LegacyCondition } from '../expressions/legacy/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { NumberMessages } from '../model/number.js';
import { AttributeMessages } from '../model/parseAttributeValue.js';
import type { Deserialized } from './deserialize.js';

/** Query and Scan share most of their request: filters, projections, Select, ExclusiveStartKey. */
export interface ReadRequestInput {
  TableName: string;
  IndexName?: string;
  Select?: 'ALL_ATTRIBUTES' | 'ALL_PROJECTED_ATTRIBUTES' | 'SPECIFIC_ATTRIBUTES' | 'COUNT';
  AttributesToGet?: string[];
  Limit?: number;
  ConsistentRead?: boolean;
  ConditionalOperator?: 'AND' | 'OR';
  ExclusiveStartKey?: AttributeMap;
  ReturnConsumedCapacity?: 'INDEXES' | 'TOTAL' | 'NONE';
  ProjectionExpression?: string;
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
}

export type SelectValue = NonNullable<ReadRequestInput['Select']>;

/**
 * Select rules (docs/dynamodb.md §6.3.1). Query prefixes these messages with `1 validation error detected: `,
 * Scan does not.
 */
export function checkSelect(input: ReadRequestInput, prefix: string): void {
  const projectionName =
    input.ProjectionExpression !== undefined
      ? 'ProjectionExpression'
      : input.AttributesToGet !== undefined
        ? 'AttributesToGet'
        : undefined;
  const fail = (message: string) => {
    throw new ValidationException(prefix + message);
  };
  switch (input.Select) {
    case 'SPECIFIC_ATTRIBUTES':
      if (projectionName === undefined) {
        fail(
          'Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES',
        );
      }
      break;
    case 'COUNT':
      if (projectionName) fail(`Cannot specify the ${projectionName} when choosing to get only the Count`);
      break;
    case 'ALL_ATTRIBUTES':
      if (projectionName) fail(`Cannot specify the ${projectionName} when choosing to get ALL_ATTRIBUTES`);
      break;
    case 'ALL_PROJECTED_ATTRIBUTES':
      if (projectionName)
        fail(`Cannot specify the ${projectionName} when choosing to get ALL_PROJECTED_ATTRIBUTES`);
      if (input.IndexName === undefined)
        fail('ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName');
      break;
  }
}

/**
 * ExclusiveStartKey AttributeValue problems carry `The provided starting key is invalid: `,
 * except number, number-set and duplicate errors (docs/dynamodb.md §6.2.5).
 */
export function checkStartKeyValues(deserialized: Deserialized): void {
  const problem = deserialized.attributeProblems.get('ExclusiveStartKey');
  if (problem === undefined) return;
  const message = problem.message;
  const unprefixed =
    message.startsWith('The parameter cannot be converted') ||
    message === NumberMessages.overflow ||
    message === NumberMessages.underflow ||
    message === NumberMessages.tooManyDigits ||
    message === AttributeMessages.duplicateNumbers ||
    message.includes('contains duplicates') ||
    message === AttributeMessages.emptyNumberSet;
  throw new ValidationException(unprefixed ? message : `The provided starting key is invalid: ${message}`);
}

export interface PreparedReadRequest {
  filter: ConditionExpression | undefined;
  /** Where the filter came from, for the key-attribute message (docs/dynamodb.md §6.1.4). */
  filterKind: 'Filter Expression' | 'QueryFilter' | 'ScanFilter' | undefined;
  projection: ProjectionPlan | undefined;
  keyConditions: KeyConditionPart[] | undefined;
  select: SelectValue | undefined;
}

/** The legacy filter and AttributesToGet of a Query or Scan, checked and converted. */
export interface LegacyReadMembers {
  filter: ConditionExpression | undefined;
  filterKind: 'QueryFilter' | 'ScanFilter' | undefined;
  projection: ProjectionPlan | undefined;
}

/**
 * QueryFilter/ScanFilter (argument counts, types, BETWEEN order) and AttributesToGet
 * (duplicates), each in the order its operation checks them: Query the filter first, Scan
 * AttributesToGet first; both before the start key's values (recorded, docs/dynamodb.md §8.3).
 */
export function prepareLegacyReadMembers(
  input: ReadRequestInput,
  deserialized: Deserialized,
  legacyFilter: { name: 'QueryFilter' | 'ScanFilter'; value: Record<string, LegacyCondition> | undefined },
): LegacyReadMembers {
  const legacy: LegacyReadMembers = { filter: undefined, filterKind: undefined, projection: undefined };
  const readFilter = () => {
    // The filter's AttributeValue problems come first, then its arguments and types.
    const problem = deserialized.attributeProblems.get(legacyFilter.name);
    if (problem !== undefined) throw new ValidationException(problem.message);
    if (legacyFilter.value === undefined) return;
    legacy.filter = conditionFromFilter(legacyFilter.value, input.ConditionalOperator);
    legacy.filterKind = legacyFilter.name;
  };
  const readAttributesToGet = () => {
    if (input.AttributesToGet !== undefined)
      legacy.projection = projectionFromAttributesToGet(input.AttributesToGet);
  };
  if (legacyFilter.name === 'QueryFilter') {
    readFilter();
    readAttributesToGet();
  } else {
    readAttributesToGet();
    readFilter();
  }
  return legacy;
}

/**
 * Parses a Query/Scan's expressions in the service's order (docs/dynamodb.md §8.2, §8.3): names,
 * values, the grammar of KeyCondition, Filter, Projection, then unused names and values, and only
 * then the key condition's own rules (docs/dynamodb.md §6.1.2): so an empty FilterExpression is
 * reported before `Invalid operator used in KeyConditionExpression: OR` (recorded).
 */
export function prepareReadExpressions(
  input: ReadRequestInput & { KeyConditionExpression?: string },
  deserialized: Deserialized,
  legacy: LegacyReadMembers,
  operation: 'Query' | 'Scan',
): PreparedReadRequest {
  let filter: ConditionExpression | undefined = legacy.filter;
  let filterKind: PreparedReadRequest['filterKind'] = legacy.filterKind;
  let projection: ProjectionPlan | undefined = legacy.projection;
  checkExpressionAttributeNames(input.ExpressionAttributeNames);
  checkExpressionAttributeValues(
    input.ExpressionAttributeValues,
    deserialized.attributeProblems.get('ExpressionAttributeValues'),
    operation,
  );
  const scope = new ExpressionScope(input.ExpressionAttributeNames, input.ExpressionAttributeValues);
  const keyCondition =
    input.KeyConditionExpression === undefined
      ? undefined
      : scope.prepareKeyCondition(input.KeyConditionExpression);
  if (input.FilterExpression !== undefined) {
    filter = scope.parseCondition(input.FilterExpression, 'Filter');
    filterKind = 'Filter Expression';
  }
  if (input.ProjectionExpression !== undefined)
    projection = scope.parseProjection(input.ProjectionExpression);
  scope.checkUnused();
  const keyConditions = keyCondition?.parts();
  const select = input.Select ?? (projection ? 'SPECIFIC_ATTRIBUTES' : undefined);
  return { filter, filterKind, projection, keyConditions, select };
}
