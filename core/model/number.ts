import { Decimal } from 'decimal.js';

/**
 * DynamoDB numbers: up to 38 significant digits, magnitude 1E-130 .. 9.99…E+125 (or zero),
 * stored and returned as plain normalised decimals (docs/dynamodb.md §2.2,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-data-types-numbers).
 *
 * Comparison works on the decomposed form below; arithmetic uses decimal.js with enough precision
 * that every sum of two in-range numbers is exact (the widest spans 10^126 down to 10^-130).
 */

export const MAX_SIGNIFICANT_DIGITS = 38;
/** Largest allowed scientific exponent: 9.99…E+125. */
export const MAX_EXPONENT = 125;
/** Smallest allowed scientific exponent: 1E-130. */
export const MIN_EXPONENT = -130;

export const NumberMessages = {
  empty: 'The parameter cannot be converted to a numeric value',
  unparsable: (input: string) => `The parameter cannot be converted to a numeric value: ${input}`,
  tooManyDigits: 'Attempting to store more than 38 significant digits in a Number',
  overflow: 'Number overflow. Attempting to store a number with magnitude larger than supported range',
  underflow: 'Number underflow. Attempting to store a number with magnitude smaller than supported range',
} as const;

/** A decomposed non-zero number: value = sign × 0.d₁d₂…dₙ × 10^exponent, d₁ ≠ 0, dₙ ≠ 0. */
export interface DecomposedNumber {
  /** -1, 0 or 1. */
  readonly sign: -1 | 0 | 1;
  /** Significant digits without leading or trailing zeros ("" for zero). */
  readonly digits: string;
  /** Position of the decimal point relative to the digits: value = 0.digits × 10^pointPosition. */
  readonly pointPosition: number;
}

const ZERO: DecomposedNumber = { sign: 0, digits: '', pointPosition: 0 };
const NUMBER_SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/**
 * Whether a text is an already-normalised integer, `-?[1-9][0-9]*` with at most `maxDigits`
 * digits. Those of up to 15 skip normalisation's general path: the common case for counters and
 * ids. A loop over the characters, not a regex: under callgrind the regex's `test` cost ~300
 * instructions a number (three numbers per bench PutItem).
 */
export function isPlainInteger(input: string, maxDigits = 15): boolean {
  const start = input.charCodeAt(0) === 45 ? 1 : 0;
  const digits = input.length - start;
  if (digits < 1 || digits > maxDigits) return false;
  const first = input.charCodeAt(start);
  if (first < 49 || first > 57) return false;
  for (let i = start + 1; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

export type NumberResult = { ok: true; value: string } | { ok: false; message: string };

/**
 * Validates a number as the service does and returns its normalised text
 * (`.5` → `0.5`, `1e3` → `1000`, `-0` → `0`), or the service's error message.
 */
export function normaliseNumber(input: string): NumberResult {
  if (isPlainInteger(input)) return { ok: true, value: input };
  if (input === '') return { ok: false, message: NumberMessages.empty };
  const match = NUMBER_SYNTAX.exec(input);
  const integerPart = match?.[2] ?? '';
  const fractionPart = match?.[3] ?? '';
  if (!match || (integerPart === '' && fractionPart === '')) {
    return { ok: false, message: NumberMessages.unparsable(input) };
  }
  const exponentText = match[4];
  // Exponents beyond any sane range cannot be valid numbers; avoid parsing huge digit runs.
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent)) {
    return { ok: false, message: exponent > 0 ? NumberMessages.overflow : NumberMessages.underflow };
  }
  const allDigits = integerPart + fractionPart;
  const firstNonZero = firstNonZeroIndex(allDigits);
  if (firstNonZero === -1) {
    // Zero. The service checks BigDecimal's adjusted exponent of the literal, so `0e126` and
    // `0e-131` fail while `0.0e126` passes (docs/dynamodb.md §2.2.5, §9.10).
    const adjustedExponent = exponent - fractionPart.length;
    if (adjustedExponent > MAX_EXPONENT) return { ok: false, message: NumberMessages.overflow };
    if (adjustedExponent < MIN_EXPONENT) return { ok: false, message: NumberMessages.underflow };
    return { ok: true, value: '0' };
  }
  let lastNonZero = allDigits.length - 1;
  while (allDigits.charCodeAt(lastNonZero) === 48) lastNonZero--;
  const digits = allDigits.slice(firstNonZero, lastNonZero + 1);
  // value = 0.digits × 10^pointPosition
  const pointPosition = integerPart.length - firstNonZero + exponent;
  const scientificExponent = pointPosition - 1;
  if (digits.length > MAX_SIGNIFICANT_DIGITS) return { ok: false, message: NumberMessages.tooManyDigits };
  if (scientificExponent > MAX_EXPONENT) return { ok: false, message: NumberMessages.overflow };
  if (scientificExponent < MIN_EXPONENT) return { ok: false, message: NumberMessages.underflow };
  const negative = match[1] === '-';
  return { ok: true, value: formatPlain(negative ? -1 : 1, digits, pointPosition) };
}

function firstNonZeroIndex(digits: string): number {
  for (let i = 0; i < digits.length; i++) if (digits.charCodeAt(i) !== 48) return i;
  return -1;
}

/** Plain decimal text of sign × 0.digits × 10^pointPosition (digits without leading/trailing zeros). */
export function formatPlain(sign: -1 | 1, digits: string, pointPosition: number): string {
  let text: string;
  if (pointPosition <= 0) text = `0.${'0'.repeat(-pointPosition)}${digits}`;
  else if (pointPosition >= digits.length) text = digits + '0'.repeat(pointPosition - digits.length);
  else text = `${digits.slice(0, pointPosition)}.${digits.slice(pointPosition)}`;
  return sign < 0 ? `-${text}` : text;
}

/** Decomposes a normalised number (as produced by `normaliseNumber`). */
export function decompose(normalised: string): DecomposedNumber {
  if (normalised === '0') return ZERO;
  const negative = normalised.charCodeAt(0) === 45;
  const body = negative ? normalised.slice(1) : normalised;
  const point = body.indexOf('.');
  const integerPart = point === -1 ? body : body.slice(0, point);
  const fractionPart = point === -1 ? '' : body.slice(point + 1);
  const allDigits = integerPart + fractionPart;
  const firstNonZero = firstNonZeroIndex(allDigits);
  let lastNonZero = allDigits.length - 1;
  while (allDigits.charCodeAt(lastNonZero) === 48) lastNonZero--;
  return {
    sign: negative ? -1 : 1,
    digits: allDigits.slice(firstNonZero, lastNonZero + 1),
    pointPosition: integerPart.length - firstNonZero,
  };
}

/** Compares two normalised numbers exactly: negative, zero or positive. */
export function compareNumbers(a: string, b: string): number {
  if (a === b) return 0;
  const x = decompose(a);
  const y = decompose(b);
  if (x.sign !== y.sign) return x.sign - y.sign;
  if (x.sign === 0) return 0;
  let magnitude: number;
  if (x.pointPosition !== y.pointPosition) magnitude = x.pointPosition - y.pointPosition;
  else magnitude = x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0;
  return x.sign * Math.sign(magnitude);
}

/** Numeric equality of normalised numbers (normalisation makes it textual). */
export function numbersEqual(a: string, b: string): boolean {
  return a === b;
}

// 300 digits cover the span of the number range (10^126 .. 10^-130) with room: sums are exact.
const ExactDecimal = Decimal.clone({
  precision: 300,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -400,
  toExpPos: 400,
});

/**
 * Adds or subtracts two normalised numbers exactly. Results beyond 38 digits or the range fail:
 * the service answers the overflow text for both (docs/dynamodb.md §2.2.5).
 */
export function addNumbers(a: string, b: string, operation: '+' | '-' = '+'): NumberResult {
  const left = new ExactDecimal(a);
  const right = new ExactDecimal(b);
  const result = operation === '+' ? left.plus(right) : left.minus(right);
  if (result.isZero()) return { ok: true, value: '0' };
  const text = result.toFixed();
  const normalised = normaliseNumber(text);
  if (!normalised.ok) {
    const message =
      normalised.message === NumberMessages.underflow ? NumberMessages.underflow : NumberMessages.overflow;
    return { ok: false, message };
  }
  return normalised;
}

/**
 * Storage size of a number: 1 byte per two significant digits, plus one (docs/dynamodb.md §2.4.3):
 * 1 + ⌈d/2⌉, one more when the digit count and the exponent are both even, one more if negative.
 */
export function numberSize(normalised: string): number {
  // One pass over the characters, allocating nothing (`decompose` makes four strings and an
  // object; every stored number is measured on every write).
  const negative = normalised.charCodeAt(0) === 45;
  let integerDigits = 0;
  let digits = 0;
  let afterPoint = false;
  let firstNonZero = -1;
  let lastNonZero = -1;
  for (let i = negative ? 1 : 0; i < normalised.length; i++) {
    const code = normalised.charCodeAt(i);
    if (code === 46) {
      afterPoint = true;
      continue;
    }
    if (code !== 48) {
      if (firstNonZero === -1) firstNonZero = digits;
      lastNonZero = digits;
    }
    if (!afterPoint) integerDigits++;
    digits++;
  }
  if (firstNonZero === -1) return 1;
  return nonZeroNumberSize(lastNonZero - firstNonZero + 1, integerDigits - firstNonZero - 1, negative);
}

/** `numberSize` of a non-zero number given by its significant digit count and scientific exponent. */
export function nonZeroNumberSize(digitCount: number, scientificExponent: number, negative: boolean): number {
  let size = 1 + Math.ceil(digitCount / 2);
  if (digitCount % 2 === 0 && scientificExponent % 2 === 0) size += 1;
  if (negative) size += 1;
  return size;
}
