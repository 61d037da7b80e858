import { checkBase64 } from '../model/binary.js';
import { MAX_EXPONENT, MAX_SIGNIFICANT_DIGITS, MIN_EXPONENT, nonZeroNumberSize } from '../model/number.js';
import { BACKSLASH, QUOTE } from './canonicalText.js';

/**
 * The scalars of the stored-form scanner (`storedItemScan.ts`): numbers and base64 as the stored
 * form writes them, and the byte helpers. Each scan takes the index of a value's opening quote and
 * answers the index after its closing quote, or -1 (not recognised); `out.valueSize` gets its size
 * by the AWS rules (docs/dynamodb.md §2.4.3).
 */
export interface ValueSize {
  valueSize: number;
}

/**
 * Buffer's own decoders, which `toString(encoding, start, end)` reaches after checking its
 * arguments and looking the encoding up (~8% of an import of short items, measured with
 * --cpu-prof): the scanner's bounds are known good.
 */
export type SliceableBuffer = Buffer & {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
};

/** Not recognised: the general path decides. */
export const FAIL = -1;
export const ZERO = 0x30;
export const NINE = 0x39;
const MINUS = 0x2d;
const DOT = 0x2e;

/**
 * A number at `p` (its opening quote) in the normalised form `normaliseNumber` answers
 * (`formatPlain`: no exponent, no leading zero but the one before a point, no trailing zero
 * after one, no `-0`), within 38 significant digits and the exponent range. Sets `valueSize` by
 * `numberSize`'s rule.
 */
export function scanNumber(bytes: Uint8Array, p: number, limit: number, out: ValueSize): number {
  if (bytes[p] !== QUOTE) return FAIL;
  let i = p + 1;
  const negative = bytes[i] === MINUS;
  if (negative) i++;
  let digits: number;
  let pointPosition: number;
  const first = bytes[i]!;
  if (first === ZERO) {
    i++;
    if (bytes[i] === QUOTE) {
      if (negative) return FAIL;
      out.valueSize = 1;
      return i + 1;
    }
    // 0.000ddd: a fraction with its leading zeros.
    if (bytes[i] !== DOT) return FAIL;
    i++;
    let zeros = 0;
    while (bytes[i] === ZERO) {
      zeros++;
      i++;
    }
    const start = i;
    while (isDigit(bytes[i]!)) i++;
    if (i === start || bytes[i - 1] === ZERO) return FAIL;
    digits = i - start;
    pointPosition = -zeros;
  } else if (first > ZERO && first <= NINE) {
    const start = i;
    while (isDigit(bytes[i]!)) i++;
    const integerDigits = i - start;
    pointPosition = integerDigits;
    if (bytes[i] === DOT) {
      i++;
      const fraction = i;
      while (isDigit(bytes[i]!)) i++;
      if (i === fraction || bytes[i - 1] === ZERO) return FAIL;
      digits = integerDigits + (i - fraction);
    } else {
      let last = i - 1;
      while (bytes[last] === ZERO) last--;
      digits = last - start + 1;
    }
  } else return FAIL;
  if (bytes[i] !== QUOTE || i >= limit) return FAIL;
  const exponent = pointPosition - 1;
  if (digits > MAX_SIGNIFICANT_DIGITS || exponent > MAX_EXPONENT || exponent < MIN_EXPONENT) return FAIL;
  out.valueSize = nonZeroNumberSize(digits, exponent, negative);
  return i + 1;
}

/** Canonical base64 at `p` (its opening quote), checked as the general path does. */
export function scanBinary(bytes: SliceableBuffer, p: number, limit: number, out: ValueSize): number {
  if (bytes[p] !== QUOTE) return FAIL;
  let i = p + 1;
  while (i < limit && bytes[i] !== QUOTE && bytes[i] !== BACKSLASH) i++;
  if (bytes[i] !== QUOTE || i >= limit) return FAIL;
  const text = bytes.latin1Slice(p + 1, i);
  const checked = checkBase64(text);
  if (!checked.ok || checked.value !== text) return FAIL;
  out.valueSize = checked.byteLength;
  return i + 1;
}

export const TRUE = [0x74, 0x72, 0x75, 0x65];
export const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];

export function isWord(bytes: Uint8Array, p: number, word: readonly number[]): boolean {
  for (let i = 0; i < word.length; i++) if (bytes[p + i] !== word[i]) return false;
  return true;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

export function hexDigit(c: number): number {
  if (c >= ZERO && c <= NINE) return c - ZERO;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/**
 * Whether a name enumerates as an array index (`0` or no leading zero, below 2^32 − 1): the stored
 * form puts those first (`itemCodec.ts`), which this pass leaves to the general path.
 */
export function isIndexLike(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start > 10 || (bytes[start] === ZERO && end - start > 1)) return false;
  let value = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (!isDigit(c)) return false;
    value = value * 10 + (c - ZERO);
  }
  return value < 4294967295;
}

/** Byte order of two ASCII spans: UTF-16 order of the strings they are. */
export function compareBytes(
  bytes: Uint8Array,
  aStart: number,
  aEnd: number,
  bStart: number,
  bEnd: number,
): number {
  const length = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < length; i++) {
    const difference = bytes[aStart + i]! - bytes[bStart + i]!;
    if (difference !== 0) return difference;
  }
  return aEnd - aStart - (bEnd - bStart);
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
