import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addNumbers,
  compareNumbers,
  decompose,
  isPlainInteger,
  NumberMessages,
  nonZeroNumberSize,
  normaliseNumber,
  numberSize,
} from '../../../core/model/number.js';

const ok = (value: string) => ({ ok: true, value });
const fail = (message: string) => ({ ok: false, message });

describe('normaliseNumber', () => {
  it('normalises as the service stores numbers (docs/dynamodb.md §2.2.3)', () => {
    expect(normaliseNumber('.5')).toEqual(ok('0.5'));
    expect(normaliseNumber('1e3')).toEqual(ok('1000'));
    expect(normaliseNumber('1.0e-1')).toEqual(ok('0.1'));
    expect(normaliseNumber('+1000.0')).toEqual(ok('1000'));
    expect(normaliseNumber('-0')).toEqual(ok('0'));
    expect(normaliseNumber('007')).toEqual(ok('7'));
    expect(normaliseNumber('-12.3400')).toEqual(ok('-12.34'));
    expect(normaliseNumber('1e125')).toEqual(ok(`1${'0'.repeat(125)}`));
    expect(normaliseNumber('1e-130')).toEqual(ok(`0.${'0'.repeat(129)}1`));
  });

  it('rejects empty and unparsable input with the service texts (docs/dynamodb.md §2.2.2)', () => {
    expect(normaliseNumber('')).toEqual(fail(NumberMessages.empty));
    for (const input of ['NaN', 'Infinity', ' 1', '1 ', 'abc', '1e', 'e5', '.', '--1', '0x10']) {
      expect(normaliseNumber(input)).toEqual(
        fail(`The parameter cannot be converted to a numeric value: ${input}`),
      );
    }
  });

  it('accepts 38 significant digits and rejects 39', () => {
    expect(normaliseNumber('1'.repeat(38)).ok).toBe(true);
    expect(normaliseNumber(`${'1'.repeat(38)}000`).ok).toBe(true);
    expect(normaliseNumber('1'.repeat(39))).toEqual(fail(NumberMessages.tooManyDigits));
  });

  it('enforces the range 1E-130 .. 9.99E+125 (docs/dynamodb.md §2.2.2)', () => {
    expect(normaliseNumber('1e126')).toEqual(fail(NumberMessages.overflow));
    expect(normaliseNumber('11e125')).toEqual(fail(NumberMessages.overflow));
    expect(normaliseNumber('9.9999999999999999999999999999999999999e125').ok).toBe(true);
    expect(normaliseNumber('1e-131')).toEqual(fail(NumberMessages.underflow));
    expect(normaliseNumber('0.9e-130')).toEqual(fail(NumberMessages.underflow));
  });

  it('reproduces the zero-exponent quirk: 0e126 and 0e-131 fail, 0.0e126 passes (docs/dynamodb.md §9.10)', () => {
    expect(normaliseNumber('0e126')).toEqual(fail(NumberMessages.overflow));
    expect(normaliseNumber('0e-131')).toEqual(fail(NumberMessages.underflow));
    expect(normaliseNumber('0.0e126')).toEqual(ok('0'));
  });
});

describe('compareNumbers', () => {
  it('orders numerically, not textually', () => {
    expect(compareNumbers('9', '10')).toBeLessThan(0);
    expect(compareNumbers('-1', '-0.5')).toBeLessThan(0);
    expect(compareNumbers('0', '-0.001')).toBeGreaterThan(0);
    expect(compareNumbers('1000', '1000')).toBe(0);
  });

  it('agrees with exact decimal arithmetic on random numbers (property)', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: -40, max: 40 }))
      .map(([negative, digits, exponent]) => `${negative ? '-' : ''}${digits}e${exponent}`);
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const x = normaliseNumber(a);
        const y = normaliseNumber(b);
        if (!x.ok || !y.ok) return;
        const difference = addNumbers(x.value, y.value, '-');
        if (!difference.ok) return;
        const sign = difference.value === '0' ? 0 : difference.value.startsWith('-') ? -1 : 1;
        expect(Math.sign(compareNumbers(x.value, y.value))).toBe(sign);
      }),
    );
  });
});

describe('addNumbers', () => {
  it('adds and subtracts exactly', () => {
    expect(addNumbers('0.1', '0.2')).toEqual(ok('0.3'));
    expect(addNumbers('1', '1', '-')).toEqual(ok('0'));
    expect(addNumbers('99999999999999999999999999999999999999', '-1')).toEqual(
      ok('99999999999999999999999999999999999998'),
    );
  });

  it('fails with the overflow text past 38 digits or the range (docs/dynamodb.md §2.2.5)', () => {
    expect(addNumbers('1e50', '1')).toEqual(fail(NumberMessages.overflow));
    expect(addNumbers('9.9999999999999999999999999999999999999e125', '1e125')).toEqual(
      fail(NumberMessages.overflow),
    );
  });
});

describe('numberSize', () => {
  it('matches the recorded sizes (docs/dynamodb.md §2.4.3)', () => {
    const size = (input: string) => {
      const n = normaliseNumber(input);
      if (!n.ok) throw new Error(n.message);
      return numberSize(n.value);
    };
    expect(size('1e125')).toBe(2);
    expect(size('1.1e125')).toBe(2);
    expect(size('1111111e119')).toBe(5);
    expect(size(`${'1'.repeat(38)}e88`)).toBe(20);
    expect(size('12.3456')).toBe(4);
    expect(size('0')).toBe(1);
    expect(size('-1')).toBe(3);
  });

  it('is the size of the decomposed number, for any number', () => {
    // The formula on `decompose`'s digits and exponent, which numberSize computes in one pass.
    const bySize = (normalised: string) => {
      const n = decompose(normalised);
      return n.sign === 0 ? 1 : nonZeroNumberSize(n.digits.length, n.pointPosition - 1, n.sign < 0);
    };
    const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), minLength: 1, maxLength: 40 });
    const text = fc
      .tuple(fc.boolean(), digits, fc.option(digits), fc.integer({ min: -140, max: 130 }))
      .map(
        ([minus, whole, fraction, exponent]) =>
          `${minus ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}e${exponent}`,
      );
    fc.assert(
      fc.property(text, (input) => {
        const n = normaliseNumber(input);
        if (n.ok) expect(numberSize(n.value)).toBe(bySize(n.value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isPlainInteger', () => {
  it('is /^-?[1-9]\\d{0,14}$/, the normalised integers of up to 15 digits', () => {
    const reference = /^-?[1-9]\d{0,14}$/;
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('-', '0', '1', '9', '.', 'e', ' ', '\n', '٣'), maxLength: 18 }),
      fc.integer().map(String),
      fc.bigInt().map(String),
    );
    fc.assert(
      fc.property(text, (input) => {
        expect(isPlainInteger(input)).toBe(reference.test(input));
      }),
      {
        numRuns: 3000,
      },
    );
    expect(isPlainInteger('999999999999999')).toBe(true);
    expect(isPlainInteger('1000000000000000')).toBe(false);
    expect(isPlainInteger('-0')).toBe(false);
    expect(isPlainInteger('-')).toBe(false);
    expect(isPlainInteger('')).toBe(false);
  });
});
