import { ValidationException } from '../errors/index.js';
import type { AttributeValue } from '../model/attributeValue.js';
import type { KeyConditionPart } from './index.js';
import { type Condition, FUNCTION_NAMES, type Operand } from './resolved.js';

/** KeyConditionExpression rules that need no schema (docs/dynamodb.md §6.1.2), texts verbatim. */
export const KeyConditionMessages = {
  invalidOperator: (operator: string) => `Invalid operator used in KeyConditionExpression: ${operator}`,
  nestedOperation: 'KeyConditionExpressions cannot contain nested operations',
  keyFirst: (operator: string) =>
    `Invalid condition in KeyConditionExpression: ${operator} operator must have the key attribute as its first operand`,
  multipleNames:
    'Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition',
  noKey: 'Invalid condition in KeyConditionExpression: No key attribute specified',
  nestedAttribute: 'KeyConditionExpressions cannot have conditions on nested attributes',
  oneConditionPerKey: 'KeyConditionExpressions must only contain one condition per key',
  conditionCount: 'Conditions can be of length 1 or 2 only',
} as const;

/**
 * A multi-attribute GSI key has up to 4 HASH and 4 RANGE attributes, one condition each: more
 * than 8 conditions fit no key. Between 3 and 8, whether they fit is the schema's question
 * (`planKeyRange`, `planCompositeKeyRange`; docs/multi-attribute-keys.md).
 */
export const MAX_KEY_CONDITIONS = 8;

const MIRRORED = { '=': '=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

type PartOperator = KeyConditionPart['operator'];

/**
 * Turns a validated KeyConditionExpression into its parts, checking the stateless rules in the
 * order the service walks the tree: the operator of each node first, then its operands. `:v < k`
 * becomes `k > :v`. Schema checks (6.1.3) are the Query action's.
 */
export function keyConditionParts(condition: Condition): KeyConditionPart[] {
  const parts: KeyConditionPart[] = [];
  collect(condition, parts);
  if (parts.length < 1 || parts.length > MAX_KEY_CONDITIONS)
    throw new ValidationException(KeyConditionMessages.conditionCount);
  return parts;
}

function invalid(message: string): ValidationException {
  return new ValidationException(message);
}

function collect(condition: Condition, parts: KeyConditionPart[]): void {
  switch (condition.kind) {
    case 'and':
      collect(condition.left, parts);
      collect(condition.right, parts);
      return;
    case 'or':
      throw invalid(KeyConditionMessages.invalidOperator('OR'));
    case 'not':
      throw invalid(KeyConditionMessages.invalidOperator('NOT'));
    case 'in':
      throw invalid(KeyConditionMessages.invalidOperator('IN'));
    case 'compare':
      if (condition.operator === '<>') throw invalid(KeyConditionMessages.invalidOperator('<>'));
      addPart(condition.operator, [condition.left, condition.right], parts);
      return;
    case 'between':
      if (condition.operand.kind !== 'path') throw invalid(KeyConditionMessages.keyFirst('BETWEEN'));
      addPart('BETWEEN', [condition.operand, condition.lower, condition.upper], parts);
      return;
    case 'beginsWith':
      if (condition.operand.kind !== 'path') throw invalid(KeyConditionMessages.keyFirst('begins_with'));
      addPart('begins_with', [condition.operand, condition.prefix], parts);
      return;
    default:
      throw invalid(KeyConditionMessages.invalidOperator(FUNCTION_NAMES[condition.kind] ?? condition.kind));
  }
}

function addPart(operator: PartOperator, operands: readonly Operand[], parts: KeyConditionPart[]): void {
  let name: string | undefined;
  let position = 0;
  const values: AttributeValue[] = [];
  operands.forEach((operand, index) => {
    if (operand.kind === 'path') {
      if (name !== undefined) throw invalid(KeyConditionMessages.multipleNames);
      if (operand.path.length > 1) throw invalid(KeyConditionMessages.nestedAttribute);
      name = operand.path[0];
      position = index;
    } else if (operand.kind === 'size') {
      throw invalid(KeyConditionMessages.nestedOperation);
    } else {
      values.push(operand.value);
    }
  });
  if (name === undefined) throw invalid(KeyConditionMessages.noKey);
  const attributeName = name;
  if (parts.some((part) => part.attributeName === attributeName))
    throw invalid(KeyConditionMessages.oneConditionPerKey);
  const mirrored =
    position !== 0 && operator in MIRRORED ? MIRRORED[operator as keyof typeof MIRRORED] : operator;
  parts.push({ attributeName, operator: mirrored, values });
}
