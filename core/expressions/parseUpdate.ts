import type {
  ClauseName,
  OperandNode,
  SetValueNode,
  UpdateActionNode,
  UpdateClauseNode,
  UpdateNode,
  ValueNode,
} from './ast.js';
import { UPDATE_KEYWORDS } from './lexer.js';
import { Parser } from './parser.js';

/**
 * The UpdateExpression grammar (docs/dynamodb.md §5.3.1–5.3.2):
 *
 *     update  := clause+
 *     clause  := SET path = value (, path = value)* | REMOVE path (, path)*
 *              | ADD path :v (, path :v)* | DELETE path :v (, path :v)*
 *     value   := term [(+|-) operand] | ( value )
 *     operand := :v | path | name(operand, ...) | ( operand )
 *
 * Clause keywords are case-insensitive and may come in any order; repeating one is a validation
 * error found later (docs/dynamodb.md §5.3.7). `a + b + c`, `*`, `/` and `+` inside function arguments are
 * syntax errors; a parenthesised path cannot go on with `.x` here.
 */
export class UpdateParser extends Parser {
  constructor(text: string) {
    super(text, 'Update', UPDATE_KEYWORDS);
  }

  parse(): UpdateNode {
    const clauses: UpdateClauseNode[] = [];
    do {
      clauses.push(this.parseClause());
    } while (this.current.kind !== 'eof');
    return { type: 'update', clauses };
  }

  private parseClause(): UpdateClauseNode {
    const token = this.current;
    if (token.kind !== 'keyword') throw this.syntaxError();
    this.advance();
    const clause = token.value as ClauseName;
    const actions = [this.parseAction(clause)];
    while (this.isPunct(',')) {
      this.advance();
      actions.push(this.parseAction(clause));
    }
    if (this.current.kind !== 'eof' && this.current.kind !== 'keyword') throw this.syntaxError();
    return { clause, actions };
  }

  private parseAction(clause: ClauseName): UpdateActionNode {
    const path = this.parsePath();
    switch (clause) {
      case 'SET':
        this.expectPunct('=');
        return { type: 'SET', path, value: this.parseSetValue() };
      case 'REMOVE':
        return { type: 'REMOVE', path };
      case 'ADD':
      case 'DELETE':
        return { type: clause, path, value: this.parseValueRef() };
    }
  }

  private parseValueRef(): ValueNode {
    const token = this.current;
    if (token.kind !== 'valueRef') throw this.syntaxError();
    this.advance();
    return { type: 'value', ref: token.text, parens: 0 };
  }

  private parseSetValue(): SetValueNode {
    let left: SetValueNode;
    if (this.isPunct('(')) {
      this.open();
      const inner = this.parseSetValue();
      this.close();
      left = this.wrap(inner);
    } else {
      left = this.parseOperand();
    }
    if (this.isPunct('+') || this.isPunct('-')) {
      if (left.type === 'arithmetic') throw this.syntaxError();
      const operator = this.advance().text as '+' | '-';
      this.countOperator();
      const right = this.parseOperand();
      return { type: 'arithmetic', operator, left, right, parens: 0 };
    }
    return left;
  }

  private parseOperand(): OperandNode {
    const token = this.current;
    if (this.isPunct('(')) {
      this.open();
      const inner = this.parseOperand();
      this.close();
      return this.wrap(inner);
    }
    if (token.kind === 'valueRef') return this.parseValueRef();
    if (this.atCall()) return this.parseCall(() => this.parseOperand());
    return this.parsePath();
  }
}
