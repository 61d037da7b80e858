import { describe, expect, it } from 'vitest';
import type { Item } from '../../../core/model/attributeValue.js';
import { L, M, N, S, scope, validationMessage } from './helpers.js';

const prefix = 'Invalid ProjectionExpression: ';
const project = (text: string, item: Item, names?: Record<string, string>) =>
  JSON.parse(JSON.stringify(scope(names).parseProjection(text).apply(item)));

describe('ProjectionExpression (docs/dynamodb.md §5.4.1)', () => {
  const item: Item = {
    a: S('hello'),
    b: S('hi'),
    m: M({ x: N('1'), y: L(S('p'), S('q'), M({ z: N('2'), w: N('3') })) }),
    l: L(N('0'), N('1'), N('2')),
  };

  it('keeps top-level attributes, tolerating blanks', () => {
    expect(project(' a  ,   b  ', item)).toEqual({ a: S('hello'), b: S('hi') });
  });

  it('keeps the nesting of nested paths and omits missing ones', () => {
    expect(project('m.y[2].z, m.x', item)).toEqual({ m: M({ x: N('1'), y: L(M({ z: N('2') })) }) });
    expect(project('m.nope, q, l[7], a.b', item)).toEqual({});
  });

  it('returns several indexes of one list compacted, in index order', () => {
    expect(project('l[2], l[0]', item)).toEqual({ l: L(N('0'), N('2')) });
  });

  it('resolves #names, including ones that are reserved words or hold dots', () => {
    expect(project('#k, #d', { size: N('1'), 'a.b': N('2') }, { '#k': 'size', '#d': 'a.b' })).toEqual({
      size: N('1'),
      'a.b': N('2'),
    });
  });

  it('builds null-prototype maps and reads __proto__ as an ordinary name', () => {
    const parsed = JSON.parse('{"__proto__": {"S": "x"}, "b": {"N": "1"}}') as Item;
    const projected = scope({ '#p': '__proto__' }).parseProjection('#p').apply(parsed);
    expect(Object.getPrototypeOf(projected)).toBeNull();
    expect(Object.keys(projected)).toEqual(['__proto__']);
    expect(scope({ '#c': 'constructor' }).parseProjection('#c').apply({})).toEqual({});
  });

  it('reports the path list on the plan', () => {
    expect(scope({ '#a': 'a' }).parseProjection('#a.b[1], c').paths).toEqual([['a', 'b', 1], ['c']]);
  });
});

describe('ProjectionExpression errors (docs/dynamodb.md §5.4.1, §8.6)', () => {
  const message = (text: string, names?: Record<string, string>) =>
    validationMessage(() => scope(names).parseProjection(text));

  it('reports undefined names', () => {
    expect(message('a,b,a,#a')).toBe(
      `${prefix}An expression attribute name used in the document path is not defined; attribute name: #a`,
    );
  });

  it.each([
    ['b[1], b.a, #a.b, a', '[a, b]', '[a]'],
    ['a, #a[1]', '[a]', '[a, [1]]'],
    ['a, a', '[a]', '[a]'],
    ['#a, #b', '[a]', '[a]'],
  ])('reports the overlap in %s before any conflict', (text, one, two) => {
    expect(message(text, { '#a': 'a', '#b': 'a' })).toBe(
      `${prefix}Two document paths overlap with each other; must remove or rewrite one of these paths; path one: ${one}, path two: ${two}`,
    );
  });

  it.each([
    ['a.b, #a[1], #b', '[a, b]', '[a, [1]]'],
    ['a.b[1], #a[1], #b', '[a, b, [1]]', '[a, [1]]'],
    ['a[3].b, #a.#b.b', '[a, [3], b]', '[a, [3], b]'],
  ])('reports the conflict in %s', (text, one, two) => {
    expect(message(text, { '#a': 'a', '#b': '[3]' })).toBe(
      `${prefix}Two document paths conflict with each other; must remove or rewrite one of these paths; path one: ${one}, path two: ${two}`,
    );
  });

  it('orders: syntax → reserved word → undefined name → overlap', () => {
    expect(message('size, #x, a, a,')).toMatch(/Syntax error/);
    expect(message('a, a, #x, size')).toMatch(/reserved keyword: size$/);
    expect(message('a, a, #x')).toMatch(/attribute name: #x$/);
  });
});
