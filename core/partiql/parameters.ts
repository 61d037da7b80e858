import { ValidationException } from '../errors/index.js';
import { NumberMessages } from '../model/number.js';
import { AttributeMessages, MAX_NESTING_LEVEL } from '../model/parseAttributeValue.js';

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);
const NUMBER = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A statement's parameters are read as Java's BigDecimal reads a string, before DynamoDB's number
 * rules: an exponent or a scale beyond a 32-bit integer cannot be converted at all, and a
 * magnitude whose precision less scale wraps past the 32-bit range comes out as an underflow
 * (conformance partiqlParameterNumbers.test.ts, pinned against DynamoDB in October 2026). The
 * first problem in document order wins, nesting beyond 32 levels included; everything else is
 * the ordinary AttributeValue check.
 */
export function checkParameterNumbers(raw: unknown): void {
  if (!Array.isArray(raw)) return;
  for (const value of raw) {
    const problem = walk(value, 1);
    if (problem !== undefined) throw new ValidationException(problem);
  }
}

function walk(value: unknown, level: number): string | undefined {
  if (level > MAX_NESTING_LEVEL) return AttributeMessages.nesting;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [type, inner] of Object.entries(value)) {
    if (type === 'N' && typeof inner === 'string') {
      const problem = numberProblem(inner);
      if (problem !== undefined) return problem;
    } else if (type === 'NS' && Array.isArray(inner)) {
      for (const member of inner) {
        const problem = typeof member === 'string' ? numberProblem(member) : undefined;
        if (problem !== undefined) return problem;
      }
    } else if (type === 'L' && Array.isArray(inner)) {
      for (const element of inner) {
        const problem = walk(element, level + 1);
        if (problem !== undefined) return problem;
      }
    } else if (type === 'M' && typeof inner === 'object' && inner !== null) {
      for (const element of Object.values(inner)) {
        const problem = walk(element, level + 1);
        if (problem !== undefined) return problem;
      }
    }
  }
  return undefined;
}

function numberProblem(text: string): string | undefined {
  const match = NUMBER.exec(text);
  if (match === null || match[3] === undefined) return undefined;
  const exponent = Number(match[3]);
  const fraction = match[2]?.length ?? 0;
  const scale = fraction - exponent;
  if (exponent > INT32_MAX || exponent < INT32_MIN || scale > INT32_MAX || scale < INT32_MIN)
    return NumberMessages.unparsable(text);
  const digits = `${match[1]}${match[2] ?? ''}`.replace(/^0+/, '');
  const precision = Math.max(digits.length, 1);
  if (((precision - scale) | 0) !== precision - scale) return NumberMessages.underflow;
  return undefined;
}
