import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/archiver/handler.js';
import { type S3SinkOptions, s3Sink } from '../../infra/archive/archiveSink.js';
import { exportIdOf, manifestKeysOf } from '../../infra/archive/layout.js';
import { listArchive } from '../../infra/archive/reader.js';
import type { S3Store } from '../../infra/archive/s3Store.js';
import { lambdaContext } from '../helpers/events.js';
import {
  archivedItems,
  type LoopbackS3,
  removeTempDirs,
  STREAM_SHARD,
  seq,
  sessionItem,
  startLoopbackS3,
  TABLE_ARN,
  ttlBatch,
} from './helpers.js';

// A real S3-compatible server (s3rver) on loopback: the SDK speaks HTTP to it, as to S3.
let s3: LoopbackS3;
beforeAll(async () => {
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3.stop();
  removeTempDirs();
});

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

function sinkOptions(prefix: string, extra: Partial<S3SinkOptions> = {}): S3SinkOptions {
  return { bucket: s3.bucket, endpoint: s3.endpoint, credentials: CREDENTIALS, prefix, ...extra };
}

function invoker(options: S3SinkOptions) {
  const sink = s3Sink(options);
  const invoke = createHandler({ sink }, { onError: () => {} });
  return {
    store: sink.store as S3Store,
    invoke: (event: DynamoDBStreamEvent) =>
      invoke(event, lambdaContext('archiver') as never) as Promise<DynamoDBBatchResponse>,
  };
}

describe('S3 sink', () => {
  it('writes the objects with the configured StorageClass, and the manifests in STANDARD', async () => {
    const { store, invoke } = invoker(sinkOptions('glacier', { storageClass: 'GLACIER' }));
    expect(await invoke(ttlBatch(1, 3))).toEqual({ batchItemFailures: [] });

    const key = `glacier/Sessions/year=2026/month=01/day=02/${STREAM_SHARD}-${seq(1)}-${seq(3)}.json.gz`;
    const head = await store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(head.StorageClass).toBe('GLACIER');
    expect(head.ContentType).toBe('application/gzip');
    const manifests = manifestKeysOf('glacier', exportIdOf(TABLE_ARN, '2026-01-02'));
    const summaryHead = await store.client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: manifests.summary }),
    );
    expect(summaryHead.StorageClass ?? 'STANDARD').toBe('STANDARD');

    const summary = await store.client.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: manifests.summary }),
    );
    expect(JSON.parse(await summary.Body!.transformToString())).toMatchObject({
      s3Bucket: 'archive',
      s3Prefix: 'glacier',
      itemCount: 3,
      manifestFilesS3Key: manifests.files,
      outputFormat: 'DYNAMODB_JSON',
    });
    expect(await archivedItems(store, 'glacier')).toEqual([1, 2, 3].map(sessionItem));
  });

  it('writes Parquet objects in DEEP_ARCHIVE', async () => {
    const { store, invoke } = invoker(
      sinkOptions('deep', { storageClass: 'DEEP_ARCHIVE', format: 'parquet' }),
    );
    await invoke(ttlBatch(1, 2));
    const { objects } = await listArchive(store, { prefix: 'deep' });
    expect(objects.map((object) => object.format)).toEqual(['parquet']);
    const head = await store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: objects[0]!.key }));
    expect(head.StorageClass).toBe('DEEP_ARCHIVE');
    expect(await archivedItems(store, 'deep')).toEqual([1, 2].map(sessionItem));
  });

  it('a retried batch overwrites its object in the bucket', async () => {
    const { store, invoke } = invoker(sinkOptions('retry'));
    await invoke(ttlBatch(1, 2));
    await invoke(ttlBatch(1, 4)); // the retry found two more records
    await invoke(ttlBatch(1, 4));
    const listing = await listArchive(store, { prefix: 'retry' });
    expect(listing.objects.map((object) => object.lastSequenceNumber)).toEqual([seq(4)]);
    expect(listing.superseded).toEqual([]);
    expect(await archivedItems(store, 'retry')).toEqual([1, 2, 3, 4].map(sessionItem));
  });

  it('while the server is down, reports the batch failed; once it is back, the retry archives it exactly once', async () => {
    const { store, invoke } = invoker(sinkOptions('outage'));
    expect((await invoke(ttlBatch(1, 2))).batchItemFailures).toEqual([]);

    await s3.stop();
    try {
      const stuck = ttlBatch(3, 3);
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await invoke(stuck);
        expect(response.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual([
          seq(3),
          seq(4),
          seq(5),
        ]);
      }
    } finally {
      await s3.start();
    }

    expect((await invoke(ttlBatch(3, 3))).batchItemFailures).toEqual([]);
    expect((await invoke(ttlBatch(6, 1))).batchItemFailures).toEqual([]);
    const listing = await listArchive(store, { prefix: 'outage' });
    expect(listing.objects).toHaveLength(3);
    expect(await archivedItems(store, 'outage')).toEqual([1, 2, 3, 4, 5, 6].map(sessionItem));
  });
});
