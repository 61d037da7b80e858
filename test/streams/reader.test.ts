import { describe, expect, it } from 'vitest';
import { eventIdOf, newSalt } from '../../streams/ids.js';
import {
  childrenOf,
  iteratorOrdinal,
  readShard,
  rootShards,
  shardsInReadOrder,
  startPosition,
} from '../../streams/reader.js';
import {
  compareSequenceNumbers,
  formatSequenceNumber,
  isSequenceNumber,
  MAX_ORDINAL,
  ordinalOf,
} from '../../streams/sequenceNumber.js';
import { hashKey } from '../../streams/stream.js';
import { createTable, fixture, n, put, s } from './helpers.js';

/** The pull layer under both APIs: positions, shard reads, lineage order, sequence numbers, ids. */

function stream(options: { shardCount?: number; rolloverPeriod?: string } = {}) {
  const f = fixture({ changeLog: options });
  createTable(f.engine, 'Items', 'NEW_IMAGE');
  return { f, stream: () => f.changeLog.tableStream('000000000000', 'us-east-1', 'Items')! };
}

describe('sequence numbers (docs/streams-and-lambda.md §1.2.6)', () => {
  it('formats ordinals as 21 decimal digits whose text order is their numeric order', () => {
    expect(formatSequenceNumber(1)).toBe('100000000000000000001');
    expect(formatSequenceNumber(MAX_ORDINAL)).toMatch(/^\d{21}$/);
    expect(compareSequenceNumbers(formatSequenceNumber(9), formatSequenceNumber(10))).toBe(-1);
    expect(compareSequenceNumbers('99999999999999999999999', formatSequenceNumber(10))).toBe(1);
  });

  it('maps any sequence number to an ordinal, clamped to the range eddy uses', () => {
    expect(ordinalOf(formatSequenceNumber(42))).toBe(42);
    expect(ordinalOf('000000000000000000007')).toBe(0);
    expect(ordinalOf('9'.repeat(40))).toBe(MAX_ORDINAL);
    expect(isSequenceNumber('1'.repeat(21))).toBe(true);
    expect(isSequenceNumber('1'.repeat(20))).toBe(false);
    expect(isSequenceNumber(`${'1'.repeat(20)}a`)).toBe(false);
  });
});

describe('eventID and shard hashing', () => {
  it('gives distinct 32-hex eventIDs, beyond 2^32 records too', () => {
    const salt = newSalt();
    const ordinals = [1, 2, 3, 2 ** 32 + 1, 2 ** 32 + 2, 2 ** 33 + 1, Number.MAX_SAFE_INTEGER];
    const ids = ordinals.map((ordinal) => eventIdOf(salt, ordinal));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(eventIdOf(salt, 7)).toBe(eventIdOf(salt, 7));
  });

  it('hashes one item key to the same value every time', () => {
    expect(hashKey('1:ab')).toBe(hashKey('1:ab'));
    expect(hashKey('1:ab')).not.toBe(hashKey('1:ba'));
  });
});

describe('positions and shard reads', () => {
  it('resolves whole-stream start positions', async () => {
    const { f, stream: current } = stream();
    put(f.engine, 'Items', { pk: s('a') });
    await f.clock.advance('1s');
    put(f.engine, 'Items', { pk: s('b') });
    const log = current().log;
    expect(startPosition(current(), 'TRIM_HORIZON')).toBe(0);
    expect(startPosition(current(), 'LATEST')).toBe(2);
    expect(startPosition(current(), { sequenceNumber: formatSequenceNumber(2) })).toBe(1);
    expect(startPosition(current(), { afterSequenceNumber: formatSequenceNumber(2) })).toBe(2);
    expect(startPosition(current(), { sequenceNumber: '9'.repeat(30) })).toBe(log.end);
    expect(startPosition(current(), { timestamp: f.clock.now() })).toBe(1);
  });

  it('reads a shard by Limit and bytes, and tells the end of a closed shard', async () => {
    const { f, stream: current } = stream({ shardCount: 1 });
    for (let i = 0; i < 5; i++) put(f.engine, 'Items', { pk: s('k'), v: n(i) });
    const [shard] = current().shards;
    const from = iteratorOrdinal(current(), shard!, 'TRIM_HORIZON');
    const page = readShard(current(), shard!, from, { limit: 2 });
    expect(page.records.map((record) => record.ordinal)).toEqual([1, 2]);
    expect(page).toMatchObject({ nextOrdinal: 3, endOfShard: false });
    const sized = readShard(current(), shard!, page.nextOrdinal, {
      limit: 10,
      maxBytes: 1,
      sizeOf: () => 10,
    });
    expect(sized.records).toHaveLength(1);
    await f.clock.advance('4h');
    current().tick(f.clock.now());
    expect(readShard(current(), shard!, 4, { limit: 10 })).toMatchObject({
      nextOrdinal: 6,
      endOfShard: true,
    });
    expect(iteratorOrdinal(current(), shard!, 'LATEST')).toBe(6);
  });

  it('orders shards parents first and finds roots and children', async () => {
    const { f, stream: current } = stream({ shardCount: 2, rolloverPeriod: '1h' });
    await f.clock.advance('2h');
    current().tick(f.clock.now());
    const shards = current().shards;
    expect(shards).toHaveLength(6);
    const ordered = shardsInReadOrder([...shards].reverse());
    for (const shard of ordered) {
      if (shard.parentId === undefined) continue;
      expect(ordered.findIndex((other) => other.id === shard.parentId)).toBeLessThan(ordered.indexOf(shard));
    }
    const roots = rootShards(current());
    expect(roots).toHaveLength(2);
    for (const root of roots) expect(childrenOf(current(), root.id)).toHaveLength(1);
  });
});
