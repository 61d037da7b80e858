/**
 * The typed syntax tree the parser builds, before `#names` and `:values` are resolved. It only
 * depends on the expression text, so it is cached per text (see `cache.ts`) and never mutated
 * once built. `parens` counts the parentheses written directly around a node (the parser uses it
 * to find redundant pairs, docs/dynamodb.md §5.2.2).
 */

/** A bare name element (`a`): checked against the reserved words. */
export interface NameElement {
  readonly type: 'name';
  readonly name: string;
}
/** A `#name` element: resolved through ExpressionAttributeNames; one element even if it holds `.`. */
export interface RefElement {
  readonly type: 'ref';
  readonly ref: string;
}
/** A `[n]` element. */
export interface IndexElement {
  readonly type: 'index';
  readonly index: number;
}
export type PathElementNode = NameElement | RefElement | IndexElement;

export interface PathNode {
  readonly type: 'path';
  readonly elements: readonly PathElementNode[];
  parens: number;
}
export interface ValueNode {
  readonly type: 'value';
  readonly ref: string;
  parens: number;
}
export interface CallNode {
  readonly type: 'call';
  readonly name: string;
  readonly args: readonly OperandNode[];
  parens: number;
}
export type OperandNode = PathNode | ValueNode | CallNode;

export type CompareOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';

export interface CompareNode {
  readonly type: 'compare';
  readonly operator: CompareOperator;
  readonly left: OperandNode;
  readonly right: OperandNode;
  parens: number;
}
export interface BetweenNode {
  readonly type: 'between';
  readonly operand: OperandNode;
  readonly lower: OperandNode;
  readonly upper: OperandNode;
  parens: number;
}
export interface InNode {
  readonly type: 'in';
  readonly operand: OperandNode;
  readonly list: readonly OperandNode[];
  parens: number;
}
/** A function call used as a condition (`attribute_exists(a)`). */
export interface FunctionNode {
  readonly type: 'function';
  readonly call: CallNode;
  parens: number;
}
export interface LogicalNode {
  readonly type: 'and' | 'or';
  readonly left: ConditionNode;
  readonly right: ConditionNode;
  parens: number;
}
export interface NotNode {
  readonly type: 'not';
  readonly operand: ConditionNode;
  parens: number;
}
/** A condition that is not made of other conditions. */
export type AtomicConditionNode = CompareNode | BetweenNode | InNode | FunctionNode;
export type ConditionNode = AtomicConditionNode | LogicalNode | NotNode;

/** `x + y` / `x - y` on the right of a SET action (exactly two operands, docs/dynamodb.md §5.3.2). */
export interface ArithmeticNode {
  readonly type: 'arithmetic';
  readonly operator: '+' | '-';
  readonly left: OperandNode;
  readonly right: OperandNode;
  parens: number;
}
export type SetValueNode = OperandNode | ArithmeticNode;

export interface SetActionNode {
  readonly type: 'SET';
  readonly path: PathNode;
  readonly value: SetValueNode;
}
export interface RemoveActionNode {
  readonly type: 'REMOVE';
  readonly path: PathNode;
}
export interface AddActionNode {
  readonly type: 'ADD' | 'DELETE';
  readonly path: PathNode;
  readonly value: ValueNode;
}
export type UpdateActionNode = SetActionNode | RemoveActionNode | AddActionNode;

export type ClauseName = 'SET' | 'REMOVE' | 'ADD' | 'DELETE';

export interface UpdateClauseNode {
  readonly clause: ClauseName;
  readonly actions: readonly UpdateActionNode[];
}

export interface UpdateNode {
  readonly type: 'update';
  readonly clauses: readonly UpdateClauseNode[];
}

export interface ProjectionNode {
  readonly type: 'projection';
  readonly paths: readonly PathNode[];
}

export function isOperandNode(node: OperandNode | ConditionNode): node is OperandNode {
  return node.type === 'path' || node.type === 'value' || node.type === 'call';
}
