import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  CreateTableCommand,
  ExportTableToPointInTimeCommand,
  type ExportTableToPointInTimeCommandInput,
  ImportTableCommand,
  type ImportTableCommandInput,
  ListExportsCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestStack } from '../../infra/testing/index.js';
import { arnOf, backupStack } from './helpers.js';
import { transfers } from './transfers.js';

/**
 * `ClientToken` of ExportTableToPointInTime and ImportTable (docs/backups.md §5.4). What the
 * service does was measured against AWS in scylladb/scylladb test/alternator/test_export.py and
 * test_import.py (2026): the names, the message and which parameters conflict come from there.
 */
let stack: TestStack;
let bucketsDir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ stack, bucketsDir, close } = await backupStack());
});
afterAll(() => close());
beforeEach(() => stack.reset());

const { sourceTable } = transfers(() => stack);

const exportRequest = (extra: Partial<ExportTableToPointInTimeCommandInput> = {}) =>
  new ExportTableToPointInTimeCommand({
    TableArn: arnOf('Source'),
    S3Bucket: 'exports',
    ClientToken: 'token-1',
    ...extra,
  });

async function rejection(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { name: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('ExportTableToPointInTime ClientToken', () => {
  it('answers the same export for the same token and parameters (test_export_client_token_idempotent)', async () => {
    await sourceTable();
    const first = (await stack.client.send(exportRequest())).ExportDescription!;
    const again = (await stack.client.send(exportRequest())).ExportDescription!;
    expect(again.ExportArn).toBe(first.ExportArn);
    expect(first.ClientToken).toBe('token-1');
    expect(again.ClientToken).toBe('token-1');
    await stack.settled();
    const listed = await stack.client.send(new ListExportsCommand({ TableArn: arnOf('Source') }));
    expect(listed.ExportSummaries).toHaveLength(1);
    // Still the same export once it has completed.
    const later = (await stack.client.send(exportRequest())).ExportDescription!;
    expect(later).toMatchObject({ ExportArn: first.ExportArn, ExportStatus: 'COMPLETED' });
  });

  it('throws ExportConflictException when any other parameter changes (test_export_client_token_some_value_changed)', async () => {
    await sourceTable();
    await stack.client.send(
      new CreateTableCommand({
        TableName: 'Other',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await stack.client.send(
      new UpdateContinuousBackupsCommand({
        TableName: 'Other',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    await stack.client.send(exportRequest({ ExportFormat: 'DYNAMODB_JSON' }));
    for (const change of [
      { ExportFormat: 'ION' as const },
      { S3Prefix: 'prefix' },
      { S3BucketOwner: '000000000000' },
      { S3SseAlgorithm: 'KMS' as const },
      { TableArn: arnOf('Other') },
    ]) {
      const error = await rejection(
        stack.client.send(exportRequest({ ExportFormat: 'DYNAMODB_JSON', ...change })),
      );
      expect(error.name, JSON.stringify(change)).toBe('ExportConflictException');
      expect(error.message).toBe('Duplicate request detected with conflicting parameters');
    }
  });

  it('does not keep a token for a request that failed validation (test_export_failed_does_not_reserve_client_token)', async () => {
    await sourceTable();
    const error = await rejection(stack.client.send(exportRequest({ TableArn: arnOf('Missing') })));
    expect(error.name).toBe('TableNotFoundException');
    const started = (await stack.client.send(exportRequest())).ExportDescription!;
    expect(started.ExportStatus).toBe('IN_PROGRESS');
  });

  it('forgets a token after 8 hours: the same token with other parameters starts a new export', async () => {
    await sourceTable();
    const first = (await stack.client.send(exportRequest())).ExportDescription!;
    await stack.advance('479m');
    expect((await rejection(stack.client.send(exportRequest({ S3Prefix: 'p' })))).name).toBe(
      'ExportConflictException',
    );
    await stack.advance('1m');
    const second = (await stack.client.send(exportRequest({ S3Prefix: 'p' }))).ExportDescription!;
    expect(second.ExportArn).not.toBe(first.ExportArn);
  });

  it('answers a generated ClientToken when none was sent', () => {
    // The SDKs always send one (an idempotency token member), so the request goes in raw.
    stack.engine.executeRaw('CreateTable', {
      TableName: 'Raw',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    stack.engine.executeRaw('UpdateContinuousBackups', {
      TableName: 'Raw',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const answer = stack.engine.executeRaw('ExportTableToPointInTime', {
      TableArn: arnOf('Raw'),
      S3Bucket: 'exports',
    }) as { ExportDescription: { ClientToken: string } };
    expect(answer.ExportDescription.ClientToken).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('ImportTable ClientToken', () => {
  const importRequest = (
    table: string,
    extra: Partial<ImportTableCommandInput> = {},
  ): ImportTableCommandInput => ({
    ClientToken: 'import-token',
    S3BucketSource: { S3Bucket: 'exports', S3KeyPrefix: 'tokens/' },
    InputFormat: 'DYNAMODB_JSON',
    InputCompressionType: 'GZIP',
    TableCreationParameters: {
      TableName: table,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    },
    ...extra,
  });
  const putSource = () => {
    mkdirSync(join(bucketsDir, 'exports', 'tokens'), { recursive: true });
    writeFileSync(
      join(bucketsDir, 'exports', 'tokens', 'a.json.gz'),
      gzipSync('{"Item":{"pk":{"S":"a"}}}\n'),
    );
  };

  it('answers the running import for the same table, whatever else changed (test_client_token_reuse)', async () => {
    putSource();
    // Both calls in one turn of the event loop, so the first import is certainly still running.
    const first = stack.engine.executeRaw('ImportTable', importRequest('Imported')) as {
      ImportTableDescription: Record<string, unknown>;
    };
    const replays = [
      importRequest('Imported'),
      importRequest('Imported', { InputCompressionType: 'NONE' }),
      importRequest('Imported', { InputFormat: 'CSV' }),
      importRequest('Imported', { S3BucketSource: { S3Bucket: 'other-bucket', S3KeyPrefix: 'x/' } }),
    ].map(
      (request) =>
        (
          stack.engine.executeRaw('ImportTable', request) as {
            ImportTableDescription: Record<string, unknown>;
          }
        ).ImportTableDescription,
    );
    for (const replay of replays) {
      expect(replay.ImportArn).toBe(first.ImportTableDescription.ImportArn);
      expect(replay.S3BucketSource).toEqual({ S3Bucket: 'exports', S3KeyPrefix: 'tokens/' });
      expect(replay.InputCompressionType).toBe('GZIP');
    }
    await stack.settled();
  });

  it('throws ImportConflictException for another table, and ResourceInUseException once the table exists', async () => {
    putSource();
    const first = (await stack.client.send(new ImportTableCommand(importRequest('Imported'))))
      .ImportTableDescription!;
    expect(first.ClientToken).toBe('import-token');
    const conflict = await rejection(stack.client.send(new ImportTableCommand(importRequest('Elsewhere'))));
    expect(conflict).toMatchObject({
      name: 'ImportConflictException',
      message: 'Duplicate request detected with conflicting parameters',
    });
    await stack.settled();
    // Ended: its table exists, and CreateTable's check answers first.
    const inUse = await rejection(stack.client.send(new ImportTableCommand(importRequest('Imported'))));
    expect(inUse).toMatchObject({
      name: 'ResourceInUseException',
      message: 'Table already exists: Imported',
    });
  });
});
