import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  DescribeImportCommand,
  DescribeTableCommand,
  ImportTableCommand,
  ListImportsCommand,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestStack } from '../../infra/testing/index.js';
import { arnOf, backupStack } from './helpers.js';
import { transfers } from './transfers.js';

/**
 * Imports through the SDK from a folder of buckets, and export → import round trips (docs/backups.md §4).
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

const { sourceTable, exportTable, importInto, sortedItems } = transfers(() => stack);

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
