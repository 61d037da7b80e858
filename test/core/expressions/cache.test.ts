import { describe, expect, it } from 'vitest';
import { CACHE_CAPACITY, clearExpressionCache, parseCached } from '../../../core/expressions/cache.js';
import { N, S, scope, validationMessage } from './helpers.js';

describe('parseCached', () => {
  it('parses a text once per kind and remembers the outcome', () => {
    // Prepare
    clearExpressionCache();
    let builds = 0;
    const build = (text: string) => {
      builds++;
      return text.length;
    };
    // Act
    const first = parseCached('Projection', 'a, b', build);
    const second = parseCached('Projection', 'a, b', build);
    parseCached('Filter', 'a, b', build);
    // Assess
    expect([first, second, builds]).toEqual([4, 4, 2]);
  });

  it('remembers errors, keeps the prefix of each kind and evicts the oldest texts', () => {
    clearExpressionCache();
    expect(validationMessage(() => scope().parseCondition('a =', 'Condition'))).toMatch(
      /^Invalid ConditionExpression:/,
    );
    expect(validationMessage(() => scope().parseCondition('a =', 'Condition'))).toMatch(
      /^Invalid ConditionExpression:/,
    );
    expect(validationMessage(() => scope().parseCondition('a =', 'Filter'))).toMatch(
      /^Invalid FilterExpression:/,
    );
    for (let i = 0; i < CACHE_CAPACITY + 10; i++) scope().parseProjection(`a${i}`);
    expect(scope().parseProjection('a0').paths).toEqual([['a0']]);
  });

  it('resolves names and values per request even when the text is cached', () => {
    const text = 'SET #c = #c + :one';
    const first = scope({ '#c': 'x' }, { ':one': N('1') })
      .parseUpdate(text)
      .apply({ x: N('1') }).item;
    const second = scope({ '#c': 'y' }, { ':one': N('5') })
      .parseUpdate(text)
      .apply({ y: N('1') }).item;
    expect([first, second]).toEqual([{ x: N('2') }, { y: N('6') }]);
    expect(validationMessage(() => scope({ '#c': 'x' }, { ':one': S('s') }).parseUpdate(text))).toBe(
      'Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S',
    );
  });
});
