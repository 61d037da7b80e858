import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttributeMap, AttributeValue } from '../../../core/model/attributeValue.js';
import { StoredItem } from '../../../core/store/storedItem.js';
import { ttlValueOf } from '../../../core/ttl/expiry.js';
import { attributeNeedle, readTopLevelNumber } from '../../../core/ttl/ttlText.js';

const read = (item: AttributeMap, name: string) =>
  readTopLevelNumber(StoredItem.fromItem(item).json, attributeNeedle(name));

/** Names that collide with the needle's text: quotes, backslashes, colons, braces. */
const tricky = fc.constantFrom(
  'ttl',
  'ttl"',
  '\\',
  'a\\"ttl',
  '"ttl":',
  'x{',
  '}',
  'ttl":{"N":"1',
  '[',
  'é',
  'N',
);
const name = fc.oneof(
  tricky,
  fc.string({ maxLength: 6 }).filter((text) => text.length > 0),
);
const number = fc
  .constantFrom('1704067200', '-5', '0.5', '1.7E9', '12345678.1', '1e2')
  .map((text) => ({ N: text }));

const value: fc.Arbitrary<AttributeValue> = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    number,
    fc.oneof(tricky, fc.string({ maxLength: 8 })).map((text) => ({ S: text })),
    fc.boolean().map((flag) => ({ BOOL: flag })),
    fc.constant({ NULL: true as const }),
    fc.array(tie('value'), { maxLength: 3 }).map((list) => ({ L: list })),
    fc.dictionary(name, tie('value'), { maxKeys: 3 }).map((map) => ({ M: map })),
  ),
})).value;

const item = fc.dictionary(name, value, { maxKeys: 5 });

describe('readTopLevelNumber (the TTL value from stored text)', () => {
  it('agrees with decoding the item, for any item and name', () => {
    fc.assert(
      fc.property(item, name, (candidate, attribute) => {
        const decoded = StoredItem.fromItem(candidate).decode();
        expect(read(candidate, attribute)).toBe(ttlValueOf(decoded, attribute));
      }),
      { numRuns: 3_000 },
    );
  });

  it('finds the top-level attribute, not a nested one or one inside a string', () => {
    const nested = { a: { M: { ttl: { N: '1' } } }, b: { S: '"ttl":{"N":"2"}' }, ttl: { N: '3' } };
    expect(read(nested, 'ttl')).toBe(3);
    expect(read({ a: { M: { ttl: { N: '1' } } } }, 'ttl')).toBeUndefined();
    expect(read({ a: { L: [{ M: { ttl: { N: '1' } } }] }, z: { S: 'x' } }, 'ttl')).toBeUndefined();
    expect(read({ 'a\\"ttl': { N: '4' } }, 'ttl')).toBeUndefined();
    expect(read({ ttl: { S: '5' } }, 'ttl')).toBeUndefined();
    expect(read({ ttl: { NS: ['5'] } }, 'ttl')).toBeUndefined();
  });
});
