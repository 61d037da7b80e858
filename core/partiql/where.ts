import { ValidationException } from '../errors/index.js';
import { CompiledCondition } from '../expressions/compile.js';
import type { ConditionExpression, DocumentPath } from '../expressions/index.js';
import type { Condition } from '../expressions/resolved.js';
import { type AttributeMap, type AttributeValue, newAttributeMap, typeOf } from '../model/attributeValue.js';
import type { KeyDefinition } from '../store/table.js';
import type { Expr } from './ast.js';
import { ConditionBuilder } from './conditions.js';
import { PartiqlMessages } from './errors.js';
import { isValueExpression, literalValue, MISSING } from './values.js';

/**
 * A WHERE clause split at its top-level ANDs, each part checked and turned into a condition once
 * (docs/partiql.md §3.1). The planner takes the key equalities out of it (they address the item or
 * the partition) and keeps the rest as the filter or the write's condition.
 */
export interface Conjunct {
  readonly expression: Expr;
  readonly condition: Condition;
  readonly paths: readonly DocumentPath[];
}

/**
 * A statement may not use more parameters than the request gives; extra ones are ignored, as
 * DynamoDB Local does and as the documentation's transaction example needs (docs/partiql.md §2.3).
 */
export function checkParameterCount(
  expected: number,
  parameters: readonly AttributeValue[] | undefined,
): void {
  if ((parameters?.length ?? 0) < expected) throw new ValidationException(PartiqlMessages.parameterCount);
}

export function conjunctsOf(where: Expr | undefined, parameters: readonly AttributeValue[]): Conjunct[] {
  const parts: Expr[] = [];
  if (where !== undefined) flatten(where, parts);
  const conjuncts: Conjunct[] = [];
  for (const expression of parts) {
    const builder = new ConditionBuilder(parameters);
    const condition = builder.condition(expression);
    conjuncts.push({ expression, condition, paths: builder.paths });
  }
  return conjuncts;
}

function flatten(expression: Expr, parts: Expr[]): void {
  if (expression.type === 'and') {
    flatten(expression.left, parts);
    flatten(expression.right, parts);
  } else {
    parts.push(expression);
  }
}

/** The conjuncts left, ANDed into one condition (undefined when none is left). */
export function combine(conjuncts: readonly Conjunct[], extra?: Condition): ConditionExpression | undefined {
  let condition: Condition | undefined = extra;
  const paths: DocumentPath[] = [];
  for (const conjunct of conjuncts) {
    condition =
      condition === undefined
        ? conjunct.condition
        : { kind: 'and', left: condition, right: conjunct.condition };
    paths.push(...conjunct.paths);
  }
  return condition === undefined ? undefined : new CompiledCondition(condition, paths);
}

/** `first OR (conjuncts ANDed)`: a DELETE's condition, true for a missing item. */
export function combineOr(
  first: Condition | undefined,
  conjuncts: readonly Conjunct[],
): ConditionExpression | undefined {
  const rest = combine(conjuncts);
  if (first === undefined || rest === undefined) return rest;
  const compiled = rest as CompiledCondition;
  return new CompiledCondition({ kind: 'or', left: first, right: compiled.condition }, compiled.paths);
}

/**
 * `key = value` with the key attribute on either side: the value, or undefined when the conjunct
 * is anything else.
 */
export function keyEquality(
  conjunct: Conjunct,
  name: string,
  parameters: readonly AttributeValue[],
): AttributeValue | undefined {
  const expression = conjunct.expression;
  if (expression.type !== 'compare' || expression.operator !== '=') return undefined;
  return (
    sideValue(expression.left, expression.right, name, parameters) ??
    sideValue(expression.right, expression.left, name, parameters)
  );
}

function sideValue(
  path: Expr,
  other: Expr,
  name: string,
  parameters: readonly AttributeValue[],
): AttributeValue | undefined {
  if (path.type !== 'path' || path.steps.length > 0 || path.name !== name || !isValueExpression(other))
    return undefined;
  const value = literalValue(other, parameters);
  return value === MISSING ? undefined : value;
}

/** A key value must be a scalar of the schema's type (docs/partiql.md §5.3). */
export function checkKeyValue(definition: KeyDefinition, value: AttributeValue): void {
  const type = typeOf(value);
  if (type !== 'S' && type !== 'N' && type !== 'B')
    throw new ValidationException(PartiqlMessages.keyValueType(definition.name, type));
  if (type !== definition.type)
    throw new ValidationException(PartiqlMessages.keyTypeMismatch(definition.name));
}

/**
 * The full primary key from equalities in the WHERE clause, and the conjuncts left over: what an
 * UPDATE, a DELETE, a batch or transaction SELECT and an EXISTS address (docs/partiql.md §3.3).
 */
export function fullKey(
  conjuncts: readonly Conjunct[],
  definitions: readonly KeyDefinition[],
  parameters: readonly AttributeValue[],
): { key: AttributeMap; rest: Conjunct[] } | undefined {
  const key = newAttributeMap();
  const used: Conjunct[] = [];
  for (const definition of definitions) {
    let value: AttributeValue | undefined;
    for (const conjunct of conjuncts) {
      if (used.includes(conjunct)) continue;
      value = keyEquality(conjunct, definition.name, parameters);
      if (value !== undefined) {
        used.push(conjunct);
        break;
      }
    }
    if (value === undefined) return undefined;
    checkKeyValue(definition, value);
    key[definition.name] = value;
  }
  const rest =
    conjuncts.length === used.length ? [] : conjuncts.filter((conjunct) => !used.includes(conjunct));
  return { key, rest };
}
