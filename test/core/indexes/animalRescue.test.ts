import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../core/clock.js';
import { Engine } from '../../../core/engine.js';
import { validation, wireError } from '../../helpers/tables.js';

/**
 * The animal rescue of http://rory.horse/posts/dynamo-dissected-schema/, verbatim: an animal rescue adds
 * an `animal_type` index (type HASH, admitted RANGE N) to a table whose items disagree about
 * `admitted`.
 */
let engine: Engine;
let clock: VirtualClock;

beforeEach(() => {
  clock = new VirtualClock();
  engine = new Engine({ clock });
  engine.execute('CreateTable', {
    TableName: 'schema-demo',
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'ix_pk', AttributeType: 'S' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'gsi',
        KeySchema: [{ AttributeName: 'ix_pk', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  });
  engine.execute('BatchWriteItem', {
    RequestItems: {
      'schema-demo': [
        {
          PutRequest: {
            Item: {
              pk: { S: 'FRE001' },
              type: { S: 'Dog' },
              name: { S: 'Freddie' },
              admitted: { N: '174099600' },
            },
          },
        },
        {
          PutRequest: {
            Item: {
              pk: { S: 'ZUZ001' },
              type: { S: 'Dog' },
              name: { S: 'Zuzi' },
              admitted: { S: '1672563600' },
            },
          },
        },
        {
          PutRequest: {
            Item: {
              pk: { S: 'OTI001' },
              type: { S: 'Rat' },
              name: { S: 'Otis' },
              admitted: { S: '2024-03-27T07:00:00+0000' },
            },
          },
        },
        { PutRequest: { Item: { pk: { S: 'ED_001' }, type: { S: 'Rat' }, name: { S: 'Ed' } } } },
      ],
    },
  });
  engine.execute('UpdateTable', {
    TableName: 'schema-demo',
    AttributeDefinitions: [
      { AttributeName: 'type', AttributeType: 'S' },
      { AttributeName: 'admitted', AttributeType: 'N' },
    ],
    GlobalSecondaryIndexUpdates: [
      {
        Create: {
          IndexName: 'animal_type',
          KeySchema: [
            { AttributeName: 'type', KeyType: 'HASH' },
            { AttributeName: 'admitted', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      },
    ],
  });
});

describe('animal_type index added to existing data (rory.horse)', () => {
  it('backfills only the item whose admitted is a number', () => {
    const result = engine.execute('Scan', { TableName: 'schema-demo', IndexName: 'animal_type' });
    expect(result).toMatchObject({ Count: 1, ScannedCount: 1 });
    expect(result.Items).toEqual([
      { pk: { S: 'FRE001' }, admitted: { N: '174099600' }, name: { S: 'Freddie' }, type: { S: 'Dog' } },
    ]);
    expect(engine.execute('Scan', { TableName: 'schema-demo' }).Count).toBe(4);
  });

  it('rejects an update that does not fix a violating item: "...secondary index key to unsupported type"', () => {
    const error = wireError(() =>
      engine.execute('UpdateItem', {
        TableName: 'schema-demo',
        Key: { pk: { S: 'ZUZ001' } },
        UpdateExpression: 'SET temperament = :temperament',
        ExpressionAttributeValues: { ':temperament': { S: 'FRIENDLY' } },
      }),
    );
    expect(error).toEqual(
      validation('The update expression attempted to update the secondary index key to unsupported type'),
    );
  });

  it('rejects putting the violating item back unmodified, naming the key, the types and the index', () => {
    const error = wireError(() =>
      engine.execute('PutItem', {
        TableName: 'schema-demo',
        Item: { admitted: { S: '1672563600' }, pk: { S: 'ZUZ001' }, name: { S: 'Zuzi' }, type: { S: 'Dog' } },
      }),
    );
    expect(error).toEqual(
      validation(
        'One or more parameter values were invalid: Type mismatch for Index Key admitted Expected: N Actual: S IndexName: animal_type',
      ),
    );
  });

  it('still reads and deletes violating items', () => {
    expect(
      engine.execute('GetItem', { TableName: 'schema-demo', Key: { pk: { S: 'OTI001' } } }),
    ).toHaveProperty('Item');
    expect(engine.execute('DeleteItem', { TableName: 'schema-demo', Key: { pk: { S: 'OTI001' } } })).toEqual(
      {},
    );
  });

  it('accepts a write that fixes the violation, and the item joins the index', () => {
    engine.execute('UpdateItem', {
      TableName: 'schema-demo',
      Key: { pk: { S: 'ZUZ001' } },
      UpdateExpression: 'SET admitted = :a',
      ExpressionAttributeValues: { ':a': { N: '1672563600' } },
    });
    engine.execute('UpdateItem', {
      TableName: 'schema-demo',
      Key: { pk: { S: 'ZUZ001' } },
      UpdateExpression: 'SET temperament = :t',
      ExpressionAttributeValues: { ':t': { S: 'FRIENDLY' } },
    });
    const dogs = engine.execute('Query', {
      TableName: 'schema-demo',
      IndexName: 'animal_type',
      KeyConditionExpression: '#type = :dog',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':dog': { S: 'Dog' } },
    }) as { Items: { name: { S: string } }[] };
    expect(dogs.Items.map((item) => item.name.S)).toEqual(['Freddie', 'Zuzi']);
  });

  it('accepts removing the violating attribute', () => {
    engine.execute('UpdateItem', {
      TableName: 'schema-demo',
      Key: { pk: { S: 'OTI001' } },
      UpdateExpression: 'REMOVE admitted',
    });
    engine.execute('UpdateItem', {
      TableName: 'schema-demo',
      Key: { pk: { S: 'OTI001' } },
      UpdateExpression: 'SET #n = :n',
      ExpressionAttributeNames: { '#n': 'name' },
      ExpressionAttributeValues: { ':n': { S: 'Otis II' } },
    });
  });

  it('reports the index ACTIVE with its item count once backfilled', () => {
    const { Table } = engine.execute('DescribeTable', { TableName: 'schema-demo' }) as {
      Table: {
        GlobalSecondaryIndexes: {
          IndexName: string;
          IndexStatus: string;
          ItemCount: number;
          Backfilling?: boolean;
        }[];
      };
    };
    const index = Table.GlobalSecondaryIndexes.find((candidate) => candidate.IndexName === 'animal_type')!;
    expect(index).toMatchObject({ IndexStatus: 'ACTIVE', ItemCount: 1 });
    expect(index).not.toHaveProperty('Backfilling');
  });
});

describe('an index that is still backfilling', () => {
  it('is CREATING with Backfilling true and refuses reads until it turns ACTIVE', async () => {
    const slow = new Engine({ clock, transientStatusDelayMs: 5_000 });
    slow.execute('CreateTable', {
      TableName: 'later',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    });
    await clock.advance(5_000);
    slow.execute('UpdateTable', {
      TableName: 'later',
      AttributeDefinitions: [{ AttributeName: 'g', AttributeType: 'S' }],
      GlobalSecondaryIndexUpdates: [
        {
          Create: {
            IndexName: 'byG',
            KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'ALL' },
          },
        },
      ],
    });
    const describe = () =>
      (
        slow.execute('DescribeTable', { TableName: 'later' }) as {
          Table: { GlobalSecondaryIndexes: Record<string, unknown>[] };
        }
      ).Table.GlobalSecondaryIndexes[0];
    expect(describe()).toMatchObject({ IndexStatus: 'CREATING', Backfilling: true });
    expect(wireError(() => slow.execute('Scan', { TableName: 'later', IndexName: 'byG' }))).toEqual(
      validation('Cannot read from backfilling global secondary index'),
    );
    await clock.advance(5_000);
    expect(describe()).toMatchObject({ IndexStatus: 'ACTIVE' });
    expect(slow.execute('Scan', { TableName: 'later', IndexName: 'byG' }).Count).toBe(0);
  });
});
