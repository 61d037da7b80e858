import { type AttributeType, AttributeTypes, type AttributeValue, typeOf } from '../model/attributeValue.js';
import { compareScalars } from '../model/compare.js';
import type { AtomicConditionNode, CallNode, ConditionNode, OperandNode } from './ast.js';
import { ANY_TYPE_SET, ExpressionMessages, expressionError } from './errors.js';
import { arityOf } from './functions.js';
import type { DocumentPath, ExpressionKind } from './index.js';
import { printPath, samePath } from './paths.js';
import type { Condition, Operand } from './resolved.js';
import { type Resolver, resolvePath } from './resolver.js';

/** IN takes at most 100 operands, the left one included (docs/dynamodb.md §5.2.6, §9.9). */
export const MAX_IN_OPERANDS = 100;

/** An operand with its names and values resolved, still shaped like the syntax tree. */
type Resolved =
  | { readonly kind: 'path'; readonly path: DocumentPath }
  | { readonly kind: 'value'; readonly value: AttributeValue }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Resolved[] };

const ORDERED_TYPES: ReadonlySet<string> = new Set(['N', 'S', 'B']);

/**
 * Resolves a condition tree and runs the checks that need names and values (docs/dynamodb.md §8.6). Atomic
 * conditions are checked one by one in textual order; within one, the order is: first undefined
 * name or value → operand count → distinct operands → operand types. So an operand-type error in
 * the first comparison beats an undefined name in the second, as AWS answers.
 */
export function resolveCondition(
  ast: ConditionNode,
  resolver: Resolver,
  kind: ExpressionKind,
  paths: DocumentPath[],
): Condition {
  switch (ast.type) {
    case 'and':
    case 'or': {
      const left = resolveCondition(ast.left, resolver, kind, paths);
      return { kind: ast.type, left, right: resolveCondition(ast.right, resolver, kind, paths) };
    }
    case 'not':
      return { kind: 'not', operand: resolveCondition(ast.operand, resolver, kind, paths) };
    default: {
      const operands: Resolved[] = [];
      for (const operand of atomicOperands(ast))
        operands.push(resolveOperand(operand, resolver, kind, paths));
      const problem =
        countProblem(ast, operands) ?? distinctProblem(ast, operands) ?? typeProblem(ast, operands);
      if (problem !== undefined) throw expressionError(kind, problem);
      return toCondition(ast, operands);
    }
  }
}

function atomicOperands(node: AtomicConditionNode): readonly OperandNode[] {
  switch (node.type) {
    case 'compare':
      return [node.left, node.right];
    case 'between':
      return [node.operand, node.lower, node.upper];
    case 'in':
      return [node.operand, ...node.list];
    case 'function':
      return node.call.args;
  }
}

function resolveOperand(
  operand: OperandNode,
  resolver: Resolver,
  kind: ExpressionKind,
  paths: DocumentPath[],
): Resolved {
  switch (operand.type) {
    case 'path': {
      const path = resolvePath(operand, resolver);
      if (typeof path === 'string') throw expressionError(kind, path);
      paths.push(path);
      return { kind: 'path', path };
    }
    case 'value': {
      const value = resolver.resolveValue(operand.ref);
      if (value === undefined) throw expressionError(kind, ExpressionMessages.undefinedValue(operand.ref));
      return { kind: 'value', value };
    }
    case 'call':
      return {
        kind: 'call',
        name: operand.name,
        args: operand.args.map((argument) => resolveOperand(argument, resolver, kind, paths)),
      };
  }
}

/** Visits resolved calls, arguments first. */
function eachCall(
  operand: Resolved,
  visit: (call: Resolved & { kind: 'call' }) => string | undefined,
): string | undefined {
  if (operand.kind !== 'call') return undefined;
  for (const argument of operand.args) {
    const found = eachCall(argument, visit);
    if (found !== undefined) return found;
  }
  return visit(operand);
}

/** For a function condition, the call itself is the top of the operand tree. */
function topOperands(node: AtomicConditionNode, operands: Resolved[]): Resolved[] {
  return node.type === 'function' ? [{ kind: 'call', name: node.call.name, args: operands }] : operands;
}

function countProblem(node: AtomicConditionNode, operands: Resolved[]): string | undefined {
  for (const operand of topOperands(node, operands)) {
    const found = eachCall(operand, (call) =>
      call.args.length === arityOf(call.name)
        ? undefined
        : ExpressionMessages.operandCount(call.name, call.args.length),
    );
    if (found !== undefined) return found;
  }
  if (node.type === 'in' && operands.length > MAX_IN_OPERANDS) {
    return ExpressionMessages.tooManyInOperands(operands.length);
  }
  return undefined;
}

function distinctProblem(node: AtomicConditionNode, operands: Resolved[]): string | undefined {
  let operator: string;
  if (node.type === 'compare') operator = node.operator;
  else if (node.type === 'function' && operands.length === 2) operator = node.call.name;
  else return undefined;
  const [first, second] = operands;
  if (first?.kind === 'path' && second?.kind === 'path' && samePath(first.path, second.path)) {
    return ExpressionMessages.notDistinct(operator, printPath(first.path));
  }
  return undefined;
}

/** The type an operand has before reading the item: literal values and `size()`. */
function staticType(operand: Resolved): string | undefined {
  if (operand.kind === 'value') return typeOf(operand.value);
  if (operand.kind === 'call' && operand.name === 'size') return 'N';
  return undefined;
}

function callTypeProblem(call: Resolved & { kind: 'call' }): string | undefined {
  const args = call.args;
  switch (call.name) {
    case 'attribute_exists':
    case 'attribute_not_exists':
      return args[0]!.kind === 'path' ? undefined : ExpressionMessages.requiresPath(call.name);
    case 'attribute_type': {
      const type = staticType(args[1]!);
      if (type !== 'S') return ExpressionMessages.operandType(call.name, type ?? ANY_TYPE_SET);
      const name = ((args[1] as { value: { S: string } }).value as { S: string }).S;
      return (AttributeTypes as readonly string[]).includes(name)
        ? undefined
        : ExpressionMessages.invalidTypeName(name);
    }
    case 'begins_with':
      for (const argument of args) {
        const type = staticType(argument);
        if (type !== undefined && type !== 'S' && type !== 'B')
          return ExpressionMessages.operandType(call.name, type);
      }
      return undefined;
    case 'size': {
      const type = staticType(args[0]!);
      return type === 'N' || type === 'BOOL' || type === 'NULL'
        ? ExpressionMessages.operandType(call.name, type)
        : undefined;
    }
    default:
      return undefined;
  }
}

/** Literal operands of ordering comparisons and BETWEEN must be N, S or B (docs/dynamodb.md §5.2.4). */
function orderedLiteralProblem(operator: string, operands: readonly Resolved[]): string | undefined {
  for (const operand of operands) {
    if (operand.kind !== 'value') continue;
    const type = typeOf(operand.value);
    if (!ORDERED_TYPES.has(type)) return ExpressionMessages.operandType(operator, type);
  }
  return undefined;
}

function boundText(value: AttributeValue): string {
  const type = typeOf(value);
  return `{${type}:${(value as Record<string, string>)[type]}}`;
}

function typeProblem(node: AtomicConditionNode, operands: Resolved[]): string | undefined {
  for (const operand of topOperands(node, operands)) {
    const found = eachCall(operand, callTypeProblem);
    if (found !== undefined) return found;
  }
  if (node.type === 'compare') {
    return node.operator === '=' || node.operator === '<>'
      ? undefined
      : orderedLiteralProblem(node.operator, operands);
  }
  if (node.type !== 'between') return undefined;
  const problem = orderedLiteralProblem('BETWEEN', operands);
  if (problem !== undefined) return problem;
  const [, lower, upper] = operands;
  if (lower?.kind !== 'value' || upper?.kind !== 'value') return undefined;
  if (typeOf(lower.value) !== typeOf(upper.value)) {
    return ExpressionMessages.betweenTypes(boundText(lower.value), boundText(upper.value));
  }
  if ((compareScalars(lower.value, upper.value) ?? 0) > 0) {
    return ExpressionMessages.betweenOrder(boundText(lower.value), boundText(upper.value));
  }
  return undefined;
}

function toOperand(operand: Resolved): Operand {
  if (operand.kind !== 'call') return operand;
  // Only size() survives the misused-function check as an operand.
  return { kind: 'size', operand: toOperand(operand.args[0]!) };
}

function toCondition(node: AtomicConditionNode, operands: Resolved[]): Condition {
  switch (node.type) {
    case 'compare':
      return {
        kind: 'compare',
        operator: node.operator,
        left: toOperand(operands[0]!),
        right: toOperand(operands[1]!),
      };
    case 'between':
      return {
        kind: 'between',
        operand: toOperand(operands[0]!),
        lower: toOperand(operands[1]!),
        upper: toOperand(operands[2]!),
      };
    case 'in':
      return { kind: 'in', operand: toOperand(operands[0]!), list: operands.slice(1).map(toOperand) };
    case 'function':
      return functionCondition(node.call, operands);
  }
}

function functionCondition(call: CallNode, args: Resolved[]): Condition {
  const first = toOperand(args[0]!);
  switch (call.name) {
    case 'attribute_exists':
    case 'attribute_not_exists':
      return {
        kind: call.name === 'attribute_exists' ? 'exists' : 'notExists',
        path: (first as { path: DocumentPath }).path,
      };
    case 'attribute_type':
      return { kind: 'type', operand: first, type: (args[1] as { value: { S: AttributeType } }).value.S };
    case 'begins_with':
      return { kind: 'beginsWith', operand: first, prefix: toOperand(args[1]!) };
    default:
      return { kind: 'contains', operand: first, member: toOperand(args[1]!) };
  }
}
