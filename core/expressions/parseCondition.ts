import {
  type CompareOperator,
  type ConditionNode,
  isOperandNode,
  type OperandNode,
  type PathElementNode,
} from './ast.js';
import type { ExpressionKind } from './index.js';
import { CONDITION_KEYWORDS } from './lexer.js';
import { Parser } from './parser.js';

const COMPARATORS: ReadonlySet<string> = new Set(['=', '<>', '<', '<=', '>', '>=']);

/** What a parenthesised group or a primary turns out to be: a condition or a bare operand. */
type Unit = ConditionNode | OperandNode;

/**
 * The condition grammar (docs/dynamodb.md §5.2.1), shared by ConditionExpression, FilterExpression and
 * KeyConditionExpression. Precedence, low to high: OR, AND, NOT, then comparisons, IN, BETWEEN
 * and functions. A parenthesised group may hold a condition or an operand (`(a) = b`), which is
 * decided once the group is closed; a parenthesised path may go on with `.b` / `[0]`.
 *
 * Function calls are accepted with any name and arity: unknown or misused functions are
 * validation errors, not syntax errors (docs/dynamodb.md §5.2.2). A bare path or value used as a condition is
 * a syntax error at the token after it.
 */
export class ConditionParser extends Parser {
  constructor(text: string, kind: ExpressionKind) {
    super(text, kind, CONDITION_KEYWORDS);
  }

  parse(): ConditionNode {
    const condition = this.toCondition(this.parseOr());
    this.expectEnd();
    return condition;
  }

  private toCondition(unit: Unit): ConditionNode {
    if (!isOperandNode(unit)) return unit;
    if (unit.type === 'call') return { type: 'function', call: unit, parens: 0 };
    throw this.syntaxError();
  }

  private parseOr(): Unit {
    let left = this.parseAnd();
    while (this.isKeyword('OR')) {
      const condition = this.toCondition(left);
      this.advance();
      this.countOperator();
      const right = this.toCondition(this.parseAnd());
      left = { type: 'or', left: condition, right, parens: 0 };
    }
    return left;
  }

  private parseAnd(): Unit {
    let left = this.parseNot();
    while (this.isKeyword('AND')) {
      const condition = this.toCondition(left);
      this.advance();
      this.countOperator();
      const right = this.toCondition(this.parseNot());
      left = { type: 'and', left: condition, right, parens: 0 };
    }
    return left;
  }

  private parseNot(): Unit {
    if (!this.isKeyword('NOT')) return this.parsePrimary();
    this.advance();
    this.countOperator();
    return { type: 'not', operand: this.toCondition(this.parseNot()), parens: 0 };
  }

  private parsePrimary(): Unit {
    let unit: Unit;
    if (this.isPunct('(')) {
      this.open();
      const inner = this.parseOr();
      this.close();
      unit = this.wrap(inner);
      if (unit.type === 'path') unit = this.continuePath(unit);
    } else {
      unit = this.parseOperand();
    }
    return isOperandNode(unit) ? (this.parseComparison(unit) ?? unit) : unit;
  }

  /** `(a.b).c`: a parenthesised path may continue; the result is a new, unparenthesised path. */
  private continuePath(path: OperandNode & { type: 'path' }): OperandNode {
    if (!this.isPunct('.') && !this.isPunct('[')) return path;
    return this.parsePathTail([...path.elements] as PathElementNode[]);
  }

  /** The rest of a comparison, BETWEEN or IN after its first operand, if one follows. */
  private parseComparison(left: OperandNode): ConditionNode | undefined {
    const token = this.current;
    if (token.kind === 'punct' && COMPARATORS.has(token.text)) {
      this.advance();
      this.countOperator();
      const right = this.parseOperand();
      return { type: 'compare', operator: token.text as CompareOperator, left, right, parens: 0 };
    }
    if (this.isKeyword('BETWEEN')) {
      this.advance();
      this.countOperator();
      const lower = this.parseOperand();
      if (!this.isKeyword('AND')) throw this.syntaxError();
      this.advance();
      const upper = this.parseOperand();
      return { type: 'between', operand: left, lower, upper, parens: 0 };
    }
    if (this.isKeyword('IN')) {
      this.advance();
      this.countOperator();
      this.open();
      const list = [this.parseOperand()];
      while (this.isPunct(',')) {
        this.advance();
        list.push(this.parseOperand());
      }
      this.close();
      return { type: 'in', operand: left, list, parens: 0 };
    }
    return undefined;
  }

  /** `:value`, a path, `f(args)` or a parenthesised operand. */
  private parseOperand(): OperandNode {
    const token = this.current;
    if (this.isPunct('(')) {
      this.open();
      const inner = this.parseOperand();
      this.close();
      const operand = this.wrap(inner);
      return operand.type === 'path' ? this.continuePath(operand) : operand;
    }
    if (token.kind === 'valueRef') {
      this.advance();
      return { type: 'value', ref: token.text, parens: 0 };
    }
    if (this.atCall()) return this.parseCall(() => this.parseOperand());
    return this.parsePath();
  }
}

export function parseConditionText(
  text: string,
  kind: ExpressionKind,
): { ast: ConditionNode; redundant: boolean } {
  const parser = new ConditionParser(text, kind);
  const ast = parser.parse();
  return { ast, redundant: parser.redundantParentheses };
}
