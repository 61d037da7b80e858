import type { ValidationException } from '../errors/index.js';
import type { CompareOperator, Expr, PathExpr, PathStep, Position } from './ast.js';
import { malformed, PartiqlMessages } from './errors.js';
import { IS_TYPES, OPERATOR_KEYWORDS } from './keywords.js';
import type { Token } from './lexer.js';

/** How deep expressions may nest (eddy's bound, docs/partiql.md §2.1). */
export const MAX_NESTING = 100;

const COMPARE: Readonly<Record<string, CompareOperator>> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/**
 * Recursive descent over PartiQL expressions (docs/partiql.md §2.2), lowest precedence first:
 * OR, AND, NOT, predicates (comparison, BETWEEN, IN, IS, LIKE), `+ - ||`, `* / %`, unary minus,
 * terms. Where a term should start, the service's detail says what it found there: the end after an
 * infix operator, an operator, a keyword, or anything else (docs/partiql.md §5.1).
 */
export class ExpressionParser {
  protected index = 0;
  /** `?` seen so far: each is the next parameter. */
  protected parameters = 0;
  /** Set after an infix operator, for the "Missing right-hand side" detail. */
  private afterInfix = false;
  private depth = 0;

  constructor(protected readonly tokens: readonly Token[]) {}

  protected peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  protected next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  protected isKeyword(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'keyword' && token.text === word;
  }

  protected isPunctuation(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'punctuation' && token.text === text;
  }

  protected acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.next();
    return true;
  }

  protected acceptPunctuation(text: string): boolean {
    if (!this.isPunctuation(text)) return false;
    this.next();
    return true;
  }

  /** The detail for a token found where a term should start. */
  protected termError(token: Token): ValidationException {
    if (token.kind === 'end')
      return malformed(
        this.afterInfix ? PartiqlMessages.missingRightHandSide : PartiqlMessages.unexpectedTerm,
      );
    if (token.kind === 'operator') return malformed(PartiqlMessages.unexpectedOperator);
    if (token.kind === 'keyword')
      return malformed(
        OPERATOR_KEYWORDS.has(token.text)
          ? PartiqlMessages.unexpectedOperator
          : PartiqlMessages.unexpectedKeyword,
      );
    return malformed(PartiqlMessages.unexpectedTerm);
  }

  protected expect(text: string): Token {
    const token = this.peek();
    if ((token.kind === 'punctuation' || token.kind === 'operator') && token.text === text)
      return this.next();
    if (token.kind === 'keyword' && token.text === text) return this.next();
    throw this.termError(token);
  }

  private infix(): void {
    this.afterInfix = true;
  }

  expression(): Expr {
    return this.nested(() => {
      let left = this.and();
      while (this.isKeyword('OR')) {
        this.next();
        this.infix();
        left = { type: 'or', left, right: this.and() };
      }
      return left;
    });
  }

  /**
   * Bounds the parser's recursion (parentheses, nested literals, NOT and minus chains): a statement
   * of 8,192 characters could otherwise nest deep enough to exhaust the stack. DynamoDB's limit and
   * text are unknown; eddy answers the envelope with this detail (docs/partiql.md §2.1).
   */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_NESTING) throw malformed(PartiqlMessages.tooDeep);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private and(): Expr {
    let left = this.not();
    while (this.isKeyword('AND')) {
      this.next();
      this.infix();
      left = { type: 'and', left, right: this.not() };
    }
    return left;
  }

  private not(): Expr {
    if (this.isKeyword('NOT')) {
      this.next();
      return { type: 'not', operand: this.nested(() => this.not()) };
    }
    return this.predicate();
  }

  private predicate(): Expr {
    const left = this.additive();
    const token = this.peek();
    if (token.kind === 'operator' && COMPARE[token.text] !== undefined) {
      this.next();
      this.infix();
      return { type: 'compare', operator: COMPARE[token.text]!, left, right: this.additive() };
    }
    const negated =
      this.isKeyword('NOT') &&
      (this.isKeyword('BETWEEN', 1) || this.isKeyword('IN', 1) || this.isKeyword('LIKE', 1));
    if (negated) this.next();
    let result: Expr | undefined;
    if (this.acceptKeyword('BETWEEN')) {
      this.infix();
      const lower = this.additive();
      this.expect('AND');
      this.infix();
      result = { type: 'between', operand: left, lower, upper: this.additive() };
    } else if (this.acceptKeyword('IN')) {
      this.infix();
      result = { type: 'in', operand: left, list: this.inList() };
    } else if (this.isKeyword('LIKE')) {
      const position = this.next().position;
      this.infix();
      const pattern = this.additive();
      result = { type: 'call', name: 'like', args: [left, pattern], position };
    } else if (!negated && this.acceptKeyword('IS')) {
      const not = this.acceptKeyword('NOT');
      return { type: 'is', operand: left, negated: not, test: this.typeName() };
    }
    if (result === undefined) return left;
    return negated ? { type: 'not', operand: result } : result;
  }

  /** `IN (a, b)`, `IN [a, b]`, `IN <<a, b>>` or `IN ?`. */
  private inList(): Expr {
    if (this.isPunctuation('(')) {
      const position = this.next().position;
      const elements = this.sequence(')');
      return { type: 'list', elements, position };
    }
    return this.additive();
  }

  /** After IS [NOT]: NULL, MISSING or a type name (two words for `DOUBLE PRECISION`...). */
  private typeName(): string {
    const token = this.peek();
    const word =
      token.kind === 'keyword' || token.kind === 'identifier' ? token.raw.toUpperCase() : undefined;
    if (word === undefined || !(word in IS_TYPES)) throw malformed(PartiqlMessages.expectedTypeName);
    this.next();
    const second = this.peek();
    const pair = `${word} ${second.raw.toUpperCase()}`;
    if (pair === 'DOUBLE PRECISION' || pair === 'CHARACTER VARYING') {
      this.next();
      return word === 'DOUBLE' ? 'DOUBLE' : 'VARCHAR';
    }
    return word;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'operator' || (token.text !== '+' && token.text !== '-' && token.text !== '||'))
        return left;
      this.next();
      this.infix();
      const operator = token.text as '+' | '-' | '||';
      left = { type: 'arithmetic', operator, left, right: this.multiplicative(), position: token.position };
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const token = this.peek();
      const isStar = token.kind === 'punctuation' && token.text === '*';
      if (!isStar && (token.kind !== 'operator' || (token.text !== '/' && token.text !== '%'))) return left;
      this.next();
      this.infix();
      const operator = token.text as '*' | '/' | '%';
      left = { type: 'arithmetic', operator, left, right: this.unary(), position: token.position };
    }
  }

  private unary(): Expr {
    const token = this.peek();
    if (token.kind === 'operator' && (token.text === '-' || token.text === '+')) {
      const following = this.peek(1);
      if (following.kind === 'number') {
        this.next();
        this.next();
        const text = token.text === '-' ? `-${following.text}` : following.text;
        const position = {
          ...token.position,
          length: following.position.column + following.position.length - token.position.column,
        };
        return { type: 'literal', value: { kind: 'number', text }, position };
      }
      this.next();
      this.infix();
      const operand = this.nested(() => this.unary());
      const zero: Expr = { type: 'literal', value: { kind: 'number', text: '0' }, position: token.position };
      return {
        type: 'arithmetic',
        operator: token.text as '-' | '+',
        left: zero,
        right: operand,
        position: token.position,
      };
    }
    return this.term();
  }

  private term(): Expr {
    const token = this.peek();
    this.afterInfix = token.kind === 'end' ? this.afterInfix : false;
    switch (token.kind) {
      case 'string':
        this.next();
        return { type: 'literal', value: { kind: 'string', text: token.text }, position: token.position };
      case 'number':
        this.next();
        return { type: 'literal', value: { kind: 'number', text: token.text }, position: token.position };
      case 'parameter':
        this.next();
        return { type: 'parameter', index: this.parameters++, position: token.position };
      case 'identifier':
      case 'quoted':
        return this.pathOrCall();
      case 'keyword':
        return this.keywordTerm(token);
      case 'punctuation':
        return this.punctuationTerm(token);
      default:
        throw this.termError(token);
    }
  }

  private keywordTerm(token: Token): Expr {
    const literal = (value: Expr & { type: 'literal' }): Expr => {
      this.next();
      return value;
    };
    switch (token.text) {
      case 'NULL':
        return literal({ type: 'literal', value: { kind: 'null' }, position: token.position });
      case 'MISSING':
        return literal({ type: 'literal', value: { kind: 'missing' }, position: token.position });
      case 'TRUE':
      case 'FALSE':
        return literal({
          type: 'literal',
          value: { kind: 'boolean', value: token.text === 'TRUE' },
          position: token.position,
        });
    }
    // A reserved word followed by `(` is a function call (`size(a)`, `exists(...)`).
    if (this.isPunctuation('(', 1)) return this.pathOrCall();
    throw this.termError(token);
  }

  private punctuationTerm(token: Token): Expr {
    switch (token.text) {
      case '(': {
        this.next();
        const inner = this.expression();
        if (!this.acceptPunctuation(')')) throw this.termError(this.peek());
        return inner;
      }
      case '[':
        this.next();
        return { type: 'list', elements: this.sequence(']'), position: token.position };
      case '<<':
        this.next();
        return { type: 'bag', elements: this.sequence('>>'), position: token.position };
      case '{':
        this.next();
        return this.tuple(token.position);
      default:
        throw this.termError(token);
    }
  }

  /** Expressions separated by commas up to a closing token. */
  private sequence(close: string): Expr[] {
    const elements: Expr[] = [];
    if (this.acceptPunctuation(close)) return elements;
    for (;;) {
      elements.push(this.expression());
      if (this.acceptPunctuation(close)) return elements;
      if (!this.acceptPunctuation(',')) throw this.termError(this.peek());
    }
  }

  private tuple(position: Position): Expr {
    const fields: { key: Expr; value: Expr }[] = [];
    if (!this.acceptPunctuation('}')) {
      for (;;) {
        const key = this.expression();
        if (!this.acceptPunctuation(':')) throw this.termError(this.peek());
        fields.push({ key, value: this.expression() });
        if (this.acceptPunctuation('}')) break;
        if (!this.acceptPunctuation(',')) throw this.termError(this.peek());
      }
    }
    return { type: 'tuple', fields, position };
  }

  /** A document path (`a.b[0]."c"`) or a function call (`begins_with(a, 'x')`). */
  protected pathOrCall(): Expr {
    const first = this.next();
    if (this.isPunctuation('(') && first.kind !== 'quoted') {
      this.next();
      const args = this.sequence(')');
      return { type: 'call', name: first.raw.toLowerCase(), args, position: first.position };
    }
    return this.pathSteps(first);
  }

  protected pathSteps(first: Token): PathExpr {
    const steps: PathStep[] = [];
    for (;;) {
      if (this.isPunctuation('.')) {
        this.next();
        const element = this.peek();
        if (element.kind !== 'identifier' && element.kind !== 'quoted')
          throw malformed(PartiqlMessages.invalidDotComponent);
        this.next();
        steps.push({ kind: 'name', name: element.text });
      } else if (this.isPunctuation('[')) {
        this.next();
        const element = this.next();
        if (element.kind === 'number' && /^\d+$/.test(element.text))
          steps.push({ kind: 'index', index: Number(element.text) });
        else if (element.kind === 'string') steps.push({ kind: 'name', name: element.text });
        else throw this.termError(element);
        if (!this.acceptPunctuation(']')) throw this.termError(this.peek());
      } else {
        return { type: 'path', name: first.text, steps, position: first.position };
      }
    }
  }
}
