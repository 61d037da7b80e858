import { gzipSync } from 'node:zlib';
import {
  CreateTableCommand,
  DescribeExportCommand,
  DescribeImportCommand,
  ExportTableToPointInTimeCommand,
  ImportTableCommand,
  PutItemCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { type LoopbackS3, startLoopbackS3 } from '../archive/helpers.js';
import { arnOf } from './helpers.js';

/**
 * Exports to and imports from a real S3-compatible server (s3rver on loopback), with the
 * credentials given as the archive sink takes them (docs/backups.md §6).
 */
let s3: LoopbackS3;
let stack: TestStack;
let client: S3Client;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

beforeAll(async () => {
  s3 = await startLoopbackS3('exports');
  stack = await startStack({}, { buckets: { s3: { endpoint: s3.endpoint, credentials } } });
  client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
});
afterAll(async () => {
  await stack.close();
  client.destroy();
  await s3.stop();
});

describe('exports and imports on S3', () => {
  it('exports into the bucket and imports the export back', async () => {
    await stack.client.send(
      new CreateTableCommand({
        TableName: 'Orders',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await stack.client.send(
      new UpdateContinuousBackupsCommand({
        TableName: 'Orders',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    for (let i = 0; i < 50; i++)
      await stack.client.send(
        new PutItemCommand({
          TableName: 'Orders',
          Item: { pk: { S: `o${i}` }, total: { N: `${i}.25` }, blob: { B: Uint8Array.of(i) } },
        }),
      );
    const { ExportDescription } = await stack.client.send(
      new ExportTableToPointInTimeCommand({
        TableArn: arnOf('Orders'),
        S3Bucket: 'exports',
        S3Prefix: 'daily',
      }),
    );
    await stack.settled();
    const done = (
      await stack.client.send(new DescribeExportCommand({ ExportArn: ExportDescription!.ExportArn }))
    ).ExportDescription!;
    expect(done).toMatchObject({ ExportStatus: 'COMPLETED', ItemCount: 50 });
    const exportId = done.ExportArn!.split('/export/')[1]!;
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: 'exports', Prefix: `daily/AWSDynamoDB/${exportId}/` }),
    );
    const keys = (listed.Contents ?? []).map((object) => object.Key!);
    expect(keys).toEqual(
      expect.arrayContaining([
        `daily/AWSDynamoDB/${exportId}/_started`,
        `daily/AWSDynamoDB/${exportId}/manifest-summary.json`,
        `daily/AWSDynamoDB/${exportId}/manifest-files.json`,
      ]),
    );
    // The ETag S3 gives a data object is the one manifest-files.json records.
    const manifest = await client.send(
      new GetObjectCommand({ Bucket: 'exports', Key: `daily/AWSDynamoDB/${exportId}/manifest-files.json` }),
    );
    for (const line of (await manifest.Body!.transformToString()).trim().split('\n')) {
      const entry = JSON.parse(line);
      const object = (listed.Contents ?? []).find((candidate) => candidate.Key === entry.dataFileS3Key);
      expect(object?.ETag?.replace(/"/g, '')).toBe(entry.etag);
    }
    const { ImportTableDescription } = await stack.client.send(
      new ImportTableCommand({
        S3BucketSource: { S3Bucket: 'exports', S3KeyPrefix: `daily/AWSDynamoDB/${exportId}/data/` },
        InputFormat: 'DYNAMODB_JSON',
        InputCompressionType: 'GZIP',
        TableCreationParameters: {
          TableName: 'OrdersCopy',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        },
      }),
    );
    await stack.settled();
    const imported = (
      await stack.client.send(new DescribeImportCommand({ ImportArn: ImportTableDescription!.ImportArn }))
    ).ImportTableDescription!;
    expect(imported).toMatchObject({ ImportStatus: 'COMPLETED', ImportedItemCount: 50, ErrorCount: 0 });
    const count = async (table: string) =>
      (await stack.client.send(new ScanCommand({ TableName: table }))).Count;
    expect(await count('OrdersCopy')).toBe(50);
  });

  it('imports an uploaded object without manifests', async () => {
    await client.send(
      new PutObjectCommand({
        Bucket: 'exports',
        Key: 'uploads/users.json.gz',
        Body: gzipSync('{"Item":{"id":{"S":"u1"}}}\n{"Item":{"id":{"S":"u2"}}}\n'),
      }),
    );
    const { ImportTableDescription } = await stack.client.send(
      new ImportTableCommand({
        S3BucketSource: { S3Bucket: 'exports', S3KeyPrefix: 'uploads/' },
        InputFormat: 'DYNAMODB_JSON',
        InputCompressionType: 'GZIP',
        TableCreationParameters: {
          TableName: 'Users',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        },
      }),
    );
    await stack.settled();
    const imported = (
      await stack.client.send(new DescribeImportCommand({ ImportArn: ImportTableDescription!.ImportArn }))
    ).ImportTableDescription!;
    expect(imported).toMatchObject({ ImportStatus: 'COMPLETED', ImportedItemCount: 2 });
  });

  it('fails an export to a missing bucket with S3NoSuchBucket', async () => {
    const { ExportDescription } = await stack.client.send(
      new ExportTableToPointInTimeCommand({ TableArn: arnOf('Orders'), S3Bucket: 'missing-bucket' }),
    );
    await stack.settled();
    const done = (
      await stack.client.send(new DescribeExportCommand({ ExportArn: ExportDescription!.ExportArn }))
    ).ExportDescription!;
    expect(done).toMatchObject({ ExportStatus: 'FAILED', FailureCode: 'S3NoSuchBucket' });
  });
});
