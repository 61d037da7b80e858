import type { ScheduledEvent, ScheduledHandler } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TTL_PRINCIPAL } from '../../core/changeEvent.js';
import type { Engine } from '../../core/engine.js';
import { EngineExpiredItems } from '../../core/ttl/expiredItemsPort.js';
import { providePorts } from '../../functions/shared/middlewares/injectPorts.js';
import type { ExpiredItems } from '../../functions/shared/ports.js';
import {
  createHandler,
  dueAt,
  expireItems,
  handler,
  lambdaHandler,
} from '../../functions/ttl-expirer/handler.js';
import { resolveSettings } from '../../functions/ttl-expirer/settings.js';
import { scheduledEvent, scheduleFunction } from '../../infra/schedules/index.js';
import {
  createTable,
  enableTtl,
  keysIn,
  n,
  put,
  recordEvents,
  START_MS,
  START_S,
  s,
  startExpirer,
  stopExpirers,
  ttlEngine,
} from '../core/ttl/helpers.js';
import { lambdaContext } from '../helpers/events.js';

// Compile-time: the Lambda handler is a ScheduledHandler, and the engine's port is the function's.
const typedHandler: ScheduledHandler = lambdaHandler;
const portOf = (engine: Engine): ExpiredItems => new EngineExpiredItems(engine);

afterEach(stopExpirers);
const expirer = startExpirer;

const tick = (engine: Engine, at = engine.clock.now()) =>
  scheduledEvent({ time: at, ruleName: 'ttl-expirer' }) as ScheduledEvent;

describe('ttl-expirer: the rory.horse demo "TTL is not schema"', () => {
  it('deletes the numeric TTL, ignores string TTLs forever, and accepts a string TTL without error', async () => {
    const { engine, clock } = ttlEngine();
    createTable(engine, 'schema-demo');
    engine.execute('BatchWriteItem', {
      RequestItems: {
        'schema-demo': [
          {
            PutRequest: {
              Item: { pk: s('FRE001'), type: s('Dog'), name: s('Freddie'), admitted: n('174099600') },
            },
          },
          {
            PutRequest: {
              Item: { pk: s('ZUZ001'), type: s('Dog'), name: s('Zuzi'), admitted: s('1672563600') },
            },
          },
          {
            PutRequest: {
              Item: {
                pk: s('OTI001'),
                type: s('Rat'),
                name: s('Otis'),
                admitted: s('2024-03-27T07:00:00+0000'),
              },
            },
          },
          { PutRequest: { Item: { pk: s('ED_001'), type: s('Rat'), name: s('Ed') } } },
        ],
      },
    });
    const setTtl = (pk: string, value: Record<string, string>) =>
      engine.execute('UpdateItem', {
        TableName: 'schema-demo',
        Key: { pk: s(pk) },
        UpdateExpression: 'SET #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':ttl': value },
      });
    setTtl('FRE001', { N: '1704067200' });
    setTtl('ED_001', { S: '1704067200' });
    expect(
      engine.execute('UpdateTimeToLive', {
        TableName: 'schema-demo',
        TimeToLiveSpecification: { Enabled: true, AttributeName: 'ttl' },
      }),
    ).toEqual({ TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } });
    expect(
      engine.execute('PutItem', {
        TableName: 'schema-demo',
        Item: {
          pk: s('SCA001'),
          name: s('Scampi'),
          type: s('Hamster'),
          ttl: s("A string obviously won't work!"),
        },
      }),
    ).toEqual({});
    expirer(engine);
    expect(keysIn(engine, 'schema-demo')).toEqual(['ED_001', 'FRE001', 'OTI001', 'SCA001', 'ZUZ001']);

    await clock.advance('10s');

    expect(keysIn(engine, 'schema-demo')).toEqual(['ED_001', 'OTI001', 'SCA001', 'ZUZ001']);
    // "Time has passed for me but not you": a year later the invalid TTLs are still ignored.
    clock.set(clock.now() + 365 * 86_400_000);
    await clock.advance('10s');
    expect(keysIn(engine, 'schema-demo')).toEqual(['ED_001', 'OTI001', 'SCA001', 'ZUZ001']);
  });
});

describe('ttl-expirer: how it deletes (docs/streams-and-lambda.md §1.2.8, §1.2.9, §5.9–5.11)', () => {
  it('deletes as principal dynamodb.amazonaws.com; a user delete carries no identity', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('expired'), ttl: n(START_S - 1), data: s('x') });
    put(engine, 'Sessions', { pk: s('user'), ttl: n(START_S + 60) });
    const events = recordEvents(engine);
    engine.execute('DeleteItem', { TableName: 'Sessions', Key: { pk: s('user') } });
    await expirer(engine, { start: false }).runNow();
    expect(events.map((event) => [event.eventName, event.keys, event.userIdentity])).toEqual([
      ['REMOVE', { pk: s('user') }, undefined],
      ['REMOVE', { pk: s('expired') }, { type: 'Service', principalId: 'dynamodb.amazonaws.com' }],
    ]);
    expect(events[1]!.userIdentity).toBe(TTL_PRINCIPAL);
    expect(events[1]!.oldImage).toEqual({ pk: s('expired'), ttl: n(START_S - 1), data: s('x') });
    expect(events[1]!.newImage).toBeUndefined();
  });

  it('consumes no write capacity: no request, no capacity computed', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('a'), ttl: n(START_S - 1) });
    const requests = vi.spyOn(engine, 'executeRaw');
    const capacity = vi.spyOn(engine.indexes, 'writeCapacity');
    const run = await expirer(engine, { start: false }).runNow();
    expect(run.deleted).toBe(1);
    expect(requests).not.toHaveBeenCalled();
    expect(capacity).not.toHaveBeenCalled();
  });

  it('removes the item from a global secondary index like any delete', async () => {
    const { engine } = ttlEngine();
    engine.execute('CreateTable', {
      TableName: 'Sessions',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'user', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'ByUser',
          KeySchema: [{ AttributeName: 'user', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('a'), user: s('u'), ttl: n(START_S - 1) });
    put(engine, 'Sessions', { pk: s('b'), user: s('u'), ttl: n(START_S + 60) });
    const byUser = () =>
      engine.execute('Query', {
        TableName: 'Sessions',
        IndexName: 'ByUser',
        KeyConditionExpression: '#u = :u',
        ExpressionAttributeNames: { '#u': 'user' },
        ExpressionAttributeValues: { ':u': s('u') },
      }).Count;
    expect(byUser()).toBe(2);
    await expirer(engine, { start: false }).runNow();
    await engine.settled();
    expect(byUser()).toBe(1);
  });

  it('lets an update that extends the TTL win over a listed deletion (rescue)', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('a'), ttl: n(START_S - 1) });
    put(engine, 'Sessions', { pk: s('b'), ttl: n(START_S - 1) });
    const real = portOf(engine);
    // Between listing and deleting, a client moves a's TTL into the future.
    const racing: ExpiredItems = {
      now: () => real.now(),
      tables: () => real.tables(),
      expired: (arn, options) => {
        const found = real.expired(arn, options);
        engine.execute('UpdateItem', {
          TableName: 'Sessions',
          Key: { pk: s('a') },
          UpdateExpression: 'SET #ttl = :later',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':later': n(START_S + 86_400) },
        });
        return found;
      },
      deleteIfExpired: (item) => real.deleteIfExpired(item),
    };
    const runs: unknown[] = [];
    await createHandler({ expiredItems: racing }, { onRun: (run) => runs.push(run) })(
      tick(engine),
      lambdaContext('ttl-expirer') as never,
    );
    expect(runs).toEqual([{ deleted: 1, examined: 2, rescued: 1, more: false }]);
    expect(keysIn(engine, 'Sessions')).toEqual(['a']);
  });

  it('deletes nothing once TTL is disabled, even items listed before', async () => {
    const { engine, clock } = ttlEngine({ ttlChangeLockoutMs: 0 });
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('a'), ttl: n(START_S - 1) });
    const port = portOf(engine);
    const [listed] = port.expired(port.tables()[0]!, { limit: 10 });
    engine.execute('UpdateTimeToLive', {
      TableName: 'Sessions',
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: false },
    });
    expect(port.deleteIfExpired(listed!)).toBe(false);
    expect(port.tables()).toEqual([]);
    await clock.advance('1m');
    expect(keysIn(engine, 'Sessions')).toEqual(['a']);
  });
});

describe('ttl-expirer: batches and the deletion delay (docs/streams-and-lambda.md §5.8)', () => {
  it('deletes at most batchSize per run; drain works a backlog off batch by batch', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    for (let i = 0; i < 2_500; i++)
      put(engine, 'Sessions', { pk: s(`k${i}`), ttl: n(START_S - 1 - (i % 7)) });
    const ttl = expirer(engine, { start: false, batchSize: 1_000 });
    expect(await ttl.runNow()).toEqual({ deleted: 1_000, examined: 1_000, rescued: 0, more: true });
    expect(engine.region().tables.get('Sessions')!.items.size).toBe(1_500);
    expect(await ttl.drain()).toEqual({ deleted: 1_500, examined: 1_500, rescued: 0, more: false });
    expect(engine.region().tables.get('Sessions')!.items.size).toBe(0);
    expect(ttl.totals).toEqual({ runs: 3, deleted: 2_500 });
    expect(ttl.status()).toMatchObject({
      rateMs: 10_000,
      nextRunAt: undefined,
      totals: { runs: 3, deleted: 2_500 },
      tables: [
        {
          tableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Sessions',
          attributeName: 'ttl',
          tracked: 0,
          expiredNow: 0,
          deleted: 2_500,
        },
      ],
    });
  });

  it('spreads deletions between expiry and expiry + maxDeletionDelay, reproducibly', async () => {
    const deletionDelays = async () => {
      const { engine, clock } = ttlEngine();
      createTable(engine, 'Sessions');
      enableTtl(engine, 'Sessions');
      for (let i = 0; i < 50; i++) put(engine, 'Sessions', { pk: s(`k${i}`), ttl: n(START_S + 60) });
      const events = recordEvents(engine);
      expirer(engine, { rate: '1h', maxDeletionDelay: '48h' });
      await clock.advance('50h');
      expect(events).toHaveLength(50);
      return events.map((event) => event.at - (START_MS + 60_000));
    };
    const first = await deletionDelays();
    expect(await deletionDelays()).toEqual(first);
    for (const delay of first) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(48 * 3_600_000 + 3_600_000);
    }
    expect(new Set(first).size).toBeGreaterThan(20);
  });

  it('computes each due time from a hash of table and key, within the delay', () => {
    const item = {
      tableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/T',
      keys: { pk: s('a') },
      expiresAt: 100,
      cursor: '',
    };
    const due = dueAt(item, 48 * 3_600_000);
    expect(due).toBeGreaterThanOrEqual(100_000);
    expect(due).toBeLessThan(100_000 + 48 * 3_600_000);
    expect(dueAt({ ...item, keys: { pk: s('a') } }, 48 * 3_600_000)).toBe(due);
    expect(dueAt(item, 0)).toBe(100_000);
  });

  it('looks past items not yet due to delete due ones, within examineLimit', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    // Expired 30 minutes ago with a 1-hour delay: about half are due, interleaved in TTL order.
    for (let i = 0; i < 200; i++) put(engine, 'Sessions', { pk: s(`k${i}`), ttl: n(START_S - 1800) });
    const port = portOf(engine);
    const events = recordEvents(engine);
    const run = expireItems(
      port,
      resolveSettings({ batchSize: 10, maxDeletionDelay: '1h', examineLimit: 300 }),
    );
    expect(run.deleted).toBe(10);
    expect(run.more).toBe(true);
    expect(run.examined).toBeGreaterThan(10);
    const arn = port.tables()[0]!;
    for (const event of events) {
      expect(
        dueAt({ tableArn: arn, keys: event.keys as never, expiresAt: START_S - 1800, cursor: '' }, 3_600_000),
      ).toBeLessThanOrEqual(START_MS);
    }
    const limited = expireItems(
      port,
      resolveSettings({ batchSize: 10, maxDeletionDelay: '1h', examineLimit: 10 }),
    );
    expect(limited.examined).toBe(10);
    expect(limited.more).toBe(true);
  });
});

describe('ttl-expirer: the Lambda shape (docs/streams-and-lambda.md §4.9)', () => {
  it('runs as the deployed middy handler with provided ports', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('a'), ttl: n(START_S - 1) });
    const restore = providePorts({ expiredItems: portOf(engine) });
    try {
      await handler(tick(engine), lambdaContext('ttl-expirer') as never);
    } finally {
      restore();
    }
    expect(keysIn(engine, 'Sessions')).toEqual([]);
    expect(typedHandler).toBe(lambdaHandler);
  });

  it('fails the invocation without an expiredItems port, and refuses unknown options', async () => {
    await expect(
      handler(tick({ clock: { now: () => START_MS } } as Engine), lambdaContext() as never),
    ).rejects.toThrow('injectPorts: no expiredItems port was provided');
    expect(() => createHandler(undefined, { batchsize: 5 } as never)).toThrow(
      'ttl-expirer: unknown option "batchsize"',
    );
    expect(() => createHandler(undefined, { batchSize: 0 })).toThrow(TypeError);
  });

  it('builds the EventBridge Scheduled Event', () => {
    expect(scheduledEvent({ time: START_MS + 1234, ruleName: 'ttl-expirer' })).toMatchObject({
      version: '0',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time: '2026-01-01T00:00:01Z',
      region: 'us-east-1',
      resources: ['arn:aws:events:us-east-1:000000000000:rule/ttl-expirer'],
      detail: {},
    });
  });
});

describe('scheduleFunction (infra/schedules)', () => {
  it('invokes every rate on the clock, on demand, and not after stop', async () => {
    const { clock } = ttlEngine();
    const seen: string[] = [];
    const schedule = scheduleFunction(clock, async (event) => void seen.push(event.time), {
      rate: '10s',
      name: 'r',
    });
    await clock.advance('9s');
    expect(seen).toEqual([]);
    await clock.advance('21s');
    expect(seen).toEqual(['2026-01-01T00:00:10Z', '2026-01-01T00:00:20Z', '2026-01-01T00:00:30Z']);
    await schedule.runNow();
    expect(seen).toHaveLength(4);
    // A clock that jumps an hour ahead gets one run, not 360, then the rate resumes on its grid.
    clock.set(clock.now() + 3_600_000);
    await clock.advance('5s');
    expect(seen.slice(4)).toEqual(['2026-01-01T01:00:30Z']);
    await clock.advance('5s');
    expect(seen.slice(4)).toEqual(['2026-01-01T01:00:30Z', '2026-01-01T01:00:40Z']);
    schedule.stop();
    await clock.advance('1m');
    expect(seen).toHaveLength(6);
    expect(schedule.runs).toBe(6);
  });

  it('never overlaps runs; settled() and engine.settled() wait for the one in flight', async () => {
    const { engine, clock } = ttlEngine();
    let release: () => void = () => {};
    let running = 0;
    let maxRunning = 0;
    const schedule = scheduleFunction(
      clock,
      async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        running--;
      },
      { rate: 1000 },
    );
    engine.addSettler(() => schedule.settled());
    await clock.advance(3500);
    expect(schedule.runs).toBe(1);
    const manual = schedule.runNow();
    let settled = false;
    const waiting = engine.settled().then(() => {
      settled = true;
    });
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await manual;
    await waiting;
    expect(settled).toBe(true);
    expect(maxRunning).toBe(1);
    schedule.stop();
  });

  it('reports a failing timer run to onError and rejects runNow', async () => {
    const { clock } = ttlEngine();
    const errors: unknown[] = [];
    const schedule = scheduleFunction(
      clock,
      async () => {
        throw new Error('boom');
      },
      { rate: '1s', onError: (error) => errors.push(error) },
    );
    await clock.advance('1s');
    expect(errors).toHaveLength(1);
    await expect(schedule.runNow()).rejects.toThrow('boom');
    schedule.stop();
  });
});
