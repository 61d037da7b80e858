import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/archiver/handler.js';
import type { Image } from '../../functions/shared/ports.js';
import { fileSink } from '../../infra/archive/archiveSink.js';
import { FileStore } from '../../infra/archive/fileStore.js';
import { exportIdOf, manifestKeysOf } from '../../infra/archive/layout.js';
import { listArchive } from '../../infra/archive/reader.js';
import { lambdaContext } from '../helpers/events.js';
import {
  AT,
  archivedItems,
  removeTempDirs,
  STREAM_SHARD,
  seq,
  sessionItem,
  TABLE_ARN,
  tempDir,
  ttlBatch,
} from './helpers.js';
import { makeReadOnly } from './readOnly.js';

let undo: (() => void) | undefined;
afterEach(() => {
  undo?.();
  undo = undefined;
  removeTempDirs();
});

const DAY = 'Sessions/year=2026/month=01/day=02';

function invoker(directory: string, options: { prefix?: string } = {}) {
  const invoke = createHandler({ sink: fileSink({ directory, ...options }) }, { onError: () => {} });
  return (event: DynamoDBStreamEvent) =>
    invoke(event, lambdaContext('archiver') as never) as Promise<DynamoDBBatchResponse>;
}

/** Every file under a folder, as relative paths. */
function filesUnder(root: string, folder = ''): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

/**
 * Reads a table day the way a DynamoDB-export reader does, with nothing from eddy: summary →
 * manifestFilesS3Key → each dataFileS3Key → gunzip → `{"Item": ...}` lines.
 */
function readAsExport(
  root: string,
  summaryKey: string,
): { summary: Record<string, unknown>; items: Image[] } {
  const summary = JSON.parse(readFileSync(join(root, summaryKey), 'utf8')) as Record<string, unknown>;
  const lines = readFileSync(join(root, summary.manifestFilesS3Key as string), 'utf8')
    .trim()
    .split('\n');
  const items: Image[] = [];
  for (const line of lines) {
    const entry = JSON.parse(line) as { dataFileS3Key: string; md5Checksum: string; itemCount: number };
    const body = readFileSync(join(root, entry.dataFileS3Key));
    expect(createHash('md5').update(body).digest('base64')).toBe(entry.md5Checksum);
    const rows = gunzipSync(body).toString('utf8').trim().split('\n');
    expect(rows).toHaveLength(entry.itemCount);
    items.push(...rows.map((row) => (JSON.parse(row) as { Item: Image }).Item));
  }
  return { summary, items };
}

describe('file sink: DynamoDB export format', () => {
  it('writes gzipped JSON lines, one {"Item": ...} per expired item in DynamoDB JSON', async () => {
    const directory = tempDir();
    await invoker(directory)(ttlBatch(1, 3));
    const object = `${DAY}/${STREAM_SHARD}-${seq(1)}-${seq(3)}.json.gz`;
    const text = gunzipSync(readFileSync(join(directory, object))).toString('utf8');
    expect(text).toBe([1, 2, 3].map((i) => `${JSON.stringify({ Item: sessionItem(i) })}\n`).join(''));
  });

  it('keeps export manifests per table day that an export reader follows to exactly the archived items', async () => {
    const directory = tempDir();
    const invoke = invoker(directory, { prefix: 'ttl' });
    await invoke(ttlBatch(1, 3));
    await invoke(ttlBatch(4, 2, AT + 3600));
    await invoke(ttlBatch(6, 1, AT + 86_400)); // the next day: another export

    const exportId = exportIdOf(TABLE_ARN, '2026-01-02');
    expect(exportId).toMatch(/^01767312000000-[0-9a-f]{8}$/);
    const keys = manifestKeysOf('ttl', exportId);
    const { summary, items } = readAsExport(directory, keys.summary);
    expect(items).toEqual([1, 2, 3, 4, 5].map(sessionItem));
    expect(summary).toEqual({
      version: '2020-06-30',
      exportArn: `${TABLE_ARN}/export/${exportId}`,
      startTime: new Date(AT * 1000).toISOString(),
      endTime: new Date((AT + 3600) * 1000).toISOString(),
      tableArn: TABLE_ARN,
      tableId: null,
      exportTime: new Date((AT + 3600) * 1000).toISOString(),
      s3Bucket: null,
      s3Prefix: 'ttl',
      s3SseAlgorithm: null,
      s3SseKmsKeyId: null,
      manifestFilesS3Key: `ttl/AWSDynamoDB/${exportId}/manifest-files.json`,
      billedSizeBytes: 0,
      itemCount: 5,
      outputFormat: 'DYNAMODB_JSON',
    });
    for (const [manifest, checksum] of [
      [keys.files, keys.filesChecksum],
      [keys.summary, keys.summaryChecksum],
    ] as const) {
      const md5 = createHash('md5')
        .update(readFileSync(join(directory, manifest)))
        .digest('hex');
      expect(readFileSync(join(directory, checksum), 'utf8')).toBe(md5);
    }
    const nextDay = readAsExport(
      directory,
      manifestKeysOf('ttl', exportIdOf(TABLE_ARN, '2026-01-03')).summary,
    );
    expect(nextDay.items).toEqual([sessionItem(6)]);
  });

  it('a new sink on an existing archive adds to the day manifest, and a retry does not list an object twice', async () => {
    const directory = tempDir();
    await invoker(directory)(ttlBatch(1, 2));
    const again = invoker(directory);
    await again(ttlBatch(3, 2));
    await again(ttlBatch(3, 2));
    const { items, summary } = readAsExport(
      directory,
      manifestKeysOf('', exportIdOf(TABLE_ARN, '2026-01-02')).summary,
    );
    expect(items).toEqual([1, 2, 3, 4].map(sessionItem));
    expect(summary.itemCount).toBe(4);
  });
});

describe('file sink: concurrent shards', () => {
  it('archives batches of several shards at once, all in the day manifest (group commit)', async () => {
    const directory = tempDir();
    const invoke = invoker(directory);
    const shards = ['shardId-0001', 'shardId-0002', 'shardId-0003', 'shardId-0004'];
    const responses = await Promise.all(
      shards.map((shardId, s) => invoke({ ...ttlBatch(s * 10 + 1, 5), shardId } as DynamoDBStreamEvent)),
    );
    expect(responses.every((response) => response.batchItemFailures.length === 0)).toBe(true);
    const store = new FileStore(directory);
    expect((await listArchive(store)).objects.map((object) => object.shard)).toEqual(shards);
    const { items } = readAsExport(
      directory,
      manifestKeysOf('', exportIdOf(TABLE_ARN, '2026-01-02')).summary,
    );
    expect(items).toHaveLength(20);
    expect(items).toEqual(expect.arrayContaining([1, 11, 21, 35].map(sessionItem)));
  });
});

describe('file sink: atomic writes', () => {
  it('leaves no temp file behind, and ignores a half-written one left by a crash', async () => {
    const directory = tempDir();
    await invoker(directory)(ttlBatch(1, 2));
    expect(filesUnder(directory).filter((path) => path.endsWith('.tmp'))).toEqual([]);
    // What a crash during the write of the next object would leave: a temp file, cut short.
    const name = `${STREAM_SHARD}-${seq(3)}-${seq(4)}.json.gz`;
    writeFileSync(join(directory, DAY, `.${name}.0123456789ab.tmp`), Buffer.from([0x1f, 0x8b, 0x08]));
    const store = new FileStore(directory);
    expect((await listArchive(store)).objects.map((object) => object.key)).toEqual([
      `${DAY}/${STREAM_SHARD}-${seq(1)}-${seq(2)}.json.gz`,
    ]);
    expect(await archivedItems(store)).toEqual([sessionItem(1), sessionItem(2)]);
  });

  it('a write that fails leaves the previous object whole', async () => {
    const directory = tempDir();
    const invoke = invoker(directory);
    await invoke(ttlBatch(1, 2));
    const object = join(directory, DAY, `${STREAM_SHARD}-${seq(1)}-${seq(2)}.json.gz`);
    const before = readFileSync(object);
    undo = makeReadOnly(directory);
    const response = await invoke(ttlBatch(1, 2));
    expect(response.batchItemFailures).toHaveLength(2);
    expect(readFileSync(object)).toEqual(before);
    expect(filesUnder(directory).filter((path) => path.endsWith('.tmp'))).toEqual([]);
  });
});

describe('file sink: a disk that refuses writes for a while', () => {
  it('reports the batches failed while it refuses, then archives them on retry: nothing lost, nothing twice', async () => {
    const directory = tempDir();
    const invoke = invoker(directory);
    expect((await invoke(ttlBatch(1, 3))).batchItemFailures).toEqual([]);

    undo = makeReadOnly(directory);
    const stuck = ttlBatch(4, 3);
    for (let attempt = 0; attempt < 3; attempt++) {
      // The mapping retries the failed batch from its first record (docs/streams-and-lambda.md §2.4.2).
      const response = await invoke(stuck);
      expect(response.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual([
        seq(4),
        seq(5),
        seq(6),
      ]);
    }
    undo();
    undo = undefined;

    expect((await invoke(stuck)).batchItemFailures).toEqual([]);
    expect((await invoke(ttlBatch(7, 1))).batchItemFailures).toEqual([]);
    const store = new FileStore(directory);
    const listing = await listArchive(store);
    expect(listing.objects).toHaveLength(3);
    expect(listing.superseded).toEqual([]);
    expect(await archivedItems(store)).toEqual([1, 2, 3, 4, 5, 6, 7].map(sessionItem));
    const { items } = readAsExport(
      directory,
      manifestKeysOf('', exportIdOf(TABLE_ARN, '2026-01-02')).summary,
    );
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7].map(sessionItem));
  });
});
