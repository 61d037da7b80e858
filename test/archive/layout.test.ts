import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchiveBatch } from '../../functions/shared/ports.js';
import { FileStore } from '../../infra/archive/fileStore.js';
import { encodeJsonLines } from '../../infra/archive/jsonLines.js';
import {
  exportIdOf,
  manifestKeysOf,
  normalizePrefix,
  objectKeyOf,
  parseObjectKey,
} from '../../infra/archive/layout.js';
import { listArchive } from '../../infra/archive/reader.js';
import { AT, archivedItems, removeTempDirs, seq, sessionItem, TABLE_ARN, tempDir } from './helpers.js';

afterEach(removeTempDirs);

const batch = (shard: string, first: string, last: string): ArchiveBatch => ({
  tableName: 'Sessions',
  tableArn: TABLE_ARN,
  shard,
  firstSequenceNumber: first,
  lastSequenceNumber: last,
  firstCreatedAt: AT,
  lastCreatedAt: AT,
  items: [],
});

describe('archive layout', () => {
  it('names objects by table, Hive-style day partition, shard and sequence range, and parses them back', () => {
    const shard = 'shardId-00000001767225600000-0a1b2c3d';
    const key = objectKeyOf('exports/ttl/', batch(shard, seq(1), seq(9)), 'json');
    expect(key).toBe(`exports/ttl/Sessions/year=2026/month=01/day=02/${shard}-${seq(1)}-${seq(9)}.json.gz`);
    expect(parseObjectKey(key, 'exports/ttl')).toEqual({
      key,
      tableName: 'Sessions',
      day: '2026-01-02',
      shard,
      firstSequenceNumber: seq(1),
      lastSequenceNumber: seq(9),
      format: 'json',
    });
  });

  it('does not take manifests or temp files for data objects', () => {
    const manifests = manifestKeysOf('', exportIdOf(TABLE_ARN, '2026-01-02'));
    expect(parseObjectKey(manifests.summary)).toBeUndefined();
    expect(
      parseObjectKey('Sessions/year=2026/month=01/day=02/.x-1-2.json.gz.0123456789ab.tmp'),
    ).toBeUndefined();
    expect(parseObjectKey('other/Sessions/year=2026/month=01/day=02/s-1-2.json.gz', 'mine')).toBeUndefined();
  });

  it('normalizes prefixes and gives each table day one export id', () => {
    expect(normalizePrefix(undefined)).toBe('');
    expect(normalizePrefix('/a/b//')).toBe('a/b/');
    expect(exportIdOf(TABLE_ARN, '2026-01-02')).toBe(exportIdOf(TABLE_ARN, '2026-01-02'));
    expect(exportIdOf(TABLE_ARN, '2026-01-02')).not.toBe(exportIdOf(`${TABLE_ARN}2`, '2026-01-02'));
  });
});

describe('reading an archive', () => {
  it('orders objects by sequence number as big integers, not as text', async () => {
    const directory = tempDir();
    const store = new FileStore(directory);
    const body = await encodeJsonLines([sessionItem(1)]);
    const later = '1000000000000000000000'; // 22 digits: after every 21-digit one
    for (const [first, last] of [
      [later, later],
      ['999999999999999999999', '999999999999999999999'],
    ] as const)
      await store.put(objectKeyOf('', batch('s', first, last), 'json'), body, {
        contentType: 'application/gzip',
      });
    const { objects } = await listArchive(store);
    expect(objects.map((object) => object.firstSequenceNumber)).toEqual(['999999999999999999999', later]);
  });

  it('after a crash between a retry and the removal of the attempt it replaced, reads only the newer attempt', async () => {
    const directory = tempDir();
    const store = new FileStore(directory);
    const older = objectKeyOf('', batch('s', seq(1), seq(2)), 'json');
    const newer = objectKeyOf('', batch('s', seq(1), seq(3)), 'json');
    await store.put(older, await encodeJsonLines([1, 2].map(sessionItem)), {
      contentType: 'application/gzip',
    });
    await store.put(newer, await encodeJsonLines([1, 2, 3].map(sessionItem)), {
      contentType: 'application/gzip',
    });
    utimesSync(join(directory, older), new Date(2026, 0, 1), new Date(2026, 0, 1));

    const listing = await listArchive(store);
    expect(listing.objects.map((object) => object.key)).toEqual([newer]);
    expect(listing.superseded.map((object) => object.key)).toEqual([older]);
    expect(await archivedItems(store)).toEqual([1, 2, 3].map(sessionItem));
  });
});
