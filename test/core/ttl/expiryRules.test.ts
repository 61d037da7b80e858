import { afterEach, describe, expect, it } from 'vitest';
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
} from './helpers.js';

/**
 * The expiry rule end to end (docs/streams-and-lambda.md §5.5–5.7): items written through the API, deleted by
 * the ttl-expirer as the host schedules it, on a virtual clock.
 */
afterEach(stopExpirers);

describe('ttl-expirer: what expires (docs/streams-and-lambda.md §5.5–5.7)', () => {
  it('deletes on the first run after expiry, never before', async () => {
    const { engine, clock } = ttlEngine();
    createTable(engine, 'Sessions');
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('a'), ttl: n(START_S + 25) });
    startExpirer(engine, { rate: '10s' });
    await clock.advance('20s');
    expect(keysIn(engine, 'Sessions')).toEqual(['a']);
    await clock.advance('10s');
    expect(keysIn(engine, 'Sessions')).toEqual([]);
  });

  it('ignores five-year-old values, millisecond timestamps, and covers items written before TTL', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('before-enable'), ttl: n(START_S - 60) });
    enableTtl(engine, 'Sessions');
    put(engine, 'Sessions', { pk: s('1975'), ttl: n(162777600) });
    put(engine, 'Sessions', { pk: s('millis'), ttl: n(START_MS - 60_000) });
    put(engine, 'Sessions', { pk: s('decimal'), ttl: n(`${START_S - 1}.25`) });
    put(engine, 'Sessions', { pk: s('exponent'), ttl: n('1.7e9') });
    put(engine, 'Sessions', { pk: s('none') });
    const run = await startExpirer(engine, { start: false }).runNow();
    expect(run).toEqual({ deleted: 3, examined: 3, rescued: 0, more: false });
    expect(keysIn(engine, 'Sessions')).toEqual(['1975', 'millis', 'none']);
  });

  it('expires on composite keys with the reserved word ttl set through #ttl', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'UserSessions', { hash: ['user', 'S'], range: ['started', 'N'] });
    enableTtl(engine, 'UserSessions');
    for (const started of [1, 2, 3]) {
      put(engine, 'UserSessions', { user: s('u1'), started: n(started) });
      engine.execute('UpdateItem', {
        TableName: 'UserSessions',
        Key: { user: s('u1'), started: n(started) },
        UpdateExpression: 'SET #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':ttl': n(started === 2 ? START_S + 3600 : START_S - started) },
      });
    }
    const events = recordEvents(engine);
    await startExpirer(engine, { start: false }).runNow();
    expect(events.map((event) => event.keys)).toEqual([
      { user: s('u1'), started: n(3) },
      { user: s('u1'), started: n(1) },
    ]);
    expect(keysIn(engine, 'UserSessions', 'started')).toEqual(['2']);
  });

  it('expires a Number key attribute used as TTL, never a String one', async () => {
    const { engine } = ttlEngine();
    createTable(engine, 'ByNumber', { hash: ['ttl', 'N'] });
    createTable(engine, 'ByString', { hash: ['ttl', 'S'] });
    enableTtl(engine, 'ByNumber');
    enableTtl(engine, 'ByString');
    put(engine, 'ByNumber', { ttl: n(START_S - 5) });
    put(engine, 'ByString', { ttl: s(String(START_S - 5)) });
    await startExpirer(engine, { start: false }).runNow();
    expect(keysIn(engine, 'ByNumber', 'ttl')).toEqual([]);
    expect(keysIn(engine, 'ByString', 'ttl')).toEqual([String(START_S - 5)]);
  });
});
