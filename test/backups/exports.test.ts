import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  CreateTableCommand,
  DeleteItemCommand,
  DescribeExportCommand,
  ExportTableToPointInTimeCommand,
  ListExportsCommand,
  PutItemCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestStack } from '../../infra/testing/index.js';
import { arnOf, backupStack } from './helpers.js';
import { transfers } from './transfers.js';

/**
 * Exports through the SDK to a folder of buckets (docs/backups.md §5).
 * The layout is the one https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html
 * describes; the failure codes and counts are recorded against AWS in getmoto/moto
 * tests/test_dynamodb/test_dynamodb_export_table.py and test_dynamodb_import_table.py.
 */
let stack: TestStack;
let bucketsDir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ stack, bucketsDir, close } = await backupStack());
});
afterAll(() => close());
beforeEach(() => stack.reset());

const { sourceTable, exportTable } = transfers(() => stack);

describe('ExportTableToPointInTime (FULL_EXPORT)', () => {
  it('writes the layout of a DynamoDB export, with manifests whose checksums match', async () => {
    await sourceTable();
    const description = await exportTable('DYNAMODB_JSON');
    expect(description).toMatchObject({
      ExportStatus: 'COMPLETED',
      ItemCount: 4,
      ExportFormat: 'DYNAMODB_JSON',
      ExportType: 'FULL_EXPORT',
      TableArn: arnOf('Source'),
      S3Bucket: 'exports',
      S3Prefix: 'snap',
    });
    const exportId = description.ExportArn!.split('/export/')[1]!;
    expect(description.ExportArn).toBe(`${arnOf('Source')}/export/${exportId}`);
    expect(exportId).toMatch(/^\d{14}-[0-9a-f]{8}$/);
    const folder = join(bucketsDir, 'exports', 'snap', 'AWSDynamoDB', exportId);
    expect(description.ExportManifest).toBe(`snap/AWSDynamoDB/${exportId}/manifest-summary.json`);
    expect(readdirSync(folder).sort()).toEqual([
      '_started',
      'data',
      'manifest-files.checksum',
      'manifest-files.json',
      'manifest-summary.checksum',
      'manifest-summary.json',
    ]);
    const summaryText = readFileSync(join(folder, 'manifest-summary.json'));
    const summary = JSON.parse(summaryText.toString());
    // The summary's members, in the order of the documentation's sample.
    expect(Object.keys(summary)).toEqual([
      'version',
      'exportArn',
      'startTime',
      'endTime',
      'tableArn',
      'tableId',
      'exportTime',
      's3Bucket',
      's3Prefix',
      's3SseAlgorithm',
      's3SseKmsKeyId',
      'manifestFilesS3Key',
      'billedSizeBytes',
      'itemCount',
      'outputFormat',
    ]);
    expect(summary).toMatchObject({
      version: '2020-06-30',
      exportArn: description.ExportArn,
      s3Bucket: 'exports',
      s3Prefix: 'snap',
      manifestFilesS3Key: `snap/AWSDynamoDB/${exportId}/manifest-files.json`,
      itemCount: 4,
      outputFormat: 'DYNAMODB_JSON',
    });
    expect(readFileSync(join(folder, 'manifest-summary.checksum'), 'utf8')).toBe(
      createHash('md5').update(summaryText).digest('hex'),
    );
    const filesText = readFileSync(join(folder, 'manifest-files.json'), 'utf8');
    const entries = filesText
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries.reduce((sum, entry) => sum + entry.itemCount, 0)).toBe(4);
    for (const entry of entries) {
      expect(Object.keys(entry)).toEqual(['itemCount', 'md5Checksum', 'etag', 'dataFileS3Key']);
      expect(entry.dataFileS3Key).toMatch(
        new RegExp(`^snap/AWSDynamoDB/${exportId}/data/[a-z2-7]{26}\\.json\\.gz$`),
      );
      const body = readFileSync(join(bucketsDir, 'exports', entry.dataFileS3Key));
      expect(entry.md5Checksum).toBe(createHash('md5').update(body).digest('base64'));
      expect(entry.etag).toBe(createHash('md5').update(body).digest('hex'));
      const lines = gunzipSync(body).toString().trim().split('\n');
      for (const line of lines) expect(Object.keys(JSON.parse(line))).toEqual(['Item']);
    }
  });

  it('exports the table as it was at ExportTime', async () => {
    await sourceTable();
    await stack.advance('1m');
    const then = stack.clock.now();
    await stack.advance('1m');
    await stack.client.send(new DeleteItemCommand({ TableName: 'Source', Key: { pk: { S: 'n' } } }));
    const { ExportDescription } = await stack.client.send(
      new ExportTableToPointInTimeCommand({
        TableArn: arnOf('Source'),
        S3Bucket: 'exports',
        ExportTime: new Date(then),
      }),
    );
    await stack.settled();
    const done = await stack.client.send(
      new DescribeExportCommand({ ExportArn: ExportDescription!.ExportArn }),
    );
    expect(done.ExportDescription).toMatchObject({ ExportStatus: 'COMPLETED', ItemCount: 4 });
  });

  it('answers TableNotFoundException and PointInTimeRecoveryUnavailableException as recorded', async () => {
    const missing = arnOf('Missing');
    await expect(
      stack.client.send(new ExportTableToPointInTimeCommand({ TableArn: missing, S3Bucket: 'exports' })),
    ).rejects.toMatchObject({ name: 'TableNotFoundException', message: `Table not found: ${missing}` });
    await stack.client.send(
      new CreateTableCommand({
        TableName: 'NoPitr',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await expect(
      stack.client.send(
        new ExportTableToPointInTimeCommand({ TableArn: arnOf('NoPitr'), S3Bucket: 'exports' }),
      ),
    ).rejects.toMatchObject({
      name: 'PointInTimeRecoveryUnavailableException',
      message: "Point in time recovery is not enabled for table 'NoPitr'",
    });
  });

  it('fails with S3NoSuchBucket for a bucket that does not exist', async () => {
    await sourceTable();
    const { ExportDescription } = await stack.client.send(
      new ExportTableToPointInTimeCommand({ TableArn: arnOf('Source'), S3Bucket: 'nobucket' }),
    );
    await stack.settled();
    const { ExportDescription: done } = await stack.client.send(
      new DescribeExportCommand({ ExportArn: ExportDescription!.ExportArn }),
    );
    expect(done).toMatchObject({ ExportStatus: 'FAILED', FailureCode: 'S3NoSuchBucket' });
    expect(done!.FailureMessage).toContain('The specified bucket does not exist');
  });

  it('writes one empty data object for an empty table', async () => {
    await stack.client.send(
      new CreateTableCommand({
        TableName: 'Source',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await stack.client.send(
      new UpdateContinuousBackupsCommand({
        TableName: 'Source',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    const description = await exportTable('DYNAMODB_JSON', 'empty');
    expect(description).toMatchObject({ ExportStatus: 'COMPLETED', ItemCount: 0, BilledSizeBytes: 0 });
    const exportId = description.ExportArn!.split('/export/')[1]!;
    const data = join(bucketsDir, 'exports', 'empty', 'AWSDynamoDB', exportId, 'data');
    const files = readdirSync(data);
    expect(files).toHaveLength(1);
    expect(gunzipSync(readFileSync(join(data, files[0]!))).length).toBe(0);
  });

  it('lists exports with their status and type', async () => {
    await sourceTable();
    const first = await exportTable('DYNAMODB_JSON');
    const second = await exportTable('ION');
    const { ExportSummaries } = await stack.client.send(
      new ListExportsCommand({ TableArn: arnOf('Source') }),
    );
    expect(ExportSummaries).toEqual([
      { ExportArn: first.ExportArn, ExportStatus: 'COMPLETED', ExportType: 'FULL_EXPORT' },
      { ExportArn: second.ExportArn, ExportStatus: 'COMPLETED', ExportType: 'FULL_EXPORT' },
    ]);
  });
});

describe('INCREMENTAL_EXPORT', () => {
  it('holds exactly the net changes of its window, with the chosen view', async () => {
    await sourceTable();
    await stack.advance('1m');
    const from = stack.clock.now();
    await stack.client.send(
      new PutItemCommand({ TableName: 'Source', Item: { pk: { S: 'n' }, v: { N: '2' } } }),
    );
    await stack.client.send(new PutItemCommand({ TableName: 'Source', Item: { pk: { S: 'new' } } }));
    await stack.client.send(new DeleteItemCommand({ TableName: 'Source', Key: { pk: { S: 'b' } } }));
    // Inserted then deleted within the window: nothing.
    await stack.client.send(new PutItemCommand({ TableName: 'Source', Item: { pk: { S: 'gone' } } }));
    await stack.client.send(new DeleteItemCommand({ TableName: 'Source', Key: { pk: { S: 'gone' } } }));
    await stack.advance('20m');
    const to = stack.clock.now();
    // After the window: not exported.
    await stack.client.send(new PutItemCommand({ TableName: 'Source', Item: { pk: { S: 'after' } } }));
    await stack.advance('1m');
    for (const view of ['NEW_AND_OLD_IMAGES', 'NEW_IMAGE'] as const) {
      const { ExportDescription } = await stack.client.send(
        new ExportTableToPointInTimeCommand({
          TableArn: arnOf('Source'),
          S3Bucket: 'exports',
          S3Prefix: `inc-${view}`,
          ExportType: 'INCREMENTAL_EXPORT',
          IncrementalExportSpecification: {
            ExportFromTime: new Date(from),
            ExportToTime: new Date(to),
            ExportViewType: view,
          },
        }),
      );
      await stack.settled();
      const done = (
        await stack.client.send(new DescribeExportCommand({ ExportArn: ExportDescription!.ExportArn }))
      ).ExportDescription!;
      expect(done).toMatchObject({
        ExportStatus: 'COMPLETED',
        ItemCount: 3,
        ExportType: 'INCREMENTAL_EXPORT',
      });
      const exportId = done.ExportArn!.split('/export/')[1]!;
      const summary = JSON.parse(
        readFileSync(
          join(bucketsDir, 'exports', `inc-${view}`, 'AWSDynamoDB', exportId, 'manifest-summary.json'),
          'utf8',
        ),
      );
      expect(summary).toMatchObject({ exportType: 'INCREMENTAL_EXPORT', outputView: view, itemCount: 3 });
      const records = readFileSync(
        join(bucketsDir, 'exports', `inc-${view}`, 'AWSDynamoDB', exportId, 'manifest-files.json'),
        'utf8',
      )
        .trim()
        .split('\n')
        .flatMap((line) => {
          const key = JSON.parse(line).dataFileS3Key as string;
          expect(key.startsWith(`inc-${view}/AWSDynamoDB/data/`)).toBe(true);
          return gunzipSync(readFileSync(join(bucketsDir, 'exports', key)))
            .toString()
            .trim()
            .split('\n');
        })
        .map((line) => JSON.parse(line))
        .sort((a, b) => (a.Keys.pk.S < b.Keys.pk.S ? -1 : 1));
      const withOld = view === 'NEW_AND_OLD_IMAGES';
      expect(records.map((record) => ({ ...record, Metadata: undefined }))).toEqual([
        {
          Metadata: undefined,
          Keys: { pk: { S: 'b' } },
          ...(withOld ? { OldImage: expect.objectContaining({ pk: { S: 'b' } }) } : {}),
        },
        {
          Metadata: undefined,
          Keys: { pk: { S: 'n' } },
          NewImage: { pk: { S: 'n' }, v: { N: '2' } },
          ...(withOld ? { OldImage: expect.objectContaining({ big: expect.anything() }) } : {}),
        },
        { Metadata: undefined, Keys: { pk: { S: 'new' } }, NewImage: { pk: { S: 'new' } } },
      ]);
      for (const record of records) {
        const micros = Number(record.Metadata.WriteTimestampMicros.N);
        expect(micros).toBeGreaterThanOrEqual(from * 1000);
        expect(micros).toBeLessThan(to * 1000);
      }
    }
  });

  it('refuses a window shorter than 15 minutes', async () => {
    await sourceTable();
    await stack.advance('30m');
    const now = stack.clock.now();
    await expect(
      stack.client.send(
        new ExportTableToPointInTimeCommand({
          TableArn: arnOf('Source'),
          S3Bucket: 'exports',
          ExportType: 'INCREMENTAL_EXPORT',
          IncrementalExportSpecification: {
            ExportFromTime: new Date(now - 600_000),
            ExportToTime: new Date(now),
          },
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidExportTimeException' });
  });
});
