import { describe, expect, it } from 'vitest';
import { N, S, scope, validationMessage } from './helpers.js';

const values = { ':v': S('x'), ':w': S('y'), ':n': N('1'), ':t': S('S') };
const parts = (text: string, names?: Record<string, string>) => {
  const used = Object.fromEntries(Object.entries(values).filter(([key]) => text.includes(key)));
  return scope(names, Object.keys(used).length > 0 ? used : undefined).parseKeyCondition(text);
};
const message = (text: string) => validationMessage(() => parts(text));

describe('KeyConditionExpression parts (docs/dynamodb.md §6.1.2)', () => {
  it('returns one part per key in order, with their values', () => {
    expect(parts('pk = :v AND sk BETWEEN :v AND :w')).toEqual([
      { attributeName: 'pk', operator: '=', values: [S('x')] },
      { attributeName: 'sk', operator: 'BETWEEN', values: [S('x'), S('y')] },
    ]);
    expect(parts('#p = :v AND begins_with(#s, :w)', { '#p': 'pk', '#s': 'sk' })).toEqual([
      { attributeName: 'pk', operator: '=', values: [S('x')] },
      { attributeName: 'sk', operator: 'begins_with', values: [S('y')] },
    ]);
  });

  it.each([
    [':v = k', '='],
    [':v < k', '>'],
    [':v <= k', '>='],
    [':v > k', '<'],
    [':v >= k', '<='],
  ])('mirrors %s', (text, operator) => {
    expect(parts(text)).toEqual([{ attributeName: 'k', operator, values: [S('x')] }]);
  });

  it.each([
    ['a = :v OR b = :w', 'OR'],
    ['NOT a = :v', 'NOT'],
    ['a IN (:v, :w)', 'IN'],
    ['a <> :v', '<>'],
    ['attribute_exists(a)', 'attribute_exists'],
    ['attribute_not_exists(a)', 'attribute_not_exists'],
    ['attribute_type(a, :t)', 'attribute_type'],
    ['contains(a, :v)', 'contains'],
  ])('rejects %s with the invalid-operator message', (text, operator) => {
    expect(message(text)).toBe(`Invalid operator used in KeyConditionExpression: ${operator}`);
  });

  it('rejects the other stateless shapes with their own messages', () => {
    expect(message('size(a) = :n')).toBe('KeyConditionExpressions cannot contain nested operations');
    expect(message(':v BETWEEN a AND :w')).toBe(
      'Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand',
    );
    expect(message('begins_with(:v, a)')).toBe(
      'Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand',
    );
    expect(message('a = b')).toBe(
      'Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition',
    );
    expect(message(':v = :w')).toBe(
      'Invalid condition in KeyConditionExpression: No key attribute specified',
    );
    expect(message('a.b = :v')).toBe('KeyConditionExpressions cannot have conditions on nested attributes');
    expect(message('a[0] = :v')).toBe('KeyConditionExpressions cannot have conditions on nested attributes');
    expect(message('a = :v AND a = :w')).toBe(
      'KeyConditionExpressions must only contain one condition per key',
    );
    // More than 8 fits no key (4 HASH + 4 RANGE attributes); 3 to 8 are the schema's question
    // (docs/multi-attribute-keys.md).
    const nine = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name) => `${name} = :v`).join(' AND ');
    expect(message(nine)).toBe('Conditions can be of length 1 or 2 only');
    expect(parts('a = :v AND b = :v AND c = :w')).toHaveLength(3);
  });

  it('reports grammar errors with the KeyConditionExpression prefix first', () => {
    expect(message('a = :nope OR b = :v')).toBe(
      'Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :nope',
    );
    expect(message('begins_with(a, :n)')).toBe(
      'Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N',
    );
  });

  it('defers the key rules until parts() when prepared', () => {
    // Prepare
    const keyScope = scope(undefined, { ':v': S('x'), ':w': S('y') });
    // Act
    const plan = keyScope.prepareKeyCondition('a = :v OR b = :w');
    keyScope.checkUnused();
    // Assess
    expect(plan.paths).toEqual([['a'], ['b']]);
    expect(plan.condition.evaluate({ b: S('y') })).toBe(true);
    expect(validationMessage(() => plan.parts())).toBe('Invalid operator used in KeyConditionExpression: OR');
  });
});
