import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/archiver/handler.js';
import type { Image } from '../../functions/shared/ports.js';
import { fileSink } from '../../infra/archive/archiveSink.js';
import { FileStore } from '../../infra/archive/fileStore.js';
import { columnsOf, decodeParquet, encodeParquet, isExactDouble } from '../../infra/archive/parquet.js';
import { listArchive } from '../../infra/archive/reader.js';
import { lambdaContext } from '../helpers/events.js';
import {
  archivedItems,
  removeTempDirs,
  STREAM_SHARD,
  seq,
  sessionItem,
  tempDir,
  ttlBatch,
} from './helpers.js';

afterEach(removeTempDirs);

const items: Image[] = [
  {
    pk: { S: 'a' },
    price: { N: '12.5' },
    bigId: { N: '12345678901234567890' },
    active: { BOOL: true },
    mixed: { S: 'text' },
    tags: { SS: ['x', 'y'] },
    photo: { B: 'AAEC' },
    nested: { M: { depth: { L: [{ N: '1' }, { NULL: true }] } } },
  },
  {
    pk: { S: 'b' },
    price: { N: '-3' },
    bigId: { N: '7' },
    active: { BOOL: false },
    mixed: { N: '5' },
    only: { S: 'in b' },
  },
];

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

describe('parquet: attributes to columns', () => {
  it('types a column when its values agree, and falls back to the DynamoDB JSON of the value', () => {
    expect(columnsOf(items)).toEqual([
      { name: 'pk', kind: 'S' },
      { name: 'price', kind: 'N' },
      { name: 'bigId', kind: 'N_TEXT' },
      { name: 'active', kind: 'BOOL' },
      { name: 'mixed', kind: 'JSON' },
      { name: 'tags', kind: 'JSON' },
      { name: 'photo', kind: 'JSON' },
      { name: 'nested', kind: 'JSON' },
      { name: 'only', kind: 'S' },
    ]);
    expect(isExactDouble('0.1')).toBe(true);
    expect(isExactDouble('9007199254740993')).toBe(false);
    expect(isExactDouble('1E+2')).toBe(false);
  });

  it('writes Parquet that a reader sees as typed columns: STRING, DOUBLE, BOOLEAN, JSON, null where absent', async () => {
    const file = toArrayBuffer(encodeParquet(items));
    const metadata = parquetMetadata(file);
    const types = Object.fromEntries(
      parquetSchema(metadata).children.map((child) => [
        child.element.name,
        [child.element.type, child.element.converted_type],
      ]),
    );
    expect(types).toMatchObject({
      pk: ['BYTE_ARRAY', 'UTF8'],
      price: ['DOUBLE', undefined],
      bigId: ['BYTE_ARRAY', 'UTF8'],
      active: ['BOOLEAN', undefined],
      tags: ['BYTE_ARRAY', 'JSON'],
    });
    const rows = await parquetReadObjects({ file });
    expect(rows[0]).toMatchObject({ pk: 'a', price: 12.5, bigId: '12345678901234567890', active: true });
    expect(rows[0]!.tags).toEqual({ SS: ['x', 'y'] });
    expect(rows[1]).toMatchObject({ mixed: { N: '5' }, only: 'in b', tags: null });
  });

  it('round-trips the exact items, numbers that a double cannot hold included', async () => {
    expect(await decodeParquet(encodeParquet(items))).toEqual(items);
    const many = Array.from({ length: 2_500 }, (_, i) => sessionItem(i));
    expect(await decodeParquet(encodeParquet(many))).toEqual(many);
  });
});

describe('parquet: the sink option', () => {
  it('archives batches as .parquet objects, without export manifests (exports have no Parquet format)', async () => {
    const directory = tempDir();
    const invoke = createHandler({ sink: fileSink({ directory, format: 'parquet' }) });
    await invoke(ttlBatch(1, 4), lambdaContext('archiver') as never);
    await invoke(ttlBatch(1, 4), lambdaContext('archiver') as never);

    const store = new FileStore(directory);
    const { objects } = await listArchive(store);
    const key = `Sessions/year=2026/month=01/day=02/${STREAM_SHARD}-${seq(1)}-${seq(4)}.parquet`;
    expect(objects.map((object) => [object.key, object.format])).toEqual([[key, 'parquet']]);
    expect(await archivedItems(store)).toEqual([1, 2, 3, 4].map(sessionItem));
    const rows = await parquetReadObjects({ file: toArrayBuffer(readFileSync(join(directory, key))) });
    expect(rows.map((row) => row.pk)).toEqual([1, 2, 3, 4].map((i) => sessionItem(i).pk!.S));
    expect((await store.list('AWSDynamoDB/')).length).toBe(0);
  });

  it('refuses manifests with parquet, and unknown options', () => {
    expect(() => fileSink({ directory: tempDir(), format: 'parquet', manifests: true })).toThrow(
      'parquet has none',
    );
    expect(() => fileSink({ directory: tempDir(), gzip: 9 } as never)).toThrow('unknown option "gzip"');
  });
});
