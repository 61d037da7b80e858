import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import S3rver from 's3rver';
import { Engine } from '../../core/engine.js';
import type { Image } from '../../functions/shared/ports.js';
import type { ObjectStore } from '../../infra/archive/objectStore.js';
import { listArchive, readArchive } from '../../infra/archive/reader.js';
import { EddyServer } from '../../infra/host/server.js';

/** Factories and fixtures for the archive tests: TTL-style records, temp dirs, a loopback S3. */

export const REGION = 'us-east-1';
export const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Sessions';
export const STREAM_LABEL = '2026-01-01T00:00:00.000';
export const STREAM_ARN = `${TABLE_ARN}/stream/${STREAM_LABEL}`;
/** The object-name shard of records from STREAM_ARN (no shardId in the event). */
export const STREAM_SHARD = 'stream-2026-01-01T00_00_00.000';
/** 2026-01-02T03:04:05Z. */
export const AT = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000;

/** eddy's sequence number of ordinal n (21 digits). */
export const seq = (n: number) => `1${String(n).padStart(20, '0')}`;

/** A ~200-byte session item (DynamoDB JSON). */
export function sessionItem(i: number): Image {
  return {
    pk: { S: `session#${String(i).padStart(8, '0')}` },
    user: { S: `user-${i % 97}@example.com` },
    device: { S: i % 2 === 0 ? 'ios' : 'android' },
    visits: { N: String(i % 997) },
    premium: { BOOL: i % 3 === 0 },
    tags: { SS: ['blue', 'green'] },
    expiresAt: { N: String(AT - 60) },
  };
}

interface RecordOptions {
  readonly seq?: number;
  readonly at?: number;
  readonly arn?: string;
}

function removeRecord(item: Image, options: RecordOptions, ttl: boolean): DynamoDBRecord {
  const record: DynamoDBRecord = {
    eventID: (options.seq ?? 1).toString(16).padStart(32, '0'),
    eventName: 'REMOVE',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: REGION,
    dynamodb: {
      ApproximateCreationDateTime: options.at ?? AT,
      Keys: { pk: item.pk! } as never,
      OldImage: item as never,
      SequenceNumber: seq(options.seq ?? 1),
      SizeBytes: 200,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: options.arn ?? STREAM_ARN,
  };
  if (ttl) record.userIdentity = { type: 'Service', principalId: 'dynamodb.amazonaws.com' };
  return record;
}

/** A REMOVE made by TTL (docs/streams-and-lambda.md §1.2.8). */
export const ttlRemove = (item: Image, options: RecordOptions = {}) => removeRecord(item, options, true);
/** A REMOVE made by a user (no identity, docs/streams-and-lambda.md §1.2.9). */
export const userRemove = (item: Image, options: RecordOptions = {}) => removeRecord(item, options, false);

/** TTL deletes of sessionItem(from..from+count-1), sequence numbers from..from+count-1. */
export function ttlBatch(from: number, count: number, at = AT): DynamoDBStreamEvent {
  return {
    Records: Array.from({ length: count }, (_, k) => ttlRemove(sessionItem(from + k), { seq: from + k, at })),
  };
}

const directories: string[] = [];

/** A fresh temp directory, removed by `removeTempDirs`. */
export function tempDir(label = 'archive'): string {
  const directory = mkdtempSync(join(tmpdir(), `eddy-${label}-`));
  directories.push(directory);
  return directory;
}

export function removeTempDirs(): void {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
}

/** Every item of the archive, in stream order. */
export async function archivedItems(store: ObjectStore, prefix = ''): Promise<Image[]> {
  const { objects } = await listArchive(store, { prefix });
  const items: Image[] = [];
  for await (const object of readArchive(store, objects, prefix)) items.push(...object.items);
  return items;
}

/** A real eddy over HTTP on loopback holding an empty Sessions table (`pk` S), for restores to write into. */
export async function serveSessionsTable(): Promise<{
  engine: Engine;
  url: string;
  close: () => Promise<void>;
}> {
  const engine = new Engine();
  engine.execute('CreateTable', {
    TableName: 'Sessions',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  const server = new EddyServer({ engine, port: 0 });
  const { url } = await server.listen();
  return { engine, url, close: () => server.close() };
}

/** A real S3-compatible server (s3rver) on loopback, with a bucket; restartable on its port. */
export interface LoopbackS3 {
  readonly endpoint: string;
  readonly bucket: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startLoopbackS3(bucket = 'archive'): Promise<LoopbackS3> {
  const directory = tempDir('s3rver');
  let port = 0;
  let server: S3rver | undefined;
  const start = async () => {
    server = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    const address = await server.run();
    port = address.port;
  };
  await start();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    start,
    async stop() {
      await server?.close();
      server = undefined;
    },
  };
}
