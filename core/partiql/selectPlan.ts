import { ValidationException } from '../errors/index.js';
import type {
  ConditionExpression,
  DocumentPath,
  KeyConditionPart,
  ProjectionPlan,
} from '../expressions/index.js';
import { type AttributeMap, type AttributeValue, typeOf } from '../model/attributeValue.js';
import { compareScalars } from '../model/compare.js';
import type { KeyDefinition, KeyShape } from '../store/table.js';
import type { Expr, SelectStatement } from './ast.js';
import { PartiqlMessages } from './errors.js';
import { SelectProjection } from './projection.js';
import { isValueExpression, literalValue, MISSING } from './values.js';
import { type Conjunct, checkKeyValue, combine, conjunctsOf, fullKey, keyEquality } from './where.js';

/**
 * How a SELECT reads (docs/partiql.md §3.2), as DynamoDB plans it: equality on the whole primary key
 * of the table reads one item (GetItem); a WHERE clause that fixes the partition key, by `=`, `IN`
 * or ORed equalities, reads those partitions (Query), the sort key narrowed by one `=`, `<`, `<=`,
 * `>`, `>=`, BETWEEN or begins_with condition; anything else reads the whole table or index (Scan).
 * What the key conditions do not cover filters the items read.
 */
export type SelectPlan =
  | {
      readonly kind: 'get';
      readonly key: AttributeMap;
      readonly filter: ConditionExpression | undefined;
      readonly projection: ProjectionPlan | undefined;
    }
  | {
      readonly kind: 'query';
      /** One key condition list per partition, in read order. */
      readonly partitions: readonly KeyConditionPart[][];
      /** The partition key came from a top-level `=` or IN, not from the branches of an OR. */
      readonly keyed: boolean;
      /** For an OR whose branches each fix the partition: what each branch filters on. */
      readonly branches: readonly BranchFilter[] | undefined;
      readonly forward: boolean;
      readonly filter: ConditionExpression | undefined;
      readonly projection: ProjectionPlan | undefined;
    }
  | {
      readonly kind: 'scan';
      readonly filter: ConditionExpression | undefined;
      readonly projection: ProjectionPlan | undefined;
    };

/** One OR branch of a keyed read: its partition, and the paths its other conditions read. */
export interface BranchFilter {
  readonly partition: AttributeValue;
  readonly paths: readonly DocumentPath[];
}

export function planSelect(
  statement: SelectStatement,
  conjuncts: readonly Conjunct[],
  /** The key of what is read: the table's, or the index's. */
  key: KeyShape,
  onIndex: boolean,
  parameters: readonly AttributeValue[],
): SelectPlan {
  const projection = statement.projection ? new SelectProjection(statement.projection) : undefined;
  if (statement.orderBy.length > 0 && statement.where === undefined)
    throw new ValidationException(PartiqlMessages.orderByNeedsWhere);
  const { hash, range } = key;
  if (!onIndex && statement.orderBy.length === 0) {
    const found = fullKey(conjuncts, range ? [hash, range] : [hash], parameters);
    if (found !== undefined) return { kind: 'get', key: found.key, filter: combine(found.rest), projection };
  }
  const partitions = partitionValues(conjuncts, hash, range, parameters);
  if (partitions === undefined) {
    if (statement.orderBy.length > 0) throw new ValidationException(PartiqlMessages.orderByNeedsHash);
    return { kind: 'scan', filter: combine(conjuncts), projection };
  }
  let rest = conjuncts.filter((conjunct) => conjunct !== partitions.used);
  let rangePart: KeyConditionPart | undefined;
  if (range !== undefined && partitions.used !== undefined) {
    for (const conjunct of rest) {
      rangePart = sortKeyCondition(conjunct.expression, range, parameters);
      if (rangePart !== undefined) {
        rest = rest.filter((other) => other !== conjunct);
        break;
      }
    }
  }
  let values = partitions.values;
  let forward = true;
  for (const { path, descending } of statement.orderBy) {
    if (path.steps.length === 0 && path.name === hash.name) {
      values = [...values].sort((a, b) => compareScalars(a, b) ?? 0);
      if (descending) values.reverse();
    } else if (range !== undefined && path.steps.length === 0 && path.name === range.name) {
      forward = !descending;
    } else {
      throw new ValidationException(
        `Invalid ORDER BY attribute: ${path.name}. ORDER BY is only supported on key attributes`,
      );
    }
  }
  const hashPart = (value: AttributeValue): KeyConditionPart => ({
    attributeName: hash.name,
    operator: '=',
    values: [value],
  });
  return {
    kind: 'query',
    partitions: values.map((value) => (rangePart ? [hashPart(value), rangePart] : [hashPart(value)])),
    keyed: partitions.used !== undefined,
    branches: partitions.branches,
    forward,
    filter: combine(rest),
    projection,
  };
}

/**
 * The partitions a WHERE clause fixes: `hash = v`, `hash IN [...]`, or a top-level OR each of
 * whose branches fixes the partition (then the whole clause stays the filter).
 */
function partitionValues(
  conjuncts: readonly Conjunct[],
  hash: KeyDefinition,
  range: KeyDefinition | undefined,
  parameters: readonly AttributeValue[],
): { values: AttributeValue[]; used: Conjunct | undefined; branches?: BranchFilter[] } | undefined {
  for (const conjunct of conjuncts) {
    const value = keyEquality(conjunct, hash.name, parameters);
    if (value !== undefined) {
      checkKeyValue(hash, value);
      return { values: [value], used: conjunct };
    }
  }
  for (const conjunct of conjuncts) {
    const values = inValues(conjunct.expression, hash, parameters);
    if (values !== undefined) return { values: distinct(values), used: conjunct };
  }
  if (conjuncts.length === 1 && conjuncts[0]!.expression.type === 'or') {
    const branches = orBranches(conjuncts[0]!.expression);
    const keyed = branches.map((branch) => branchPartition(branch, hash, parameters));
    if (keyed.every((value) => value !== undefined)) {
      checkOverlap(branches, keyed as AttributeValue[], range, parameters);
      return {
        values: distinct(keyed as AttributeValue[]),
        used: undefined,
        branches: branches.map((branch, index) =>
          branchFilter(branch, keyed[index]!, hash, range, parameters),
        ),
      };
    }
  }
  return undefined;
}

/** What an OR branch filters on: its conditions but the partition equality and one sort-key range. */
function branchFilter(
  branch: Expr,
  partition: AttributeValue,
  hash: KeyDefinition,
  range: KeyDefinition | undefined,
  parameters: readonly AttributeValue[],
): BranchFilter {
  let rest = conjunctsOf(branch, parameters);
  const equality = rest.find((conjunct) => keyEquality(conjunct, hash.name, parameters) !== undefined);
  rest = rest.filter((conjunct) => conjunct !== equality);
  const narrowing =
    range === undefined
      ? undefined
      : rest.find((conjunct) => sortKeyCondition(conjunct.expression, range, parameters) !== undefined);
  rest = rest.filter((conjunct) => conjunct !== narrowing);
  return { partition, paths: rest.flatMap((conjunct) => conjunct.paths) };
}

function inValues(
  expression: Expr,
  hash: KeyDefinition,
  parameters: readonly AttributeValue[],
): AttributeValue[] | undefined {
  if (expression.type !== 'in') return undefined;
  const { operand, list } = expression;
  if (operand.type !== 'path' || operand.steps.length > 0 || operand.name !== hash.name) return undefined;
  let elements: AttributeValue[];
  if (list.type === 'list' || list.type === 'bag') {
    if (!list.elements.every(isValueExpression)) return undefined;
    elements = list.elements
      .map((element) => literalValue(element, parameters))
      .filter((value) => value !== MISSING);
  } else if (list.type === 'parameter') {
    const value = parameters[list.index]!;
    if (!('L' in value)) return undefined;
    elements = (value as { L: AttributeValue[] }).L;
  } else {
    return undefined;
  }
  for (const element of elements) checkKeyValue(hash, element);
  return elements;
}

function orBranches(expression: Expr): Expr[] {
  return expression.type === 'or'
    ? [...orBranches(expression.left), ...orBranches(expression.right)]
    : [expression];
}

function andParts(expression: Expr): Expr[] {
  return expression.type === 'and'
    ? [...andParts(expression.left), ...andParts(expression.right)]
    : [expression];
}

function branchPartition(
  branch: Expr,
  hash: KeyDefinition,
  parameters: readonly AttributeValue[],
): AttributeValue | undefined {
  for (const part of andParts(branch)) {
    const value = keyEquality(
      { expression: part, condition: { kind: 'true' }, paths: [] },
      hash.name,
      parameters,
    );
    if (value !== undefined) {
      checkKeyValue(hash, value);
      return value;
    }
  }
  return undefined;
}

/**
 * OR branches on one partition may not overlap on the sort key: a branch that does not mention the
 * sort key beside one that narrows it is refused; a negated or `<>` sort-key condition counts as a
 * mention (conformance whereOverlap.test.ts, docs/partiql.md §3.2).
 */
function checkOverlap(
  branches: readonly Expr[],
  partitions: readonly AttributeValue[],
  range: KeyDefinition | undefined,
  parameters: readonly AttributeValue[],
): void {
  if (range === undefined) return;
  const groups = new Map<string, { narrowed: boolean; open: boolean }>();
  branches.forEach((branch, index) => {
    const value = partitions[index]!;
    const type = typeOf(value);
    const id = `${type}:${(value as Record<string, string>)[type]!}`;
    const group = groups.get(id) ?? { narrowed: false, open: false };
    if (andParts(branch).some((part) => sortKeyCondition(part, range, parameters) !== undefined))
      group.narrowed = true;
    else if (!mentions(branch, range.name)) group.open = true;
    groups.set(id, group);
  });
  for (const group of groups.values()) {
    if (group.narrowed && group.open) throw new ValidationException(PartiqlMessages.overlapping);
  }
}

/** Whether an expression reads the top-level attribute `name` anywhere. */
function mentions(expression: Expr, name: string): boolean {
  switch (expression.type) {
    case 'path':
      return expression.name === name;
    case 'and':
    case 'or':
    case 'compare':
    case 'arithmetic':
      return mentions(expression.left, name) || mentions(expression.right, name);
    case 'not':
    case 'is':
      return mentions(expression.operand, name);
    case 'between':
      return [expression.operand, expression.lower, expression.upper].some((part) => mentions(part, name));
    case 'in':
      return mentions(expression.operand, name) || mentions(expression.list, name);
    case 'call':
      return expression.args.some((argument) => mentions(argument, name));
    case 'list':
    case 'bag':
      return expression.elements.some((element) => mentions(element, name));
    default:
      return false;
  }
}

const RANGE_OPERATORS = new Set(['=', '<', '<=', '>', '>=']);
const MIRRORED: Readonly<Record<string, KeyConditionPart['operator']>> = {
  '=': '=',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

/** A sort-key condition a Query can use, or undefined. */
function sortKeyCondition(
  expression: Expr,
  range: KeyDefinition,
  parameters: readonly AttributeValue[],
): KeyConditionPart | undefined {
  const isRange = (side: Expr) => side.type === 'path' && side.steps.length === 0 && side.name === range.name;
  const scalar = (side: Expr): AttributeValue | undefined => {
    if (!isValueExpression(side)) return undefined;
    const value = literalValue(side, parameters);
    if (value === MISSING) return undefined;
    checkKeyValue(range, value);
    return value;
  };
  if (expression.type === 'compare' && RANGE_OPERATORS.has(expression.operator)) {
    if (isRange(expression.left)) {
      const value = scalar(expression.right);
      if (value !== undefined)
        return {
          attributeName: range.name,
          operator: expression.operator as KeyConditionPart['operator'],
          values: [value],
        };
    } else if (isRange(expression.right)) {
      const value = scalar(expression.left);
      if (value !== undefined)
        return { attributeName: range.name, operator: MIRRORED[expression.operator]!, values: [value] };
    }
    return undefined;
  }
  if (expression.type === 'between' && isRange(expression.operand)) {
    const lower = scalar(expression.lower);
    const upper = scalar(expression.upper);
    if (lower !== undefined && upper !== undefined)
      return { attributeName: range.name, operator: 'BETWEEN', values: [lower, upper] };
    return undefined;
  }
  if (
    expression.type === 'call' &&
    expression.name === 'begins_with' &&
    expression.args.length === 2 &&
    range.type !== 'N'
  ) {
    const [operand, prefix] = expression.args as [Expr, Expr];
    const value = isRange(operand) ? scalar(prefix) : undefined;
    if (value !== undefined) return { attributeName: range.name, operator: 'begins_with', values: [value] };
  }
  return undefined;
}

function distinct(values: readonly AttributeValue[]): AttributeValue[] {
  const out: AttributeValue[] = [];
  for (const value of values) if (!out.some((other) => compareScalars(other, value) === 0)) out.push(value);
  return out;
}
