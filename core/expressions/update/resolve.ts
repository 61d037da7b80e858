import { type AttributeValue, typeOf } from '../../model/attributeValue.js';
import type { OperandNode, PathNode, SetValueNode, UpdateActionNode, ValueNode } from '../ast.js';
import { ExpressionMessages, expressionError, LONG_TYPE_NAMES } from '../errors.js';
import { arityOf, forEachCall } from '../functions.js';
import type { DocumentPath } from '../index.js';
import { findPathClash } from '../paths.js';
import { type Resolver, resolvePath } from '../resolver.js';
import { forEachActionPath, valueOperands } from './check.js';

/** A resolved value on the right of SET. */
export type UpdateValue =
  | { readonly kind: 'value'; readonly value: AttributeValue }
  | { readonly kind: 'path'; readonly path: DocumentPath }
  | { readonly kind: 'ifNotExists'; readonly path: DocumentPath; readonly fallback: UpdateValue }
  | { readonly kind: 'listAppend'; readonly left: UpdateValue; readonly right: UpdateValue }
  | {
      readonly kind: 'arithmetic';
      readonly operator: '+' | '-';
      readonly left: UpdateValue;
      readonly right: UpdateValue;
    };

export type UpdateAction =
  | { readonly kind: 'SET'; readonly path: DocumentPath; readonly value: UpdateValue }
  | { readonly kind: 'REMOVE'; readonly path: DocumentPath }
  | { readonly kind: 'ADD' | 'DELETE'; readonly path: DocumentPath; readonly value: AttributeValue };

const ADD_TYPES: ReadonlySet<string> = new Set(['N', 'SS', 'NS', 'BS']);
const DELETE_TYPES: ReadonlySet<string> = new Set(['SS', 'NS', 'BS']);

function fail(message: string): never {
  throw expressionError('Update', message);
}

/**
 * Resolves an update's names and values and runs the checks that need them, in the order of
 * docs/dynamodb.md §5.3.7: undefined name → undefined value → overlap → conflict → ADD/DELETE operand type →
 * function operand count and types (innermost first, action by action).
 */
export function resolveUpdate(actions: readonly UpdateActionNode[], resolver: Resolver): UpdateAction[] {
  const paths = new Map<PathNode, DocumentPath>();
  for (const action of actions) {
    forEachActionPath(action, (node) => {
      const path = resolvePath(node, resolver);
      if (typeof path === 'string') fail(path);
      paths.set(node, path);
      return undefined;
    });
  }
  const values = new Map<ValueNode, AttributeValue>();
  for (const action of actions) {
    for (const operand of valueOperands(action))
      forEachValue(operand, (node) => values.set(node, resolve(node)));
  }

  const clash = findPathClash(actions.map((action) => paths.get(action.path)!));
  if (clash !== undefined) fail(clash);

  for (const action of actions) {
    if (action.type !== 'ADD' && action.type !== 'DELETE') continue;
    const type = typeOf(values.get(action.value)!);
    if (!(action.type === 'ADD' ? ADD_TYPES : DELETE_TYPES).has(type)) {
      fail(ExpressionMessages.clauseOperandType(action.type, LONG_TYPE_NAMES[type]));
    }
  }
  for (const action of actions) {
    if (action.type !== 'SET') continue;
    const problem = functionProblem(action.value, values);
    if (problem !== undefined) fail(problem);
  }

  return actions.map((action) => {
    const path = paths.get(action.path)!;
    switch (action.type) {
      case 'SET':
        return { kind: 'SET', path, value: toValue(action.value, paths, values) };
      case 'REMOVE':
        return { kind: 'REMOVE', path };
      default:
        return { kind: action.type, path, value: values.get(action.value)! };
    }
  });

  function resolve(node: ValueNode): AttributeValue {
    const value = resolver.resolveValue(node.ref);
    if (value === undefined) fail(ExpressionMessages.undefinedValue(node.ref));
    return value;
  }
}

function forEachValue(operand: OperandNode, visit: (value: ValueNode) => void): void {
  if (operand.type === 'value') visit(operand);
  else if (operand.type === 'call') for (const argument of operand.args) forEachValue(argument, visit);
}

function literalType(operand: OperandNode, values: Map<ValueNode, AttributeValue>): string | undefined {
  return operand.type === 'value' ? typeOf(values.get(operand)!) : undefined;
}

function functionProblem(value: SetValueNode, values: Map<ValueNode, AttributeValue>): string | undefined {
  const operands = value.type === 'arithmetic' ? [value.left, value.right] : [value];
  for (const operand of operands) {
    const found = forEachCall(operand, (call) => {
      if (call.args.length !== arityOf(call.name))
        return ExpressionMessages.operandCount(call.name, call.args.length);
      if (call.name === 'if_not_exists') {
        return call.args[0]!.type === 'path' ? undefined : ExpressionMessages.requiresPath(call.name);
      }
      for (const argument of call.args) {
        const type = literalType(argument, values);
        if (type !== undefined && type !== 'L') return ExpressionMessages.operandType(call.name, type);
      }
      return undefined;
    });
    if (found !== undefined) return found;
  }
  if (value.type !== 'arithmetic') return undefined;
  for (const operand of operands) {
    const type = literalType(operand, values);
    if (type !== undefined && type !== 'N') return ExpressionMessages.operandType(value.operator, type);
  }
  return undefined;
}

function toValue(
  node: SetValueNode,
  paths: Map<PathNode, DocumentPath>,
  values: Map<ValueNode, AttributeValue>,
): UpdateValue {
  switch (node.type) {
    case 'value':
      return { kind: 'value', value: values.get(node)! };
    case 'path':
      return { kind: 'path', path: paths.get(node)! };
    case 'arithmetic':
      return {
        kind: 'arithmetic',
        operator: node.operator,
        left: toValue(node.left, paths, values),
        right: toValue(node.right, paths, values),
      };
    case 'call': {
      const [first, second] = node.args as [OperandNode, OperandNode];
      if (node.name === 'if_not_exists') {
        return {
          kind: 'ifNotExists',
          path: paths.get(first as PathNode)!,
          fallback: toValue(second, paths, values),
        };
      }
      return {
        kind: 'listAppend',
        left: toValue(first, paths, values),
        right: toValue(second, paths, values),
      };
    }
  }
}
