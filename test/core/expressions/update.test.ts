import { describe, expect, it } from 'vitest';
import type { AttributeValue } from '../../../core/model/attributeValue.js';
import { B, base64, L, M, N, S, scope, validationMessage } from './helpers.js';

const prefix = 'Invalid UpdateExpression: ';
const update = (text: string, values?: Record<string, AttributeValue>, names?: Record<string, string>) =>
  validationMessage(() => scope(names, values).parseUpdate(text));

const someNames = { '#a': 'a', '#b': 'b' };
const someValues = { ':a': S('a'), ':b': S('a') };

describe('clauses (docs/dynamodb.md §5.3.1)', () => {
  it.each([
    ['set a = #c set c = :d', 'SET'],
    ['remove #d set a = b remove e', 'REMOVE'],
    ['add #d :e set a = b add e :f', 'ADD'],
    ['delete #d :e set a = b delete #e :f', 'DELETE'],
    ['ADD x :one SET a = :a ADD y :one', 'ADD'],
  ])('reports the repeated clause of %s before undefined names and values', (text, clause) => {
    expect(update(text, someValues, someNames)).toBe(
      `${prefix}The "${clause}" section can only be used once in an update expression;`,
    );
  });

  it('accepts the four clauses once each, in any order and case', () => {
    const values = { ':n': N('1'), ':s': { SS: ['x'] } };
    expect(() =>
      scope(undefined, values).parseUpdate('delete d :s Add c :n REMOVE b sEt a = :n'),
    ).not.toThrow();
  });
});

describe('functions (docs/dynamodb.md §5.3.2)', () => {
  it('reports unknown functions before repeated clauses and undefined names', () => {
    expect(update('set #c = if_not_exist(:c) set c = d', someValues, someNames)).toBe(
      `${prefix}Invalid function name; function: if_not_exist`,
    );
    expect(update('SET a = LIST_APPEND(:a, :b)', someValues)).toBe(
      `${prefix}Invalid function name; function: LIST_APPEND`,
    );
  });

  it.each(['size', 'attribute_exists', 'contains'])('rejects the condition function %s', (name) => {
    expect(update(`SET a = ${name}(b)`)).toBe(
      `${prefix}The function is not allowed in an update expression; function: ${name}`,
    );
  });

  it('rejects list_append nested in list_append but lets if_not_exists nest anywhere', () => {
    const values = { ':a': L(S('a')), ':b': L(S('b')), ':c': L(S('c')) };
    expect(update('SET a = list_append(list_append(:a, :b), :c)', values)).toBe(
      `${prefix}The function is not allowed to be used this way in an expression; function: list_append`,
    );
    expect(() =>
      scope(undefined, values).parseUpdate(
        'SET a = list_append(if_not_exists(a, :a), if_not_exists(b, if_not_exists(c, :b))), d = :c',
      ),
    ).not.toThrow();
  });

  it.each([
    ['set a = if_not_exists(c)', 'if_not_exists', 1],
    ['set a = list_append(c)', 'list_append', 1],
    ['set a = list_append(a, b, c)', 'list_append', 3],
  ])('reports the operand count of %s', (text, name, count) => {
    expect(update(text, someValues, someNames)).toBe(
      `${prefix}Incorrect number of operands for operator or function; operator or function: ${name}, number of operands: ${count}`,
    );
  });

  it.each(['set a = if_not_exists(:a, c)', 'set a = if_not_exists(if_not_exists(a, b), c)'])(
    'requires a path first in %s',
    (text) => {
      expect(update(text, { ':a': S('a') })).toBe(
        `${prefix}Operator or function requires a document path; operator or function: if_not_exists`,
      );
    },
  );

  const literals: Record<string, AttributeValue> = {
    ':a': S('a'),
    ':b': N('1'),
    ':c': B('a'),
    ':d': { BOOL: false },
    ':e': { NULL: true },
    ':f': { SS: ['a'] },
    ':g': { NS: ['1'] },
    ':h': { BS: [base64('a')] } as AttributeValue,
    ':i': M({}),
    ':j': L(),
  };
  it.each([
    ['set a = list_append(:a, a)', 'list_append', 'S'],
    ['set a = list_append(a, :b)', 'list_append', 'N'],
    ['set a = list_append(:c, a)', 'list_append', 'B'],
    ['set a = list_append(:d, a)', 'list_append', 'BOOL'],
    ['set a = list_append(:e, a)', 'list_append', 'NULL'],
    ['set a = list_append(:f, a)', 'list_append', 'SS'],
    ['set a = list_append(:g, a)', 'list_append', 'NS'],
    ['set a = list_append(:h, a)', 'list_append', 'BS'],
    ['set a = list_append(:i, a)', 'list_append', 'M'],
    ['set a = a + :a', '+', 'S'],
    ['set a = :a + :c', '+', 'S'],
    ['set a = :c + a', '+', 'B'],
    ['set a = a + :d', '+', 'BOOL'],
    ['set a = a + :e', '+', 'NULL'],
    ['set a = a + :f', '+', 'SS'],
    ['set a = a + :g', '+', 'NS'],
    ['set a = a + :h', '+', 'BS'],
    ['set a = a + :i', '+', 'M'],
    ['set a = a + :j', '+', 'L'],
    ['set a = a - :a', '-', 'S'],
    ['set a = :c - a', '-', 'B'],
    ['set a = a - :j', '-', 'L'],
  ])('rejects the literal operand of %s', (text, name, type) => {
    const values = Object.fromEntries(Object.entries(literals).filter(([key]) => text.includes(key)));
    expect(update(text, values)).toBe(
      `${prefix}Incorrect operand type for operator or function; operator or function: ${name}, operand type: ${type}`,
    );
  });
});

describe('ADD and DELETE operands (docs/dynamodb.md §5.3.3)', () => {
  it.each<[string, AttributeValue, string, string]>([
    ['add a.b :a', S('a'), 'ADD', 'STRING'],
    ['delete a.b :a', S('a'), 'DELETE', 'STRING'],
    ['add a.b :a', { NULL: true }, 'ADD', 'NULL'],
    ['delete a.b :a', { NULL: true }, 'DELETE', 'NULL'],
    ['add a.b :a', { BOOL: false }, 'ADD', 'BOOLEAN'],
    ['delete a.b :a', { BOOL: false }, 'DELETE', 'BOOLEAN'],
    ['add a.b :a', B('a'), 'ADD', 'BINARY'],
    ['delete a.b :a', B('a'), 'DELETE', 'BINARY'],
    ['add a.b :a', M({ a: L(N('1')) }), 'ADD', 'MAP'],
    ['delete a.b :a', M({}), 'DELETE', 'MAP'],
    ['add a.b :a', L(N('1')), 'ADD', 'LIST'],
    ['delete a.b :a', L(N('1')), 'DELETE', 'LIST'],
    ['delete a.b :a', N('1'), 'DELETE', 'NUMBER'],
  ])('rejects %s with a %s operand', (text, value, clause, type) => {
    expect(update(text, { ':a': value })).toBe(
      `${prefix}Incorrect operand type for operator or function; operator: ${clause}, operand type: ${type}`,
    );
  });

  it('accepts ADD of a number or a set and DELETE of a set', () => {
    const values = {
      ':n': N('1'),
      ':ss': { SS: ['a'] },
      ':ns': { NS: ['1'] },
      ':bs': { BS: [base64('a')] } as AttributeValue,
    };
    expect(() => scope(undefined, values).parseUpdate('ADD a :n, b :ss DELETE c :ns, d :bs')).not.toThrow();
  });
});

describe('document path overlaps and conflicts (docs/dynamodb.md §5.3.6)', () => {
  it.each([
    ['set d[1] = a, d.b = a, c[1].a = a, #c = if_not_exists(a)', '[c, [1], a]', '[c]'],
    ['set c.b.#c = a, c = a, #d = a', '[c, b, c]', '[c]'],
    ['set a = b remove a, #c, #d', '[a]', '[a]'],
    ['set #c[3].#d = a, #c[3] = a', '[c, [3], [3]]', '[c, [3]]'],
    ['remove c, #c.a, #d', '[c]', '[c, a]'],
    ['remove a, #c, a, #d', '[a]', '[a]'],
    ['SET a[1][1][1][1] = :v, a[1][1] = :v', '[a, [1], [1], [1], [1]]', '[a, [1], [1]]'],
  ])('reports the overlap in %s', (text, one, two) => {
    expect(update(text, { ':v': N('1') }, { '#c': 'c', '#d': '[3]' })).toBe(
      `${prefix}Two document paths overlap with each other; must remove or rewrite one of these paths; path one: ${one}, path two: ${two}`,
    );
  });

  it.each([
    ['set #c[3].#d = a, #c.#d[3] = if_not_exists(a)', '[c, [3], [3]]', '[c, [3], [3]]'],
    ['remove a.#c set a[1] = #d', '[a, c]', '[a, [1]]'],
    ['SET a.b.c = :v, a.b[2] = :v', '[a, b, c]', '[a, b, [2]]'],
  ])('reports the conflict in %s', (text, one, two) => {
    expect(update(text, { ':v': N('1') }, { '#c': 'c', '#d': '[3]' })).toBe(
      `${prefix}Two document paths conflict with each other; must remove or rewrite one of these paths; path one: ${one}, path two: ${two}`,
    );
  });

  it('compares resolved names', () => {
    expect(update('SET #a1 = :v, #a2 = :v', { ':v': N('1') }, { '#a1': 'a', '#a2': 'a' })).toMatch(
      /overlap with each other; must remove or rewrite one of these paths; path one: \[a\], path two: \[a\]$/,
    );
  });

  it('allows paths that share a prefix and then differ', () => {
    expect(() =>
      scope(undefined, { ':v': N('1') }).parseUpdate(
        'SET a.b = :v, a.c.d = :v, b.x = :v REMOVE a.x, b.y, c[1], c[2]',
      ),
    ).not.toThrow();
  });
});

describe('error precedence (docs/dynamodb.md §5.3.7)', () => {
  it('orders: reserved word, unknown function, repeated clause, names, values, overlap, conflict, operand types', () => {
    expect(update('SET a = foo(b) SET abort = :x')).toMatch(/reserved keyword: abort$/);
    expect(update('SET a = foo(b) SET c = :x')).toMatch(/Invalid function name; function: foo$/);
    expect(update('SET a = #c SET c = :d')).toMatch(/The "SET" section can only be used once/);
    expect(update('SET a = :x, #b = c')).toMatch(/attribute name: #b$/);
    expect(update('SET a = :x, a = c')).toMatch(/attribute value: :x$/);
    expect(update('SET a = :x, a = c, b.c = :x, b[1] = :x', { ':x': N('1') })).toMatch(/overlap/);
    expect(update('SET b.c = :x, b[1] = :x ADD d :s', { ':x': N('1'), ':s': S('s') })).toMatch(/conflict/);
    expect(update('set b = list_append(:a, a), c = if_not_exists(a) add a.b :a', { ':a': S('a') })).toBe(
      `${prefix}Incorrect operand type for operator or function; operator: ADD, operand type: STRING`,
    );
    expect(update('set b = list_append(:a, a), c = if_not_exists(a)', { ':a': S('a') })).toBe(
      `${prefix}Incorrect operand type for operator or function; operator or function: list_append, operand type: S`,
    );
  });

  it('reports undefined names before undefined values anywhere in the expression', () => {
    expect(update('SET #c = if_not_exists(:c)', someValues, someNames)).toBe(
      `${prefix}An expression attribute name used in the document path is not defined; attribute name: #c`,
    );
    expect(update('SET #a = if_not_exists(:c)', someValues, someNames)).toBe(
      `${prefix}An expression attribute value used in expression is not defined; attribute value: :c`,
    );
    expect(update('SET a = :nope, b = #nope')).toMatch(/attribute name: #nope$/);
  });
});
