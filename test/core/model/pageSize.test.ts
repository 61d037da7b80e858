import { describe, expect, it } from 'vitest';
import type { AttributeMap } from '../../../core/model/attributeValue.js';
import { pageSize, pageSizeBound } from '../../../core/model/pageSize.js';
import { encodeItem } from '../../../core/store/itemCodec.js';

describe('pageSize (docs/dynamodb.md §6.2.3)', () => {
  it('counts names as one byte, value prefixes and the per-item overhead', () => {
    // 2 + (1 + 1 + 1) + 1 × 18: one attribute `a` holding one character.
    expect(pageSize({ a: { S: 'x' } }, undefined)).toBe(23);
    // A long name costs what a short one does.
    expect(pageSize({ ['n'.repeat(255)]: { S: 'x' } }, undefined)).toBe(23);
    // NULL costs nothing but its name, BOOL one byte.
    expect(pageSize({ a: { NULL: true } }, undefined)).toBe(21);
    expect(pageSize({ a: { BOOL: true } }, undefined)).toBe(22);
  });

  it('moves the sort key into the overhead, once per 3 KB of the rest', () => {
    // The sort key's 2 bytes multiply: 2 + (1 + 3) + 1 × (18 + 2).
    expect(pageSize({ a: { S: 'xy' }, b: { S: 'zz' } }, 'b')).toBe(26);
    const big = { a: { S: 'x'.repeat(3_068) } }; // 1 + 3,068 + 2 = 3,071: the next block starts at 3,071
    expect(pageSize(big, undefined)).toBe(2 + 3_071 + 2 * 18);
  });

  it('is never above the bound taken from the stored text', () => {
    const items: AttributeMap[] = [
      { a: { S: '' } },
      { a: { SS: ['', 'é', 'ab'] }, b: { NULL: true } },
      { a: { M: { x: { L: [{ N: '1' }, { BOOL: false }] } } }, b: { B: 'AQI=' } },
      { a: { S: '€'.repeat(2_000) } },
    ];
    for (const item of items) {
      expect(pageSize(item, undefined)).toBeLessThanOrEqual(pageSizeBound(encodeItem(item).length));
      expect(pageSize(item, 'a')).toBeLessThanOrEqual(pageSizeBound(encodeItem(item).length));
    }
  });
});
