import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../core/clock.js';
import type { Engine } from '../../../core/engine.js';
import { DynamoDbError } from '../../../core/errors/index.js';
import { engineWith, MUSIC } from './helpers.js';

/**
 * ExecuteTransaction: the examples of ql-reference.multiplestatements.transactions.html, and the
 * answers the conformance suite pins (paritysuite/dynamodb-conformance, DynamoDB in October 2026:
 * writeResponses, partiqlFunctions, executeStatementIndex, partiqlGrammar). BatchExecuteStatement
 * is in batch.test.ts.
 */
let engine: Engine;
let clock: VirtualClock;
beforeEach(() => {
  clock = new VirtualClock(Date.UTC(2026, 0, 1));
  engine = engineWith([MUSIC], { clock });
  engine.execute('PutItem', {
    TableName: 'Music',
    Item: { Artist: { S: 'Acme Band' }, SongTitle: { S: 'PartiQL Rocks' } },
  });
});

const transact = (TransactStatements: unknown[], extra: Record<string, unknown> = {}) =>
  engine.execute('ExecuteTransaction', { TransactStatements, ...extra });
const wire = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DynamoDbError) return error.toWire();
    throw error;
  }
  throw new Error('expected an error');
};
const stored = (artist: string, title: string) =>
  (
    engine.execute('GetItem', {
      TableName: 'Music',
      Key: { Artist: { S: artist }, SongTitle: { S: title } },
    }) as { Item?: unknown }
  ).Item;

describe('ExecuteTransaction', () => {
  const documentationExample = [
    {
      Statement: `EXISTS(SELECT * FROM Music where Artist='No One You Know' and SongTitle='Call Me Today' and Awards is  MISSING)`,
    },
    {
      Statement: `INSERT INTO Music value {'Artist':'?','SongTitle':'?'}`,
      Parameters: [{ S: 'Acme Band' }, { S: 'Best Song' }],
    },
    {
      Statement: `UPDATE Music SET AwardsWon=1 SET AwardDetail={'Grammys':[2020, 2018]}  where Artist='Acme Band' and SongTitle='PartiQL Rocks'`,
    },
  ];

  it('runs the documentation example: EXISTS as a condition check, then the writes, answering no responses', () => {
    expect(transact(documentationExample)).toEqual({ Responses: [] });
    // The example quotes its ? marks, so they are strings, and its parameters go unused.
    expect(stored('?', '?')).toEqual({ Artist: { S: '?' }, SongTitle: { S: '?' } });
    expect(stored('Acme Band', 'PartiQL Rocks')).toMatchObject({ AwardsWon: { N: '1' } });
  });

  it('cancels everything when one statement fails, with a reason per statement', () => {
    const error = wire(() =>
      transact([
        { Statement: `INSERT INTO Music value {'Artist':'T','SongTitle':'1'}` },
        { Statement: `UPDATE Music SET a = 1 WHERE Artist='Nobody' AND SongTitle='x'` },
        {
          Statement: `DELETE FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND b = 2`,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      ]),
    );
    expect(error).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      Message:
        'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, ConditionalCheckFailed]',
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
        {
          Code: 'ConditionalCheckFailed',
          Message: 'The conditional request failed',
          Item: { Artist: { S: 'Acme Band' }, SongTitle: { S: 'PartiQL Rocks' } },
        },
      ],
    });
    expect(stored('T', '1')).toBeUndefined();
  });

  // DynamoDB Local's TransactionProcessor maps a duplicate INSERT to a ValidationError reason.
  it('cancels on an INSERT of an existing key', () => {
    const error = wire(() =>
      transact([{ Statement: `INSERT INTO Music value {'Artist':'Acme Band','SongTitle':'PartiQL Rocks'}` }]),
    );
    expect(error).toMatchObject({
      CancellationReasons: [{ Code: 'ValidationError', Message: 'Duplicate primary key exists in table' }],
    });
  });

  it('reads items and answers a response per statement', () => {
    const output = transact(
      [
        { Statement: `SELECT * FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'` },
        { Statement: `SELECT Artist FROM Music WHERE Artist='Acme Band' AND SongTitle='Missing'` },
      ],
      { ReturnConsumedCapacity: 'TOTAL' },
    );
    expect(output).toEqual({
      Responses: [{ Item: { Artist: { S: 'Acme Band' }, SongTitle: { S: 'PartiQL Rocks' } } }, {}],
      ConsumedCapacity: [{ TableName: 'Music', CapacityUnits: 4 }],
    });
  });

  it('answers the conformance messages, naming the statement', () => {
    const where = `SELECT * FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND attribute_exists(ss)`;
    expect(wire(() => transact([{ Statement: where }]))).toEqual({
      __type: 'com.amazon.coral.validate#ValidationException',
      message:
        'Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify the primary key in the where clause.',
    });
    expect(wire(() => transact([{ Statement: 'SELECT * FROM Music WHERE' }]))).toEqual({
      __type: 'com.amazon.coral.validate#ValidationException',
      message:
        "Validation failed in TransactStatements[0]: Statement wasn't well formed, can't be processed: Unexpected term",
    });
    expect(
      wire(() =>
        transact([
          { Statement: `EXISTS(SELECT * FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks')` },
          { Statement: `UPDATE Music SET z = 1 WHERE Artist='x' AND SongTitle='y'` },
        ]),
      ),
    ).toEqual({
      __type: 'com.amazon.coral.validate#ValidationException',
      message:
        'Validation failed in TransactStatements[0]: EXISTS() must contain a single item read with additional condition',
    });
  });

  it('refuses reads with writes, and RETURNING', () => {
    expect(
      (
        wire(() =>
          transact([
            { Statement: `SELECT * FROM Music WHERE Artist='a' AND SongTitle='b'` },
            { Statement: `DELETE FROM Music WHERE Artist='a' AND SongTitle='b'` },
          ]),
        ) as { message: string }
      ).message,
    ).toBe('ExecuteTransaction API does not support both read and write operations in the same request.');
    expect(
      (
        wire(() =>
          transact([
            { Statement: `DELETE FROM Music WHERE Artist='a' AND SongTitle='b' RETURNING ALL OLD *` },
          ]),
        ) as { message: string }
      ).message,
    ).toBe(
      'Validation failed in TransactStatements[0]: RETURNING clause is not supported in ExecuteTransaction.',
    );
  });

  it('refuses two statements on one item with the TransactWriteItems message', () => {
    const update = {
      Statement: `UPDATE Music SET a = 1 WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'`,
    };
    expect((wire(() => transact([update, update])) as { message: string }).message).toBe(
      'Transaction request cannot include multiple operations on one item',
    );
  });

  it('shares ClientRequestToken idempotency with TransactWriteItems', () => {
    const statements = [
      { Statement: `UPDATE Music SET n = 1 WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'` },
    ];
    transact(statements, { ClientRequestToken: 'token-1' });
    engine.execute('PutItem', {
      TableName: 'Music',
      Item: { Artist: { S: 'Acme Band' }, SongTitle: { S: 'PartiQL Rocks' } },
    });
    // A repeat within 10 minutes succeeds without effect.
    expect(transact(statements, { ClientRequestToken: 'token-1' })).toEqual({ Responses: [] });
    expect(stored('Acme Band', 'PartiQL Rocks')).toEqual({
      Artist: { S: 'Acme Band' },
      SongTitle: { S: 'PartiQL Rocks' },
    });
    expect(
      wire(() =>
        transact([{ Statement: `DELETE FROM Music WHERE Artist='a' AND SongTitle='b'` }], {
          ClientRequestToken: 'token-1',
        }),
      ),
    ).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException',
      message:
        'One or more parameter values were invalid: The ClientRequestToken was used with different parameters within the idempotency window',
    });
    clock.set(clock.now() + 11 * 60 * 1000);
    transact(statements, { ClientRequestToken: 'token-1' });
    expect(stored('Acme Band', 'PartiQL Rocks')).toMatchObject({ n: { N: '1' } });
  });
});
