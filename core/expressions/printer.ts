import type {
  ConditionNode,
  OperandNode,
  PathNode,
  ProjectionNode,
  SetValueNode,
  UpdateActionNode,
  UpdateNode,
} from './ast.js';

/**
 * Prints syntax trees back to expression text with only the parentheses precedence needs, so that
 * parsing the output gives the same tree (the round-trip property the tests check).
 */
export function printPathNode(path: PathNode): string {
  let text = '';
  path.elements.forEach((element, index) => {
    if (element.type === 'index') text += `[${element.index}]`;
    else text += (index > 0 ? '.' : '') + (element.type === 'name' ? element.name : element.ref);
  });
  return text;
}

export function printOperand(operand: OperandNode): string {
  switch (operand.type) {
    case 'path':
      return printPathNode(operand);
    case 'value':
      return operand.ref;
    case 'call':
      return `${operand.name}(${operand.args.map(printOperand).join(', ')})`;
  }
}

/** Parentheses are needed where the parser would otherwise group differently. */
export function printCondition(node: ConditionNode): string {
  switch (node.type) {
    case 'or':
      return `${printCondition(node.left)} OR ${grouped(node.right, node.right.type === 'or')}`;
    case 'and':
      return `${grouped(node.left, node.left.type === 'or')} AND ${grouped(
        node.right,
        node.right.type === 'or' || node.right.type === 'and',
      )}`;
    case 'not':
      return `NOT ${grouped(node.operand, node.operand.type === 'or' || node.operand.type === 'and')}`;
    case 'compare':
      return `${printOperand(node.left)} ${node.operator} ${printOperand(node.right)}`;
    case 'between':
      return `${printOperand(node.operand)} BETWEEN ${printOperand(node.lower)} AND ${printOperand(node.upper)}`;
    case 'in':
      return `${printOperand(node.operand)} IN (${node.list.map(printOperand).join(', ')})`;
    case 'function':
      return printOperand(node.call);
  }
}

function grouped(node: ConditionNode, needed: boolean): string {
  return needed ? `(${printCondition(node)})` : printCondition(node);
}

function printSetValue(value: SetValueNode): string {
  return value.type === 'arithmetic'
    ? `${printOperand(value.left)} ${value.operator} ${printOperand(value.right)}`
    : printOperand(value);
}

function printAction(action: UpdateActionNode): string {
  const path = printPathNode(action.path);
  switch (action.type) {
    case 'SET':
      return `${path} = ${printSetValue(action.value)}`;
    case 'REMOVE':
      return path;
    default:
      return `${path} ${action.value.ref}`;
  }
}

export function printUpdate(update: UpdateNode): string {
  return update.clauses
    .map((clause) => `${clause.clause} ${clause.actions.map(printAction).join(', ')}`)
    .join(' ');
}

export function printProjection(projection: ProjectionNode): string {
  return projection.paths.map(printPathNode).join(', ');
}
