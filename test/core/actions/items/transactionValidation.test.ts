import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../../core/engine.js';
import { validation, wireError } from '../../../helpers/errors.js';
import { addTable } from '../../../helpers/tables.js';

/**
 * The 2026 texts and outcomes of transactions with bad keys and names (docs/dynamodb.md §7.3.1,
 * §7.3.6), recorded by nubo-db/dynamodb-conformance (tests/tier3/error-messages/
 * transactGetItems.test.ts, transactWriteItems.test.ts) and moto's aws_verified
 * test_dynamodb_transactions.py.
 */
let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  addTable(engine, 'Orders', ['id', 'S']);
});

const emptyKey =
  'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: id';
const get = (Key: unknown) => ({ Get: { TableName: 'Orders', Key } });
const cancelled = (codes: string[]) =>
  `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`;

describe('TransactGetItems keys', () => {
  it.each([
    ['no key attribute', {}],
    ['another attribute', { other: { S: 'x' } }],
    ['the wrong type', { id: { N: '1' } }],
  ])('cancels on a key with %s: a ValidationError reason for that Get', (_, key) => {
    const error = wireError(() =>
      engine.execute('TransactGetItems', { TransactItems: [get({ id: { S: 'a' } }), get(key)] }),
    );
    expect(error).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      Message: cancelled(['None', 'ValidationError']),
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'ValidationError', Message: 'The provided key element does not match the schema' },
      ],
    });
  });

  it('gives the reason to the first bad Get only', () => {
    const error = wireError(() =>
      engine.execute('TransactGetItems', { TransactItems: [get({}), get({ other: { S: 'x' } })] }),
    );
    expect(error.CancellationReasons).toEqual([
      { Code: 'ValidationError', Message: 'The provided key element does not match the schema' },
      { Code: 'None' },
    ]);
  });

  it('refuses the whole request for an empty key value, before any per-Get reason', () => {
    expect(
      wireError(() =>
        engine.execute('TransactGetItems', { TransactItems: [get({}), get({ id: { S: '' } })] }),
      ),
    ).toEqual(validation(emptyKey));
  });

  it('names the Get member of a bad table name', () => {
    expect(
      wireError(() =>
        engine.execute('TransactGetItems', {
          TransactItems: [{ Get: { TableName: 'bad!name', Key: { id: { S: 'a' } } } }],
        }),
      ),
    ).toEqual(
      validation(
        "1 validation error detected: Value 'bad!name' at 'transactItems.1.member.get.tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
      ),
    );
  });
});

describe('TransactWriteItems keys and actions', () => {
  it('refuses an empty key value before finding two actions on one item (moto aws_verified)', () => {
    expect(
      wireError(() =>
        engine.execute('TransactWriteItems', {
          TransactItems: [
            { Put: { TableName: 'Orders', Item: { id: { S: 'a' } } } },
            { Delete: { TableName: 'Orders', Key: { id: { S: 'a' } } } },
            {
              Update: {
                TableName: 'Orders',
                Key: { id: { S: '' } },
                UpdateExpression: 'SET n = :n',
                ExpressionAttributeValues: { ':n': { N: '1' } },
              },
            },
          ],
        }),
      ),
    ).toEqual(validation(emptyKey));
  });

  it('refuses an action with no Put, Update, Delete or ConditionCheck in the 2026 words', () => {
    expect(wireError(() => engine.execute('TransactWriteItems', { TransactItems: [{}] }))).toEqual(
      validation(
        "1 validation error detected: Value '' at 'transactItems' failed to satisfy constraint: TransactWriteRequest should contain Delete or Put or Update or ConditionCheck",
      ),
    );
  });

  it.each(['put', 'delete', 'update', 'conditionCheck'])(
    'names the %s member of a bad table name',
    (member) => {
      const action = member[0]!.toUpperCase() + member.slice(1);
      const body: Record<string, unknown> = { TableName: 'bad!name' };
      if (member === 'put') body.Item = { id: { S: 'a' } };
      else body.Key = { id: { S: 'a' } };
      if (member === 'update') body.UpdateExpression = 'SET n = :n';
      if (member === 'update') body.ExpressionAttributeValues = { ':n': { N: '1' } };
      if (member === 'conditionCheck') body.ConditionExpression = 'attribute_exists(id)';
      expect(
        wireError(() => engine.execute('TransactWriteItems', { TransactItems: [{ [action]: body }] })),
      ).toEqual(
        validation(
          `1 validation error detected: Value 'bad!name' at 'transactItems.1.member.${member}.tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`,
        ),
      );
    },
  );
});
