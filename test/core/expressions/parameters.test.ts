import { describe, expect, it } from 'vitest';
import {
  checkExpressionAttributeNames,
  checkExpressionAttributeValues,
  checkExpressionParameters,
} from '../../../core/expressions/index.js';
import type { AttributeMap } from '../../../core/model/attributeValue.js';
import { AttributeMessages } from '../../../core/model/parseAttributeValue.js';
import { N, S, scope, validationMessage } from './helpers.js';

describe('checkExpressionParameters: mixed parameters (docs/dynamodb.md §5.4.2)', () => {
  const mixed = (legacy: string, expressions: string) =>
    `Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {${legacy}} Expression parameters: {${expressions}}`;

  it('lists both sides in the canonical order for UpdateItem', () => {
    const input = {
      Expected: { a: {} },
      AttributeUpdates: {},
      ExpressionAttributeNames: {},
      ExpressionAttributeValues: {},
      ConditionExpression: '',
      UpdateExpression: '',
    };
    expect(validationMessage(() => checkExpressionParameters('UpdateItem', input))).toBe(
      mixed('AttributeUpdates, Expected', 'UpdateExpression, ConditionExpression'),
    );
  });

  it('lists Query parameters in order and leaves KeyConditions out without a KeyConditionExpression', () => {
    const input = {
      KeyConditionExpression: 'a = :a',
      FilterExpression: 'b = :b',
      ProjectionExpression: 'c',
      KeyConditions: {},
      ConditionalOperator: 'AND',
      QueryFilter: {},
      AttributesToGet: ['x'],
    };
    expect(validationMessage(() => checkExpressionParameters('Query', input))).toBe(
      mixed(
        'AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions',
        'ProjectionExpression, FilterExpression, KeyConditionExpression',
      ),
    );
    expect(() =>
      checkExpressionParameters('Query', { KeyConditions: {}, FilterExpression: 'a = :a' }),
    ).not.toThrow();
    expect(
      validationMessage(() =>
        checkExpressionParameters('Scan', { ScanFilter: {}, ProjectionExpression: 'a' }),
      ),
    ).toBe(mixed('ScanFilter', 'ProjectionExpression'));
  });

  it('covers PutItem, DeleteItem, GetItem, BatchGetItem entries and caller-defined rules', () => {
    expect(
      validationMessage(() =>
        checkExpressionParameters('PutItem', { Expected: {}, ConditionExpression: 'a' }),
      ),
    ).toBe(mixed('Expected', 'ConditionExpression'));
    expect(
      validationMessage(() =>
        checkExpressionParameters('DeleteItem', { Expected: {}, ConditionExpression: '' }),
      ),
    ).toBe(mixed('Expected', 'ConditionExpression'));
    expect(
      validationMessage(() =>
        checkExpressionParameters('GetItem', { AttributesToGet: ['a'], ProjectionExpression: 'a' }),
      ),
    ).toBe(mixed('AttributesToGet', 'ProjectionExpression'));
    expect(
      validationMessage(() =>
        checkExpressionParameters('BatchGetItem.RequestItems', {
          AttributesToGet: ['a'],
          ProjectionExpression: 'a',
        }),
      ),
    ).toBe(mixed('AttributesToGet', 'ProjectionExpression'));
    expect(
      validationMessage(() =>
        checkExpressionParameters('BatchGetItem', { ExpressionAttributeNames: { '#a': 'a' } }),
      ),
    ).toBe('ExpressionAttributeNames can only be specified when using expressions');
    expect(
      validationMessage(() =>
        checkExpressionParameters({ operation: 'X', expressions: ['E'], legacy: ['L'] }, { L: 1, E: 'e' }),
      ),
    ).toBe(mixed('L', 'E'));
    expect(() =>
      checkExpressionParameters('ListTables', { Expected: {}, ConditionExpression: '' }),
    ).not.toThrow();
  });

  it('treats null members as absent', () => {
    expect(() =>
      checkExpressionParameters('PutItem', { Expected: null, ConditionExpression: 'a' }),
    ).not.toThrow();
  });
});

describe('checkExpressionParameters: names and values without expressions (docs/dynamodb.md §5.1.6)', () => {
  it('rejects ExpressionAttributeNames without any expression', () => {
    const message = 'ExpressionAttributeNames can only be specified when using expressions';
    expect(
      validationMessage(() => checkExpressionParameters('GetItem', { ExpressionAttributeNames: {} })),
    ).toBe(message);
    expect(
      validationMessage(() =>
        checkExpressionParameters('UpdateItem', {
          Expected: {},
          ExpressionAttributeNames: {},
          ExpressionAttributeValues: {},
        }),
      ),
    ).toBe(message);
    expect(() =>
      checkExpressionParameters('GetItem', { ExpressionAttributeNames: {}, ProjectionExpression: '' }),
    ).not.toThrow();
  });

  // PutItem, DeleteItem and UpdateItem moved to the newer framework: no suffix (and, from the
  // engine, the `1 validation error detected: ` prefix). nubo-db/dynamodb-conformance
  // tests/tier3/error-messages/putItem.test.ts, eu-west-2 and us-east-1, 2026-10-09.
  it.each(['PutItem', 'DeleteItem', 'UpdateItem'])(
    'rejects ExpressionAttributeValues without an expression in %s, without the suffix (2026)',
    (operation) => {
      expect(
        validationMessage(() =>
          checkExpressionParameters(operation, { ExpressionAttributeValues: {}, ProjectionExpression: 'a' }),
        ),
      ).toBe('ExpressionAttributeValues can only be specified when using expressions');
    },
  );

  it.each([
    ['Query', 'FilterExpression and KeyConditionExpression are null'],
    ['Scan', 'FilterExpression is null'],
    ['TransactWriteItems.Update', 'UpdateExpression and ConditionExpression are null'],
  ])('rejects ExpressionAttributeValues without a value-taking expression in %s', (operation, list) => {
    expect(
      validationMessage(() =>
        checkExpressionParameters(operation, { ExpressionAttributeValues: {}, ProjectionExpression: 'a' }),
      ),
    ).toBe(`ExpressionAttributeValues can only be specified when using expressions: ${list}`);
  });
});

describe('checkExpressionAttributeNames (docs/dynamodb.md §5.1.5)', () => {
  it('rejects an empty map, bad keys, and keys over 255 bytes', () => {
    expect(validationMessage(() => checkExpressionAttributeNames({}))).toBe(
      'ExpressionAttributeNames must not be empty',
    );
    expect(validationMessage(() => checkExpressionAttributeNames({ '#a': 'a', a: 'a' }))).toBe(
      'ExpressionAttributeNames contains invalid key: Syntax error; key: "a"',
    );
    expect(validationMessage(() => checkExpressionAttributeNames({ '#': 'a' }))).toBe(
      'ExpressionAttributeNames contains invalid key: Syntax error; key: "#"',
    );
    expect(validationMessage(() => checkExpressionAttributeNames({ [`#${'a'.repeat(255)}`]: 'a' }))).toBe(
      'ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 256',
    );
  });

  it('rejects an empty name or one over 65,535 UTF-8 bytes, after the key checks (docs/dynamodb.md §2.5.4)', () => {
    // DynamoDB Local's InputConverter: `ExpressionAttributeNames contains invalid value: <problem>
    // for key <key>`; ScyllaDB's test_limits.py (against DynamoDB) expects the limit in the text.
    expect(validationMessage(() => checkExpressionAttributeNames({ '#a': 'a', '#b': '' }))).toBe(
      'ExpressionAttributeNames contains invalid value: Empty attribute name for key #b',
    );
    expect(validationMessage(() => checkExpressionAttributeNames({ '#a': 'é'.repeat(32_768) }))).toBe(
      'ExpressionAttributeNames contains invalid value: Attribute name is too large, must be less than 65536 bytes for key #a',
    );
    expect(validationMessage(() => checkExpressionAttributeNames({ '#a': '', b: 'x' }))).toBe(
      'ExpressionAttributeNames contains invalid value: Empty attribute name for key #a',
    );
    expect(validationMessage(() => checkExpressionAttributeNames({ b: '', '#a': 'x' }))).toBe(
      'ExpressionAttributeNames contains invalid key: Syntax error; key: "b"',
    );
    expect(() => checkExpressionAttributeNames({ '#a': `${'é'.repeat(32_767)}a` })).not.toThrow();
  });

  it('accepts absent maps and keys made of letters, digits and underscores', () => {
    expect(() => checkExpressionAttributeNames(undefined)).not.toThrow();
    expect(() =>
      checkExpressionAttributeNames({
        '#1': 'a',
        '#_': 'b',
        '#__proto__': 'c',
        [`#${'a'.repeat(254)}`]: 'd',
      }),
    ).not.toThrow();
  });
});

describe('checkExpressionAttributeValues (docs/dynamodb.md §5.1.5, §9.2)', () => {
  const values = (entries: Record<string, unknown>) => entries as AttributeMap;

  it('rejects an empty map and bad keys', () => {
    expect(validationMessage(() => checkExpressionAttributeValues(values({}), undefined))).toBe(
      'ExpressionAttributeValues must not be empty',
    );
    expect(
      validationMessage(() => checkExpressionAttributeValues(values({ ':b': S('a'), b: S('a') }), undefined)),
    ).toBe('ExpressionAttributeValues contains invalid key: Syntax error; key: "b"');
  });

  it('wraps the first AttributeValue problem with its key', () => {
    // Prepare: the deserializer dropped the invalid entry and kept its first problem.
    const problem = { message: AttributeMessages.empty, key: ':b' };
    // Assess
    expect(validationMessage(() => checkExpressionAttributeValues(values({}), problem))).toBe(
      'ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key :b',
    );
    expect(
      validationMessage(() =>
        checkExpressionAttributeValues(values({ ':a': N('1') }), {
          message: 'The parameter cannot be converted to a numeric value: b',
          key: ':b',
        }),
      ),
    ).toBe(
      'ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric value: b for key :b',
    );
  });

  it('reports a bad key before a bad value, even when the bad value is under that key', () => {
    expect(
      validationMessage(() =>
        checkExpressionAttributeValues(values({}), { message: AttributeMessages.empty, key: 'b' }),
      ),
    ).toBe('ExpressionAttributeValues contains invalid key: Syntax error; key: "b"');
  });

  it('reports an empty set without the wrapper for PutItem, UpdateItem and DeleteItem only', () => {
    const problem = { message: AttributeMessages.emptyStringSet, key: ':s' };
    expect(validationMessage(() => checkExpressionAttributeValues(values({}), problem))).toBe(
      'One or more parameter values were invalid: An string set  may not be empty',
    );
    expect(validationMessage(() => checkExpressionAttributeValues(values({}), problem, 'UpdateItem'))).toBe(
      'One or more parameter values were invalid: An string set  may not be empty',
    );
    expect(validationMessage(() => checkExpressionAttributeValues(values({}), problem, 'Query'))).toBe(
      'ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :s',
    );
  });
});

describe('ExpressionScope.checkUnused (docs/dynamodb.md §5.1.7)', () => {
  it('reports unused names before unused values, across all parsed expressions', () => {
    // Prepare
    const names = { '#a': 'a', '#b': 'b', '#c': 'c' };
    const values = { ':a': S('a'), ':b': S('a'), ':c': S('c') };
    const requestScope = scope(names, values);
    // Act
    requestScope.parseUpdate('REMOVE #a SET b = list_append(b, if_not_exists(a, :a))');
    requestScope.parseCondition('a = :b', 'Condition');
    // Assess
    expect(validationMessage(() => requestScope.checkUnused())).toBe(
      'Value provided in ExpressionAttributeNames unused in expressions: keys: {#b, #c}',
    );
  });

  it('reports unused values once names are all used, counting projections and short-circuited branches', () => {
    const requestScope = scope({ '#p': 'p', '#n': 'n' }, { ':a': N('1'), ':b': N('2'), ':c': N('3') });
    requestScope.parseCondition('#n = :a OR #n = :b', 'Filter');
    requestScope.parseProjection('#p');
    expect(validationMessage(() => requestScope.checkUnused())).toBe(
      'Value provided in ExpressionAttributeValues unused in expressions: keys: {:c}',
    );
  });

  it('passes when everything is used, and looks names up as own properties only', () => {
    const requestScope = scope({ '#__proto__': '__proto__' }, { ':constructor': N('1') });
    requestScope.parseUpdate('SET #__proto__ = :constructor');
    expect(() => requestScope.checkUnused()).not.toThrow();
    expect(validationMessage(() => scope({}).parseProjection('#toString'))).toMatch(
      /attribute name: #toString$/,
    );
    expect(
      validationMessage(() => scope(undefined, {}).parseCondition('a = :constructor', 'Condition')),
    ).toMatch(/attribute value: :constructor$/);
  });
});
