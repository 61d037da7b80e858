import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAttributeMap } from '../../../core/model/parseAttributeValue.js';
import { encodeItem, encodeParsedItem } from '../../../core/store/itemCodec.js';

const parse = (raw: unknown) => {
  const problems = { first: undefined };
  const item = parseAttributeMap(raw, 'field', problems);
  expect(problems.first).toBeUndefined();
  return item;
};

describe('encodeParsedItem', () => {
  it('writes a parsed item as encodeItem does (parsed items are canonical)', () => {
    const raw = {
      zeta: { SS: ['b', 'a', 'B', 'é'] },
      '10': { NS: ['3', '-1', '2.50'] },
      '2': { BS: ['Yg==', 'YQ=='] },
      __proto__: { S: 'data' },
      alpha: {
        L: [{ M: { y: { N: '1' }, x: { BOOL: true }, '7': { NULL: true } } }, { S: 'x' }],
      },
      Mixed: { M: { b: { M: { d: { S: '1' }, c: { S: '2' } } }, a: { SS: ['z', 'y'] } } },
    };
    const item = parse(JSON.parse(JSON.stringify(raw)));
    expect(encodeParsedItem(item)).toBe(encodeItem(item));
  });

  it('agrees with encodeItem on random items', () => {
    const name = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: 0, max: 20 }).map(String));
    const scalar = fc.oneof(
      fc.string().map((S) => ({ S })),
      fc.integer().map((n) => ({ N: String(n) })),
      fc.boolean().map((BOOL) => ({ BOOL })),
      fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 5 }).map((SS) => ({ SS })),
    );
    const value = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, scalar, tie('map'), tie('list')),
      map: fc.dictionary(name, tie('value'), { maxKeys: 5 }).map((M) => ({ M })),
      list: fc.array(tie('value'), { maxLength: 4 }).map((L) => ({ L })),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(name, value, { minKeys: 1, maxKeys: 8 }), (raw) => {
        const item = parse(raw);
        expect(encodeParsedItem(item)).toBe(encodeItem(item));
      }),
    );
  });
});
