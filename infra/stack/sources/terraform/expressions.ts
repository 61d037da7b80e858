import { callFunction } from './builtins.js';
import { applyOperator, asBool, asNumber, ExpressionError, indexInto, textOf } from './operators.js';

/**
 * Terraform's expressions, as far as a configuration that runs locally needs them
 * (docs/terraform.md §3): literals, strings with `${...}` interpolation, lists and objects,
 * references (`var.stage`, `local.name`, `aws_dynamodb_table.orders.stream_arn`, `x[0]`,
 * `x["key"]`), function calls (`jsonencode`, `merge`, `format`...), arithmetic, comparison, logic
 * and the conditional `a ? b : c`.
 * https://developer.hashicorp.com/terraform/language/expressions
 *
 * `@cdktf/hcl2json` gives each argument as JSON, its expressions as `${...}` text: this parses that
 * text. `for` expressions, splats and template directives (`%{ if }`) are refused with a message
 * naming the place. Nesting is bounded (MAX_DEPTH), so no input recurses without end.
 */
export interface ExpressionContext {
  /** The value of a reference: its root (`var`, `local`, `aws_dynamodb_table`...) and the names after it. */
  reference(root: string, traversal: readonly Traversal[]): unknown;
  /** The folder relative paths of `file()` start from (the module's). */
  readonly directory: string;
}

export type Traversal = { readonly name: string } | { readonly index: unknown };

export { ExpressionError } from './operators.js';

const MAX_DEPTH = 100;

/** A value as hcl2json gives it: text is a template (`"${var.stage}-orders"`), the rest is data. */
export function evaluateValue(value: unknown, context: ExpressionContext): unknown {
  if (typeof value === 'string') return evaluateTemplate(value, context);
  if (Array.isArray(value)) return value.map((item) => evaluateValue(item, context));
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(result, key, {
        value: evaluateValue(item, context),
        enumerable: true,
        writable: true,
      });
    return result;
  }
  return value;
}

/** A template: one `${expr}` alone keeps its value's type; text around it makes text. */
export function evaluateTemplate(text: string, context: ExpressionContext): unknown {
  if (!text.includes('${') && !text.includes('%{')) return text;
  const parser = new Parser(text, context);
  return parser.template(undefined);
}

/** An expression written on its own (a `--var` value of a list or map type). */
export function evaluateExpression(text: string, context: ExpressionContext): unknown {
  const parser = new Parser(text, context);
  const value = parser.expressionOnly();
  return value;
}

class Parser {
  private position = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly context: ExpressionContext,
  ) {}

  expressionOnly(): unknown {
    const value = this.expression();
    this.space();
    if (this.position < this.text.length) this.fail(`unexpected '${this.text[this.position]}'`);
    return value;
  }

  /** A template up to `end` (`"` inside an expression) or the text's end. */
  template(end: '"' | undefined): unknown {
    const parts: unknown[] = [];
    let literal = '';
    while (this.position < this.text.length) {
      const char = this.text[this.position]!;
      if (end !== undefined && char === end) break;
      if (this.text.startsWith('$${', this.position) || this.text.startsWith('%%{', this.position)) {
        literal += this.text.slice(this.position + 1, this.position + 3);
        this.position += 3;
      } else if (this.text.startsWith('${', this.position)) {
        this.position += 2;
        this.strip('~');
        if (literal !== '') parts.push(literal);
        literal = '';
        parts.push({ value: this.expression() });
        this.space();
        this.strip('~');
        this.expect('}');
      } else if (this.text.startsWith('%{', this.position)) {
        this.fail('template directives (%{ if }, %{ for }) are not evaluated by eddy');
      } else if (end !== undefined && char === '\\') {
        literal += this.escape();
      } else {
        literal += char;
        this.position++;
      }
    }
    if (literal !== '') parts.push(literal);
    if (parts.length === 1 && typeof parts[0] === 'object') return (parts[0] as { value: unknown }).value;
    return parts
      .map((part) =>
        typeof part === 'string'
          ? part
          : textOf((part as { value: unknown }).value, (reason) => this.fail(reason)),
      )
      .join('');
  }

  private escape(): string {
    const next = this.text[this.position + 1];
    this.position += 2;
    switch (next) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '"':
        return '"';
      case '\\':
        return '\\';
      case 'u': {
        const code = this.text.slice(this.position, this.position + 4);
        this.position += 4;
        return String.fromCharCode(Number.parseInt(code, 16));
      }
      default:
        return `\\${next ?? ''}`;
    }
  }

  expression(): unknown {
    if (++this.depth > MAX_DEPTH) this.fail(`expressions nest deeper than ${MAX_DEPTH} levels`);
    try {
      const condition = this.binary(0);
      this.space();
      if (this.peek('?')) {
        this.position++;
        const whenTrue = this.expression();
        this.space();
        this.expect(':');
        const whenFalse = this.expression();
        if (typeof condition !== 'boolean') this.fail('the condition of ? : must be true or false');
        return condition ? whenTrue : whenFalse;
      }
      return condition;
    } finally {
      this.depth--;
    }
  }

  private static readonly LEVELS: readonly (readonly string[])[] = [
    ['||'],
    ['&&'],
    ['==', '!='],
    ['<=', '>=', '<', '>'],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  private binary(level: number): unknown {
    if (level === Parser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      this.space();
      const operator = Parser.LEVELS[level]!.find(
        (candidate) =>
          this.text.startsWith(candidate, this.position) &&
          !(candidate === '<' && this.text[this.position + 1] === '<'),
      );
      if (operator === undefined) return left;
      this.position += operator.length;
      const right = this.binary(level + 1);
      left = this.apply(operator, left, right);
    }
  }

  private apply(operator: string, left: unknown, right: unknown): unknown {
    try {
      return applyOperator(operator, left, right);
    } catch (error) {
      return this.fail((error as Error).message);
    }
  }

  private bool(value: unknown): boolean {
    try {
      return asBool(value);
    } catch (error) {
      return this.fail((error as Error).message);
    }
  }

  private number(value: unknown): number {
    try {
      return asNumber(value);
    } catch (error) {
      return this.fail((error as Error).message);
    }
  }

  private unary(): unknown {
    this.space();
    if (this.peek('!')) {
      this.position++;
      return !this.bool(this.unary());
    }
    if (this.peek('-') && !/\d/.test(this.text[this.position + 1] ?? '')) {
      this.position++;
      return -this.number(this.unary());
    }
    return this.postfix(this.primary());
  }

  private primary(): unknown {
    this.space();
    const char = this.text[this.position];
    if (char === undefined) return this.fail('an expression is missing');
    if (char === '(') {
      this.position++;
      const value = this.expression();
      this.space();
      this.expect(')');
      return value;
    }
    if (char === '"') {
      this.position++;
      const value = this.template('"');
      this.expect('"');
      return value;
    }
    if (char === '<' && this.text.startsWith('<<', this.position)) return this.heredoc();
    if (char === '[') return this.tuple();
    if (char === '{') return this.object();
    const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.position));
    if (number !== null) {
      this.position += number[0].length;
      return Number(number[0]);
    }
    const name = this.identifier();
    if (name === 'true' || name === 'false') return name === 'true';
    if (name === 'null') return null;
    if (name === 'for') return this.fail('for expressions are not evaluated by eddy');
    this.space();
    if (this.peek('(')) return this.call(name);
    // A reference: its root and what follows it, resolved by the module.
    const traversal: Traversal[] = [];
    for (;;) {
      if (this.peek('.') && /[A-Za-z_]/.test(this.text[this.position + 1] ?? '')) {
        this.position++;
        traversal.push({ name: this.identifier() });
      } else if (this.peek('.') && /\d/.test(this.text[this.position + 1] ?? '')) {
        this.position++;
        const digits = /^\d+/.exec(this.text.slice(this.position))![0];
        this.position += digits.length;
        traversal.push({ index: Number(digits) });
      } else if (this.peek('[')) {
        this.position++;
        this.space();
        if (this.peek('*')) this.fail('splat expressions ([*]) are not evaluated by eddy');
        traversal.push({ index: this.expression() });
        this.space();
        this.expect(']');
      } else if (this.peek('.*')) {
        this.fail('splat expressions (.*) are not evaluated by eddy');
      } else break;
    }
    return this.context.reference(name, traversal);
  }

  /** `[...]` and `.x` after a value that is not a reference (a call's, a literal's). */
  private postfix(value: unknown): unknown {
    let result = value;
    for (;;) {
      if (this.peek('[')) {
        this.position++;
        const index = this.expression();
        this.space();
        this.expect(']');
        result = indexInto(result, index, (reason) => this.fail(reason));
      } else if (this.peek('.') && /[A-Za-z_]/.test(this.text[this.position + 1] ?? '')) {
        this.position++;
        result = indexInto(result, this.identifier(), (reason) => this.fail(reason));
      } else return result;
    }
  }

  private call(name: string): unknown {
    this.expect('(');
    this.space();
    // Arguments are evaluated as they are parsed; `try` and `can` catch their failures.
    const values: { value?: unknown; error?: unknown }[] = [];
    while (!this.peek(')')) {
      try {
        values.push({ value: this.expression() });
      } catch (error) {
        if (name !== 'try' && name !== 'can') throw error;
        values.push({ error });
        this.skipArgument();
      }
      this.space();
      if (this.peek('...')) this.fail('argument expansion (...) is not evaluated by eddy');
      if (this.peek(',')) this.position++;
      this.space();
    }
    this.position++;
    if (name === 'try') {
      const first = values.find((item) => item.error === undefined);
      if (first === undefined) return this.fail('try(): no argument has a value');
      return first.value;
    }
    if (name === 'can') return values[0]?.error === undefined;
    try {
      return callFunction(
        name,
        values.map((item) => item.value),
        this.context.directory,
      );
    } catch (error) {
      return this.fail((error as Error).message);
    }
  }

  /** After a failed `try` argument: on to the next `,` or `)` at this level. */
  private skipArgument(): void {
    let depth = 0;
    let quote = false;
    while (this.position < this.text.length) {
      const char = this.text[this.position]!;
      if (quote) {
        if (char === '\\') this.position++;
        else if (char === '"') quote = false;
      } else if (char === '"') quote = true;
      else if ('([{'.includes(char)) depth++;
      else if (')]}'.includes(char)) {
        if (depth === 0) return;
        depth--;
      } else if (char === ',' && depth === 0) return;
      this.position++;
    }
  }

  private tuple(): unknown[] {
    this.expect('[');
    const items: unknown[] = [];
    this.space();
    if (/^for\s/.test(this.text.slice(this.position))) this.fail('for expressions are not evaluated by eddy');
    while (!this.peek(']')) {
      items.push(this.expression());
      this.space();
      if (this.peek(',')) this.position++;
      this.space();
      if (this.position >= this.text.length) this.fail("a list without its closing ']'");
    }
    this.position++;
    return items;
  }

  private object(): Record<string, unknown> {
    this.expect('{');
    const result: Record<string, unknown> = {};
    this.space();
    if (/^for\s/.test(this.text.slice(this.position))) this.fail('for expressions are not evaluated by eddy');
    while (!this.peek('}')) {
      let key: unknown;
      if (this.peek('(')) key = this.primary();
      else if (this.peek('"')) key = this.primary();
      else key = this.identifier();
      this.space();
      if (this.peek('=') || this.peek(':')) this.position++;
      else this.fail(`'=' expected after the key ${String(key)}`);
      const value = this.expression();
      Object.defineProperty(result, String(key), { value, enumerable: true, writable: true });
      this.space();
      if (this.peek(',')) this.position++;
      this.space();
      if (this.position >= this.text.length) this.fail("a map without its closing '}'");
    }
    this.position++;
    return result;
  }

  private heredoc(): string {
    const header = /^<<(-?)([A-Za-z_][A-Za-z0-9_]*)\r?\n/.exec(this.text.slice(this.position));
    if (header === null) return this.fail('a heredoc starts <<MARKER and a new line');
    this.position += header[0].length;
    const end = new RegExp(`^[ \\t]*${header[2]}\\s*$`, 'm');
    const rest = this.text.slice(this.position);
    const match = end.exec(rest);
    if (match === null) return this.fail(`heredoc ${header[2]} without its end`);
    let body = rest.slice(0, match.index);
    this.position += match.index + match[0].length;
    if (header[1] === '-') {
      const lines = body.split('\n');
      const indent = Math.min(
        ...lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)![0].length),
      );
      body = lines.map((line) => line.slice(indent)).join('\n');
    }
    return String(evaluateTemplate(body, this.context));
  }

  private identifier(): string {
    const match = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(this.text.slice(this.position));
    if (match === null) return this.fail(`unexpected '${this.text[this.position] ?? 'end'}'`);
    this.position += match[0].length;
    return match[0];
  }

  /** Spaces, new lines and comments (`#`, `//`, and block comments). */
  private space(): void {
    for (;;) {
      const rest = this.text.slice(this.position);
      const match = /^(\s+|#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(rest);
      if (match === null) return;
      this.position += match[0].length;
    }
  }

  private strip(char: string): void {
    if (this.peek(char)) this.position++;
  }

  private peek(text: string): boolean {
    return this.text.startsWith(text, this.position);
  }

  private expect(char: string): void {
    this.space();
    if (!this.peek(char)) this.fail(`'${char}' expected`);
    this.position += char.length;
  }

  fail(reason: string): never {
    throw new ExpressionError(
      `${reason} (in ${JSON.stringify(this.text.length > 80 ? `${this.text.slice(0, 77)}...` : this.text)})`,
    );
  }
}

export { indexInto } from './operators.js';
