import { ValidationException } from '../errors/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { AttributeMessages, attributeNameProblem } from '../model/parseAttributeValue.js';
import { utf8Length } from '../model/utf8.js';

/** Which expression and legacy parameters an operation has (for docs/dynamodb.md §5.1.6 and §5.4.2). */
export interface ExpressionParameterRules {
  operation: string;
  /** Expression members, in the order the service lists them in its messages. */
  expressions?: readonly string[];
  /** Legacy (non-expression) members, in the service's canonical order. */
  legacy?: readonly string[];
  /**
   * The newer framework's text for values without an expression: no `: <expressions> is null`
   * suffix (PutItem, 2026; docs/dynamodb.md §5.1.6, §9.2).
   */
  bareValuesMessage?: boolean;
}

const WRITE_EXPRESSIONS = ['ConditionExpression'] as const;
const WRITE_LEGACY = ['Expected', 'ConditionalOperator'] as const;

/**
 * Per operation (and per nested request of BatchGetItem and the transactions). The orders are the
 * ones the service prints (docs/dynamodb.md §5.4.2, §5.1.6): `AttributesToGet, QueryFilter|ScanFilter,
 * ConditionalOperator, KeyConditions` and `ProjectionExpression, FilterExpression,
 * KeyConditionExpression`; UpdateItem `AttributeUpdates, Expected` and `UpdateExpression,
 * ConditionExpression`.
 */
export const EXPRESSION_PARAMETER_RULES: Readonly<Record<string, ExpressionParameterRules>> = {
  PutItem: {
    operation: 'PutItem',
    expressions: WRITE_EXPRESSIONS,
    legacy: WRITE_LEGACY,
    bareValuesMessage: true,
  },
  DeleteItem: {
    operation: 'DeleteItem',
    expressions: WRITE_EXPRESSIONS,
    legacy: WRITE_LEGACY,
    bareValuesMessage: true,
  },
  UpdateItem: {
    operation: 'UpdateItem',
    expressions: ['UpdateExpression', 'ConditionExpression'],
    legacy: ['AttributeUpdates', 'Expected', 'ConditionalOperator'],
    bareValuesMessage: true,
  },
  GetItem: { operation: 'GetItem', expressions: ['ProjectionExpression'], legacy: ['AttributesToGet'] },
  Query: {
    operation: 'Query',
    expressions: ['ProjectionExpression', 'FilterExpression', 'KeyConditionExpression'],
    legacy: ['AttributesToGet', 'QueryFilter', 'ConditionalOperator', 'KeyConditions'],
  },
  Scan: {
    operation: 'Scan',
    expressions: ['ProjectionExpression', 'FilterExpression'],
    legacy: ['AttributesToGet', 'ScanFilter', 'ConditionalOperator'],
  },
  /** One table's entry of BatchGetItem.RequestItems (also reachable as `BatchGetItem`). */
  'BatchGetItem.RequestItems': {
    operation: 'BatchGetItem.RequestItems',
    expressions: ['ProjectionExpression'],
    legacy: ['AttributesToGet'],
  },
  BatchGetItem: {
    operation: 'BatchGetItem',
    expressions: ['ProjectionExpression'],
    legacy: ['AttributesToGet'],
  },
  'TransactGetItems.Get': {
    operation: 'TransactGetItems.Get',
    expressions: ['ProjectionExpression'],
    legacy: [],
  },
  'TransactWriteItems.Put': {
    operation: 'TransactWriteItems.Put',
    expressions: WRITE_EXPRESSIONS,
    legacy: [],
  },
  'TransactWriteItems.Delete': {
    operation: 'TransactWriteItems.Delete',
    expressions: WRITE_EXPRESSIONS,
    legacy: [],
  },
  'TransactWriteItems.ConditionCheck': {
    operation: 'TransactWriteItems.ConditionCheck',
    expressions: WRITE_EXPRESSIONS,
    legacy: [],
  },
  'TransactWriteItems.Update': {
    operation: 'TransactWriteItems.Update',
    expressions: ['UpdateExpression', 'ConditionExpression'],
    legacy: [],
  },
};

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Request-level checks before any expression is parsed (docs/dynamodb.md §5.4.2, §5.1.6): legacy and
 * expression parameters mixed; names or values given without any expression. Pass an operation
 * name from `EXPRESSION_PARAMETER_RULES` (e.g. `Query`, `BatchGetItem.RequestItems`) or rules of
 * your own; unknown operations have nothing to check.
 *
 * @example
 * ```ts
 * // Throws: Can not use both expression and non-expression parameters in the same request:
 * // Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}
 * checkExpressionParameters('PutItem', { Expected: {}, ConditionExpression: 'a = :a' });
 * ```
 */
export function checkExpressionParameters(
  operation: string | ExpressionParameterRules,
  input: Record<string, unknown>,
): void {
  const rules =
    typeof operation === 'string'
      ? hasOwn.call(EXPRESSION_PARAMETER_RULES, operation)
        ? EXPRESSION_PARAMETER_RULES[operation]
        : undefined
      : operation;
  if (rules === undefined) return;
  const expressions = rules.expressions ?? [];
  // The usual request uses no expression parameter at all: find that out without closures or
  // arrays (this check ran on every PutItem and GetItem).
  let anyUsed = false;
  for (const member of expressions) {
    if (isPresent(input, member)) {
      anyUsed = true;
      break;
    }
  }
  if (anyUsed) {
    const present = (member: string) => isPresent(input, member);
    const used = expressions.filter(present);
    // KeyConditions is only reported next to a KeyConditionExpression (docs/dynamodb.md §5.4.2).
    const legacy = (rules.legacy ?? []).filter(
      (member) => present(member) && (member !== 'KeyConditions' || present('KeyConditionExpression')),
    );
    if (legacy.length > 0) {
      throw new ValidationException(
        'Can not use both expression and non-expression parameters in the same request: ' +
          `Non-expression parameters: {${legacy.join(', ')}} Expression parameters: {${used.join(', ')}}`,
      );
    }
  }
  if (!anyUsed && isPresent(input, 'ExpressionAttributeNames')) {
    throw new ValidationException('ExpressionAttributeNames can only be specified when using expressions');
  }
  if (!isPresent(input, 'ExpressionAttributeValues')) return;
  const valueTaking = expressions.filter((member) => member !== 'ProjectionExpression');
  if (valueTaking.length > 0 && !valueTaking.some((member) => isPresent(input, member))) {
    if (rules.bareValuesMessage)
      throw new ValidationException('ExpressionAttributeValues can only be specified when using expressions');
    throw new ValidationException(
      `ExpressionAttributeValues can only be specified when using expressions: ${valueTaking.join(' and ')} ${
        valueTaking.length > 1 ? 'are' : 'is'
      } null`,
    );
  }
}

function isPresent(input: Record<string, unknown>, member: string): boolean {
  const value = input[member];
  return value !== undefined && value !== null;
}

const NAME_KEY = /^#[A-Za-z0-9_]+$/;
const VALUE_KEY = /^:[A-Za-z0-9_]+$/;
/** `#name` keys are limited to 255 bytes (docs/dynamodb.md §2.6.3). */
const MAX_NAME_KEY_BYTES = 255;

/** `ExpressionAttributeNames must not be empty`; keys must be `#[A-Za-z0-9_]+` (docs/dynamodb.md §5.1.5). */
export function checkExpressionAttributeNames(names: Record<string, string> | undefined): void {
  if (names === undefined) return;
  const keys = Object.keys(names);
  if (keys.length === 0) throw new ValidationException('ExpressionAttributeNames must not be empty');
  for (const key of keys) {
    const bytes = utf8Length(key);
    if (bytes > MAX_NAME_KEY_BYTES) {
      throw new ValidationException(
        `ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: ${bytes}`,
      );
    }
    if (!NAME_KEY.test(key)) {
      throw new ValidationException(
        `ExpressionAttributeNames contains invalid key: Syntax error; key: "${key}"`,
      );
    }
    // The name a placeholder stands for is an attribute name (docs/dynamodb.md §2.5.4), checked
    // after its key; the wrapper is the service's (DynamoDB Local's InputConverter words it so:
    // `<map> contains invalid value: <problem> for key <key>`, as for ExpressionAttributeValues).
    const problem = attributeNameProblem(names[key]!);
    if (problem !== undefined) throw invalidValue('ExpressionAttributeNames', problem, key);
  }
}

const EMPTY_SET_MESSAGES: ReadonlySet<string> = new Set([
  AttributeMessages.emptyStringSet,
  AttributeMessages.emptyNumberSet,
  AttributeMessages.emptyBinarySet,
]);
/** Operations whose empty-set message loses the `contains invalid value` wrapper (docs/dynamodb.md §9.2). */
const UNWRAPPED_EMPTY_SET_OPERATIONS: ReadonlySet<string> = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);

/**
 * `ExpressionAttributeValues must not be empty`; keys must be `:[A-Za-z0-9_]+`; a bad value reads
 * `ExpressionAttributeValues contains invalid value: <message> for key <k>` (docs/dynamodb.md §5.1.5).
 *
 * `problem` is the first AttributeValue problem the deserializer found in the map (its invalid
 * entries are not in `values`). An empty set is reported bare, without the wrapper (docs/dynamodb.md §9.2):
 * always when `operation` is omitted, else only for PutItem, UpdateItem and DeleteItem.
 */
export function checkExpressionAttributeValues(
  values: AttributeMap | undefined,
  problem: { message: string; key: string | undefined } | undefined,
  operation?: string,
): void {
  if (values === undefined && problem === undefined) return;
  const keys = Object.keys(values ?? {});
  if (keys.length === 0 && problem === undefined) {
    throw new ValidationException('ExpressionAttributeValues must not be empty');
  }
  if (problem?.key !== undefined && !keys.includes(problem.key)) keys.push(problem.key);
  for (const key of keys) {
    if (!VALUE_KEY.test(key)) {
      throw new ValidationException(
        `ExpressionAttributeValues contains invalid key: Syntax error; key: "${key}"`,
      );
    }
  }
  if (problem === undefined) return;
  if (
    EMPTY_SET_MESSAGES.has(problem.message) &&
    (operation === undefined || UNWRAPPED_EMPTY_SET_OPERATIONS.has(operation))
  ) {
    throw new ValidationException(problem.message);
  }
  throw invalidValue('ExpressionAttributeValues', problem.message, problem.key ?? '');
}

/** The service's wrapper of a problem in one entry of a parameter map. */
function invalidValue(map: string, problem: string, key: string): ValidationException {
  return new ValidationException(`${map} contains invalid value: ${problem} for key ${key}`);
}
