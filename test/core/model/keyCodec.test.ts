import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBinary } from '../../../core/model/binary.js';
import {
  encodeKeyValue,
  keyHashBytes,
  scanHashPrefix,
  segmentBounds,
  segmentOf,
} from '../../../core/model/keyCodec.js';
import { compareNumbers, normaliseNumber } from '../../../core/model/number.js';
import { RECORDED_N_SCAN_ORDER, RECORDED_S_SCAN_ORDER } from '../../helpers/scanOrder.js';

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const numberArbitrary = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[1-9][0-9]{0,37}$/),
    fc.integer({ min: -120, max: 80 }),
    fc.constantFrom(0, 1),
  )
  .map(([negative, digits, exponent, zero]) =>
    zero && digits.length < 2 ? '0' : `${negative ? '-' : ''}${digits}e${exponent}`,
  )
  .map((text) => normaliseNumber(text))
  .filter((result) => result.ok)
  .map((result) => (result as { value: string }).value);

describe('encodeKeyValue', () => {
  it('orders numbers numerically (property against exact comparison)', () => {
    fc.assert(
      fc.property(numberArbitrary, numberArbitrary, (a, b) => {
        expect(order(encodeKeyValue('N', a), encodeKeyValue('N', b))).toBe(sign(compareNumbers(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('orders strings by UTF-8 bytes, including astral characters (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const expected = sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
        expect(order(encodeKeyValue('S', a), encodeKeyValue('S', b))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('orders binary values as unsigned bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 20 }), (x, y) => {
        const a = Buffer.from(x).toString('base64');
        const b = Buffer.from(y).toString('base64');
        expect(order(encodeKeyValue('B', a), encodeKeyValue('B', b))).toBe(sign(compareBinary(a, b)));
      }),
    );
  });

  it('sorts U+FFFF before a supplementary character, as UTF-8 does', () => {
    expect(encodeKeyValue('S', '\uffff') < encodeKeyValue('S', '😀')).toBe(true);
  });
});

describe('scan order (docs/dynamodb.md §6.4.2)', () => {
  const scanOrder = (type: 'S' | 'N', keys: string[]) =>
    [...keys].sort((a, b) =>
      order(scanHashPrefix(keyHashBytes(type, a)), scanHashPrefix(keyHashBytes(type, b))),
    );

  it('visits S partitions in the recorded order', () => {
    expect(scanOrder('S', [...RECORDED_S_SCAN_ORDER].reverse())).toEqual(RECORDED_S_SCAN_ORDER);
  });

  it('visits N partitions in the recorded order', () => {
    expect(scanOrder('N', [...RECORDED_N_SCAN_ORDER].sort())).toEqual(RECORDED_N_SCAN_ORDER);
  });

  it('assigns the recorded segments with 4096 segments', () => {
    const segment = (key: string) => segmentOf(scanHashPrefix(keyHashBytes('S', key)), 4096);
    expect(segment('3635')).toBe(0);
    expect(segment('228')).toBe(0);
    expect(segment('1668')).toBe(1);
    expect(segment('3435')).toBe(4);
  });

  it('divides the prefix space into disjoint segments that cover it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 4095 }), (total, prefix) => {
        const hex = prefix.toString(16).padStart(3, '0');
        const owner = segmentOf(hex, total);
        const { first, end } = segmentBounds(owner, total);
        expect(prefix).toBeGreaterThanOrEqual(first);
        expect(prefix).toBeLessThan(end);
      }),
    );
  });
});
