import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttributeMap } from '../../../core/model/attributeValue.js';
import { itemSize } from '../../../core/model/itemSize.js';
import { parseAttributeMap } from '../../../core/model/parseAttributeValue.js';
import {
  canonicalMap,
  encodeItem,
  encodeItemSized,
  encodeParsedItem,
  encodeParsedItemSized,
} from '../../../core/store/itemCodec.js';

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

/** The reference: JSON.stringify of the canonical copy, and itemSize. */
const reference = (item: AttributeMap) => ({
  json: JSON.stringify(canonicalMap(item)),
  size: itemSize(item),
});

describe('encodeItemSized', () => {
  // Strings of every kind: plain ASCII, quotes and backslashes, control characters, non-ASCII,
  // lone surrogates (escaped by JSON.stringify), and longer than the walk's JS check covers.
  const text = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0001', 'a', 'é', '\ud800'), maxLength: 6 }),
    fc.string({ minLength: 120, maxLength: 140 }),
  );
  const name = fc.oneof(text, fc.integer({ min: 0, max: 20 }).map(String), fc.constant('__proto__'));
  const number = fc.oneof(fc.integer().map(String), fc.constantFrom('0', '-0.5', '12.25', '1E+3', '0.001'));
  const base64 = fc.uint8Array({ maxLength: 6 }).map((bytes) => Buffer.from(bytes).toString('base64'));
  const scalar = fc.oneof(
    text.map((S) => ({ S })),
    number.map((N) => ({ N })),
    base64.map((B) => ({ B })),
    fc.boolean().map((BOOL) => ({ BOOL })),
    fc.constant({ NULL: true }),
    fc.uniqueArray(text, { minLength: 1, maxLength: 4 }).map((SS) => ({ SS })),
    fc.uniqueArray(fc.integer().map(String), { minLength: 1, maxLength: 4 }).map((NS) => ({ NS })),
    fc.uniqueArray(base64, { minLength: 1, maxLength: 3 }).map((BS) => ({ BS })),
  );
  const value = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, scalar, tie('map'), tie('list')),
    map: fc.dictionary(name, tie('value'), { maxKeys: 5 }).map((M) => ({ M })),
    list: fc.array(tie('value'), { maxLength: 4 }).map((L) => ({ L })),
  })).value;
  const item = fc
    .dictionary(name, value, { minKeys: 1, maxKeys: 8 })
    .map((raw) => raw as unknown as AttributeMap);

  it('is the reference text and size of any item, in any member order', () => {
    fc.assert(
      fc.property(item, (raw) => {
        // As built (names and set members in any order): encodeItem's input.
        expect(encodeItemSized(raw)).toEqual(reference(raw));
        expect(encodeItem(raw)).toBe(reference(raw).json);
      }),
      { numRuns: 300 },
    );
  });

  it('is the reference text and size of parsed items', () => {
    fc.assert(
      fc.property(item, (raw) => {
        const parsed = parse(JSON.parse(JSON.stringify(raw)));
        expect(encodeParsedItemSized(parsed)).toEqual(reference(parsed));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves what it does not expect to JSON.stringify, byte for byte', () => {
    const odd: AttributeMap[] = [
      { a: { S: 'x', N: '1' } } as unknown as AttributeMap,
      { a: { BOOL: 'yes' } } as unknown as AttributeMap,
      { a: { NULL: false } } as unknown as AttributeMap,
      { a: { M: { b: { X: '1' } } } } as unknown as AttributeMap,
    ];
    for (const oddItem of odd) expect(encodeItem(oddItem)).toBe(JSON.stringify(oddItem));
  });

  it('is exact for values nested to the deepest level requests allow, and deeper', () => {
    for (const depth of [31, 32, 33, 40]) {
      let nested: AttributeMap = { leaf: { S: 'x' } };
      for (let level = 1; level < depth; level++)
        nested = { [`m${level}`]: { M: nested }, [`l${level}`]: { L: [{ S: 'y' }] } };
      expect(encodeItemSized(nested)).toEqual(reference(nested));
    }
  });
});
