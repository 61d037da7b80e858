import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../core/clock.js';
import { Engine } from '../../../core/engine.js';
import { ChangeLog } from '../../../streams/changeLog.js';
import { StreamsService } from '../../../streams/streamsApi/streamsService.js';
import { readStreamRecords } from '../../helpers/streamRecords.js';

/**
 * A PartiQL write is a write like any other (docs/partiql.md §3.3): the same commit point, so the
 * same stream records and the same index entries as PutItem, UpdateItem and DeleteItem.
 */
function table(name: string) {
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'S' },
      { AttributeName: 'status', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'ByStatus',
        KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

function setup() {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const engine = new Engine({ clock });
  const changeLog = ChangeLog.attach(engine);
  const streams = new StreamsService(changeLog);
  engine.execute('CreateTable', table('Native'));
  engine.execute('CreateTable', table('Partiql'));
  return { engine, streams };
}

/** A record without what differs between two tables: ids, sequence numbers, ARNs. */
function comparable(record: Record<string, unknown>): Record<string, unknown> {
  const {
    eventID: _id,
    eventSourceARN: _arn,
    dynamodb,
    ...rest
  } = record as Record<string, unknown> & {
    dynamodb: Record<string, unknown>;
  };
  const { SequenceNumber: _sequence, ...data } = dynamodb;
  return { ...rest, dynamodb: data };
}

describe('PartiQL writes through the engine', () => {
  it('produce the stream records and index entries of the native writes', () => {
    const { engine, streams } = setup();
    const key = { pk: { S: 'order#1' }, sk: { S: 'line#1' } };
    engine.execute('PutItem', {
      TableName: 'Native',
      Item: { ...key, status: { S: 'new' }, n: { N: '1' }, note: { S: 'x' } },
    });
    engine.execute('ExecuteStatement', {
      Statement: `INSERT INTO Partiql VALUE {'pk': 'order#1', 'sk': 'line#1', 'status': 'new', 'n': 1, 'note': 'x'}`,
    });
    engine.execute('UpdateItem', {
      TableName: 'Native',
      Key: key,
      UpdateExpression: 'SET #s = :s, n = n + :one REMOVE note',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': { S: 'done' }, ':one': { N: '1' } },
    });
    engine.execute('ExecuteStatement', {
      Statement: `UPDATE Partiql SET status = ?, n = n + 1 REMOVE note WHERE pk = 'order#1' AND sk = 'line#1'`,
      Parameters: [{ S: 'done' }],
    });

    const byStatus = (name: string) =>
      engine.execute('Query', {
        TableName: name,
        IndexName: 'ByStatus',
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': { S: 'done' } },
      });
    expect(byStatus('Partiql')).toEqual(byStatus('Native'));
    expect((byStatus('Partiql') as { Count: number }).Count).toBe(1);
    expect(
      engine.execute('ExecuteStatement', {
        Statement: `SELECT * FROM "Partiql"."ByStatus" WHERE status = 'done'`,
      }).Items,
    ).toEqual((byStatus('Native') as { Items: unknown[] }).Items);

    engine.execute('DeleteItem', { TableName: 'Native', Key: key });
    engine.execute('ExecuteStatement', {
      Statement: `DELETE FROM Partiql WHERE pk = 'order#1' AND sk = 'line#1'`,
    });

    const records = (name: string) =>
      readStreamRecords(streams, engine.region().tables.get(name)!.stream!.arn).map(comparable);
    const native = records('Native');
    expect(native.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(records('Partiql')).toEqual(native);
    expect((byStatus('Partiql') as { Count: number }).Count).toBe(0);
  });

  it('charges the capacity of the native writes', () => {
    const { engine } = setup();
    const item = { pk: { S: 'p' }, sk: { S: 's' }, status: { S: 'new' }, big: { S: 'x'.repeat(3000) } };
    const native = engine.execute('PutItem', {
      TableName: 'Native',
      Item: item,
      ReturnConsumedCapacity: 'INDEXES',
    });
    const partiql = engine.execute('ExecuteStatement', {
      Statement: `INSERT INTO Partiql VALUE {'pk': 'p', 'sk': 's', 'status': 'new', 'big': ?}`,
      Parameters: [item.big],
      ReturnConsumedCapacity: 'INDEXES',
    });
    expect(partiql.ConsumedCapacity).toEqual({
      ...(native.ConsumedCapacity as object),
      TableName: 'Partiql',
    });
  });

  it('keep the TTL expiry index as the native writes do, so the ttl-expirer deletes what they wrote', () => {
    const { engine } = setup();
    for (const name of ['Native', 'Partiql'])
      engine.execute('UpdateTimeToLive', {
        TableName: name,
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      });
    const past = Date.UTC(2025, 11, 31) / 1000;
    for (const sk of ['a', 'b', 'c'])
      engine.execute('PutItem', {
        TableName: 'Native',
        Item: { pk: { S: 'p' }, sk: { S: sk }, expiresAt: { N: String(past) } },
      });
    engine.execute('UpdateItem', {
      TableName: 'Native',
      Key: { pk: { S: 'p' }, sk: { S: 'b' } },
      UpdateExpression: 'REMOVE expiresAt',
    });
    engine.execute('DeleteItem', { TableName: 'Native', Key: { pk: { S: 'p' }, sk: { S: 'c' } } });
    engine.execute('BatchExecuteStatement', {
      Statements: ['a', 'b', 'c'].map((sk) => ({
        Statement: `INSERT INTO Partiql VALUE {'pk': 'p', 'sk': ?, 'expiresAt': ?}`,
        Parameters: [{ S: sk }, { N: String(past) }],
      })),
    });
    engine.execute('ExecuteStatement', {
      Statement: `UPDATE Partiql REMOVE expiresAt WHERE pk = 'p' AND sk = 'b'`,
    });
    engine.execute('ExecuteStatement', { Statement: `DELETE FROM Partiql WHERE pk = 'p' AND sk = 'c'` });
    const expired = (name: string) => {
      const index = engine.region().tables.get(name)!.expiryIndex!;
      return [...index.expired(engine.clock.now())].length;
    };
    expect(expired('Native')).toBe(1);
    expect(expired('Partiql')).toBe(1);
  });
});
