import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../core/clock.js';
import type { Engine } from '../../../core/engine.js';
import { DynamoDbError } from '../../../core/errors/index.js';
import { engineWith, MUSIC } from './helpers.js';

/**
 * BatchExecuteStatement: the example of ql-reference.multiplestatements.batching.html and the
 * answers the conformance suites pin (paritysuite/dynamodb-conformance partiqlFunctions,
 * executeStatementIndex, partiqlGrammar; nubo-db/dynamodb-conformance
 * tests/tier2/partiql/batchExecuteStatement.test.ts, DynamoDB in eu-west-2, 2026).
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

const batch = (Statements: unknown[], extra: Record<string, unknown> = {}) =>
  engine.execute('BatchExecuteStatement', { Statements, ...extra }) as {
    Responses: Record<string, unknown>[];
  } & Record<string, unknown>;
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

describe('BatchExecuteStatement', () => {
  it('runs the documentation example, answering each statement in order', () => {
    const output = batch([
      {
        Statement: `INSERT INTO Music value {'Artist':?,'SongTitle':?}`,
        Parameters: [{ S: 'Acme Band' }, { S: 'Best Song' }],
      },
      {
        Statement: `UPDATE Music SET AwardsWon=1 SET AwardDetail={'Grammys':[2020, 2018]}  where Artist='Acme Band' and SongTitle='PartiQL Rocks'`,
      },
      {
        Statement: `UPDATE Music set AwardDetail.BillBoard=[2020] where Artist='Acme Band' and SongTitle='PartiQL Rocks'`,
      },
    ]);
    expect(output).toEqual({
      Responses: [{ TableName: 'Music' }, { TableName: 'Music' }, { TableName: 'Music' }],
    });
    expect(stored('Acme Band', 'Best Song')).toBeDefined();
    expect(stored('Acme Band', 'PartiQL Rocks')).toMatchObject({
      AwardsWon: { N: '1' },
      AwardDetail: { M: { BillBoard: { L: [{ N: '2020' }] } } },
    });
  });

  it('answers per-statement errors with their codes and keeps the other writes', () => {
    const output = batch([
      { Statement: `INSERT INTO Music value {'Artist':'Acme Band','SongTitle':'PartiQL Rocks'}` },
      { Statement: `UPDATE Music SET a = 1 WHERE Artist='Nobody' AND SongTitle='x'` },
      {
        Statement: `UPDATE Music SET a = 1 WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND b = 1`,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
      { Statement: `INSERT INTO Nope value {'a':'b'}` },
      { Statement: `DELETE FROM Music WHERE` },
      { Statement: `INSERT INTO Music value {'Artist':'New','SongTitle':'One'}` },
    ]);
    expect(output.Responses).toEqual([
      {
        Error: { Code: 'DuplicateItem', Message: 'Duplicate primary key exists in table' },
        TableName: 'Music',
      },
      {
        Error: { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
        TableName: 'Music',
      },
      // No Item, though asked: the option is inert on a batch member (nubo-db conformance
      // batchExecuteStatement.test.ts, with TransactWriteItems' ConditionCheck as the control).
      {
        Error: { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
        TableName: 'Music',
      },
      { Error: { Code: 'ResourceNotFound', Message: 'Requested resource not found' } },
      {
        Error: {
          Code: 'ValidationError',
          Message: "Statement wasn't well formed, can't be processed: Unexpected term",
        },
      },
      { TableName: 'Music' },
    ]);
    expect(stored('New', 'One')).toBeDefined();
  });

  it('reads items by their full key and refuses other reads per statement', () => {
    const output = batch(
      [
        { Statement: `SELECT * FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'` },
        {
          Statement: `SELECT SongTitle FROM Music WHERE Artist=? AND SongTitle=?`,
          Parameters: [{ S: 'Acme Band' }, { S: 'Missing' }],
        },
        { Statement: `SELECT * FROM Music WHERE Artist='Acme Band'` },
        {
          Statement: `SELECT * FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND attribute_exists(ss)`,
        },
      ],
      { ReturnConsumedCapacity: 'TOTAL' },
    );
    const refused = {
      Error: {
        Code: 'ValidationError',
        Message:
          'Select statements within BatchExecuteStatement must specify the primary key in the where clause.',
      },
    };
    expect(output).toEqual({
      Responses: [
        { TableName: 'Music', Item: { Artist: { S: 'Acme Band' }, SongTitle: { S: 'PartiQL Rocks' } } },
        { TableName: 'Music' },
        refused,
        refused,
      ],
      ConsumedCapacity: [{ TableName: 'Music', CapacityUnits: 1 }],
    });
  });

  // nubo-db conformance batchExecuteStatement.test.ts ("honours a RETURNING clause…", eu-west-2).
  it('answers what a RETURNING clause asks for as the statement Item', () => {
    const key = `Artist='Acme Band' AND SongTitle='PartiQL Rocks'`;
    engine.execute('PutItem', {
      TableName: 'Music',
      Item: { Artist: { S: 'Gone' }, SongTitle: { S: 'Song' }, Year: { N: '1999' } },
    });
    const output = batch([
      { Statement: `UPDATE Music SET Genre = 'Rock' WHERE ${key} RETURNING ALL NEW *` },
      { Statement: `UPDATE Music SET Genre = 'Pop' WHERE ${key} RETURNING MODIFIED NEW *` },
      // An empty MODIFIED projection has no Item at all, not an empty one.
      { Statement: `UPDATE Music REMOVE Extra WHERE ${key} RETURNING MODIFIED OLD *` },
      { Statement: `DELETE FROM Music WHERE Artist='Gone' AND SongTitle='Song' RETURNING ALL OLD *` },
      { Statement: `DELETE FROM Music WHERE Artist='Gone' AND SongTitle='Song' RETURNING ALL OLD *` },
      { Statement: `DELETE FROM Music WHERE Artist='Gone' AND SongTitle='Song' RETURNING MODIFIED OLD *` },
    ]);
    expect(output.Responses).toEqual([
      {
        TableName: 'Music',
        Item: { Artist: { S: 'Acme Band' }, Genre: { S: 'Rock' }, SongTitle: { S: 'PartiQL Rocks' } },
      },
      { TableName: 'Music', Item: { Genre: { S: 'Pop' } } },
      { TableName: 'Music' },
      {
        TableName: 'Music',
        Item: { Artist: { S: 'Gone' }, SongTitle: { S: 'Song' }, Year: { N: '1999' } },
      },
      { TableName: 'Music' },
      {
        Error: {
          Code: 'ValidationError',
          Message:
            'Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements.',
        },
      },
    ]);
    expect(stored('Gone', 'Song')).toBeUndefined();
  });

  // nubo-db conformance batchExecuteStatement.test.ts: "TableName is echoed on a member that ran and
  // failed, and absent on one rejected before it ran" (moto's mock-only test_without_primary_key_in
  // _where_clause names the table; the recording against the service wins).
  it('names the table of a statement that ran and failed, not of one refused before it ran', () => {
    const output = batch([
      { Statement: `SELECT * FROM Music WHERE Genre = 'Rock'` },
      { Statement: `SELECT * FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'` },
    ]);
    expect(output.Responses[0]).toEqual({
      Error: {
        Code: 'ValidationError',
        Message:
          'Select statements within BatchExecuteStatement must specify the primary key in the where clause.',
      },
    });
    expect(output.Responses[1]).toMatchObject({ TableName: 'Music', Item: {} });
    expect(
      batch([
        { Statement: `DELETE FROM Music WHERE Artist='Acme Band'` },
        {
          Statement: `UPDATE Music SET a = 1 WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND b = 2`,
        },
      ]).Responses,
    ).toEqual([
      {
        Error: {
          Code: 'ValidationError',
          Message: 'Where clause does not contain a mandatory equality on all key attributes',
        },
      },
      {
        Error: { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
        TableName: 'Music',
      },
    ]);
  });

  // nubo-db conformance batchExecuteStatement.test.ts ("ConsistentRead is honoured per member").
  it('rates each read on its own ConsistentRead', () => {
    const total = (statements: Record<string, unknown>[]) =>
      (
        batch(statements, { ReturnConsumedCapacity: 'TOTAL' }).ConsumedCapacity as { CapacityUnits: number }[]
      )[0]!.CapacityUnits;
    const read = {
      Statement: `SELECT * FROM Music WHERE Artist=? AND SongTitle=?`,
      Parameters: [{ S: 'Acme Band' }, { S: 'PartiQL Rocks' }],
    };
    expect(total([read])).toBe(0.5);
    expect(total([{ ...read, ConsistentRead: false }])).toBe(0.5);
    expect(total([{ ...read, ConsistentRead: true }])).toBe(1);
    expect(total([{ ...read, ConsistentRead: true }, read])).toBe(1.5);
  });

  // DynamoDB Local's BatchExecuteStatementFunction (unverified against the service).
  it('refuses reads and writes together', () => {
    expect(
      wire(() =>
        batch([
          { Statement: `SELECT * FROM Music WHERE Artist='a' AND SongTitle='b'` },
          { Statement: `DELETE FROM Music WHERE Artist='a' AND SongTitle='b'` },
        ]),
      ),
    ).toEqual({
      __type: 'com.amazon.coral.validate#ValidationException',
      message: 'Read and write requests together in the same batch is not supported.',
    });
  });

  it('takes at most 25 statements', () => {
    const statements = Array.from({ length: 26 }, () => ({
      Statement: `SELECT * FROM Music WHERE Artist='a' AND SongTitle='b'`,
    }));
    expect((wire(() => batch(statements)) as { message: string }).message).toContain(
      'Member must have length less than or equal to 25',
    );
  });
});
