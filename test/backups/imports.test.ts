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

  // scylladb/scylladb test/alternator/test_import.py (measured against AWS, 2026), test_invalid_items:
  // an item that fails its checks is one error and the import goes on; the first line that cannot
  // be an item at all (not JSON, or no Item member) is one error and the rest of its object is not
  // read; blank lines are nothing; the import ends FAILED (ItemValidationError) with the good
  // items kept, and ProcessedItemCount = ImportedItemCount + ErrorCount.
  it('counts bad items and goes on, gives up on an object at a line that is no item, ends FAILED with the good items kept', async () => {
    put(
      'mixed/00000-good.json.gz',
      gzipSync(
        [
          '{"Item":{"pk":{"S":"m1"}}}{"Item":{"pk":{"S":"m2"}}}',
          '{"Item":{"pk":{"N":"1"}}}',
          '',
          '   ',
          '{"Item":{"nopk":{"S":"x"}}}',
          '{"Item":{"pk":{"S":"m3"},"n":{"N":"1e500"}}}',
          '{"Item":{"pk":{"S":"m4"}}}',
        ].join('\n'),
      ),
    );
    // Two unreadable lines and an item after them: one error, nothing more of this object.
    put(
      'mixed/00001-bad.json.gz',
      gzipSync(
        '{"Item":{"pk":{"S":"m5"}}}\n{"NotAnItem":{"pk":{"S":"x"}}}\n{"Item": \n{"Item":{"pk":{"S":"lost"}}}\n',
      ),
    );
    put('mixed/00002-bad.json.gz', gzipSync('not JSON\n{"Item":{"pk":{"S":"lost too"}}}\n'));
    const logged: string[] = [];
    const previous = stack.engine.dataProtection.log;
    stack.engine.dataProtection.log = (line) => logged.push(line);
    const imported = await importInto('Mixed', 'mixed/', 'DYNAMODB_JSON').finally(() => {
      stack.engine.dataProtection.log = previous;
    });
    expect(imported).toMatchObject({
      ImportStatus: 'FAILED',
      FailureCode: 'ItemValidationError',
      ProcessedItemCount: 9,
      ImportedItemCount: 4,
      ErrorCount: 5,
    });
    expect((await sortedItems('Mixed')).map((item) => item.pk?.S)).toEqual(['m1', 'm2', 'm4', 'm5']);
    expect(logged).toHaveLength(5);
    expect(logged[0]).toContain(
      'mixed/00000-good.json.gz line 2: One or more parameter values were invalid: Type mismatch for key pk',
    );
    expect(logged.at(-1)).toContain('mixed/00002-bad.json.gz line 1: not JSON');
  });

  it('counts ProcessedSizeBytes uncompressed, the same for a gzipped and a plain object (test_processed_size_bytes_is_uncompressed)', async () => {
    const body = '{"Item":{"pk":{"S":"zażółć 🦑"},"n":{"N":"17.5"}}}\n{"Item": {"pk": {"S": "spaced"}}}\n\n';
    put('plain/a.json', body);
    put('gzip/a.json.gz', gzipSync(body));
    const plain = await importInto('Plain', 'plain/', 'DYNAMODB_JSON', { InputCompressionType: 'NONE' });
    const gzip = await importInto('Gzip', 'gzip/', 'DYNAMODB_JSON');
    expect(plain).toMatchObject({ ImportStatus: 'COMPLETED', ProcessedItemCount: 2, ImportedItemCount: 2 });
    expect(plain.ProcessedSizeBytes).toBe(Buffer.byteLength(body));
    expect(gzip.ProcessedSizeBytes).toBe(Buffer.byteLength(body));
  });

  // test_import_in_flight and test_import_table_description: while the import runs its counters
  // say 0, and EndTime and ProcessedSizeBytes are absent; they appear when it ends.
  it('reports no progress until the import ends (test_import_in_flight)', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `{"Item":{"n":{"N":"${i}"},"pk":{"S":"k${i}"}}}`);
    put('big/a.json.gz', gzipSync(`${lines.join('\n')}\n`));
    const { ImportTableDescription: started } = await stack.client.send(
      new ImportTableCommand({
        S3BucketSource: { S3Bucket: 'exports', S3KeyPrefix: 'big/' },
        InputFormat: 'DYNAMODB_JSON',
        InputCompressionType: 'GZIP',
        TableCreationParameters: {
          TableName: 'Big',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        },
      }),
    );
    expect(started).not.toHaveProperty('ProcessedSizeBytes');
    const describe = async () =>
      (await stack.client.send(new DescribeImportCommand({ ImportArn: started!.ImportArn })))
        .ImportTableDescription!;
    const samples = [await describe()];
    // Polled with a pause, as SDK waiters do (the test kit's in-process client answers without
    // leaving the microtask queue, so a loop without one would never let the import run).
    while (samples.at(-1)!.ImportStatus === 'IN_PROGRESS') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      samples.push(await describe());
    }
    const running = samples.filter((sample) => sample.ImportStatus === 'IN_PROGRESS');
    expect(running.length).toBeGreaterThan(0);
    for (const sample of running) {
      expect(sample).toMatchObject({ ProcessedItemCount: 0, ImportedItemCount: 0, ErrorCount: 0 });
      expect(sample).not.toHaveProperty('EndTime');
      expect(sample).not.toHaveProperty('ProcessedSizeBytes');
    }
    expect(samples.at(-1)).toMatchObject({
      ImportStatus: 'COMPLETED',
      ProcessedItemCount: 30_000,
      ImportedItemCount: 30_000,
      ErrorCount: 0,
      ProcessedSizeBytes: Buffer.byteLength(`${lines.join('\n')}\n`),
    });
    expect(samples.at(-1)).toHaveProperty('EndTime');
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
    // `not json` on line 3 ends the object: line 4 (no key) is never read.
    expect(imported).toMatchObject({ ProcessedItemCount: 3, ImportedItemCount: 2, ErrorCount: 1 });
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
