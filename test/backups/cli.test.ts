import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  PutItemCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBackupCommand } from '../../infra/cli/commands/backup.js';
import { addExportCommand, addImportCommand } from '../../infra/cli/commands/transfer.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { runCommand } from '../helpers/command.js';

/**
 * `eddy backup ls|create|restore`, `eddy export` and `eddy import` against a running eddy over
 * HTTP (in process: the commands are SDK clients of the endpoint), docs/backups.md.
 */
let stack: TestStack;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eddy-backup-cli-'));
  mkdirSync(join(home, 'buckets', 'exports'), { recursive: true });
  stack = await startStack({}, { endpoint: true, buckets: { directory: join(home, 'buckets') } });
  await stack.client.send(
    new CreateTableCommand({
      TableName: 'Orders',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await stack.client.send(
    new UpdateContinuousBackupsCommand({
      TableName: 'Orders',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    }),
  );
  for (let i = 0; i < 25; i++)
    await stack.client.send(
      new PutItemCommand({ TableName: 'Orders', Item: { id: { S: `o${i}` }, n: { N: `${i}` } } }),
    );
});
afterAll(async () => {
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

const run = (add: Parameters<typeof runCommand>[0], ...args: string[]) =>
  runCommand(add, [...args, '--endpoint', stack.endpoint!, '--no-config'], home);
const count = async (table: string) => (await stack.client.send(new ScanCommand({ TableName: table }))).Count;

describe('eddy backup', () => {
  it('creates, lists and restores a backup by name', async () => {
    const created = await run(addBackupCommand, 'backup', 'create', 'Orders', '--name', 'nightly');
    expect(created).toMatchObject({ code: 0, err: [] });
    expect(created.out[0]).toBe('backup nightly of Orders: AVAILABLE');
    const listed = await run(addBackupCommand, 'backup', 'ls', '--table', 'Orders');
    expect(listed.out[0]).toMatch(/^NAME\s+TABLE\s+STATUS\s+TYPE\s+CREATED\s+BYTES\s+ARN$/);
    expect(listed.out[1]).toMatch(/^nightly\s+Orders\s+AVAILABLE\s+USER\s/);
    const restored = await run(addBackupCommand, 'backup', 'restore', 'nightly', 'OrdersCopy');
    expect(restored).toMatchObject({ code: 0, out: ['restored 25 items into OrdersCopy'] });
    expect(await count('OrdersCopy')).toBe(25);
  });

  it('says so when no backup has the name, with exit code 2', async () => {
    const missing = await run(addBackupCommand, 'backup', 'restore', 'nothing', 'Other');
    expect(missing).toMatchObject({
      code: 2,
      err: ['eddy backup restore: no backup is named nothing (eddy backup ls lists them)'],
    });
  });

  it("prints the service's answer to a refused call", async () => {
    const refused = await run(addBackupCommand, 'backup', 'create', 'Missing', '--name', 'nightly');
    expect(refused).toMatchObject({ code: 1, err: ['eddy backup create: Table not found: Missing'] });
  });
});

describe('eddy export and eddy import', () => {
  it('exports a table and imports the export into a new table', async () => {
    const exported = await run(
      addExportCommand,
      'export',
      'Orders',
      '--bucket',
      'exports',
      '--prefix',
      'cli',
    );
    expect(exported.code).toBe(0);
    expect(exported.out[0]).toMatch(
      /^exported 25 items of Orders to exports\/cli\/AWSDynamoDB\/[0-9a-f-]+\/manifest-summary\.json$/,
    );
    const exportId = exported.out[1]!.split('/export/')[1]!;
    const imported = await run(
      addImportCommand,
      'import',
      '--bucket',
      'exports',
      '--prefix',
      `cli/AWSDynamoDB/${exportId}/data/`,
      '--table',
      'OrdersBack',
      '--key',
      'id:S',
    );
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.out[0]).toBe('imported 25 of 25 items into OrdersBack (0 errors): COMPLETED');
    expect(await count('OrdersBack')).toBe(25);
  });

  it('imports a CSV file and exits 1 when lines were bad', async () => {
    writeFileSync(join(home, 'buckets', 'exports', 'users.csv'), 'id,name\nu1,Ann\nu2,Bo,extra\n');
    const imported = await run(
      addImportCommand,
      'import',
      '--bucket',
      'exports',
      '--prefix',
      'users.csv',
      '--table',
      'Users',
      '--key',
      'id:S',
      '--format',
      'CSV',
      '--compression',
      'NONE',
    );
    expect(imported.code).toBe(1);
    expect(imported.out[0]).toBe('imported 1 of 2 items into Users (1 errors): FAILED');
  });
});
