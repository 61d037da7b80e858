import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../core/engine.js';
import { type Host, n, observe, openHost, s, tempDir } from './helpers.js';

let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

/** Tables with every kind of state: indexes, a stream, TTL, tags, items changed every way. */
function populate(host: Host): void {
  const { engine, clock } = host;
  engine.execute('CreateTable', {
    TableName: 'Orders',
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'S' },
      { AttributeName: 'status', AttributeType: 'S' },
      { AttributeName: 'total', AttributeType: 'N' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'byStatus',
        KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    LocalSecondaryIndexes: [
      {
        IndexName: 'byTotal',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'total', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    Tags: [{ Key: 'team', Value: 'billing' }],
  });
  engine.execute('CreateTable', {
    TableName: 'Sessions',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  if (engine.supports('UpdateTimeToLive'))
    engine.execute('UpdateTimeToLive', {
      TableName: 'Sessions',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  for (let i = 0; i < 30; i++) {
    engine.execute('PutItem', {
      TableName: 'Orders',
      Item: { pk: s(`c${i % 5}`), sk: s(`o${i}`), status: s(i % 2 ? 'open' : 'paid'), total: n(i * 3) },
    });
    engine.execute('PutItem', { TableName: 'Sessions', Item: { id: n(i), expiresAt: n(1_800_000_000 + i) } });
  }
  engine.execute('UpdateItem', {
    TableName: 'Orders',
    Key: { pk: s('c1'), sk: s('o1') },
    UpdateExpression: 'SET #s = :s ADD #t :t',
    ExpressionAttributeNames: { '#s': 'status', '#t': 'total' },
    ExpressionAttributeValues: { ':s': s('shipped'), ':t': n(100) },
  });
  engine.execute('DeleteItem', { TableName: 'Orders', Key: { pk: s('c2'), sk: s('o2') } });
  transact(engine, 'token-1');
  clock.set(clock.now() + 5_000);
  engine.execute('TagResource', {
    ResourceArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Sessions',
    Tags: [{ Key: 'env', Value: 'test' }],
  });
}

function transact(engine: Engine, token: string) {
  return engine.execute('TransactWriteItems', {
    ClientRequestToken: token,
    TransactItems: [
      { Put: { TableName: 'Orders', Item: { pk: s('t'), sk: s('1'), status: s('open'), total: n(1) } } },
      {
        Update: {
          TableName: 'Sessions',
          Key: { id: n(3) },
          UpdateExpression: 'ADD hits :one',
          ExpressionAttributeValues: { ':one': n(1) },
        },
      },
      { Delete: { TableName: 'Sessions', Key: { id: n(4) } } },
    ],
  });
}

async function reopen(host: Host, options: Parameters<typeof openHost>[1] = {}): Promise<Host> {
  await host.persistence.close();
  return openHost(dir.path, { start: host.clock.now(), ...options });
}

describe('recovery', () => {
  it('restores everything observable from the log alone (no snapshot)', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false });
    populate(host);
    const before = observe(host);
    const again = await reopen(host, { snapshotOnClose: false });
    expect(again.persistence.recovery).toMatchObject({ snapshotLsn: 0, dropped: undefined });
    expect(again.persistence.recovery.replayed).toBeGreaterThan(60);
    expect(observe(again)).toEqual(before);
    await again.persistence.close();
  });

  it('restores everything observable from a snapshot alone, and from a snapshot plus log', async () => {
    const host = await openHost(dir.path);
    populate(host);
    const before = observe(host);
    const again = await reopen(host, { snapshotOnClose: false });
    expect(again.persistence.recovery.replayed).toBe(0);
    expect(again.persistence.recovery.snapshotItems).toBe(59);
    expect(observe(again)).toEqual(before);

    // A snapshot in the middle, then more writes: both parts are needed.
    await again.persistence.snapshot();
    again.engine.execute('PutItem', { TableName: 'Orders', Item: { pk: s('late'), sk: s('1') } });
    again.engine.execute('DeleteItem', { TableName: 'Sessions', Key: { id: n(7) } });
    const middle = observe(again);
    await again.persistence.flush();
    const third = await reopen(again);
    expect(third.persistence.recovery.replayed).toBeGreaterThan(0);
    expect(third.persistence.recovery.snapshotLsn).toBeGreaterThan(0);
    expect(observe(third)).toEqual(middle);
    await third.persistence.close();
  });

  it('keeps transaction tokens: a repeat within 10 minutes succeeds without effect', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false });
    populate(host);
    const hits = () => host.engine.execute('GetItem', { TableName: 'Sessions', Key: { id: n(3) } }).Item;
    const again = await reopen(host);
    const before = again.engine.execute('GetItem', { TableName: 'Sessions', Key: { id: n(3) } }).Item;
    expect(before).toEqual(hits());
    transact(again.engine, 'token-1');
    expect(again.engine.execute('GetItem', { TableName: 'Sessions', Key: { id: n(3) } }).Item).toEqual(
      before,
    );
    await again.persistence.close();
  });

  it('keeps mapping checkpoints through the log and snapshots', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false });
    await host.persistence.checkpoints.set('m1', 'shard-a', '100000000000000000007');
    await host.persistence.checkpoints.set('m1', 'shard-b', '100000000000000000009');
    await host.persistence.checkpoints.set('m2', 'shard-a', '100000000000000000001');
    await host.persistence.checkpoints.delete('m2');
    const again = await reopen(host);
    expect([...again.persistence.checkpoints.list('m1')]).toEqual([
      ['shard-a', '100000000000000000007'],
      ['shard-b', '100000000000000000009'],
    ]);
    expect(again.persistence.checkpoints.list('m2').size).toBe(0);
    const third = await reopen(again);
    expect(third.persistence.checkpoints.get('m1', 'shard-b')).toBe('100000000000000000009');
    await third.persistence.close();
  });

  it('rebuilds the same shards, lineage and records across rollovers and trimming', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false });
    populate(host);
    const hour = 3_600_000;
    const put = (h: Host, pk: string) =>
      h.engine.execute('PutItem', {
        TableName: 'Orders',
        Item: { pk: s(pk), sk: s('r'), at: n(h.clock.now()) },
      });
    for (const [step, hours] of [
      [1, 5],
      [2, 3],
      [3, 9],
    ] as const) {
      host.clock.set(host.clock.now() + hours * hour);
      put(host, `roll${step}`);
    }
    // A read at a later time rolls the shards over with no write: replay must find them too.
    host.clock.set(host.clock.now() + 5 * hour);
    const before = observe(host);
    const shards = (Object.values(before.streams as object)[0] as { description: { Shards: unknown[] } })
      .description.Shards;
    expect(shards.length).toBeGreaterThan(8);
    const fromLog = await reopen(host);
    expect(observe(fromLog)).toEqual(before);
    // Then most records fall out of retention, and a snapshot keeps what is left.
    fromLog.clock.set(fromLog.clock.now() + 14 * hour);
    put(fromLog, 'late');
    const trimmed = observe(fromLog);
    const fromSnapshot = await reopen(fromLog);
    expect(observe(fromSnapshot)).toEqual(trimmed);
    await fromSnapshot.persistence.close();
  });

  it('restores deleted and re-created tables, disabled streams and their records', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false });
    populate(host);
    host.engine.execute('UpdateTable', {
      TableName: 'Orders',
      StreamSpecification: { StreamEnabled: false },
    });
    host.clock.set(host.clock.now() + 1000);
    host.engine.execute('UpdateTable', {
      TableName: 'Orders',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    });
    host.engine.execute('PutItem', { TableName: 'Orders', Item: { pk: s('after'), sk: s('1') } });
    host.engine.execute('DeleteTable', { TableName: 'Sessions' });
    host.engine.execute('CreateTable', {
      TableName: 'Sessions',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    host.engine.execute('PutItem', { TableName: 'Sessions', Item: { id: s('x') } });
    const before = observe(host);
    expect(Object.keys(before.streams as object)).toHaveLength(2);
    const fromLog = await reopen(host);
    expect(observe(fromLog)).toEqual(before);
    const fromSnapshot = await reopen(fromLog);
    expect(observe(fromSnapshot)).toEqual(before);
    await fromSnapshot.persistence.close();
  });
});
