import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  type AttributeValue,
  CreateTableCommand,
  DeleteItemCommand,
  DescribeExportCommand,
  DescribeImportCommand,
  DescribeTableCommand,
  ExportTableToPointInTimeCommand,
  ImportTableCommand,
  ListExportsCommand,
  ListImportsCommand,
  ListTablesCommand,
  PutItemCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestStack } from '../../infra/testing/index.js';
import { arnOf, backupStack } from './helpers.js';

/**
 * Exports and imports through the SDK, to and from a folder of buckets (docs/backups.md §4, §5).
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

/** Items that stress the formats: 38 digits, binary, sets, empty strings, nesting, odd names. */
const tricky: Record<string, AttributeValue>[] = [
  {
    pk: { S: 'n' },
    big: { N: '12345678901234567890123456789012345678' },
    tiny: { N: '-1.5E-120' },
    round: { N: '600' },
  },
  {
    pk: { S: 'b' },
    bin: { B: Uint8Array.from([0, 1, 2, 255]) },
    bs: { BS: [Uint8Array.from([1]), Uint8Array.from([2, 3])] },
  },
  {
    pk: { S: 's' },
    ss: { SS: ['x', 'y'] },
    ns: { NS: ['1', '99999999999999999999999999999999999999'] },
    empty: { S: '' },
  },
  {
    pk: { S: 'm' },
    map: {
      M: {
        ['__proto__']: { S: 'data' },
        list: { L: [{ NULL: true }, { BOOL: false }, { M: {} }, { L: [] }] },
      },
    },
    'with space': { S: 'é 漢字 "quoted"\n' },
  },
];

async function sourceTable(): Promise<void> {
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
  for (const Item of tricky) await stack.client.send(new PutItemCommand({ TableName: 'Source', Item }));
}

async function exportTable(format: 'DYNAMODB_JSON' | 'ION', prefix = 'snap') {
  const { ExportDescription } = await stack.client.send(
    new ExportTableToPointInTimeCommand({
      TableArn: arnOf('Source'),
      S3Bucket: 'exports',
      S3Prefix: prefix,
      ExportFormat: format,
    }),
  );
  expect(ExportDescription?.ExportStatus).toBe('IN_PROGRESS');
  await stack.settled();
  return (await stack.client.send(new DescribeExportCommand({ ExportArn: ExportDescription!.ExportArn })))
    .ExportDescription!;
}

async function importInto(
  table: string,
  prefix: string,
  format: 'DYNAMODB_JSON' | 'ION' | 'CSV',
  extra = {},
) {
  const { ImportTableDescription } = await stack.client.send(
    new ImportTableCommand({
      S3BucketSource: { S3Bucket: 'exports', S3KeyPrefix: prefix },
      InputFormat: format,
      InputCompressionType: 'GZIP',
      TableCreationParameters: {
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
      ...extra,
    }),
  );
  expect(ImportTableDescription?.ImportStatus).toBe('IN_PROGRESS');
  await stack.settled();
  return (
    await stack.client.send(new DescribeImportCommand({ ImportArn: ImportTableDescription!.ImportArn }))
  ).ImportTableDescription!;
}

const sortedItems = async (table: string) =>
  ((await stack.client.send(new ScanCommand({ TableName: table }))).Items ?? []).sort((a, b) =>
    a.pk!.S! < b.pk!.S! ? -1 : 1,
  );

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

describe('export then import', () => {
  for (const format of ['DYNAMODB_JSON', 'ION'] as const) {
    it(`gives back the same items (${format})`, async () => {
      await sourceTable();
      const description = await exportTable(format, `round-${format}`);
      const exportId = description.ExportArn!.split('/export/')[1]!;
      const imported = await importInto('Copy', `round-${format}/AWSDynamoDB/${exportId}/data/`, format);
      expect(imported).toMatchObject({
        ImportStatus: 'COMPLETED',
        ProcessedItemCount: 4,
        ImportedItemCount: 4,
        ErrorCount: 0,
        TableArn: arnOf('Copy'),
      });
      expect(await sortedItems('Copy')).toEqual(await sortedItems('Source'));
      const { Table } = await stack.client.send(new DescribeTableCommand({ TableName: 'Copy' }));
      expect(Table?.TableStatus).toBe('ACTIVE');
    });
  }
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

describe('ImportTable', () => {
  const put = (key: string, body: string | Buffer) => {
    const path = join(bucketsDir, 'exports', key);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, body);
  };

  it('counts bad lines, logs them, goes on, and ends FAILED with the good items kept', async () => {
    put(
      'mixed/a.json.gz',
      gzipSync(
        '{"Item":{"pk":{"S":"m1"}}}{"Item":{"pk":{"S":"m2"}}}\n{"pk":{"S":"bare"}}\n{"Item":{"pk":{"N":"1"}}}\n\n{"Item":{"pk":{"S":"m3"},"n":{"N":"1e500"}}}\n',
      ),
    );
    const imported = await importInto('Mixed', 'mixed/', 'DYNAMODB_JSON');
    expect(imported).toMatchObject({
      ImportStatus: 'FAILED',
      FailureCode: 'ItemValidationError',
      ProcessedItemCount: 5,
      ImportedItemCount: 2,
      ErrorCount: 3,
    });
    expect(imported.ProcessedSizeBytes).toBeGreaterThan(0);
    expect((await sortedItems('Mixed')).map((item) => item.pk?.S)).toEqual(['m1', 'm2']);
  });

  it('reads CSV with a header list, a delimiter and typed keys', async () => {
    put('csv/rows.csv.gz', gzipSync('p1;3;"hello; ""world"""\np2;4;\n'));
    const { ImportTableDescription } = await stack.client.send(
      new ImportTableCommand({
        S3BucketSource: { S3Bucket: 'exports', S3KeyPrefix: 'csv/' },
        InputFormat: 'CSV',
        InputCompressionType: 'GZIP',
        InputFormatOptions: { Csv: { Delimiter: ';', HeaderList: ['pk', 'sk', 'note'] } },
        TableCreationParameters: {
          TableName: 'Rows',
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'N' },
          ],
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
        },
      }),
    );
    await stack.settled();
    const { ImportTableDescription: done } = await stack.client.send(
      new DescribeImportCommand({ ImportArn: ImportTableDescription!.ImportArn }),
    );
    expect(done).toMatchObject({ ImportStatus: 'COMPLETED', ImportedItemCount: 2 });
    expect(await sortedItems('Rows')).toEqual([
      { pk: { S: 'p1' }, sk: { N: '3' }, note: { S: 'hello; "world"' } },
      { pk: { S: 'p2' }, sk: { N: '4' } },
    ]);
  });

  it('reads ZSTD-compressed objects', async () => {
    mkdirSync(join(bucketsDir, 'exports', 'zstd'), { recursive: true });
    copyFileSync(
      join(import.meta.dirname, 'fixtures', 'zstd-items.json.zst'),
      join(bucketsDir, 'exports', 'zstd', 'items.json.zst'),
    );
    const imported = await importInto('Zstd', 'zstd/', 'DYNAMODB_JSON', { InputCompressionType: 'ZSTD' });
    expect(imported).toMatchObject({ ProcessedItemCount: 4, ImportedItemCount: 2, ErrorCount: 2 });
    expect((await sortedItems('Zstd'))[0]).toEqual({
      pk: { S: 'z1' },
      n: { N: '12345678901234567890123456789012345678' },
    });
  });

  it('fails with S3NoSuchBucket and leaves no table', async () => {
    const { ImportTableDescription } = await stack.client.send(
      new ImportTableCommand({
        S3BucketSource: { S3Bucket: 'nobucket' },
        InputFormat: 'DYNAMODB_JSON',
        InputCompressionType: 'NONE',
        TableCreationParameters: {
          TableName: 'Never',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        },
      }),
    );
    await stack.settled();
    const { ImportTableDescription: done } = await stack.client.send(
      new DescribeImportCommand({ ImportArn: ImportTableDescription!.ImportArn }),
    );
    expect(done).toMatchObject({
      ImportStatus: 'FAILED',
      FailureCode: 'S3NoSuchBucket',
      TableArn: arnOf('Never'),
    });
    expect((await stack.client.send(new ListTablesCommand({}))).TableNames).not.toContain('Never');
    const { ImportSummaryList } = await stack.client.send(new ListImportsCommand({}));
    expect(ImportSummaryList?.map((summary) => summary.ImportStatus)).toEqual(['FAILED']);
  });

  it('checks TableCreationParameters as CreateTable does (recorded message)', async () => {
    await expect(
      stack.client.send(
        new ImportTableCommand({
          S3BucketSource: { S3Bucket: 'exports' },
          InputFormat: 'DYNAMODB_JSON',
          InputCompressionType: 'NONE',
          TableCreationParameters: {
            TableName: 'Prov',
            AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
            KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
            BillingMode: 'PROVISIONED',
          },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        'One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED',
    });
    expect(existsSync(join(bucketsDir, 'exports'))).toBe(true);
  });
});
