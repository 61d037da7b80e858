/**
 * Expressions: grammar → typed AST → resolve/validate → evaluate/apply (docs/architecture.md §2.3, after
 * moto's pipeline). Parsing and resolving happen before anything is read, so evaluation never fails
 * half-way and an update is applied to a copy: a failure leaves no partial write.
 *
 * This file is the API the actions use. Everything behind it lives in this folder.
 */
import type { AttributeMap, AttributeValue, Item } from '../model/attributeValue.js';

export type ExpressionKind = 'Update' | 'Condition' | 'KeyCondition' | 'Filter' | 'Projection';

/** A resolved document path: an attribute name, then map members (strings) and list indexes (numbers). */
export type DocumentPath = readonly [string, ...(string | number)[]];

/** A parsed, resolved ConditionExpression or FilterExpression (or a legacy Expected/QueryFilter). */
export interface ConditionExpression {
  /** True when the item (undefined: no item) satisfies the condition. Never throws. */
  evaluate(item: Item | undefined): boolean;
  /** Every document path the condition reads. */
  readonly paths: readonly DocumentPath[];
}

/** The outcome of applying an update to an item. */
export interface UpdateResult {
  /** The new item (a fresh null-prototype map; the input is never mutated). */
  readonly item: Item;
  /** For ReturnValues UPDATED_OLD: previous values of the attributes the update set or removed. */
  readonly updatedOld: AttributeMap;
  /** For ReturnValues UPDATED_NEW: new values of the attributes the update set (docs/dynamodb.md §4.2.4). */
  readonly updatedNew: AttributeMap;
}

/** A parsed, resolved UpdateExpression (or legacy AttributeUpdates). */
export interface UpdatePlan {
  /** Every document path the update writes (SET, REMOVE, ADD, DELETE targets). */
  readonly targets: readonly DocumentPath[];
  /**
   * Only REMOVE/DELETE actions: applied to a missing item they create nothing (docs/dynamodb.md §4.2.2).
   */
  readonly removesOnly: boolean;
  /**
   * Applies the update to a copy of `item` (undefined: the item does not exist; the caller adds
   * the key attributes). Throws ValidationException for runtime errors (docs/dynamodb.md §5.3.3–5.3.5).
   */
  apply(item: Item | undefined): UpdateResult;
}

/** A parsed ProjectionExpression (or legacy AttributesToGet). */
export interface ProjectionPlan {
  readonly paths: readonly DocumentPath[];
  /** The projected copy of an item, keeping nesting; missing paths are omitted (docs/dynamodb.md §5.4.1). */
  apply(item: Item): Item;
}

/** One condition of a KeyConditionExpression (or legacy KeyConditions), after stateless checks. */
export interface KeyConditionPart {
  readonly attributeName: string;
  readonly operator: '=' | '<' | '<=' | '>' | '>=' | 'BETWEEN' | 'begins_with';
  readonly values: readonly AttributeValue[];
  /**
   * A legacy KeyConditions operator that cannot drive a key lookup (NE, NULL, NOT_NULL, CONTAINS,
   * NOT_CONTAINS, IN): refused by Query at its turn in the key walk (docs/dynamodb.md §6.1.3).
   */
  readonly notIndexable?: true;
}

/**
 * A KeyConditionExpression that passed the grammar checks (docs/dynamodb.md §5.2, §8.6). `parts()` applies
 * the stateless key rules of docs/dynamodb.md §6.1.2 and throws their errors; Query calls it after every
 * expression of the request is parsed and the unused names/values are checked (docs/dynamodb.md §8.3).
 */
export interface KeyConditionPlan {
  /** Every document path the key condition reads. */
  readonly paths: readonly DocumentPath[];
  /** The key condition as a condition on items (used by tests and index maintenance). */
  readonly condition: ConditionExpression;
  parts(): KeyConditionPart[];
}

export { clearExpressionCache } from './cache.js';
export type { AttributeValueUpdate, ExpectedAttributeValue, LegacyCondition } from './legacy/index.js';
export {
  checkKeyConditions,
  conditionFromExpected,
  conditionFromFilter,
  keyConditionsToParts,
  projectionFromAttributesToGet,
  updateFromAttributeUpdates,
} from './legacy/index.js';
export {
  checkExpressionAttributeNames,
  checkExpressionAttributeValues,
  checkExpressionParameters,
  EXPRESSION_PARAMETER_RULES,
  type ExpressionParameterRules,
} from './parameters.js';
export { isReservedWord, RESERVED_WORDS } from './reservedWords.js';
export { ExpressionScope } from './scope.js';
