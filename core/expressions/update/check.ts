import type { OperandNode, PathNode, SetValueNode, UpdateActionNode, UpdateNode } from '../ast.js';
import { reservedInPath } from '../conditionCheck.js';
import { ExpressionMessages } from '../errors.js';
import { CONDITION_FUNCTIONS, forEachCall, forEachPath, isKnownFunction } from '../functions.js';

/** Every action of an update in textual order. */
export function actionsOf(ast: UpdateNode): UpdateActionNode[] {
  const actions: UpdateActionNode[] = [];
  for (const clause of ast.clauses) actions.push(...clause.actions);
  return actions;
}

/** The operands on the right of a SET (both sides of `+` / `-`), ADD or DELETE. */
export function valueOperands(action: UpdateActionNode): readonly OperandNode[] {
  if (action.type === 'REMOVE') return [];
  if (action.type !== 'SET') return [action.value];
  const value: SetValueNode = action.value;
  return value.type === 'arithmetic' ? [value.left, value.right] : [value];
}

/** Paths of an action in textual order: the target, then the operands. */
export function forEachActionPath(
  action: UpdateActionNode,
  visit: (path: PathNode) => string | undefined,
): string | undefined {
  const found = visit(action.path);
  if (found !== undefined) return found;
  for (const operand of valueOperands(action)) {
    const inOperand = forEachPath(operand, visit);
    if (inOperand !== undefined) return inOperand;
  }
  return undefined;
}

function forEachActionCall(
  actions: readonly UpdateActionNode[],
  visit: (call: OperandNode & { type: 'call' }) => string | undefined,
): string | undefined {
  for (const action of actions) {
    for (const operand of valueOperands(action)) {
      const found = forEachCall(operand, visit);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The text-only checks of an UpdateExpression, in the service's order after syntax
 * (docs/dynamodb.md §5.3.7): reserved word → unknown function → function not usable in an update →
 * `list_append(list_append(…))` → repeated clause. Redundant parentheses come first, as in
 * conditions.
 */
export function staticUpdateError(ast: UpdateNode, redundant: boolean): string | undefined {
  if (redundant) return ExpressionMessages.redundantParentheses;
  const actions = actionsOf(ast);
  for (const action of actions) {
    const reserved = forEachActionPath(action, reservedInPath);
    if (reserved !== undefined) return reserved;
  }
  return (
    forEachActionCall(actions, (call) =>
      isKnownFunction(call.name) ? undefined : ExpressionMessages.unknownFunction(call.name),
    ) ??
    forEachActionCall(actions, (call) =>
      CONDITION_FUNCTIONS.has(call.name) ? ExpressionMessages.notInUpdate(call.name) : undefined,
    ) ??
    forEachActionCall(actions, (call) =>
      call.name === 'list_append' &&
      call.args.some((arg) => arg.type === 'call' && arg.name === 'list_append')
        ? ExpressionMessages.misusedFunction('list_append')
        : undefined,
    ) ??
    repeatedClause(ast)
  );
}

function repeatedClause(ast: UpdateNode): string | undefined {
  const seen = new Set<string>();
  for (const { clause } of ast.clauses) {
    if (seen.has(clause)) return ExpressionMessages.repeatedClause(clause);
    seen.add(clause);
  }
  return undefined;
}
