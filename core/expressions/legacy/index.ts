/**
 * Legacy (pre-expression) parameters, turned into the same plans expressions produce:
 * Expected, QueryFilter / ScanFilter, KeyConditions, AttributeUpdates and AttributesToGet.
 *
 * AttributeValue problems inside these parameters (reported by the deserializer) must be reported
 * by the caller before calling these functions: invalid values are missing from the input.
 */
export { projectionFromAttributesToGet, updateFromAttributeUpdates } from './attributeUpdates.js';
export {
  checkKeyConditions,
  conditionFromExpected,
  conditionFromFilter,
  keyConditionsToParts,
} from './conditions.js';
export type { AttributeValueUpdate, ExpectedAttributeValue, LegacyCondition } from './types.js';
