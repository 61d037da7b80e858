import { describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../../core/model/attributeValue.js';
import { B, base64, L, M, N, S, scope } from './helpers.js';

const bytes = (...values: number[]): AttributeValue => ({ B: Buffer.from(values).toString('base64') });

/** Evaluates a ConditionExpression with the given values against an item. */
function holds(
  text: string,
  item: Item | undefined,
  values: Record<string, AttributeValue> = {},
  names?: Record<string, string>,
): boolean {
  const used = Object.fromEntries(Object.entries(values).filter(([key]) => text.includes(key)));
  return scope(names, Object.keys(used).length > 0 ? used : undefined)
    .parseCondition(text, 'Condition')
    .evaluate(item);
}

const everyType: Record<string, AttributeValue> = {
  S: S('hello'),
  N: N('1'),
  B: B('xyz'),
  BOOL: { BOOL: true },
  NULL: { NULL: true },
  SS: { SS: ['hello', 'world'] },
  NS: { NS: ['1', '2', '3'] },
  BS: { BS: [base64('xyz'), base64('hi')] } as AttributeValue,
  L: L(S('hello'), N('42')),
  M: M({ hello: S('world') }),
};

describe('comparisons (docs/dynamodb.md §5.2.5)', () => {
  it('finds equal values of every type equal, and values of different types unequal', () => {
    for (const [type, value] of Object.entries(everyType)) {
      for (const [otherType, other] of Object.entries(everyType)) {
        expect(holds('a = :v', { a: value }, { ':v': other }), `${type} = ${otherType}`).toBe(
          type === otherType,
        );
        expect(holds('a <> :v', { a: value }, { ':v': other }), `${type} <> ${otherType}`).toBe(
          type !== otherType,
        );
      }
    }
  });

  it('compares sets without order, also inside lists and maps', () => {
    const item = { a: { SS: ['dog', 'chinchilla', 'cat'] }, m: M({ s: { NS: ['3', '1'] } }) };
    expect(holds('a = :v', item, { ':v': { SS: ['cat', 'chinchilla', 'dog'] } })).toBe(true);
    expect(holds('m = :v', item, { ':v': M({ s: { NS: ['1', '3'] } }) })).toBe(true);
    expect(holds('a = :v', item, { ':v': { SS: ['cat', 'dog'] } })).toBe(false);
  });

  it('makes every comparison with a missing operand false, except <> which is true', () => {
    const item = { a: N('1') };
    for (const operator of ['=', '<', '<=', '>', '>=']) {
      expect(holds(`q ${operator} :v`, item, { ':v': N('1') })).toBe(false);
      expect(holds(`:v ${operator} q`, item, { ':v': N('1') })).toBe(false);
      expect(holds(`q ${operator} z`, item)).toBe(false);
    }
    expect(holds('q <> :v', item, { ':v': N('1') })).toBe(true);
    expect(holds('q <> z', item)).toBe(true);
    expect(holds('q <> z', undefined)).toBe(true);
    expect(holds('q BETWEEN z AND x', item)).toBe(false);
    expect(holds('q IN (:v)', item, { ':v': N('1') })).toBe(false);
  });

  it('orders numbers numerically, strings by UTF-8 bytes and binaries by unsigned bytes', () => {
    expect(holds('a < :v', { a: N('9') }, { ':v': N('10') })).toBe(true);
    expect(holds('a < :v', { a: N('-1') }, { ':v': N('-0.5') })).toBe(true);
    // U+E000 sorts before U+1F600 in UTF-8, after it in UTF-16 code units.
    expect(holds('a < :v', { a: S('\ue000') }, { ':v': S('😀') })).toBe(true);
    expect(holds('a < :v', { a: S('Z') }, { ':v': S('a') })).toBe(true);
    // 0xff is above 0x00, although its base64 text ('/w==') sorts below 'AA=='.
    expect(holds('a > :v', { a: bytes(0xff) }, { ':v': bytes(0x00) })).toBe(true);
    expect(holds('a <= :v', { a: bytes(1, 2) }, { ':v': bytes(1, 2) })).toBe(true);
  });

  it('treats stored values of unorderable types as failing, not as errors', () => {
    expect(holds('x < :v', { x: L(N('1')) }, { ':v': N('1') })).toBe(false);
    expect(holds(':v < x', { x: L(N('1')) }, { ':v': N('1') })).toBe(false);
    expect(holds('a < :v', { a: N('1') }, { ':v': S('17') })).toBe(false);
  });

  it('evaluates BETWEEN inclusively, with operands from the item or the request', () => {
    const item = { a: N('1'), x: N('0'), y: N('2'), l: L(), two: N('2') };
    expect(holds('a BETWEEN :lo AND :hi', item, { ':lo': N('1'), ':hi': N('1') })).toBe(true);
    expect(holds('a BETWEEN x AND y', item)).toBe(true);
    expect(holds('a between l and y', item)).toBe(false);
    expect(holds('a BETWEEN two AND :v', item, { ':v': N('1') })).toBe(false);
    expect(holds('a BETWEEN :lo AND :hi', item, { ':lo': S('0'), ':hi': S('2') })).toBe(false);
  });

  it('evaluates IN with values of mixed types', () => {
    expect(holds('a IN (:x, :y)', { a: N('174') }, { ':x': S('dog'), ':y': N('174') })).toBe(true);
    expect(holds('a IN (b)', { a: L(S('x')), b: L(S('x')) })).toBe(true);
  });
});

describe('functions (docs/dynamodb.md §5.2.5)', () => {
  const item: Item = {
    s: S('hello'),
    ns: { NS: ['2', '4', '7'] },
    l: L(N('2'), S('dog'), N('7')),
    b: B('hi there'),
    e: L(S('hi'), { NS: ['1', '2'] }, L(N('3'), N('4'))),
    m: M({ x: N('2'), y: M({ m: N('3'), n: N('4') }) }),
    n: N('5'),
    t: { BOOL: true },
    z: { NULL: true },
    ss: { SS: ['a', 'b'] },
    bs: { BS: [base64('a')] } as AttributeValue,
  };

  it('tests existence, also of nested paths', () => {
    expect(holds('attribute_exists(s)', item)).toBe(true);
    expect(holds('attribute_exists(m.y.n)', item)).toBe(true);
    expect(holds('attribute_exists(l[5])', item)).toBe(false);
    expect(holds('attribute_not_exists(q)', item)).toBe(true);
    expect(holds('attribute_not_exists(s)', item)).toBe(false);
    expect(holds('attribute_exists(s)', undefined)).toBe(false);
  });

  it('matches attribute_type for every type, also on a value', () => {
    for (const [type, value] of Object.entries(everyType)) {
      expect(holds('attribute_type(a, :t)', { a: value }, { ':t': S(type) })).toBe(true);
      expect(holds('attribute_type(a, :t)', { a: value }, { ':t': S(type === 'S' ? 'N' : 'S') })).toBe(false);
    }
    expect(holds('attribute_type(:v, :t)', {}, { ':v': N('0'), ':t': S('N') })).toBe(true);
  });

  it('evaluates begins_with on strings and binaries, in either order', () => {
    expect(holds('begins_with(s, :p)', item, { ':p': S('hell') })).toBe(true);
    expect(holds('begins_with(b, :p)', item, { ':p': B('hi') })).toBe(true);
    expect(holds('begins_with(:p, s)', item, { ':p': S('hellohi') })).toBe(true);
    expect(holds('begins_with(s, :p)', item, { ':p': S('dog') })).toBe(false);
    expect(holds('begins_with(n, :p)', item, { ':p': S('5') })).toBe(false);
    expect(holds('begins_with(s, :p)', item, { ':p': B('hell') })).toBe(false);
  });

  it('evaluates contains as substring or membership of any element type', () => {
    expect(holds('contains(s, :v)', item, { ':v': S('ell') })).toBe(true);
    expect(holds('contains(b, :v)', item, { ':v': B('here') })).toBe(true);
    expect(holds('contains(b, :v)', item, { ':v': { SS: ['a'] } })).toBe(false);
    expect(holds('contains(ns, :v)', item, { ':v': N('4') })).toBe(true);
    expect(holds('contains(ns, :v)', item, { ':v': S('4') })).toBe(false);
    expect(holds('contains(ss, :v)', item, { ':v': S('b') })).toBe(true);
    expect(holds('contains(bs, :v)', item, { ':v': B('a') })).toBe(true);
    expect(holds('contains(l, :v)', item, { ':v': N('7') })).toBe(true);
    expect(holds('contains(e, :v)', item, { ':v': { NS: ['2', '1'] } })).toBe(true);
    expect(holds('contains(e, :v)', item, { ':v': L(N('3'), N('4')) })).toBe(true);
    expect(holds('contains(s, :v)', item, { ':v': N('1') })).toBe(false);
    expect(holds('contains(q, :v)', item, { ':v': N('1') })).toBe(false);
  });

  it('measures size of strings (UTF-16 code units), binaries, sets, lists and maps; N, BOOL and NULL make it false', () => {
    expect(holds('size(s) = :v', item, { ':v': N('5') })).toBe(true);
    expect(holds('size(u) = :v', { u: S('é𝄞') }, { ':v': N('3') })).toBe(true);
    expect(holds('size(ns) = :v', item, { ':v': N('3') })).toBe(true);
    expect(holds('size(l) = :v', item, { ':v': N('3') })).toBe(true);
    expect(holds('size(b) = :v', item, { ':v': N('8') })).toBe(true);
    expect(holds('size(m) = :v', item, { ':v': N('2') })).toBe(true);
    expect(holds('size(s) > :v', item, { ':v': N('4') })).toBe(true);
    expect(holds('size(s) = n', item)).toBe(true);
    for (const path of ['n', 't', 'z', 'q']) {
      expect(holds(`size(${path}) = :v`, item, { ':v': N('1') })).toBe(false);
      expect(holds(`size(${path}) <> :v`, item, { ':v': N('1') })).toBe(true);
    }
    expect(holds('size(s) = :v', item, { ':v': S('dog') })).toBe(false);
  });
});

describe('logic (docs/dynamodb.md §5.2.1)', () => {
  const item = { a: N('1'), b: N('2'), c: N('3') };

  it('binds AND tighter than OR and NOT tighter than AND', () => {
    expect(holds('a < b OR c < b AND b < c', item)).toBe(true);
    expect(holds('NOT a < b AND c < b', item)).toBe(false);
    expect(holds('b BETWEEN a AND c AND a < b', item)).toBe(true);
    expect(holds('NOT NOT NOT NOT a < b', item)).toBe(true);
    expect(holds('(a < b OR b < a) AND (b < c AND (a < b OR b < c))', item)).toBe(true);
  });

  it('accepts keywords in any case', () => {
    expect(holds('a < b aNd b < c', item)).toBe(true);
    expect(holds('b < a oR b < c', item)).toBe(true);
    expect(holds('nOt b < a', item)).toBe(true);
  });
});

describe('attribute names that look like object internals', () => {
  it('reads __proto__, constructor and toString as ordinary attributes of JSON-parsed items', () => {
    // Prepare: JSON.parse makes __proto__ an own property of an ordinary object.
    const item = JSON.parse('{"__proto__": {"S": "x"}, "toString": {"N": "1"}}') as Item;
    const names = { '#p': '__proto__', '#c': 'constructor', '#t': 'toString' };
    // Assess
    expect(holds('#p = :v', item, { ':v': S('x') }, { '#p': names['#p'] })).toBe(true);
    expect(holds('attribute_not_exists(#c)', item, {}, { '#c': names['#c'] })).toBe(true);
    expect(holds('#t = :v', item, { ':v': N('1') }, { '#t': names['#t'] })).toBe(true);
    expect(holds('attribute_not_exists(#t.#c)', item, {}, { '#t': 'toString', '#c': 'constructor' })).toBe(
      true,
    );
    expect(holds('attribute_not_exists(a.#c)', { a: M({}) }, {}, { '#c': 'constructor' })).toBe(true);
  });
});
