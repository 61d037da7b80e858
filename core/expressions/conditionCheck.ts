import type { AtomicConditionNode, ConditionNode, OperandNode, PathNode } from './ast.js';
import { ExpressionMessages } from './errors.js';
import { forEachCall, forEachPath, isKnownFunction, operandsOf } from './functions.js';
import { isReservedWord } from './reservedWords.js';

/**
 * The checks of a condition that depend on its text alone, in the service's order after syntax
 * (docs/dynamodb.md §8.6): redundant parentheses → unknown function → misused function → reserved word.
 * Their outcome is cached with the tree; the checks that need names and values come later
 * (`conditionResolve.ts`).
 */
export function staticConditionError(ast: ConditionNode, redundant: boolean): string | undefined {
  if (redundant) return ExpressionMessages.redundantParentheses;
  return unknownFunction(ast) ?? misusedFunction(ast) ?? misusedAsCondition(ast) ?? reservedWord(ast);
}

/** Visits the atomic conditions (comparisons, BETWEEN, IN, functions) in textual order. */
export function forEachAtomic(
  node: ConditionNode,
  visit: (atomic: AtomicConditionNode) => string | undefined,
): string | undefined {
  switch (node.type) {
    case 'and':
    case 'or':
      return forEachAtomic(node.left, visit) ?? forEachAtomic(node.right, visit);
    case 'not':
      return forEachAtomic(node.operand, visit);
    default:
      return visit(node);
  }
}

function eachOperand(
  node: AtomicConditionNode,
  visit: (operand: OperandNode) => string | undefined,
): string | undefined {
  for (const operand of operandsOf(node)) {
    const found = visit(operand);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Unknown names, innermost call first (`Invalid function name; function: <f>`). */
function unknownFunction(ast: ConditionNode): string | undefined {
  return forEachAtomic(ast, (atomic) =>
    eachOperand(atomic, (operand) =>
      forEachCall(operand, (call) =>
        isKnownFunction(call.name) ? undefined : ExpressionMessages.unknownFunction(call.name),
      ),
    ),
  );
}

/** A function used as an operand must be `size` (docs/dynamodb.md §5.2.2). */
function misusedOperand(operand: OperandNode): string | undefined {
  return operand.type === 'call' && operand.name !== 'size'
    ? ExpressionMessages.misusedFunction(operand.name)
    : undefined;
}

/** `size`, `if_not_exists` and `list_append` are not conditions (docs/dynamodb.md §5.2.2). */
function misusedAsCondition(node: ConditionNode): string | undefined {
  if (node.type !== 'function') return undefined;
  const name = node.call.name;
  return name === 'size' || name === 'if_not_exists' || name === 'list_append'
    ? ExpressionMessages.misusedFunction(name)
    : undefined;
}

/**
 * Each node checks its direct children after its subtrees (the order in which the service's
 * parser completes them): a comparison checks its operands, a function its arguments, AND / OR /
 * NOT the conditions they join.
 */
function misusedFunction(node: ConditionNode): string | undefined {
  switch (node.type) {
    case 'and':
    case 'or':
      return (
        misusedFunction(node.left) ??
        misusedFunction(node.right) ??
        misusedAsCondition(node.left) ??
        misusedAsCondition(node.right)
      );
    case 'not':
      return misusedFunction(node.operand) ?? misusedAsCondition(node.operand);
    case 'function':
      return misusedInArguments(node.call);
    default:
      return eachOperand(node, misusedInArguments) ?? eachOperand(node, misusedOperand);
  }
}

function misusedInArguments(operand: OperandNode): string | undefined {
  return forEachCall(operand, (call) => {
    for (const argument of call.args) {
      const found = misusedOperand(argument);
      if (found !== undefined) return found;
    }
    return undefined;
  });
}

/** The first bare name that is a reserved word, as written. */
function reservedWord(ast: ConditionNode): string | undefined {
  return forEachAtomic(ast, (atomic) =>
    eachOperand(atomic, (operand) => forEachPath(operand, reservedInPath)),
  );
}

export function reservedInPath(path: PathNode): string | undefined {
  for (const element of path.elements) {
    if (element.type === 'name' && isReservedWord(element.name))
      return ExpressionMessages.reserved(element.name);
  }
  return undefined;
}
