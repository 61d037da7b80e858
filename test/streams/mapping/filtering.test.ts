import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ttlDelete } from '../helpers.js';
import { keysOf, mappingFixture, recorder, TABLE, until } from './helpers.js';

/** FilterCriteria on a running mapping (docs/streams-and-lambda.md §3.3, §3.4, §3.14, §3.15). */

const filters = (...patterns: string[]) => ({
  FilterCriteria: { Filters: patterns.map((Pattern) => ({ Pattern })) },
});

describe('filtering in a mapping (docs/streams-and-lambda.md §3)', () => {
  it('docs/streams-and-lambda.md §3.15 consumes filtered-out records: no invocation when nothing matches, the checkpoint moves past them', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    const uuid = f.map(
      { name: 'fn', handler },
      filters('{"dynamodb":{"NewImage":{"pk":{"S":[{"prefix":"keep"}]}}}}'),
    );
    f.put('drop-1');
    f.put('drop-2');
    await f.engine.settled();
    expect(events).toHaveLength(0);
    expect(f.manager.inspect(uuid)).toMatchObject({ recordsRead: 2, recordsFiltered: 2, backlog: 0 });
    f.put('keep-1');
    f.put('drop-3');
    await f.engine.settled();
    f.manager.disable(uuid);
    f.manager.enable(uuid);
    await f.engine.settled();
    expect(events.flatMap(keysOf)).toEqual(['keep-1']);
    const checkpoint = f.manager.mapping(uuid).checkpoint().shards;
    const last = f.changeLog.stream(f.streamArn)!.log.end;
    expect(Object.values(checkpoint)[0]!.processedThrough).toBe(`1${String(last).padStart(20, '0')}`);
  });

  it('docs/streams-and-lambda.md §3.15 never retries filtered-out records: a failure retries the matching ones only', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder((_event, call) => {
      if (call === 1) throw new Error('once');
    });
    f.map({ name: 'fn', handler }, filters('{"eventName":["INSERT"]}'));
    f.put('a');
    f.put('a', { v: { N: '2' } });
    f.put('b');
    await f.run();
    expect(events.map((event) => event.Records.map((record) => record.eventName))).toEqual([
      ['INSERT', 'INSERT'],
      ['INSERT', 'INSERT'],
    ]);
  });

  it('docs/streams-and-lambda.md §3.14 selects TTL deletes by userIdentity; docs/streams-and-lambda.md §3.4 matches typed image values', async () => {
    const f = mappingFixture();
    const ttl = recorder();
    const paid = recorder();
    f.map(
      { name: 'archiver', handler: ttl.handler },
      filters('{"userIdentity":{"type":["Service"],"principalId":["dynamodb.amazonaws.com"]}}'),
    );
    f.map(
      { name: 'billing', handler: paid.handler },
      filters('{"dynamodb":{"NewImage":{"status":{"S":["PAID"]}}}}'),
    );
    f.put('a', { status: { S: 'PAID' } });
    f.put('b', { status: { S: 'OPEN' } });
    f.engine.execute('DeleteItem', { TableName: TABLE, Key: { pk: { S: 'b' } } });
    ttlDelete(f.engine, TABLE, { pk: { S: 'a' } });
    await f.engine.settled();
    expect(
      ttl.events.flatMap((event) => event.Records.map((record) => [record.eventName, record.userIdentity])),
    ).toEqual([['REMOVE', { type: 'Service', principalId: 'dynamodb.amazonaws.com' }]]);
    expect(paid.events.flatMap(keysOf)).toEqual(['a']);
  });

  it('docs/streams-and-lambda.md §3.15 with a batching window, filters each record as it is considered for the batch', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    f.map(
      { name: 'fn', handler },
      { BatchSize: 2, MaximumBatchingWindowInSeconds: 10, ...filters('{"eventName":["INSERT"]}') },
    );
    f.put('a');
    f.put('a', { v: { N: '1' } });
    f.put('b');
    await until(() => events.length > 0, 50);
    await f.engine.settled();
    expect(events.map(keysOf)).toEqual([['a', 'b']]);
  });
});

describe('ParallelizationFactor (docs/streams-and-lambda.md §2.1.6)', () => {
  it('runs up to N batches of a shard at once and keeps each item’s records in order', async () => {
    const f = mappingFixture();
    let running = 0;
    let most = 0;
    const seen = new Map<string, number[]>();
    const handler = async (event: DynamoDBStreamEvent) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      for (const record of event.Records) {
        const key = record.dynamodb!.Keys!.pk!.S!;
        seen.set(key, [...(seen.get(key) ?? []), Number(record.dynamodb!.NewImage!.v!.N)]);
      }
      running--;
    };
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < 40; i++) f.put(`k${i}`, { v: { N: String(round) } });
    f.map({ name: 'fn', handler }, { BatchSize: 5, ParallelizationFactor: 3 });
    await f.engine.settled();
    expect(most).toBe(3);
    expect(seen.size).toBe(40);
    for (const values of seen.values()) expect(values).toEqual([0, 1, 2, 3, 4]);
  });

  it('runs one batch at a time per shard by default', async () => {
    const f = mappingFixture({ changeLog: { shardCount: 2 } });
    let running = 0;
    let most = 0;
    f.map(
      {
        name: 'fn',
        handler: async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setImmediate(resolve));
          running--;
        },
      },
      { BatchSize: 1 },
    );
    for (let i = 0; i < 40; i++) f.put(`k${i}`);
    await f.engine.settled();
    expect(most).toBe(2);
  });
});
