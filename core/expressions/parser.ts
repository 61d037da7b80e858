import type { IndexElement, OperandNode, PathElementNode, PathNode } from './ast.js';
import { ExpressionMessages, expressionError } from './errors.js';
import type { ExpressionKind } from './index.js';
import { type Token, tokenize } from './lexer.js';

/** Paths may have 32 elements (docs/dynamodb.md §2.6.4). */
export const MAX_PATH_DEPTH = 32;
/** At most 300 operators per expression (docs/dynamodb.md §2.6.2). */
export const MAX_OPERATORS = 300;
/** List indexes must fit a signed 32-bit integer (docs/dynamodb.md §2.6.4). */
const MAX_LIST_INDEX = 2_147_483_647;
/**
 * How deep groups and call arguments may nest. The parser recurses once per level, and a
 * 4096-byte text holds 2,046 levels of `(`: measured, 3,000 overflow Node's stack. No valid
 * expression comes near: with at most 300 operators (docs/dynamodb.md §2.6.2), nesting without
 * redundant parentheses or a function call inside another stops near 600 levels.
 */
export const MAX_NESTING = 1000;

/**
 * The recursive-descent parser's shared machinery: token cursor, syntax errors, paths, operator
 * counting and redundant-parenthesis tracking. The grammars live in `parseCondition.ts`,
 * `parseUpdate.ts` and `parseProjection.ts`; they only build the tree (docs/architecture.md §2.3), validation
 * is a separate pass.
 */
export class Parser {
  protected readonly tokens: Token[];
  protected position = 0;
  private operators = 0;
  private nesting = 0;
  /** Set when the text holds `((x))` (reported after a successful parse, docs/dynamodb.md §8.6). */
  redundantParentheses = false;

  constructor(
    protected readonly text: string,
    protected readonly kind: ExpressionKind,
    keywords: ReadonlySet<string>,
  ) {
    this.tokens = tokenize(text, keywords);
  }

  protected get current(): Token {
    return this.tokens[this.position]!;
  }

  protected peek(offset = 1): Token {
    return this.tokens[Math.min(this.position + offset, this.tokens.length - 1)]!;
  }

  protected advance(): Token {
    const token = this.current;
    if (token.kind !== 'eof') this.position++;
    return token;
  }

  protected isPunct(text: string, token: Token = this.current): boolean {
    return token.kind === 'punct' && token.text === text;
  }

  protected isKeyword(word: string, token: Token = this.current): boolean {
    return token.kind === 'keyword' && token.value === word;
  }

  protected expectPunct(text: string): Token {
    if (!this.isPunct(text)) throw this.syntaxError();
    return this.advance();
  }

  protected expectEnd(): void {
    if (this.current.kind !== 'eof') throw this.syntaxError();
  }

  /**
   * `Syntax error; token: "<tok>", near: "<text>"` (docs/dynamodb.md §5.1.2). The near text runs from the
   * start of the previous token to the end of the next one, as written (recorded examples:
   * `SET _123`, `[a]`, `()`, `, 0)`).
   */
  protected syntaxError(token: Token = this.current): Error {
    const index = this.tokens.indexOf(token);
    const previous = index > 0 ? this.tokens[index - 1] : undefined;
    const next = token.kind === 'eof' ? undefined : this.tokens[index + 1];
    const start = previous ? previous.start : token.start;
    const end = next ? next.end : token.kind === 'eof' ? this.text.length : token.end;
    return expressionError(this.kind, ExpressionMessages.syntax(token.text, this.text.slice(start, end)));
  }

  /** Consumes the `(` of a group or of arguments, one level deeper (at most `MAX_NESTING`). */
  protected open(): void {
    const token = this.expectPunct('(');
    if (++this.nesting <= MAX_NESTING) return;
    // What AWS answers this deep is unrecorded. `((` nesting this deep must hold a redundant
    // pair, the error a complete parse would end with; anything else is refused where it went
    // too deep.
    const index = this.tokens.indexOf(token);
    if (index > 0 && this.isPunct('(', this.tokens[index - 1]))
      throw expressionError(this.kind, ExpressionMessages.redundantParentheses);
    throw this.syntaxError(token);
  }

  /** Consumes the `)` that ends what `open` began. */
  protected close(): void {
    this.expectPunct(')');
    this.nesting--;
  }

  /** Counts one operator; the 301st fails at once (AWS reports `operator count: 301`). */
  protected countOperator(): void {
    this.operators++;
    if (this.operators > MAX_OPERATORS) {
      throw expressionError(this.kind, ExpressionMessages.tooManyOperators(this.operators));
    }
  }

  /** Records one more pair of parentheses around `node`; a second direct pair is redundant. */
  protected wrap<T extends { parens: number }>(node: T): T {
    if (node.parens > 0) this.redundantParentheses = true;
    node.parens++;
    return node;
  }

  /** `name | #ref` followed by any number of `.name | .#ref | [n]` (docs/dynamodb.md §5.1.4). */
  protected parsePath(): PathNode {
    const token = this.current;
    let first: PathElementNode;
    if (token.kind === 'name') first = { type: 'name', name: token.text };
    else if (token.kind === 'nameRef') first = { type: 'ref', ref: token.text };
    else throw this.syntaxError();
    this.advance();
    return this.parsePathTail([first]);
  }

  /** The `.member` / `[n]` continuation of a path whose leading elements are known. */
  protected parsePathTail(elements: PathElementNode[]): PathNode {
    for (;;) {
      if (this.isPunct('.')) {
        this.advance();
        const token = this.current;
        if (token.kind === 'name') elements.push({ type: 'name', name: token.text });
        else if (token.kind === 'nameRef') elements.push({ type: 'ref', ref: token.text });
        else throw this.syntaxError();
        this.advance();
      } else if (this.isPunct('[')) {
        this.advance();
        elements.push(this.parseIndex());
        this.expectPunct(']');
      } else break;
    }
    if (elements.length > MAX_PATH_DEPTH) {
      throw expressionError(this.kind, ExpressionMessages.tooDeep(elements.length));
    }
    return { type: 'path', elements, parens: 0 };
  }

  private parseIndex(): IndexElement {
    const token = this.current;
    if (token.kind !== 'number') throw this.syntaxError();
    const digits = token.text;
    const index = Number(digits);
    if (digits.length > 10 || index > MAX_LIST_INDEX) {
      throw expressionError(this.kind, ExpressionMessages.indexOutOfRange(digits));
    }
    this.advance();
    return { type: 'index', index };
  }

  /** `name(operand, ...)`: the caller has checked that a name is followed by `(`. */
  protected parseCall(parseArgument: () => OperandNode): OperandNode {
    const name = this.advance().text;
    this.open();
    const args = [parseArgument()];
    while (this.isPunct(',')) {
      this.advance();
      args.push(parseArgument());
    }
    this.close();
    return { type: 'call', name, args, parens: 0 };
  }

  /** True when the cursor stands on a function call (`name (`). */
  protected atCall(): boolean {
    return this.current.kind === 'name' && this.isPunct('(', this.peek());
  }
}
