import { describe, expect, it } from 'vitest';
import {
  checkKeyConditions,
  conditionFromExpected,
  conditionFromFilter,
  type ExpectedAttributeValue,
  keyConditionsToParts,
  type LegacyCondition,
  projectionFromAttributesToGet,
  updateFromAttributeUpdates,
} from '../../../core/expressions/index.js';
import type { AttributeValue, Item } from '../../../core/model/attributeValue.js';
import { B, L, M, N, S, validationMessage } from './helpers.js';

const invalid = 'One or more parameter values were invalid: ';
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('conditionFromExpected: checks (docs/dynamodb.md §5.4.3)', () => {
  const expected = (entry: ExpectedAttributeValue) =>
    validationMessage(() => conditionFromExpected({ a: entry }, undefined));

  it.each<[ExpectedAttributeValue, string]>([
    [{}, 'Value must be provided when Exists is null for Attribute: a'],
    [{ Exists: true }, 'Value must be provided when Exists is true for Attribute: a'],
    [{ Exists: false, Value: S('a') }, 'Value cannot be used when Exists is false for Attribute: a'],
    [
      { Exists: false, ComparisonOperator: 'EQ', AttributeValueList: [N('3')] },
      'Exists and ComparisonOperator cannot be used together for Attribute: a',
    ],
    [
      { Value: N('3'), ComparisonOperator: 'EQ', AttributeValueList: [N('3')] },
      'Value and AttributeValueList cannot be used together for Attribute: a',
    ],
    [
      { AttributeValueList: [N('3')] },
      'AttributeValueList can only be used with a ComparisonOperator for Attribute: a',
    ],
    [
      { ComparisonOperator: 'EQ' },
      'Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a',
    ],
    [
      { ComparisonOperator: 'EQ', AttributeValueList: [N('2'), N('3')] },
      'Invalid number of argument(s) for the EQ ComparisonOperator',
    ],
    [
      { ComparisonOperator: 'NULL', AttributeValueList: [N('2')] },
      'Invalid number of argument(s) for the NULL ComparisonOperator',
    ],
    [
      { ComparisonOperator: 'IN', AttributeValueList: [] },
      'Invalid number of argument(s) for the IN ComparisonOperator',
    ],
    [
      { ComparisonOperator: 'BETWEEN', AttributeValueList: [N('2')] },
      'Invalid number of argument(s) for the BETWEEN ComparisonOperator',
    ],
    [
      { ComparisonOperator: 'IN', AttributeValueList: [N('3'), S('dog')] },
      'AttributeValues inside AttributeValueList must be of same type',
    ],
    [
      { ComparisonOperator: 'CONTAINS', AttributeValueList: [L(N('1'))] },
      'ComparisonOperator CONTAINS is not valid for L AttributeValue type',
    ],
    [
      { ComparisonOperator: 'BEGINS_WITH', Value: N('3') },
      'ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type',
    ],
  ])('rejects %j', (entry, message) => {
    expect(expected(entry)).toBe(`${invalid}${message}`);
  });

  it('rejects a reversed BETWEEN with its own text', () => {
    expect(expected({ ComparisonOperator: 'BETWEEN', AttributeValueList: [S('dog'), S('aardvark')] })).toBe(
      'The BETWEEN condition was provided a range where the lower bound is greater than the upper bound',
    );
  });
});

describe('conditionFromExpected: evaluation', () => {
  const item: Item = {
    a: N('1'),
    b: N('2'),
    s: S('hello'),
    ns: { NS: ['2', '4', '7'] },
    l: L(N('2'), N('4')),
  };
  const holds = (
    expected: Record<string, ExpectedAttributeValue>,
    operator?: 'AND' | 'OR',
    target: Item | undefined = item,
  ) => conditionFromExpected(expected, operator).evaluate(target);

  it('means EQ for Value, absence for Exists false, and checks every comparison operator', () => {
    expect(holds({ a: { Value: N('1') } })).toBe(true);
    expect(holds({ a: { Exists: true, Value: N('2') } })).toBe(false);
    expect(holds({ z: { Exists: false } })).toBe(true);
    expect(holds({ a: { ComparisonOperator: 'NE', AttributeValueList: [S('1')] } })).toBe(true);
    expect(holds({ q: { ComparisonOperator: 'NE', AttributeValueList: [N('1')] } })).toBe(true);
    expect(holds({ a: { ComparisonOperator: 'LE', AttributeValueList: [N('1')] } })).toBe(true);
    expect(holds({ a: { ComparisonOperator: 'LT', AttributeValueList: [S('17')] } })).toBe(false);
    expect(holds({ s: { ComparisonOperator: 'GE', AttributeValueList: [S('aardvark')] } })).toBe(true);
    expect(holds({ a: { ComparisonOperator: 'GT', Value: N('0') } })).toBe(true);
    expect(holds({ q: { ComparisonOperator: 'NULL' } })).toBe(true);
    expect(holds({ a: { ComparisonOperator: 'NOT_NULL', AttributeValueList: [] } })).toBe(true);
    expect(holds({ s: { ComparisonOperator: 'CONTAINS', AttributeValueList: [S('ell')] } })).toBe(true);
    expect(holds({ ns: { ComparisonOperator: 'CONTAINS', AttributeValueList: [N('4')] } })).toBe(true);
    expect(holds({ l: { ComparisonOperator: 'CONTAINS', AttributeValueList: [N('4')] } })).toBe(true);
    expect(holds({ s: { ComparisonOperator: 'NOT_CONTAINS', AttributeValueList: [S('dog')] } })).toBe(true);
    expect(holds({ q: { ComparisonOperator: 'NOT_CONTAINS', AttributeValueList: [N('1')] } })).toBe(false);
    expect(holds({ s: { ComparisonOperator: 'BEGINS_WITH', AttributeValueList: [S('hell')] } })).toBe(true);
    expect(holds({ b: { ComparisonOperator: 'IN', AttributeValueList: [N('2'), N('3'), N('8')] } })).toBe(
      true,
    );
    expect(holds({ ns: { ComparisonOperator: 'IN', AttributeValueList: [N('2')] } })).toBe(false);
    expect(holds({ b: { ComparisonOperator: 'BETWEEN', AttributeValueList: [N('1'), N('2')] } })).toBe(true);
    expect(holds({ q: { ComparisonOperator: 'BETWEEN', AttributeValueList: [N('0'), N('100')] } })).toBe(
      false,
    );
  });

  it('joins with AND by default and with OR on request; no condition always holds', () => {
    const conditions = {
      a: { Value: N('74') },
      b: { ComparisonOperator: 'EQ', AttributeValueList: [N('2')] },
    };
    expect(holds(conditions)).toBe(false);
    expect(holds(conditions, 'AND')).toBe(false);
    expect(holds(conditions, 'OR')).toBe(true);
    expect(holds({}, undefined, undefined)).toBe(true);
    expect(conditionFromExpected(conditions, undefined).paths).toEqual([['a'], ['b']]);
  });
});

describe('conditionFromFilter (docs/dynamodb.md §5.4.4)', () => {
  const filter = (condition: LegacyCondition) =>
    validationMessage(() => conditionFromFilter({ a: condition }, undefined));

  it.each(['LT', 'LE', 'GT', 'GE', 'IN'])('rejects non-scalar values for %s', (operator) => {
    for (const value of [
      { BOOL: true },
      { NULL: true },
      { SS: ['a'] },
      { NS: ['1'] },
      { BS: ['abcd'] },
      M({}),
      L(),
    ]) {
      const type = Object.keys(value)[0];
      expect(filter({ ComparisonOperator: operator, AttributeValueList: [value as AttributeValue] })).toBe(
        `${invalid}ComparisonOperator ${operator} is not valid for ${type} AttributeValue type`,
      );
    }
  });

  it('allows sets for EQ and NE, S and B for BEGINS_WITH, and S, N, B for CONTAINS', () => {
    expect(() =>
      conditionFromFilter(
        { a: { ComparisonOperator: 'EQ', AttributeValueList: [{ SS: ['a'] }] } },
        undefined,
      ),
    ).not.toThrow();
    expect(() =>
      conditionFromFilter({ a: { ComparisonOperator: 'BEGINS_WITH', AttributeValueList: [B('a')] } }, 'OR'),
    ).not.toThrow();
    expect(filter({ ComparisonOperator: 'BEGINS_WITH', AttributeValueList: [N('1')] })).toBe(
      `${invalid}ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type`,
    );
    expect(filter({ ComparisonOperator: 'NOT_CONTAINS', AttributeValueList: [{ SS: ['a'] }] })).toBe(
      `${invalid}ComparisonOperator NOT_CONTAINS is not valid for SS AttributeValue type`,
    );
  });

  it('checks the argument count before the types', () => {
    expect(filter({ ComparisonOperator: 'EQ' })).toBe(
      `${invalid}Invalid number of argument(s) for the EQ ComparisonOperator`,
    );
    expect(filter({ ComparisonOperator: 'BETWEEN', AttributeValueList: [L(), L(), L()] })).toBe(
      `${invalid}Invalid number of argument(s) for the BETWEEN ComparisonOperator`,
    );
  });

  it('evaluates like Expected comparisons', () => {
    const condition = conditionFromFilter(
      { a: { ComparisonOperator: 'GT', AttributeValueList: [N('1')] }, b: { ComparisonOperator: 'NULL' } },
      undefined,
    );
    expect(condition.evaluate({ a: N('2') })).toBe(true);
    expect(condition.evaluate({ a: N('2'), b: N('0') })).toBe(false);
  });
});

describe('KeyConditions (docs/dynamodb.md §5.4.4, §6.1.3)', () => {
  it('converts indexable operators into parts', () => {
    expect(
      keyConditionsToParts({
        h: { ComparisonOperator: 'EQ', AttributeValueList: [S('x')] },
        r: { ComparisonOperator: 'BEGINS_WITH', AttributeValueList: [S('p')] },
      }),
    ).toEqual([
      { attributeName: 'h', operator: '=', values: [S('x')] },
      { attributeName: 'r', operator: 'begins_with', values: [S('p')] },
    ]);
  });

  it('checks values, then the condition count, and marks what cannot be indexed', () => {
    expect(validationMessage(() => keyConditionsToParts({ h: { ComparisonOperator: 'EQ' } }))).toBe(
      `${invalid}Invalid number of argument(s) for the EQ ComparisonOperator`,
    );
    expect(validationMessage(() => checkKeyConditions({}))).toBe('Conditions can be of length 1 or 2 only');
    // More than 8 fits no key (docs/multi-attribute-keys.md); 3 to 8 are the schema's question.
    const nine = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name) => [
        name,
        { ComparisonOperator: 'EQ', AttributeValueList: [S('x')] },
      ]),
    );
    expect(validationMessage(() => keyConditionsToParts(nine))).toBe(
      'Conditions can be of length 1 or 2 only',
    );
    expect(keyConditionsToParts(Object.fromEntries(Object.entries(nine).slice(0, 3)))).toHaveLength(3);
    // Not indexable is the Query's to say, at its key attribute's turn (docs/dynamodb.md §6.1.3).
    expect(keyConditionsToParts({ h: { ComparisonOperator: 'NE', AttributeValueList: [S('x')] } })).toEqual([
      { attributeName: 'h', operator: '=', values: [S('x')], notIndexable: true },
    ]);
    expect(() =>
      checkKeyConditions({ h: { ComparisonOperator: 'NE', AttributeValueList: [S('x')] } }),
    ).not.toThrow();
  });
});

describe('updateFromAttributeUpdates (docs/dynamodb.md §4.2.7)', () => {
  it('rejects an empty name or one over 65,535 bytes, after the update itself (docs/dynamodb.md §2.5.4)', () => {
    expect(
      validationMessage(() => updateFromAttributeUpdates({ '': { Action: 'PUT', Value: S('x') } })),
    ).toBe('Empty attribute name');
    expect(
      validationMessage(() => updateFromAttributeUpdates({ ['é'.repeat(32_768)]: { Action: 'DELETE' } })),
    ).toBe('Attribute name is too large, must be less than 65536 bytes');
    expect(validationMessage(() => updateFromAttributeUpdates({ '': { Action: 'PUT' } }))).toBe(
      `${invalid}Only DELETE action is allowed when no attribute value is specified`,
    );
    expect(() =>
      updateFromAttributeUpdates({ [`${'é'.repeat(32_767)}a`]: { Action: 'PUT', Value: S('x') } }),
    ).not.toThrow();
  });

  it('rejects missing values and unsupported types', () => {
    expect(validationMessage(() => updateFromAttributeUpdates({ a: { Action: 'PUT' } }))).toBe(
      `${invalid}Only DELETE action is allowed when no attribute value is specified`,
    );
    expect(validationMessage(() => updateFromAttributeUpdates({ a: {} }))).toBe(
      `${invalid}Only DELETE action is allowed when no attribute value is specified`,
    );
    for (const value of [
      S('1'),
      N('1'),
      B('a'),
      { NULL: true },
      { BOOL: true },
      M({}),
      L(),
    ] as AttributeValue[]) {
      const type = Object.keys(value)[0];
      expect(
        validationMessage(() => updateFromAttributeUpdates({ a: { Action: 'DELETE', Value: value } })),
      ).toBe(`${invalid}DELETE action with value is not supported for the type ${type}`);
    }
    for (const value of [S('1'), B('a'), { NULL: true }, { BOOL: true }, M({})] as AttributeValue[]) {
      const type = Object.keys(value)[0];
      expect(
        validationMessage(() => updateFromAttributeUpdates({ a: { Action: 'ADD', Value: value } })),
      ).toBe(`${invalid}ADD action is not supported for the type ${type}`);
    }
  });

  it('puts, deletes, adds numbers, sets and lists, and drops emptied sets', () => {
    // Prepare
    const item: Item = { n: N('3'), s: { SS: ['a', 'b'] }, l: L(N('1')), gone: S('x') };
    const plan = updateFromAttributeUpdates({
      p: { Value: S('new') },
      n: { Action: 'ADD', Value: N('4') },
      s: { Action: 'ADD', Value: { SS: ['b', 'c'] } },
      l: { Action: 'ADD', Value: L(N('2')) },
      gone: { Action: 'DELETE' },
      fresh: { Action: 'ADD', Value: { NS: ['1'] } },
    });
    // Act
    const result = plan.apply(item);
    // Assess
    expect(plain(result.item)).toEqual({
      n: N('7'),
      s: { SS: ['a', 'b', 'c'] },
      l: L(N('1'), N('2')),
      p: S('new'),
      fresh: { NS: ['1'] },
    });
    expect(
      plain(
        updateFromAttributeUpdates({ s: { Action: 'DELETE', Value: { SS: ['a', 'b'] } } }).apply(item).item,
      ),
    ).toEqual(plain({ n: N('3'), l: L(N('1')), gone: S('x') }));
    expect(plain(result.updatedOld)).toEqual(
      plain({ n: N('3'), s: { SS: ['a', 'b'] }, l: L(N('1')), gone: S('x') }),
    );
    expect(Object.keys(result.updatedNew)).toEqual(['p', 'n', 's', 'l', 'fresh']);
  });

  it('reports a clash with the stored type', () => {
    const item: Item = { b: { SS: ['1'] }, n: N('1') };
    const mismatch = 'Type mismatch for attribute to update';
    expect(
      validationMessage(() =>
        updateFromAttributeUpdates({ b: { Action: 'DELETE', Value: { NS: ['1'] } } }).apply(item),
      ),
    ).toBe(mismatch);
    expect(
      validationMessage(() =>
        updateFromAttributeUpdates({ n: { Action: 'DELETE', Value: { NS: ['1'] } } }).apply(item),
      ),
    ).toBe(mismatch);
    expect(
      validationMessage(() => updateFromAttributeUpdates({ n: { Action: 'ADD', Value: L() } }).apply(item)),
    ).toBe(mismatch);
  });

  it('says whether it only deletes, and creates nothing then', () => {
    expect(updateFromAttributeUpdates({ a: { Action: 'DELETE' } }).removesOnly).toBe(true);
    expect(updateFromAttributeUpdates({}).removesOnly).toBe(false);
    expect(updateFromAttributeUpdates({ a: { Value: N('1') } }).targets).toEqual([['a']]);
    expect(
      plain(
        updateFromAttributeUpdates({ a: { Action: 'DELETE', Value: { SS: ['x'] } } }).apply(undefined).item,
      ),
    ).toEqual({});
  });
});

describe('projectionFromAttributesToGet (docs/dynamodb.md §4.2.6)', () => {
  it('rejects duplicates and projects top-level attributes', () => {
    expect(validationMessage(() => projectionFromAttributesToGet(['a', 'b', 'a']))).toBe(
      `${invalid}Duplicate value in attribute name: a`,
    );
    const projected = projectionFromAttributesToGet(['a', '__proto__', 'q']).apply(
      JSON.parse('{"a": {"N": "1"}, "__proto__": {"S": "x"}, "b": {"N": "2"}}') as Item,
    );
    expect(Object.keys(projected)).toEqual(['a', '__proto__']);
  });
});
