import { describe, expect, it } from 'vitest';
import type { AttributeValue } from '../../../core/model/attributeValue.js';
import { B, L, M, N, S, scope, validationMessage } from './helpers.js';

const filter = (text: string, values?: Record<string, AttributeValue>, names?: Record<string, string>) =>
  validationMessage(() => scope(names, values).parseCondition(text, 'Filter'));
const prefix = 'Invalid FilterExpression: ';

describe('redundant parentheses (docs/dynamodb.md §5.2.2)', () => {
  it.each([
    '((a = :v))',
    'a=a and a > ((views))',
    '(a)between(((b.c)).d)and(c)',
    'a > whatever((:things), ((a)))',
    'a=a AND ((a=a AND a=a)) AND a=a',
    'a=a OR ((a=a OR a=a)) OR a=a',
    'a=a AND ((a=a AND (a=a AND a=a)))',
    '((attribute_not_exists(pk)))',
  ])('returns the redundant-parentheses error for %s', (text) => {
    expect(filter(text)).toBe(`${prefix}The expression has redundant parentheses;`);
  });

  it('accepts one pair around anything, function-call parentheses included', () => {
    expect(() => scope(undefined, { ':v': S('x') }).parseCondition('(a = :v)', 'Filter')).not.toThrow();
    expect(() => scope().parseCondition('((a = b) OR (c = d))', 'Filter')).not.toThrow();
    expect(() => scope().parseCondition('attribute_exists((a))', 'Filter')).not.toThrow();
  });
});

describe('functions (docs/dynamodb.md §5.2.2, §5.2.3)', () => {
  it('names unknown functions, which are case-sensitive', () => {
    expect(filter('a=a and whatever((:things)) > a')).toBe(
      `${prefix}Invalid function name; function: whatever`,
    );
    expect(filter('attRIbute_exIsts((views), #a)')).toBe(
      `${prefix}Invalid function name; function: attRIbute_exIsts`,
    );
    expect(filter('BEGINS_WITH(a, :v)')).toBe(`${prefix}Invalid function name; function: BEGINS_WITH`);
  });

  it.each([
    ['a=a and attribute_exists((views), (#a)) > b', 'attribute_exists'],
    ['attribute_not_exists(things) > b', 'attribute_not_exists'],
    ['attribute_type(things, :a) > b', 'attribute_type'],
    ['begins_with(things, a) > b', 'begins_with'],
    ['contains(:things, c) > b', 'contains'],
    ['size(contains(a, b)) > a', 'contains'],
    ['size(things)', 'size'],
    ['NOT size(things)', 'size'],
    ['size(a) AND b = c', 'size'],
    ['a between b and attribute_exists(things)', 'attribute_exists'],
    ['a in (b, attribute_exists(things))', 'attribute_exists'],
    ['if_not_exists(a, a) = :arg', 'if_not_exists'],
    ['list_append(a, a) = :arg', 'list_append'],
    ['if_not_exists(a, b)', 'if_not_exists'],
  ])('reports %s as a misused %s', (text, name) => {
    expect(filter(text)).toBe(
      `${prefix}The function is not allowed to be used this way in an expression; function: ${name}`,
    );
  });

  it.each([
    ['attribute_exists(things, a) and a=a', 'attribute_exists', 2],
    ['attribute_not_exists(things, b)', 'attribute_not_exists', 2],
    ['attribute_type(things)', 'attribute_type', 1],
    ['begins_with(things)', 'begins_with', 1],
    ['begins_with(things, size(a), b)', 'begins_with', 3],
    ['contains(things)', 'contains', 1],
    ['size(things, a) > b', 'size', 2],
  ])('reports the operand count of %s', (text, name, count) => {
    expect(filter(text)).toBe(
      `${prefix}Incorrect number of operands for operator or function; operator or function: ${name}, number of operands: ${count}`,
    );
  });

  it('requires a document path in attribute_exists and attribute_not_exists', () => {
    const values = { ':a': S('1') };
    expect(filter('attribute_exists(:a) and a=a', values)).toBe(
      `${prefix}Operator or function requires a document path; operator or function: attribute_exists`,
    );
    expect(filter('attribute_not_exists(size(:a))', values)).toBe(
      `${prefix}Operator or function requires a document path; operator or function: attribute_not_exists`,
    );
  });

  it.each<[string, string, AttributeValue]>([
    ['attribute_type(a, size(a)) and a=a and a=:a', 'attribute_type', N('1')],
    ['attribute_type(a, :a)', 'attribute_type', N('1')],
    ['attribute_type(a, :a)', 'attribute_type', B('a')],
    ['attribute_type(a, :a)', 'attribute_type', { BOOL: true }],
    ['attribute_type(a, :a)', 'attribute_type', { NULL: true }],
    ['attribute_type(a, :a)', 'attribute_type', L()],
    ['attribute_type(a, :a)', 'attribute_type', M({})],
    ['attribute_type(a, :a)', 'attribute_type', { SS: ['1'] }],
    ['begins_with(a, size(a)) and a=:a', 'begins_with', N('1')],
    ['begins_with(a, :a)', 'begins_with', N('1')],
    ['begins_with(a, :a)', 'begins_with', { BOOL: true }],
    ['begins_with(a, :a)', 'begins_with', { NS: ['1'] }],
    ['begins_with(:a, a)', 'begins_with', L()],
    ['begins_with(:a, a)', 'begins_with', { NULL: true }],
    ['size(size(a)) > :a', 'size', N('1')],
    ['attribute_not_exists(size(:a))', 'size', N('1')],
    ['size(:a) > a', 'size', { BOOL: true }],
    ['size(:a) > a', 'size', { NULL: true }],
  ])('reports the operand type of %s (%s)', (text, name, value) => {
    const type = Object.keys(value)[0];
    expect(filter(text, { ':a': value })).toBe(
      `${prefix}Incorrect operand type for operator or function; operator or function: ${name}, operand type: ${type}`,
    );
  });

  it('lists every type when attribute_type gets a path as its type', () => {
    expect(filter('attribute_type(a, b)')).toBe(
      `${prefix}Incorrect operand type for operator or function; operator or function: attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}`,
    );
  });

  it('rejects an unknown attribute_type name', () => {
    expect(filter('attribute_type(a, :a)', { ':a': S('DOG') })).toBe(
      `${prefix}Invalid attribute type name found; type: DOG, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}`,
    );
  });
});

describe('literal operands (docs/dynamodb.md §5.2.4)', () => {
  it.each(['<', '<=', '>', '>='])('rejects a list literal on either side of %s', (operator) => {
    const message = `${prefix}Incorrect operand type for operator or function; operator or function: ${operator}, operand type: L`;
    expect(filter(`a ${operator} :l`, { ':l': L(N('1')) })).toBe(message);
    expect(filter(`:l ${operator} a`, { ':l': L(N('1')) })).toBe(message);
  });

  it.each<[AttributeValue, string]>([
    [M({}), 'M'],
    [{ SS: ['a'] }, 'SS'],
    [{ BOOL: true }, 'BOOL'],
    [{ NULL: true }, 'NULL'],
  ])('rejects an ordering comparison with a literal of type %s', (value, type) => {
    expect(filter('a < :x', { ':x': value })).toBe(
      `${prefix}Incorrect operand type for operator or function; operator or function: <, operand type: ${type}`,
    );
  });

  it('accepts any literal type with = and <> and in IN lists', () => {
    const values = { ':l': L(), ':m': M({}), ':b': { BOOL: false } };
    expect(() =>
      scope(undefined, values).parseCondition('a = :l AND b <> :m AND c IN (:b, :l)', 'Filter'),
    ).not.toThrow();
  });

  it('checks BETWEEN literals: type, same type, then order', () => {
    expect(filter('a BETWEEN :x AND :y', { ':x': L(), ':y': L() })).toBe(
      `${prefix}Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: L`,
    );
    expect(filter('a BETWEEN :x AND :y', { ':x': N('1'), ':y': S('a') })).toBe(
      `${prefix}The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}`,
    );
    expect(filter('a BETWEEN :x AND :y', { ':x': S('b'), ':y': S('a') })).toBe(
      `${prefix}The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}`,
    );
    expect(filter('a BETWEEN :x AND :y', { ':x': N('10'), ':y': N('9') })).toMatch(
      /upper bound to be greater/,
    );
  });

  it('does not check bounds that come from the item', () => {
    expect(() =>
      scope(undefined, { ':x': N('3') }).parseCondition('a BETWEEN two AND :x', 'Filter'),
    ).not.toThrow();
  });
});

describe('distinct operands (docs/dynamodb.md §5.2.3)', () => {
  it.each([
    ['a = a AND #a = b AND :views > a', '=', '[a]'],
    ['#a <> a', '<>', '[a]'],
    ['a > #a', '>', '[a]'],
    ['((a=a) OR (a=a))', '=', '[a]'],
    ['contains(ab.bc[1].a, ab.bc[1].#a)', 'contains', '[ab, bc, [1], a]'],
    ['attribute_type(ab.bc[1].#a, ab.bc[1].a)', 'attribute_type', '[ab, bc, [1], a]'],
    ['begins_with(ab.bc[1].a, ab.bc[1].#a)', 'begins_with', '[ab, bc, [1], a]'],
  ])('rejects %s', (text, operator, path) => {
    expect(filter(text, { ':views': S('x') }, { '#a': 'a' })).toBe(
      `${prefix}The first operand must be distinct from the remaining operands for this operator or function; operator: ${operator}, first operand: ${path}`,
    );
  });

  it('allows the same value twice', () => {
    expect(() => scope(undefined, { ':a': N('1') }).parseCondition(':a = :a', 'Filter')).not.toThrow();
  });
});

describe('names and values (docs/dynamodb.md §5.1.7)', () => {
  it.each([
    ['attribute_exists(#Pictures.RearView, :a) and a=a', '#Pictures'],
    ['begins_with(Pictures.#RearView)', '#RearView'],
    ['(#P between :lo and :hi) and (#PC in (:cat1, :cat2))', '#P'],
    ['#4g > a', '#4g'],
    ['#_ > a', '#_'],
    ['(a)between(b.c[45].#d)and(:a)', '#d'],
  ])('reports the first undefined name in %s', (text, ref) => {
    expect(filter(text)).toBe(
      `${prefix}An expression attribute name used in the document path is not defined; attribute name: ${ref}`,
    );
  });

  it.each([
    ['begins_with(:hello, #a, #b)', ':hello'],
    [':a < :b', ':a'],
    [':_ > a', ':_'],
  ])('reports the first undefined value in %s', (text, ref) => {
    expect(filter(text)).toBe(
      `${prefix}An expression attribute value used in expression is not defined; attribute value: ${ref}`,
    );
  });
});

describe('IN operands (docs/dynamodb.md §5.2.6, §9.9)', () => {
  const values = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`:v${i}`, N(String(i))]));
  const list = (count: number) => Array.from({ length: count }, (_, i) => `:v${i}`).join(',');

  it('accepts 100 operands in total and rejects 101', () => {
    expect(() => scope(undefined, values).parseCondition(`a IN (${list(99)})`, 'Filter')).not.toThrow();
    expect(filter(`a IN (${list(100)})`, values)).toBe(
      `${prefix}The IN operator is provided with too many operands; number of operands: 101`,
    );
  });
});

describe('error precedence within a condition (docs/dynamodb.md §8.6)', () => {
  it('puts syntax before redundant parentheses, and those before unknown functions', () => {
    expect(filter('((a = b)) AND foo(c) AND')).toMatch(/Syntax error; token: "<EOF>"/);
    expect(filter('foo(c) = a AND ((a = b))')).toBe(`${prefix}The expression has redundant parentheses;`);
  });

  it('puts unknown functions before misused ones, and those before reserved words', () => {
    expect(filter('size(a) AND foo(b) = c')).toBe(`${prefix}Invalid function name; function: foo`);
    expect(filter('attribute_exists(views, #a)')).toBe(
      `${prefix}Attribute name is a reserved keyword; reserved keyword: views`,
    );
    expect(filter('views = a AND size(b)')).toBe(
      `${prefix}The function is not allowed to be used this way in an expression; function: size`,
    );
  });

  it('puts reserved words before undefined names and values', () => {
    expect(filter(':a < abOrT')).toBe(
      `${prefix}Attribute name is a reserved keyword; reserved keyword: abOrT`,
    );
  });

  it('checks conditions one by one: a type error in the first beats an undefined name in the second', () => {
    expect(filter('begins_with(a, :n) AND #x = b', { ':n': N('1') })).toBe(
      `${prefix}Incorrect operand type for operator or function; operator or function: begins_with, operand type: N`,
    );
    expect(filter('#x = b AND begins_with(a, :n)', { ':n': N('1') })).toMatch(/attribute name: #x$/);
  });

  it('within one condition: undefined value → operand count → distinct → operand type', () => {
    expect(filter('begins_with(a, a, :nope)')).toMatch(/attribute value: :nope$/);
    expect(filter('contains(a)')).toMatch(/number of operands: 1$/);
    expect(filter('begins_with(a, a)')).toMatch(/first operand: \[a\]$/);
  });
});
