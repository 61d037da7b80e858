import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ListTagsOfResourceCommand,
  PutItemCommand,
  UpdateContinuousBackupsCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';

/**
 * The clients users drive backups with: the calls Terraform's AWS provider makes for an
 * `aws_dynamodb_table` (through the SDK, as the provider is a Go SDK client), and the AWS CLI v1
 * over HTTP. The provider reads DescribeTable, DescribeContinuousBackups, DescribeTimeToLive and
 * ListTagsOfResource on every plan (hashicorp/terraform-provider-aws, internal/service/dynamodb
 * table.go, resourceTableRead); before eddy had DescribeContinuousBackups the first plan failed.
 * The fresh table's answer is the one the AWS CLI reference shows for describe-continuous-backups:
 * ContinuousBackupsStatus ENABLED, PointInTimeRecoveryStatus DISABLED
 * (https://docs.aws.amazon.com/cli/latest/reference/dynamodb/describe-continuous-backups.html).
 */
const execFileAsync = promisify(execFile);
/** Each `aws` run starts a Python interpreter (about 1 s of CPU): generous on a loaded machine. */
const CLI_TIMEOUT_MS = 120_000;
let stack: TestStack;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eddy-backup-clients-'));
  mkdirSync(join(home, 'buckets', 'exports'), { recursive: true });
  stack = await startStack({}, { endpoint: true, buckets: { directory: join(home, 'buckets') } });
});
afterAll(async () => {
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("Terraform's aws_dynamodb_table", () => {
  it('creates, reads (plan) and destroys a table with point_in_time_recovery, ttl and tags', async () => {
    const client = stack.client;
    // Create: CreateTable with the tags, wait for ACTIVE, then the blocks set after creation.
    await client.send(
      new CreateTableCommand({
        TableName: 'tf-locks',
        AttributeDefinitions: [{ AttributeName: 'LockID', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'LockID', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
        Tags: [{ Key: 'team', Value: 'platform' }],
      }),
    );
    expect((await client.send(new DescribeTableCommand({ TableName: 'tf-locks' }))).Table?.TableStatus).toBe(
      'ACTIVE',
    );
    const before = await client.send(new DescribeContinuousBackupsCommand({ TableName: 'tf-locks' }));
    expect(before.ContinuousBackupsDescription).toEqual({
      ContinuousBackupsStatus: 'ENABLED',
      PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'DISABLED' },
    });
    await client.send(
      new UpdateContinuousBackupsCommand({
        TableName: 'tf-locks',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: 'tf-locks',
        TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true },
      }),
    );
    // Read, as every plan does.
    const table = (await client.send(new DescribeTableCommand({ TableName: 'tf-locks' }))).Table!;
    const pitr = (await client.send(new DescribeContinuousBackupsCommand({ TableName: 'tf-locks' })))
      .ContinuousBackupsDescription!.PointInTimeRecoveryDescription!;
    expect(pitr).toMatchObject({ PointInTimeRecoveryStatus: 'ENABLED', RecoveryPeriodInDays: 35 });
    expect(pitr.EarliestRestorableDateTime).toBeInstanceOf(Date);
    const ttl = (await client.send(new DescribeTimeToLiveCommand({ TableName: 'tf-locks' })))
      .TimeToLiveDescription;
    expect(ttl).toEqual({ AttributeName: 'expires', TimeToLiveStatus: 'ENABLED' });
    const tags = (await client.send(new ListTagsOfResourceCommand({ ResourceArn: table.TableArn }))).Tags;
    expect(tags).toEqual([{ Key: 'team', Value: 'platform' }]);
    // Destroy.
    await client.send(new DeleteTableCommand({ TableName: 'tf-locks' }));
  });
});

/** Credentials and region from the environment only, none of this machine's AWS config. */
function awsEnvironment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_CONFIG_FILE: join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(home, 'no-aws-credentials'),
  };
}

/** `aws dynamodb <args>` → its JSON output, or its exit code and stderr when it fails. */
async function aws(
  ...args: string[]
): Promise<{ json?: Record<string, unknown>; code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(
      'aws',
      ['dynamodb', ...args, '--endpoint-url', stack.endpoint!, '--output', 'json'],
      { env: awsEnvironment() },
    );
    return { json: stdout.trim() === '' ? {} : JSON.parse(stdout), code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('the AWS CLI', () => {
  it(
    'creates a backup, restores it, and names a missing backup as the service does',
    async () => {
      await stack.client.send(
        new CreateTableCommand({
          TableName: 'Songs',
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      await stack.client.send(new PutItemCommand({ TableName: 'Songs', Item: { id: { S: 'one' } } }));
      const created = await aws('create-backup', '--table-name', 'Songs', '--backup-name', 'nightly');
      const details = created.json?.BackupDetails as Record<string, unknown>;
      expect(details).toMatchObject({ BackupName: 'nightly', BackupType: 'USER', BackupStatus: 'CREATING' });
      const restored = await aws(
        'restore-table-from-backup',
        '--target-table-name',
        'SongsCopy',
        '--backup-arn',
        details.BackupArn as string,
      );
      expect(restored.json?.TableDescription).toMatchObject({ TableName: 'SongsCopy' });
      await stack.settled();
      const missing = await aws('describe-backup', '--backup-arn', `${details.BackupArn as string}x`);
      expect(missing.code).toBe(255);
      expect(missing.stderr).toContain(
        `An error occurred (BackupNotFoundException) when calling the DescribeBackup operation: Backup not found: ${details.BackupArn as string}x`,
      );
    },
    CLI_TIMEOUT_MS,
  );
});
