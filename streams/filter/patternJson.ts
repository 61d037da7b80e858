/**
 * A small JSON reader for filter patterns (docs/streams-and-lambda.md §3.1: each `Pattern` is a JSON string
 * of at most 4096 characters). It differs from `JSON.parse` in two ways that filtering needs:
 *
 * - numbers keep their literal text (`PatternNumber`): exact matching compares numbers by their
 *   text, so `300`, `300.0` and `3.0e2` are different values (docs/streams-and-lambda.md §3.8);
 * - objects are `Map`s, so member names such as `__proto__` are plain data.
 */

/** A number literal of a pattern: its text as written and its value. */
export class PatternNumber {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}
}

export type PatternValue = string | boolean | null | PatternNumber | PatternValue[] | PatternObject;
export type PatternObject = Map<string, PatternValue>;

/** The pattern text is not JSON. */
export class PatternSyntaxError extends Error {
  override readonly name = 'PatternSyntaxError';
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/**
 * Parses pattern text.
 * @throws PatternSyntaxError when the text is not one JSON value.
 */
export function parsePatternJson(text: string): PatternValue {
  const reader = new Reader(text);
  const value = reader.value();
  reader.skipWhitespace();
  if (reader.at < text.length) reader.fail('unexpected text after the value');
  return value;
}

class Reader {
  at = 0;

  constructor(private readonly text: string) {}

  fail(reason: string): never {
    throw new PatternSyntaxError(`Invalid JSON at ${this.at}: ${reason}`);
  }

  skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  value(): PatternValue {
    this.skipWhitespace();
    const char = this.text[this.at];
    switch (char) {
      case '{':
        return this.object();
      case '[':
        return this.array();
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        return this.number();
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) this.fail(`expected ${word}`);
    this.at += word.length;
    return value;
  }

  private number(): PatternNumber {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail('expected a value');
    this.at = NUMBER.lastIndex;
    return new PatternNumber(match[0], Number(match[0]));
  }

  private string(): string {
    const start = this.at;
    this.at++;
    for (;;) {
      const char = this.text.charCodeAt(this.at);
      if (Number.isNaN(char)) this.fail('unterminated string');
      if (char === 0x22) break;
      if (char < 0x20) this.fail('control character in string');
      this.at += char === 0x5c ? 2 : 1;
    }
    this.at++;
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string;
    } catch {
      return this.fail('bad escape in string');
    }
  }

  private array(): PatternValue[] {
    this.at++;
    const items: PatternValue[] = [];
    this.skipWhitespace();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipWhitespace();
      const char = this.text[this.at++];
      if (char === ']') return items;
      if (char !== ',') this.fail("expected ',' or ']'");
    }
  }

  private object(): PatternObject {
    this.at++;
    const members: PatternObject = new Map();
    this.skipWhitespace();
    if (this.text[this.at] === '}') {
      this.at++;
      return members;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') this.fail('expected a member name');
      const name = this.string();
      this.skipWhitespace();
      if (this.text[this.at++] !== ':') this.fail("expected ':'");
      members.set(name, this.value());
      this.skipWhitespace();
      const char = this.text[this.at++];
      if (char === '}') return members;
      if (char !== ',') this.fail("expected ',' or '}'");
    }
  }
}

/** Whether a pattern value is an object (a `Map`). */
export function isPatternObject(value: PatternValue): value is PatternObject {
  return value instanceof Map;
}
