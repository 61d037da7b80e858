/**
 * The expression lexer (docs/dynamodb.md §5.1.1). Tokens:
 * - `name`: a bare attribute or function name, `[A-Za-z][A-Za-z0-9_]*`;
 * - `keyword`: a name that is a keyword of the expression kind (case-insensitive);
 * - `nameRef` / `valueRef`: `#` or `:` followed by `[A-Za-z0-9_]+`;
 * - `number`: a run of decimal digits (only valid as a list index);
 * - `punct`: `( ) [ ] , . = <> < <= > >= + -`;
 * - `invalid`: any other character (one code point), reported by the parser as a syntax error
 *   where it stands, so that an earlier syntax error wins;
 * - `eof`.
 */
export type TokenKind = 'name' | 'keyword' | 'nameRef' | 'valueRef' | 'number' | 'punct' | 'invalid' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The token as written (`<EOF>` for the end). */
  readonly text: string;
  /** Upper-cased text for keywords, the text otherwise. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** Keywords per grammar: conditions and updates have their own (docs/dynamodb.md §5.2.1, §5.3.1). */
export const CONDITION_KEYWORDS: ReadonlySet<string> = new Set(['AND', 'OR', 'NOT', 'BETWEEN', 'IN']);
export const UPDATE_KEYWORDS: ReadonlySet<string> = new Set(['SET', 'REMOVE', 'ADD', 'DELETE']);
export const NO_KEYWORDS: ReadonlySet<string> = new Set();

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isWordPart(code: number): boolean {
  return isLetter(code) || isDigit(code) || code === 95;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** True when the text holds nothing but the blanks the lexer skips. */
export function isBlankText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isBlank(text.charCodeAt(i))) return false;
  return true;
}

function make(kind: TokenKind, text: string, start: number, value = text): Token {
  return { kind, text, value, start, end: start + text.length };
}

export function tokenize(text: string, keywords: ReadonlySet<string>): Token[] {
  const tokens: Token[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (isBlank(code)) {
      i++;
      continue;
    }
    const start = i;
    if (isLetter(code)) {
      i++;
      while (i < length && isWordPart(text.charCodeAt(i))) i++;
      const word = text.slice(start, i);
      const upper = word.toUpperCase();
      tokens.push(keywords.has(upper) ? make('keyword', word, start, upper) : make('name', word, start));
      continue;
    }
    if (isDigit(code)) {
      i++;
      while (i < length && isDigit(text.charCodeAt(i))) i++;
      tokens.push(make('number', text.slice(start, i), start));
      continue;
    }
    if (code === 35 || code === 58) {
      // `#ref` and `:ref`: any word characters after the sigil (`#1`, `:_` are fine).
      i++;
      while (i < length && isWordPart(text.charCodeAt(i))) i++;
      if (i === start + 1) tokens.push(make('invalid', text[start]!, start));
      else tokens.push(make(code === 35 ? 'nameRef' : 'valueRef', text.slice(start, i), start));
      continue;
    }
    const next = i + 1 < length ? text.charCodeAt(i + 1) : -1;
    if (code === 60 && (next === 62 || next === 61)) {
      tokens.push(make('punct', text.slice(start, start + 2), start));
      i += 2;
      continue;
    }
    if (code === 62 && next === 61) {
      tokens.push(make('punct', '>=', start));
      i += 2;
      continue;
    }
    if ('()[],.=<>+-'.includes(text[i]!)) {
      tokens.push(make('punct', text[i]!, start));
      i++;
      continue;
    }
    // One code point, so that a character outside the BMP is reported whole.
    const point = String.fromCodePoint(text.codePointAt(i)!);
    tokens.push(make('invalid', point, start));
    i += point.length;
  }
  tokens.push({ kind: 'eof', text: '<EOF>', value: '<EOF>', start: length, end: length });
  return tokens;
}
