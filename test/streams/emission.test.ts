import type { DynamoDBRecord } from 'aws-lambda';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { changes$ } from '../../streams/changes.js';
import { readStreamRecords } from '../helpers/streamRecords.js';
import { createTable, del, fixture, n, put, type StreamsFixture, s } from './helpers.js';

/** docs/streams-and-lambda.md §1.3: when records are emitted, through the RxJS API and the Streams API. */

async function records(f: StreamsFixture, table = 'Items'): Promise<DynamoDBRecord[]> {
  return lastValueFrom(changes$(f.changeLog, table, { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()));
}

const summary = (record: DynamoDBRecord) => [
  record.eventName,
  record.dynamodb!.OldImage ?? null,
  record.dynamodb!.NewImage ?? null,
];

function setup() {
  const f = fixture();
  const arn = createTable(f.engine, 'Items', 'NEW_AND_OLD_IMAGES', { range: true }).LatestStreamArn as string;
  return { f, arn };
}

const key = { pk: s('p'), sk: s('c') };

describe('when records are emitted (docs/streams-and-lambda.md §1.3)', () => {
  it('writes one INSERT for a PutItem of a new key (docs/streams-and-lambda.md §1.3.1)', async () => {
    const { f, arn } = setup();
    put(f.engine, 'Items', { ...key, x: n(2) });
    expect((await records(f)).map(summary)).toEqual([['INSERT', null, { ...key, x: { N: '2' } }]]);
    expect(readStreamRecords(f.streams, arn)).toHaveLength(1);
  });

  it('writes one MODIFY for a PutItem that replaces an item, attributes absent from the new item absent from NewImage (docs/streams-and-lambda.md §1.3.2)', async () => {
    const { f } = setup();
    put(f.engine, 'Items', { ...key, a: n(1) });
    put(f.engine, 'Items', { ...key, b: n(2) });
    expect((await records(f)).map(summary)).toEqual([
      ['INSERT', null, { ...key, a: { N: '1' } }],
      ['MODIFY', { ...key, a: { N: '1' } }, { ...key, b: { N: '2' } }],
    ]);
  });

  it('writes nothing for a write that changes no data (docs/streams-and-lambda.md §1.3.3)', async () => {
    const { f, arn } = setup();
    put(f.engine, 'Items', { ...key, x: n(2), tags: { SS: ['b', 'a'] } });
    put(f.engine, 'Items', { ...key, x: n(2), tags: { SS: ['a', 'b'] } });
    f.engine.execute('UpdateItem', {
      TableName: 'Items',
      Key: key,
      UpdateExpression: 'SET x = :x',
      ExpressionAttributeValues: { ':x': n('2.0') },
    });
    expect(await records(f)).toHaveLength(1);
    expect(readStreamRecords(f.streams, arn)).toHaveLength(1);
  });

  it('writes INSERT for an UpdateItem that creates the item, then MODIFY with whole images (docs/streams-and-lambda.md §1.3.4)', async () => {
    const { f } = setup();
    f.engine.execute('UpdateItem', {
      TableName: 'Items',
      Key: key,
      UpdateExpression: 'SET b = :b',
      ExpressionAttributeValues: { ':b': n(4) },
    });
    f.engine.execute('UpdateItem', {
      TableName: 'Items',
      Key: key,
      UpdateExpression: 'SET x = :x',
      ExpressionAttributeValues: { ':x': n(5) },
    });
    expect((await records(f)).map(summary)).toEqual([
      ['INSERT', null, { ...key, b: { N: '4' } }],
      ['MODIFY', { ...key, b: { N: '4' } }, { ...key, b: { N: '4' }, x: { N: '5' } }],
    ]);
  });

  it('writes INSERT with a key-only NewImage for an UpdateItem with only Key (docs/streams-and-lambda.md §1.3.4)', async () => {
    const { f } = setup();
    f.engine.execute('UpdateItem', { TableName: 'Items', Key: key });
    expect((await records(f)).map(summary)).toEqual([['INSERT', null, key]]);
  });

  it('writes MODIFY (not REMOVE) with a key-only NewImage when UpdateItem removes every non-key attribute (docs/streams-and-lambda.md §1.3.5)', async () => {
    const { f } = setup();
    put(f.engine, 'Items', { ...key, a: n(1), b: n(2) });
    f.engine.execute('UpdateItem', { TableName: 'Items', Key: key, UpdateExpression: 'REMOVE a, b' });
    expect((await records(f)).map(summary)[1]).toEqual([
      'MODIFY',
      { ...key, a: { N: '1' }, b: { N: '2' } },
      key,
    ]);
  });

  it('writes REMOVE with OldImage for a DeleteItem, and nothing for a delete of a missing key (docs/streams-and-lambda.md §1.3.6)', async () => {
    const { f } = setup();
    put(f.engine, 'Items', { ...key, y: n(3) });
    del(f.engine, 'Items', key);
    del(f.engine, 'Items', key);
    expect((await records(f)).map(summary)).toEqual([
      ['INSERT', null, { ...key, y: { N: '3' } }],
      ['REMOVE', { ...key, y: { N: '3' } }, null],
    ]);
  });

  it('follows the same rules for BatchWriteItem, one record per item change (docs/streams-and-lambda.md §1.3.7)', async () => {
    const { f } = setup();
    put(f.engine, 'Items', { ...key, b: n(4), x: n(5) });
    f.engine.execute('BatchWriteItem', {
      RequestItems: {
        Items: [
          { PutRequest: { Item: { ...key, x: n(5) } } },
          { PutRequest: { Item: { pk: s('p'), sk: s('d') } } },
          { DeleteRequest: { Key: { pk: s('p'), sk: s('missing') } } },
        ],
      },
    });
    const got = await records(f);
    expect(got.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'INSERT']);
    expect(summary(got[1]!)).toEqual([
      'MODIFY',
      { ...key, b: { N: '4' }, x: { N: '5' } },
      { ...key, x: { N: '5' } },
    ]);
  });

  it('writes one record per changed item of a transaction, none for its condition checks', async () => {
    const { f } = setup();
    createTable(f.engine, 'Other', 'KEYS_ONLY');
    put(f.engine, 'Items', { ...key, v: n(1) });
    f.engine.execute('TransactWriteItems', {
      TransactItems: [
        { Put: { TableName: 'Items', Item: { pk: s('t'), sk: s('1') } } },
        {
          Update: {
            TableName: 'Items',
            Key: key,
            UpdateExpression: 'SET v = :v',
            ExpressionAttributeValues: { ':v': n(2) },
          },
        },
        {
          ConditionCheck: {
            TableName: 'Items',
            Key: { pk: s('t'), sk: s('2') },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Put: { TableName: 'Other', Item: { pk: s('o') } } },
      ],
    });
    expect((await records(f)).map((record) => record.eventName)).toEqual(['INSERT', 'INSERT', 'MODIFY']);
    expect((await records(f, 'Other')).map((record) => record.eventName)).toEqual(['INSERT']);
  });

  it('delivers each record exactly once, and one item’s records in the order of its modifications (docs/streams-and-lambda.md §1.3.8)', async () => {
    const { f, arn } = setup();
    for (let i = 0; i < 200; i++) put(f.engine, 'Items', { pk: s(`k${i % 7}`), sk: s('c'), v: n(i) });
    const got = await records(f);
    expect(new Set(got.map((record) => record.dynamodb!.SequenceNumber)).size).toBe(200);
    const api = readStreamRecords(f.streams, arn);
    expect(api).toHaveLength(200);
    for (const list of [got, api as DynamoDBRecord[]]) {
      const lastByKey = new Map<string, number>();
      for (const record of list) {
        const itemKey = record.dynamodb!.Keys!.pk!.S!;
        const value = Number(record.dynamodb!.NewImage!.v!.N);
        expect(value).toBeGreaterThan(lastByKey.get(itemKey) ?? -1);
        lastByKey.set(itemKey, value);
      }
    }
  });

  it('puts every record of one item on the same shard (docs/streams-and-lambda.md §1.3.9)', () => {
    const { f, arn } = setup();
    for (let i = 0; i < 120; i++) put(f.engine, 'Items', { pk: s(`k${i % 12}`), sk: s('c'), v: n(i) });
    const description = f.streams.execute('DescribeStream', { StreamArn: arn }).StreamDescription as {
      Shards: { ShardId: string }[];
    };
    const shardOf = new Map<string, string>();
    const used = new Set<string>();
    for (const shard of description.Shards) {
      const iterator = f.streams.execute('GetShardIterator', {
        StreamArn: arn,
        ShardId: shard.ShardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }).ShardIterator;
      const got = f.streams.execute('GetRecords', { ShardIterator: iterator }).Records as DynamoDBRecord[];
      for (const record of got) {
        const itemKey = record.dynamodb!.Keys!.pk!.S!;
        expect(shardOf.get(itemKey) ?? shard.ShardId).toBe(shard.ShardId);
        shardOf.set(itemKey, shard.ShardId);
        used.add(shard.ShardId);
      }
    }
    expect(shardOf.size).toBe(12);
    expect(used.size).toBeGreaterThan(1);
  });

  it('writes nothing to a table without a stream', async () => {
    const f = fixture();
    createTable(f.engine, 'Plain', undefined);
    put(f.engine, 'Plain', { pk: s('a') });
    expect(f.streams.execute('ListStreams', {}).Streams).toEqual([]);
  });
});
