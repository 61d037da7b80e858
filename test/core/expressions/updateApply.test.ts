import { describe, expect, it } from 'vitest';
import type { UpdateResult } from '../../../core/expressions/index.js';
import type { AttributeValue, Item } from '../../../core/model/attributeValue.js';
import { L, M, N, S, scope, validationMessage } from './helpers.js';

function run(
  text: string,
  item: Item | undefined,
  values?: Record<string, AttributeValue>,
  names?: Record<string, string>,
): UpdateResult {
  return scope(names, values).parseUpdate(text).apply(item);
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
const numbers = (...values: number[]) => L(...values.map((value) => N(String(value))));

describe('SET (docs/dynamodb.md §5.3.2, §5.3.4)', () => {
  it('increments a counter and merges with the rest of the item', () => {
    const result = run(
      'SET #c = #c + :one',
      { p: S('k'), count: N('41') },
      { ':one': N('1') },
      { '#c': 'count' },
    );
    expect(plain(result.item)).toEqual({ p: { S: 'k' }, count: { N: '42' } });
  });

  it('never modifies its input and builds null-prototype maps', () => {
    // Prepare
    const item = { a: M({ b: N('1'), c: numbers(1, 2, 3) }), d: { SS: ['x'] } };
    const before = JSON.stringify(item);
    // Act
    const { item: next } = run('SET a.b = :v, a.c[1] = :v, a.e = :v REMOVE a.c[0] ADD d :s', item, {
      ':v': N('9'),
      ':s': { SS: ['y'] },
    });
    // Assess
    expect(JSON.stringify(item)).toBe(before);
    expect(Object.getPrototypeOf(next)).toBeNull();
    expect(Object.getPrototypeOf((next.a as { M: object }).M)).toBeNull();
    expect(plain(next)).toEqual({
      a: { M: { b: { N: '9' }, c: { L: [{ N: '9' }, { N: '3' }] }, e: { N: '9' } } },
      d: { SS: ['x', 'y'] },
    });
  });

  it('computes sums and differences exactly, and fails beyond the number range with the overflow text', () => {
    const values = {
      ':x': N('0.1'),
      ':y': N('0.2'),
      ':big': N('9.9999999999999999999999999999999999999e125'),
      ':e50': N('1e50'),
      ':one': N('1'),
    };
    expect(plain(run('SET a = :x + :y', undefined, values).item)).toEqual({ a: { N: '0.3' } });
    expect(plain(run('SET a = :x - :y', undefined, values).item)).toEqual({ a: { N: '-0.1' } });
    const overflow =
      'Number overflow. Attempting to store a number with magnitude larger than supported range';
    expect(validationMessage(() => run('SET a = :big + :big', undefined, values))).toBe(overflow);
    expect(validationMessage(() => run('SET a = :e50 + :one', undefined, values))).toBe(overflow);
  });

  it('reads every operand before writing anything', () => {
    const item = { a: S('hello') };
    expect(validationMessage(() => run('SET x = :v, y = x', item, { ':v': N('4') }))).toBe(
      'The provided expression refers to an attribute that does not exist in the item',
    );
    expect(plain(run('REMOVE a SET b = a', item).item)).toEqual({ b: { S: 'hello' } });
    expect(plain(run('SET c = a REMOVE a', item).item)).toEqual({ c: { S: 'hello' } });
    expect(plain(run('SET a = a', item).item)).toEqual(item);
  });

  it('fails when a read path is missing, also on a missing item', () => {
    const message = 'The provided expression refers to an attribute that does not exist in the item';
    expect(validationMessage(() => run('SET c = z', { a: N('1') }))).toBe(message);
    expect(validationMessage(() => run('SET c = z', undefined))).toBe(message);
    expect(validationMessage(() => run('SET a = b + :v', { a: N('1') }, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('SET a = list_append(b, :v)', {}, { ':v': L() }))).toBe(message);
  });

  it('fails on operands of the wrong stored type', () => {
    const message = 'An operand in the update expression has an incorrect data type';
    expect(validationMessage(() => run('SET a = b + :v', { b: S('x') }, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('SET a = list_append(b, :v)', { b: N('7') }, { ':v': L() }))).toBe(
      message,
    );
  });

  it('applies list_append and if_not_exists', () => {
    const item = { a: L(S('hi'), N('2')), n: N('2') };
    const values = { ':l': L(S('x')), ':d': N('0') };
    expect(plain(run('SET a = list_append(a, :l)', item, values).item).a).toEqual(L(S('hi'), N('2'), S('x')));
    expect(plain(run('SET a = list_append(:l, a)', item, values).item).a).toEqual(L(S('x'), S('hi'), N('2')));
    expect(plain(run('SET b = if_not_exists(b, :d)', item, values).item).b).toEqual(N('0'));
    expect(plain(run('SET b = if_not_exists(n, :d)', item, values).item).b).toEqual(N('2'));
    expect(plain(run('SET n = if_not_exists(n, :d) + :d', item, values).item).n).toEqual(N('2'));
    expect(plain(run('SET x = if_not_exists(q, if_not_exists(n, :d))', item, values).item).x).toEqual(N('2'));
  });

  it('writes a #name holding a dot as one top-level attribute', () => {
    expect(plain(run('SET #a = :v', {}, { ':v': N('3') }, { '#a': 'a.b' }).item)).toEqual({
      'a.b': { N: '3' },
    });
  });

  it('writes __proto__ as an ordinary attribute, also inside JSON-parsed maps', () => {
    // Prepare
    const item = JSON.parse('{"m": {"M": {"__proto__": {"S": "old"}}}}') as Item;
    // Act
    const { item: next } = run('SET #p = :v, m.#p = :v', item, { ':v': S('new') }, { '#p': '__proto__' });
    // Assess
    expect(Object.keys(next)).toEqual(['m', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(next, '__proto__')?.value).toEqual(S('new'));
    expect(Object.getOwnPropertyDescriptor((next.m as { M: Item }).M, '__proto__')?.value).toEqual(S('new'));
    expect(({} as Record<string, unknown>).S).toBeUndefined();
  });
});

describe('nested paths (docs/dynamodb.md §5.3.5)', () => {
  const message = 'The document path provided in the update expression is invalid for update';

  it('writes below existing maps and lists', () => {
    const item = { a: M({ b: N('3'), c: L(S('hi'), M({ x: M({ y: numbers(3, 5, 7) }) })) }) };
    expect(plain(run('SET a.c[1].#n.y[1] = :v', item, { ':v': N('9') }, { '#n': 'x' }).item).a).toEqual(
      M({ b: N('3'), c: L(S('hi'), M({ x: M({ y: numbers(3, 9, 7) }) })) }),
    );
    expect(plain(run('REMOVE a.c[1].x.y[1], a.b', item).item).a).toEqual(
      M({ c: L(S('hi'), M({ x: M({ y: numbers(3, 7) }) })) }),
    );
  });

  it('rejects writes below a missing or wrong-typed parent', () => {
    const item = { a: S('x'), l: numbers(1), m: M({}) };
    expect(validationMessage(() => run('SET q.b = :v', item, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('SET a.b = :v', item, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('SET m[0] = :v', item, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('SET l.x = :v', item, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('SET l[3].x = :v', item, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('ADD q.b :v', item, { ':v': N('1') }))).toBe(message);
    expect(validationMessage(() => run('DELETE q.b :v', item, { ':v': { SS: ['a'] } }))).toBe(message);
    expect(validationMessage(() => run('REMOVE q.b', item))).toBe(message);
    expect(validationMessage(() => run('REMOVE m.x.y', item))).toBe(message);
    expect(validationMessage(() => run('SET a.b = :v', undefined, { ':v': N('1') }))).toBe(message);
  });

  it('ignores REMOVE of a missing leaf, of an index past the end, and any REMOVE on a missing item', () => {
    const item = { m: M({ a: N('1') }), l: numbers(4, 5, 6) };
    expect(plain(run('REMOVE m.x, l[17], q', item).item)).toEqual(plain(item));
    expect(plain(run('REMOVE a.b.c, x', undefined).item)).toEqual({});
  });

  it('appends SET past the end of a list, several appends in index order', () => {
    const item = { a: numbers(1, 2, 3) };
    expect(plain(run('SET a[7] = :y, a[5] = :x', item, { ':x': N('10'), ':y': N('20') }).item).a).toEqual(
      numbers(1, 2, 3, 10, 20),
    );
  });

  it('reads REMOVE and SET indexes against the list as it was', () => {
    const item = { a: numbers(2, 3, 4, 5, 6, 7) };
    const values = { ':v': N('17') };
    expect(plain(run('REMOVE a[1] SET a[3] = :v', item, values).item).a).toEqual(numbers(2, 4, 17, 6, 7));
    expect(plain(run('SET a[3] = :v REMOVE a[1]', item, values).item).a).toEqual(numbers(2, 4, 17, 6, 7));
    expect(plain(run('REMOVE a[1], a[2], a[5]', item).item).a).toEqual(numbers(2, 5, 6));
    expect(plain(run('REMOVE a[4] SET a[9] = :v', item, values).item).a).toEqual(numbers(2, 3, 4, 5, 7, 17));
  });

  it('leaves empty containers when their last member goes', () => {
    expect(plain(run('REMOVE m.a, l[0]', { m: M({ a: N('1') }), l: numbers(1) }).item)).toEqual({
      m: { M: {} },
      l: { L: [] },
    });
  });
});

describe('ADD and DELETE (docs/dynamodb.md §5.3.3)', () => {
  const incorrect = 'An operand in the update expression has an incorrect data type';

  it('adds numbers, starting from 0 for a missing attribute or item', () => {
    expect(plain(run('ADD a :v', { a: N('3') }, { ':v': N('4') }).item).a).toEqual(N('7'));
    expect(plain(run('ADD b :v', { a: S('x') }, { ':v': N('7') }).item).b).toEqual(N('7'));
    expect(plain(run('ADD b :v', undefined, { ':v': N('8') }).item)).toEqual({ b: { N: '8' } });
    expect(validationMessage(() => run('ADD b :v', { b: S('hi') }, { ':v': N('1') }))).toBe(incorrect);
  });

  it('merges sets of the same type, starting from the empty set', () => {
    const item = { a: { SS: ['beaver', 'lynx', 'coati'] } };
    expect(plain(run('ADD a :v', item, { ':v': { SS: ['coati', 'badger'] } }).item).a).toEqual({
      SS: ['beaver', 'lynx', 'coati', 'badger'],
    });
    expect(plain(run('ADD n :v', undefined, { ':v': { NS: ['1'] } }).item).n).toEqual({ NS: ['1'] });
    expect(validationMessage(() => run('ADD a :v', item, { ':v': { NS: ['1'] } }))).toBe(incorrect);
    expect(validationMessage(() => run('ADD a :v', { a: numbers(1) }, { ':v': { NS: ['1'] } }))).toBe(
      incorrect,
    );
  });

  it('removes set members, ignores absent ones, drops an emptied set and skips a missing attribute', () => {
    const item = { a: { SS: ['dog', 'cat', 'mouse'] }, b: S('hi') };
    expect(plain(run('DELETE a :v', item, { ':v': { SS: ['cat', 'mouse', 'pig'] } }).item).a).toEqual({
      SS: ['dog'],
    });
    expect(plain(run('DELETE a :v', item, { ':v': { SS: ['dog', 'cat', 'mouse'] } }).item)).toEqual({
      b: S('hi'),
    });
    expect(plain(run('DELETE q :v', item, { ':v': { SS: ['dog'] } }).item)).toEqual(plain(item));
    expect(plain(run('DELETE q :v', undefined, { ':v': { SS: ['dog'] } }).item)).toEqual({});
    expect(validationMessage(() => run('DELETE b :v', item, { ':v': { SS: ['h'] } }))).toBe(incorrect);
    expect(validationMessage(() => run('DELETE a :v', item, { ':v': { NS: ['1'] } }))).toBe(incorrect);
  });
});

describe('UpdatePlan', () => {
  it('lists every written path and says whether only REMOVE and DELETE are used', () => {
    const values = { ':v': N('1'), ':s': { SS: ['a'] } };
    const plan = scope({ '#x': 'x' }, values).parseUpdate('SET a.b = :v REMOVE #x[2] ADD c :v DELETE d :s');
    expect(plan.targets).toEqual([['a', 'b'], ['x', 2], ['c'], ['d']]);
    expect(plan.removesOnly).toBe(false);
    expect(scope(undefined, { ':s': { SS: ['a'] } }).parseUpdate('REMOVE a DELETE d :s').removesOnly).toBe(
      true,
    );
  });
});

describe('ReturnValues (docs/dynamodb.md §4.2.4)', () => {
  const item = { p: S('k'), a: M({ b: S('dog'), c: numbers(1, 2, 3) }), d: S('cat') };
  const updated = (text: string, values?: Record<string, AttributeValue>, base: Item = item) => {
    const result = run(text, base, values);
    return { old: plain(result.updatedOld), new: plain(result.updatedNew) };
  };

  it('returns the touched top-level attributes: old values that existed, new values that were set', () => {
    const result = updated('SET b = :v, d = :v REMOVE a', { ':v': S('x') });
    expect(result.old).toEqual({ d: S('cat'), a: plain(item.a) });
    expect(result.new).toEqual({ b: S('x'), d: S('x') });
  });

  it('returns only the touched paths inside their parents', () => {
    expect(updated('SET a.b = :v', { ':v': S('yo') })).toEqual({
      old: { a: M({ b: S('dog') }) },
      new: { a: M({ b: S('yo') }) },
    });
    expect(updated('SET a.c[1] = :v, a.b = :w', { ':v': N('8'), ':w': S('x') })).toEqual({
      old: { a: M({ b: S('dog'), c: numbers(2) }) },
      new: { a: M({ b: S('x'), c: numbers(8) }) },
    });
    expect(updated('REMOVE a.c[1], a.c[3]').old).toEqual({ a: M({ c: numbers(2) }) });
    expect(updated('SET a.x1 = :v', { ':v': N('8') })).toEqual({ old: {}, new: { a: M({ x1: N('8') }) } });
  });

  it('reproduces the quirks: an append is not returned, a removed index returns its successor', () => {
    expect(updated('SET a.c[100] = :v', { ':v': N('70') }).new).toEqual({});
    expect(updated('REMOVE a.c[1]').new).toEqual({ a: M({ c: numbers(3) }) });
  });

  it('returns nothing old for a missing item', () => {
    const result = run('SET a = :v', undefined, { ':v': N('1') });
    expect(plain(result.updatedOld)).toEqual({});
    expect(plain(result.updatedNew)).toEqual({ a: N('1') });
  });
});
