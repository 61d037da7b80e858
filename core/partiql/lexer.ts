import type { Position } from './ast.js';
import { malformed } from './errors.js';
import { isKeyword } from './keywords.js';

/**
 * PartiQL tokens (docs/partiql.md §2.1). Bare words are identifiers or keywords (keywords
 * case-insensitively); `"…"` quotes an identifier and `'…'` a string, each doubling its quote to
 * escape it; `--` and `/* … *\/` are comments. A `#`, an unterminated comment or string, or a
 * number whose exponent does not fit a 32-bit integer cannot be read at all: the service answers
 * the bare "wasn't well formed" envelope for them (docs/partiql.md §5.1).
 */
export type TokenKind =
  | 'identifier'
  | 'quoted'
  | 'keyword'
  | 'string'
  | 'number'
  | 'parameter'
  | 'punctuation'
  | 'operator'
  | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** Identifiers and strings: the value; keywords: upper-cased; punctuation/operators: as written. */
  readonly text: string;
  /** Keywords and identifiers: the text as written. */
  readonly raw: string;
  readonly position: Position;
}

const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',', '.', ':', ';', '*', '<<', '>>']);
const OPERATORS = ['<>', '!=', '<=', '>=', '||', '=', '<', '>', '+', '-', '/', '%'];
const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let line = 1;
  let lineStart = 0;
  const length = text.length;
  const position = (start: number, size: number): Position => ({
    line,
    column: start - lineStart + 1,
    length: size,
  });
  while (index < length) {
    const char = text[index]!;
    if (char === '\n') {
      index++;
      line++;
      lineStart = index;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\f') {
      index++;
      continue;
    }
    if (char === '-' && text[index + 1] === '-') {
      while (index < length && text[index] !== '\n') index++;
      continue;
    }
    if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      if (end === -1) throw malformed('');
      for (let i = index; i < end; i++) {
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      index = end + 2;
      continue;
    }
    const start = index;
    if (char === "'" || char === '"') {
      let value = '';
      index++;
      for (;;) {
        if (index >= length) throw malformed('');
        const next = text[index]!;
        if (next === char) {
          if (text[index + 1] === char) {
            value += char;
            index += 2;
            continue;
          }
          index++;
          break;
        }
        value += next;
        index++;
      }
      tokens.push({
        kind: char === "'" ? 'string' : 'quoted',
        text: value,
        raw: text.slice(start, index),
        position: position(start, index - start),
      });
      continue;
    }
    if (isDigit(char) || (char === '.' && isDigit(text[index + 1]))) {
      index = scanNumber(text, index);
      const raw = text.slice(start, index);
      tokens.push({ kind: 'number', text: raw, raw, position: position(start, raw.length) });
      continue;
    }
    if (isWordStart(char)) {
      while (index < length && isWordPart(text[index]!)) index++;
      const raw = text.slice(start, index);
      const upper = raw.toUpperCase();
      const keyword = isKeyword(upper);
      tokens.push({
        kind: keyword ? 'keyword' : 'identifier',
        text: keyword ? upper : raw,
        raw,
        position: position(start, raw.length),
      });
      continue;
    }
    if (char === '?') {
      index++;
      tokens.push({ kind: 'parameter', text: '?', raw: '?', position: position(start, 1) });
      continue;
    }
    const two = text.slice(index, index + 2);
    if (PUNCTUATION.has(two)) {
      index += 2;
      tokens.push({ kind: 'punctuation', text: two, raw: two, position: position(start, 2) });
      continue;
    }
    const operator = OPERATORS.find((candidate) => text.startsWith(candidate, index));
    if (operator !== undefined) {
      index += operator.length;
      tokens.push({
        kind: 'operator',
        text: operator,
        raw: operator,
        position: position(start, operator.length),
      });
      continue;
    }
    if (PUNCTUATION.has(char)) {
      index++;
      tokens.push({ kind: 'punctuation', text: char, raw: char, position: position(start, 1) });
      continue;
    }
    // `#` comments and any other character the lexer has no token for.
    throw malformed('');
  }
  tokens.push({ kind: 'end', text: '', raw: '', position: position(index, 0) });
  return tokens;
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

function isWordStart(char: string): boolean {
  return (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || char === '_' || char === '$';
}

function isWordPart(char: string): boolean {
  return isWordStart(char) || isDigit(char);
}

/**
 * A number: digits, an optional fraction, an optional exponent. The literal must fit Java's
 * BigDecimal: the exponent and the scale (fraction digits less the exponent) are 32-bit integers,
 * else the statement cannot be read (docs/partiql.md §5.1).
 */
function scanNumber(text: string, start: number): number {
  let index = start;
  while (isDigit(text[index])) index++;
  let fractionDigits = 0;
  if (text[index] === '.') {
    index++;
    while (isDigit(text[index])) {
      index++;
      fractionDigits++;
    }
  }
  if ((text[index] === 'e' || text[index] === 'E') && exponentFollows(text, index + 1)) {
    index++;
    const exponentStart = index;
    if (text[index] === '+' || text[index] === '-') index++;
    while (isDigit(text[index])) index++;
    const exponent = Number(text.slice(exponentStart, index));
    const scale = fractionDigits - exponent;
    if (exponent > INT32_MAX || exponent < INT32_MIN || scale > INT32_MAX || scale < INT32_MIN)
      throw malformed('');
  }
  return index;
}

function exponentFollows(text: string, index: number): boolean {
  if (text[index] === '+' || text[index] === '-') return isDigit(text[index + 1]);
  return isDigit(text[index]);
}
