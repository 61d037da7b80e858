import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAttributeMap } from '../../core/model/parseAttributeValue.js';
import { StoredItem } from '../../core/store/storedItem.js';
import { decodeImage } from '../../streams/imageDecoder.js';

/** A stored item as the engine keeps it (parsed as a request would be, then encoded). */
function stored(raw: unknown): StoredItem {
  const problems = { first: undefined };
  const item = parseAttributeMap(raw, 'field', problems);
  expect(problems.first).toBeUndefined();
  return StoredItem.fromItem(item);
}

/**
 * decodeImage must return what JSON.parse does: members, order (its text), prototype. (node's
 * deep equality: vitest's compares `constructor` members, and an item may have one.)
 */
function expectSameAsJsonParse(item: StoredItem): void {
  const decoded = decodeImage(item);
  const parsed = JSON.parse(item.json) as unknown;
  expect(isDeepStrictEqual(decoded, parsed)).toBe(true);
  expect(JSON.stringify(decoded)).toBe(item.json);
  expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
}

describe('decodeImage', () => {
  it('decodes a flat item of every scalar type as JSON.parse does', () => {
    expectSameAsJsonParse(
      stored({
        pk: { S: 'item#1' },
        rank: { N: '1000000001' },
        blob: { B: 'AAEC' },
        active: { BOOL: true },
        gone: { BOOL: false },
        nothing: { NULL: true },
        empty: { S: '' },
        '7': { S: 'an index-like name' },
        accents: { S: 'héllo wörld ✓ 𝄞' },
      }),
    );
  });

  it('decodes maps, lists and sets among flat members as JSON.parse does', () => {
    expectSameAsJsonParse(
      stored({
        a: { S: 'first' },
        m: { M: { x: { L: [{ S: '}' }, { M: { '{': { SS: [']', '['] } } }] }, y: { N: '2' } } },
        n: { NS: ['3', '1'] },
        z: { S: 'last' },
      }),
    );
  });

  it('decodes text with escaped characters as JSON.parse does', () => {
    expectSameAsJsonParse(stored({ pk: { S: 'quote " back \\ tab \t nul \u0000' }, 'a"b': { N: '1' } }));
  });

  it('makes __proto__ an own member, as JSON.parse does, and leaves the prototype alone', () => {
    const item = stored({ pk: { S: 'k' }, ['__proto__']: { S: 'data' } });
    expectSameAsJsonParse(item);
    expect(Object.hasOwn(decodeImage(item), '__proto__')).toBe(true);
  });

  it('decodes the empty item', () => {
    expectSameAsJsonParse(new StoredItem('{}', 0));
  });

  it('returns a fresh object each time: mutating one decode leaves the next intact', () => {
    const item = stored({ pk: { S: 'k' }, visits: { N: '1' } });
    const first = decodeImage(item) as Record<string, { S?: string; N?: string }>;
    first.visits!.N = '2';
    delete first.pk;
    expect(decodeImage(item)).toStrictEqual({ pk: { S: 'k' }, visits: { N: '1' } });
  });

  it('agrees with JSON.parse on random items', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('{', '}', '"', '\\'));
    const name = fc.oneof(
      fc.string({ minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 20 }).map(String),
      fc.constantFrom('__proto__', 'constructor', 'M', 'S'),
    );
    const scalar = fc.oneof(
      text.map((S) => ({ S })),
      fc.integer().map((n) => ({ N: String(n) })),
      fc.constantFrom({ B: 'AA==' }, { BOOL: true }, { BOOL: false }, { NULL: true as const }),
      fc.uniqueArray(text, { minLength: 1, maxLength: 4 }).map((SS) => ({ SS })),
    );
    const value = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, scalar, tie('map'), tie('list')),
      map: fc.dictionary(name, tie('value'), { maxKeys: 4 }).map((M) => ({ M })),
      list: fc.array(tie('value'), { maxLength: 3 }).map((L) => ({ L })),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(name, value, { minKeys: 1, maxKeys: 8 }), (raw) => {
        expectSameAsJsonParse(stored(raw));
      }),
    );
  });
});
