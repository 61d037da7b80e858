import type { CallNode, ConditionNode, OperandNode, PathNode } from './ast.js';

/**
 * The functions DynamoDB knows, with their operand counts (docs/dynamodb.md §5.2.1, §5.3.2). Condition
 * functions are rejected in UpdateExpression and update functions in conditions; names are
 * case-sensitive (`BEGINS_WITH` is unknown).
 */
export const CONDITION_FUNCTIONS: ReadonlyMap<string, number> = new Map([
  ['attribute_exists', 1],
  ['attribute_not_exists', 1],
  ['attribute_type', 2],
  ['begins_with', 2],
  ['contains', 2],
  ['size', 1],
]);
export const UPDATE_FUNCTIONS: ReadonlyMap<string, number> = new Map([
  ['if_not_exists', 2],
  ['list_append', 2],
]);

export function isKnownFunction(name: string): boolean {
  return CONDITION_FUNCTIONS.has(name) || UPDATE_FUNCTIONS.has(name);
}

export function arityOf(name: string): number {
  return CONDITION_FUNCTIONS.get(name) ?? UPDATE_FUNCTIONS.get(name) ?? 0;
}

/** Visits every call under an operand, arguments before the call (post-order). */
export function forEachCall(
  operand: OperandNode,
  visit: (call: CallNode) => string | undefined,
): string | undefined {
  if (operand.type !== 'call') return undefined;
  for (const argument of operand.args) {
    const found = forEachCall(argument, visit);
    if (found !== undefined) return found;
  }
  return visit(operand);
}

/** The operands of an atomic condition in textual order (a function condition: its call). */
export function operandsOf(node: ConditionNode): readonly OperandNode[] {
  switch (node.type) {
    case 'compare':
      return [node.left, node.right];
    case 'between':
      return [node.operand, node.lower, node.upper];
    case 'in':
      return [node.operand, ...node.list];
    case 'function':
      return [node.call];
    default:
      return [];
  }
}

/** Visits every path under an operand in textual order. */
export function forEachPath(
  operand: OperandNode,
  visit: (path: PathNode) => string | undefined,
): string | undefined {
  if (operand.type === 'path') return visit(operand);
  if (operand.type !== 'call') return undefined;
  for (const argument of operand.args) {
    const found = forEachPath(argument, visit);
    if (found !== undefined) return found;
  }
  return undefined;
}
