import { describe, expect, it } from 'vitest';
import { StoredItem } from '../../core/store/storedItem.js';
import { materialize, toWireJson } from '../../core/wire.js';

/**
 * The host writes every response body with `toWireJson`: the text must be exactly what
 * `JSON.stringify` writes for the same output with each stored item decoded, whatever the output
 * holds, or SDK clients would read a different answer than an in-process caller.
 */
const stored = StoredItem.fromItem({ pk: { S: 'a"\u2028\\' }, n: { N: '-0.5' }, m: { M: { x: { L: [] } } } });

function expectSameAsStringify(output: unknown): void {
  expect(toWireJson(output)).toBe(JSON.stringify(materialize(output)));
  expect(JSON.parse(toWireJson(output))).toEqual(JSON.parse(JSON.stringify(materialize(output))));
}

describe('toWireJson', () => {
  it('writes a Query page with stored items as JSON.stringify would', () => {
    expectSameAsStringify({
      Items: [stored, stored],
      Count: 2,
      ScannedCount: 2,
      LastEvaluatedKey: { pk: { S: 'a' } },
    });
  });

  it('matches JSON.stringify on key order, escapes, numbers, holes and skipped members', () => {
    // An attribute named __proto__ is data: an own member, written like any other.
    const protoNamed = JSON.parse('{"__proto__":{"S":"data"},"x":{"N":"1"}}') as object;
    expectSameAsStringify({
      b: 1,
      a: [1, undefined, () => 1, Symbol('s'), null, Number.NaN, -0, 1e21, 1.5e-7],
      '2': 'integer keys first',
      '1': '\u0000\n"\ud800',
      skipped: undefined,
      fn: () => 1,
      nested: protoNamed,
      nullPrototype: Object.assign(Object.create(null) as object, { k: 'v' }),
      // biome-ignore lint/suspicious/noSparseArray: a hole is written as null, as JSON.stringify does
      sparse: [1, , 3],
      empty: {},
      emptyList: [],
      truth: true,
      lie: false,
    });
  });

  it('falls back to JSON.stringify for class instances, toJSON, dates and buffers', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    expectSameAsStringify({
      p: new Point(1),
      d: new Date(0),
      b: Buffer.from('hi'),
      t: { toJSON: () => 'T' },
    });
  });

  it("throws JSON.stringify's errors for bigints and cycles", () => {
    expect(() => toWireJson({ big: 1n })).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => toWireJson(cycle)).toThrow(TypeError);
  });

  it('writes top-level primitives', () => {
    for (const value of ['s', 1, true, null]) expectSameAsStringify(value);
  });
});
