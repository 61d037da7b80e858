import {
  type AttributeValue,
  CreateTableCommand,
  DescribeExportCommand,
  DescribeImportCommand,
  ExportTableToPointInTimeCommand,
  ImportTableCommand,
  PutItemCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { expect } from 'vitest';
import type { TestStack } from '../../infra/testing/index.js';
import { arnOf } from './helpers.js';

/** Fixtures of the export and import tests, on the stack `current()` gives. */
export function transfers(current: () => TestStack) {
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
    await current().client.send(
      new CreateTableCommand({
        TableName: 'Source',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await current().client.send(
      new UpdateContinuousBackupsCommand({
        TableName: 'Source',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    for (const Item of tricky) await current().client.send(new PutItemCommand({ TableName: 'Source', Item }));
  }

  async function exportTable(format: 'DYNAMODB_JSON' | 'ION', prefix = 'snap') {
    const { ExportDescription } = await current().client.send(
      new ExportTableToPointInTimeCommand({
        TableArn: arnOf('Source'),
        S3Bucket: 'exports',
        S3Prefix: prefix,
        ExportFormat: format,
      }),
    );
    expect(ExportDescription?.ExportStatus).toBe('IN_PROGRESS');
    await current().settled();
    return (
      await current().client.send(new DescribeExportCommand({ ExportArn: ExportDescription!.ExportArn }))
    ).ExportDescription!;
  }

  async function importInto(
    table: string,
    prefix: string,
    format: 'DYNAMODB_JSON' | 'ION' | 'CSV',
    extra = {},
  ) {
    const { ImportTableDescription } = await current().client.send(
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
    await current().settled();
    return (
      await current().client.send(new DescribeImportCommand({ ImportArn: ImportTableDescription!.ImportArn }))
    ).ImportTableDescription!;
  }

  const sortedItems = async (table: string) =>
    ((await current().client.send(new ScanCommand({ TableName: table }))).Items ?? []).sort((a, b) =>
      a.pk!.S! < b.pk!.S! ? -1 : 1,
    );
  return { sourceTable, exportTable, importInto, sortedItems };
}
