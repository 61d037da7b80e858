import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../core/engine.js';
import { itemKeyOf } from '../../../core/model/keyCodec.js';
import { StoredItem } from '../../../core/store/storedItem.js';
import {
  ExpiryIndex,
  encodeExpiry,
  parseExpiryKey,
  splitItemKey,
  syncExpiryIndex,
} from '../../../core/ttl/expiryIndex.js';
import { extractItemKey } from '../../../core/validations/keys.js';
import { createTable, disableTtl, enableTtl, get, keysIn, n, put, START_S, s, ttlEngine } from './helpers.js';

/** The (item pk, TTL value) pairs of a table's expiry index, in TTL order. */
function indexed(engine: Engine, table: string): [string, number][] {
  const index = engine.region().tables.get(table)!.expiryIndex;
  if (index === undefined) throw new Error('TTL is not enabled');
  return [...index.entries()].map((entry) => [splitItemKey(entry.itemKey).hashKey, entry.at]);
}

/** The pks of the items expired now. */
function expiredNow(engine: Engine, table: string): string[] {
  const index = engine.region().tables.get(table)!.expiryIndex!;
  return [...index.expired(engine.clock.now())].map(
    (key) => splitItemKey(parseExpiryKey(key).itemKey).hashKey,
  );
}

describe('expiry index upkeep at commit (docs/streams-and-lambda.md §5.5)', () => {
  it('does not exist on a table without TTL', () => {
    const { engine } = ttlEngine();
    const table = createTable(engine, 'Things');
    put(engine, 'Things', { pk: s('a'), ttl: n(START_S - 10) });
    expect(table.expiryIndex).toBeUndefined();
  });

  it('follows puts, updates and deletes', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Things');
    enableTtl(engine, 'Things');
    put(engine, 'Things', { pk: s('a'), ttl: n(START_S + 100) });
    put(engine, 'Things', { pk: s('b'), ttl: n(START_S - 100) });
    put(engine, 'Things', { pk: s('c') });
    expect(indexed(engine, 'Things')).toEqual([
      ['b', START_S - 100],
      ['a', START_S + 100],
    ]);
    engine.execute('UpdateItem', {
      TableName: 'Things',
      Key: { pk: s('a') },
      UpdateExpression: 'SET #t = :t',
      ExpressionAttributeNames: { '#t': 'ttl' },
      ExpressionAttributeValues: { ':t': n(START_S - 200) },
    });
    engine.execute('UpdateItem', {
      TableName: 'Things',
      Key: { pk: s('b') },
      UpdateExpression: 'REMOVE #t',
      ExpressionAttributeNames: { '#t': 'ttl' },
    });
    put(engine, 'Things', { pk: s('c'), ttl: n(START_S + 5) });
    expect(indexed(engine, 'Things')).toEqual([
      ['a', START_S - 200],
      ['c', START_S + 5],
    ]);
    engine.execute('DeleteItem', { TableName: 'Things', Key: { pk: s('a') } });
    put(engine, 'Things', { pk: s('c'), ttl: s('soon') });
    expect(indexed(engine, 'Things')).toEqual([]);
  });

  it('reads items of BatchWriteItem and TransactWriteItems (no nextItem: the stored text)', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Things');
    enableTtl(engine, 'Things');
    engine.execute('BatchWriteItem', {
      RequestItems: {
        Things: [
          { PutRequest: { Item: { pk: s('a'), ttl: n(START_S - 1) } } },
          { PutRequest: { Item: { pk: s('b'), nested: { M: { ttl: n(1) } } } } },
        ],
      },
    });
    engine.execute('TransactWriteItems', {
      TransactItems: [
        { Put: { TableName: 'Things', Item: { pk: s('c'), ttl: n(START_S - 2) } } },
        { Delete: { TableName: 'Things', Key: { pk: s('a') } } },
      ],
    });
    expect(indexed(engine, 'Things')).toEqual([['c', START_S - 2]]);
  });

  it('reads a commit that carries only the stored item', () => {
    const { engine } = ttlEngine();
    const table = createTable(engine, 'Things');
    enableTtl(engine, 'Things');
    const item = { pk: s('x'), ttl: n(START_S - 3) };
    engine.commit(engine.region(), table, [
      { key: extractItemKey(item, table.key), previous: undefined, next: StoredItem.fromItem(item) },
    ]);
    expect(indexed(engine, 'Things')).toEqual([['x', START_S - 3]]);
  });

  it('covers items written before TTL was enabled, and rebuilds after a disable', async () => {
    const { engine, clock } = ttlEngine();
    createTable(engine, 'Things');
    put(engine, 'Things', { pk: s('old'), ttl: n(START_S - 60) });
    put(engine, 'Things', { pk: s('str'), ttl: s(String(START_S - 60)) });
    enableTtl(engine, 'Things');
    expect(indexed(engine, 'Things')).toEqual([['old', START_S - 60]]);
    await clock.advance('1h');
    disableTtl(engine, 'Things');
    expect(engine.region().tables.get('Things')!.expiryIndex).toBeUndefined();
    put(engine, 'Things', { pk: s('while-off'), ttl: n(START_S - 30) });
    await clock.advance('1h');
    enableTtl(engine, 'Things');
    expect(indexed(engine, 'Things')).toEqual([
      ['old', START_S - 60],
      ['while-off', START_S - 30],
    ]);
  });

  it('follows the attribute TTL was enabled on, named by a reserved word or not', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Things');
    enableTtl(engine, 'Things', 'expires at "soon"');
    put(engine, 'Things', { pk: s('a'), ttl: n(1), 'expires at "soon"': n(START_S - 1) });
    expect(indexed(engine, 'Things')).toEqual([['a', START_S - 1]]);
  });

  it('is rebuilt from the TTL setting alone (what a restore does: the index is never stored)', () => {
    const { engine } = ttlEngine();
    const table = createTable(engine, 'Things');
    enableTtl(engine, 'Things');
    put(engine, 'Things', { pk: s('a'), ttl: n(START_S - 1) });
    table.expiryIndex = undefined;
    syncExpiryIndex(table);
    expect(indexed(engine, 'Things')).toEqual([['a', START_S - 1]]);
  });

  it('is dropped with its table', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Things');
    enableTtl(engine, 'Things');
    engine.execute('DeleteTable', { TableName: 'Things' });
    createTable(engine, 'Things');
    expect(engine.region().tables.get('Things')!.expiryIndex).toBeUndefined();
    expect(engine.execute('DescribeTimeToLive', { TableName: 'Things' })).toEqual({
      TimeToLiveDescription: { TimeToLiveStatus: 'DISABLED' },
    });
  });
});

describe('expired items (docs/streams-and-lambda.md §5.5–5.7, §5.9)', () => {
  it('lists, oldest first, exactly the Numbers below now and less than five years old', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Things');
    enableTtl(engine, 'Things');
    put(engine, 'Things', { pk: s('future'), ttl: n(START_S + 1) });
    put(engine, 'Things', { pk: s('now'), ttl: n(START_S) });
    put(engine, 'Things', { pk: s('decimal'), ttl: n(`${START_S - 1}.5`) });
    put(engine, 'Things', { pk: s('exponent'), ttl: n('17e8') });
    put(engine, 'Things', { pk: s('millis'), ttl: n(START_S * 1000 - 1000) });
    put(engine, 'Things', { pk: s('1975'), ttl: n(162777600) });
    put(engine, 'Things', { pk: s('string'), ttl: s(String(START_S - 100)) });
    put(engine, 'Things', { pk: s('demo'), ttl: n(1704067200) });
    expect(expiredNow(engine, 'Things')).toEqual(['exponent', 'demo', 'decimal']);
  });

  it('pages from a position', () => {
    const index = new ExpiryIndex('ttl');
    const write = (pk: string, at: number) => {
      const key = { hashKey: pk, rangeKey: '', keys: {} };
      index.onCommit(
        { key, previous: undefined, next: StoredItem.fromItem({}), nextItem: { ttl: n(at) } },
        itemKeyOf(pk, ''),
      );
    };
    write('a', 10);
    write('b', 20);
    write('c', 20);
    write('d', 30);
    const now = 1_000_000;
    const [first, second] = [...index.expired(now)];
    expect([...index.expired(now, first)].map((key) => parseExpiryKey(key).itemKey)).toEqual([
      '1:b',
      '1:c',
      '1:d',
    ]);
    expect([...index.expired(now, second)].map((key) => parseExpiryKey(key).itemKey)).toEqual(['1:c', '1:d']);
    expect(index.size).toBe(4);
  });

  it('orders index keys as the TTL values they encode', () => {
    const values = [-1e125, -5, -0.5, 0, 1e-130, 0.5, 1, 1704067200, 1704067200.25, 1.7e12, 9.99e125];
    const encoded = values.map(encodeExpiry);
    expect([...encoded].sort()).toEqual(encoded);
    for (const value of values) expect(parseExpiryKey(encodeExpiry(value) + 'k').at).toBe(value);
    expect(encodeExpiry(-0)).toBe(encodeExpiry(0));
  });

  it('round-trips composite and number keys through the item key', () => {
    const { engine } = ttlEngine();
    const table = createTable(engine, 'Things', { hash: ['user', 'N'], range: ['session', 'S'] });
    enableTtl(engine, 'Things');
    put(engine, 'Things', { user: n('-12.5'), session: s('a:b|c'), ttl: n(START_S - 1) });
    const [entry] = [...table.expiryIndex!.expired(engine.clock.now())];
    const key = extractItemKey({ user: n('-12.5'), session: s('a:b|c') }, table.key);
    expect(splitItemKey(parseExpiryKey(entry!).itemKey)).toEqual({
      hashKey: key.hashKey,
      rangeKey: key.rangeKey,
    });
  });

  it('expires a Number key attribute used as the TTL, never a String one', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'ByNumber', { hash: ['ttl', 'N'] });
    createTable(engine, 'ByString', { hash: ['ttl', 'S'] });
    enableTtl(engine, 'ByNumber');
    enableTtl(engine, 'ByString');
    put(engine, 'ByNumber', { ttl: n(START_S - 5) });
    put(engine, 'ByString', { ttl: s(String(START_S - 5)) });
    expect(expiredNow(engine, 'ByNumber')).toHaveLength(1);
    expect(indexed(engine, 'ByString')).toEqual([]);
  });

  it('leaves expired items readable and writable until deleted; an update rescues one', () => {
    const { engine } = ttlEngine();
    createTable(engine, 'Things');
    enableTtl(engine, 'Things');
    put(engine, 'Things', { pk: s('a'), ttl: n(START_S - 10), v: n(1) });
    expect(get(engine, 'Things', { pk: s('a') })).toEqual({ pk: s('a'), ttl: n(START_S - 10), v: n(1) });
    engine.execute('UpdateItem', {
      TableName: 'Things',
      Key: { pk: s('a') },
      UpdateExpression: 'SET v = v + :one',
      ExpressionAttributeValues: { ':one': n(1) },
    });
    expect(expiredNow(engine, 'Things')).toEqual(['a']);
    engine.execute('UpdateItem', {
      TableName: 'Things',
      Key: { pk: s('a') },
      UpdateExpression: 'SET #ttl = :later',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':later': n(START_S + 3600) },
    });
    expect(expiredNow(engine, 'Things')).toEqual([]);
    expect(keysIn(engine, 'Things')).toEqual(['a']);
  });
});
