import type { AttributeValue } from '../../model/attributeValue.js';
import type { ConditionExpression, KeyConditionPart, ProjectionPlan, UpdatePlan } from '../index.js';

/** Legacy (pre-expression) parameters, turned into the same plans expressions produce. */

export interface ExpectedAttributeValue {
  Value?: AttributeValue;
  Exists?: boolean;
  ComparisonOperator?: string;
  AttributeValueList?: AttributeValue[];
}

export interface LegacyCondition {
  ComparisonOperator: string;
  AttributeValueList?: AttributeValue[];
}

export interface AttributeValueUpdate {
  Value?: AttributeValue;
  Action?: 'ADD' | 'PUT' | 'DELETE';
}

/** `Expected` (+ ConditionalOperator) → condition, with the spec §5.4.3 checks. */
export function conditionFromExpected(
  _expected: Record<string, ExpectedAttributeValue>,
  _conditionalOperator: 'AND' | 'OR' | undefined,
): ConditionExpression {
  throw new Error('conditionFromExpected: not implemented yet');
}

/** QueryFilter / ScanFilter (+ ConditionalOperator) → condition, with the spec §5.4.4 checks. */
export function conditionFromFilter(
  _filter: Record<string, LegacyCondition>,
  _conditionalOperator: 'AND' | 'OR' | undefined,
): ConditionExpression {
  throw new Error('conditionFromFilter: not implemented yet');
}

/** KeyConditions → key condition parts (schema checks are the Query action's). */
export function keyConditionsToParts(_keyConditions: Record<string, LegacyCondition>): KeyConditionPart[] {
  throw new Error('keyConditionsToParts: not implemented yet');
}

/** AttributeUpdates → update plan, with the spec §4.2.7 checks. */
export function updateFromAttributeUpdates(_updates: Record<string, AttributeValueUpdate>): UpdatePlan {
  throw new Error('updateFromAttributeUpdates: not implemented yet');
}

/** AttributesToGet → projection; duplicates are rejected (spec §4.2.6). */
export function projectionFromAttributesToGet(_names: string[]): ProjectionPlan {
  throw new Error('projectionFromAttributesToGet: not implemented yet');
}
