import {
  CreateBackupCommand,
  CreateTableCommand,
  DeleteBackupCommand,
  DeleteTableCommand,
  DescribeBackupCommand,
  DescribeTableCommand,
  ListBackupsCommand,
  PutItemCommand,
  QueryCommand,
  RestoreTableFromBackupCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestStack } from '../../infra/testing/index.js';
import { arnOf, backupStack } from './helpers.js';

/**
 * On-demand backups through the real SDK client of the test kit (docs/backups.md §2).
 * Error names and texts: getmoto/moto moto/dynamodb/exceptions.py (BackupNotFoundException
 * `Backup not found: <arn>`, TableAlreadyExistsException `Table already exists: <name>`),
 * TableNotFoundException `Table not found: <name>` (moto's aws_verified export test).
 */
let stack: TestStack;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ stack, close } = await backupStack());
});
afterAll(() => close());
beforeEach(() => stack.reset());

async function musicTable(): Promise<void> {
  await stack.client.send(
    new CreateTableCommand({
      TableName: 'Music',
      AttributeDefinitions: [
        { AttributeName: 'artist', AttributeType: 'S' },
        { AttributeName: 'song', AttributeType: 'S' },
        { AttributeName: 'year', AttributeType: 'N' },
        { AttributeName: 'genre', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'artist', KeyType: 'HASH' },
        { AttributeName: 'song', KeyType: 'RANGE' },
      ],
      LocalSecondaryIndexes: [
        {
          IndexName: 'ByYear',
          KeySchema: [
            { AttributeName: 'artist', KeyType: 'HASH' },
            { AttributeName: 'year', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'ByGenre',
          KeySchema: [{ AttributeName: 'genre', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  for (let i = 0; i < 30; i++)
    await stack.client.send(
      new PutItemCommand({
        TableName: 'Music',
        Item: {
          artist: { S: `a${i % 3}` },
          song: { S: `s${i}` },
          year: { N: String(1990 + i) },
          genre: { S: i % 2 === 0 ? 'rock' : 'jazz' },
        },
      }),
    );
}

describe('CreateBackup and RestoreTableFromBackup', () => {
  it('restores the items as they were at the backup, with the indexes, into a new table', async () => {
    await musicTable();
    const { BackupDetails } = await stack.client.send(
      new CreateBackupCommand({ TableName: 'Music', BackupName: 'music-1' }),
    );
    expect(BackupDetails).toMatchObject({
      BackupName: 'music-1',
      BackupStatus: 'CREATING',
      BackupType: 'USER',
    });
    expect(BackupDetails!.BackupArn).toMatch(new RegExp(`^${arnOf('Music')}/backup/\\d{14}-[0-9a-f]{8}$`));
    // Writes after the backup do not reach it.
    await stack.client.send(
      new PutItemCommand({ TableName: 'Music', Item: { artist: { S: 'late' }, song: { S: 'x' } } }),
    );
    const restored = await stack.client.send(
      new RestoreTableFromBackupCommand({
        TargetTableName: 'MusicCopy',
        BackupArn: BackupDetails!.BackupArn,
      }),
    );
    expect(restored.TableDescription).toMatchObject({
      TableName: 'MusicCopy',
      TableStatus: 'CREATING',
      RestoreSummary: {
        SourceBackupArn: BackupDetails!.BackupArn,
        SourceTableArn: arnOf('Music'),
        RestoreInProgress: true,
      },
    });
    await stack.settled();
    const { Table } = await stack.client.send(new DescribeTableCommand({ TableName: 'MusicCopy' }));
    expect(Table).toMatchObject({
      TableStatus: 'ACTIVE',
      ItemCount: 30,
      RestoreSummary: { RestoreInProgress: false },
    });
    expect(Table!.LocalSecondaryIndexes?.[0]?.IndexName).toBe('ByYear');
    const scan = await stack.client.send(new ScanCommand({ TableName: 'MusicCopy' }));
    expect(scan.Count).toBe(30);
    const byYear = await stack.client.send(
      new QueryCommand({
        TableName: 'MusicCopy',
        IndexName: 'ByYear',
        KeyConditionExpression: 'artist = :a AND #y > :y',
        ExpressionAttributeNames: { '#y': 'year' },
        ExpressionAttributeValues: { ':a': { S: 'a0' }, ':y': { N: '2010' } },
      }),
    );
    expect(byYear.Items?.map((item) => item.year?.N)).toEqual(['2011', '2014', '2017']);
    const rock = await stack.client.send(
      new QueryCommand({
        TableName: 'MusicCopy',
        IndexName: 'ByGenre',
        KeyConditionExpression: 'genre = :g',
        ExpressionAttributeValues: { ':g': { S: 'rock' } },
      }),
    );
    expect(rock.Count).toBe(15);
  });

  it('describes the backup with its source table and features', async () => {
    await musicTable();
    const { BackupDetails } = await stack.client.send(
      new CreateBackupCommand({ TableName: arnOf('Music'), BackupName: 'bk1' }),
    );
    const { BackupDescription } = await stack.client.send(
      new DescribeBackupCommand({ BackupArn: BackupDetails!.BackupArn }),
    );
    expect(BackupDescription).toMatchObject({
      BackupDetails: { BackupStatus: 'AVAILABLE', BackupName: 'bk1' },
      SourceTableDetails: {
        TableName: 'Music',
        TableArn: arnOf('Music'),
        ItemCount: 30,
        BillingMode: 'PAY_PER_REQUEST',
      },
      SourceTableFeatureDetails: {
        LocalSecondaryIndexes: [{ IndexName: 'ByYear' }],
        GlobalSecondaryIndexes: [{ IndexName: 'ByGenre' }],
        TimeToLiveDescription: { TimeToLiveStatus: 'DISABLED' },
      },
    });
    expect(BackupDescription!.SourceTableDetails!.TableSizeBytes).toBeGreaterThan(0);
  });

  it('restores with overrides: provisioned billing and no secondary indexes', async () => {
    await musicTable();
    const { BackupDetails } = await stack.client.send(
      new CreateBackupCommand({ TableName: 'Music', BackupName: 'bk1' }),
    );
    await stack.client
      .send(
        new RestoreTableFromBackupCommand({
          TargetTableName: 'Plain',
          BackupArn: BackupDetails!.BackupArn,
          BillingModeOverride: 'PROVISIONED',
          ProvisionedThroughputOverride: { ReadCapacityUnits: 5, WriteCapacityUnits: 7 },
          GlobalSecondaryIndexOverride: [],
          LocalSecondaryIndexOverride: [],
        }),
      )
      .catch((error: Error) => error);
    // Empty index lists are refused by CreateTable's validation, as the service refuses them.
    await stack.client.send(
      new RestoreTableFromBackupCommand({
        TargetTableName: 'Plain2',
        BackupArn: BackupDetails!.BackupArn,
        BillingModeOverride: 'PROVISIONED',
        ProvisionedThroughputOverride: { ReadCapacityUnits: 5, WriteCapacityUnits: 7 },
      }),
    );
    await stack.settled();
    const { Table } = await stack.client.send(new DescribeTableCommand({ TableName: 'Plain2' }));
    expect(Table).toMatchObject({
      ItemCount: 30,
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 7 },
    });
    // A table never on demand has no BillingModeSummary (docs/dynamodb.md §3.1.9).
    expect(Table!.BillingModeSummary).toBeUndefined();
  });

  it('answers TableAlreadyExistsException, BackupNotFoundException and TableNotFoundException', async () => {
    await musicTable();
    const { BackupDetails } = await stack.client.send(
      new CreateBackupCommand({ TableName: 'Music', BackupName: 'bk1' }),
    );
    await expect(
      stack.client.send(
        new RestoreTableFromBackupCommand({ TargetTableName: 'Music', BackupArn: BackupDetails!.BackupArn }),
      ),
    ).rejects.toMatchObject({ name: 'TableAlreadyExistsException', message: 'Table already exists: Music' });
    const missing = `${arnOf('Music')}/backup/01700000000000-00000000`;
    await expect(stack.client.send(new DescribeBackupCommand({ BackupArn: missing }))).rejects.toMatchObject({
      name: 'BackupNotFoundException',
      message: `Backup not found: ${missing}`,
    });
    await expect(
      stack.client.send(new CreateBackupCommand({ TableName: 'Nope', BackupName: 'bk1' })),
    ).rejects.toMatchObject({ name: 'TableNotFoundException', message: 'Table not found: Nope' });
  });

  it('checks BackupName against the service constraint', async () => {
    await expect(
      stack.client.send(new CreateBackupCommand({ TableName: 'Music', BackupName: 'a b' })),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        "1 validation error detected: Value 'a b' at 'backupName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
    });
  });

  it('deletes a backup: DELETED in the answer, then not found', async () => {
    await musicTable();
    const { BackupDetails } = await stack.client.send(
      new CreateBackupCommand({ TableName: 'Music', BackupName: 'bk1' }),
    );
    const arn = BackupDetails!.BackupArn!;
    const { BackupDescription } = await stack.client.send(new DeleteBackupCommand({ BackupArn: arn }));
    expect(BackupDescription?.BackupDetails?.BackupStatus).toBe('DELETED');
    await expect(stack.client.send(new DeleteBackupCommand({ BackupArn: arn }))).rejects.toMatchObject({
      name: 'BackupNotFoundException',
    });
  });

  it('answers BackupInUseException for a backup being restored from', async () => {
    await musicTable();
    const { BackupDetails } = await stack.client.send(
      new CreateBackupCommand({ TableName: 'Music', BackupName: 'bk1' }),
    );
    await stack.client.send(
      new RestoreTableFromBackupCommand({ TargetTableName: 'Copy', BackupArn: BackupDetails!.BackupArn }),
    );
    await expect(
      stack.client.send(new DeleteBackupCommand({ BackupArn: BackupDetails!.BackupArn })),
    ).rejects.toMatchObject({
      name: 'BackupInUseException',
    });
    await stack.settled();
    await stack.client.send(new DeleteBackupCommand({ BackupArn: BackupDetails!.BackupArn }));
  });
});

describe('ListBackups', () => {
  it('filters by table, type and time range, and pages with ExclusiveStartBackupArn', async () => {
    await musicTable();
    const arns: string[] = [];
    for (let i = 0; i < 5; i++) {
      await stack.advance(1000);
      const { BackupDetails } = await stack.client.send(
        new CreateBackupCommand({ TableName: 'Music', BackupName: `bk${i}` }),
      );
      arns.push(BackupDetails!.BackupArn!);
    }
    const first = await stack.client.send(new ListBackupsCommand({ TableName: 'Music', Limit: 2 }));
    expect(first.BackupSummaries?.map((summary) => summary.BackupArn)).toEqual(arns.slice(0, 2));
    expect(first.LastEvaluatedBackupArn).toBe(arns[1]);
    const second = await stack.client.send(
      new ListBackupsCommand({
        TableName: 'Music',
        Limit: 3,
        ExclusiveStartBackupArn: first.LastEvaluatedBackupArn,
      }),
    );
    expect(second.BackupSummaries?.map((summary) => summary.BackupArn)).toEqual(arns.slice(2));
    expect(second.LastEvaluatedBackupArn).toBeUndefined();
    const start = stack.clock.now();
    const ranged = await stack.client.send(
      new ListBackupsCommand({
        TimeRangeLowerBound: new Date(start - 3000),
        TimeRangeUpperBound: new Date(start - 1000),
      }),
    );
    expect(ranged.BackupSummaries?.map((summary) => summary.BackupName)).toEqual(['bk1', 'bk2']);
    expect(
      (await stack.client.send(new ListBackupsCommand({ BackupType: 'SYSTEM' }))).BackupSummaries,
    ).toEqual([]);
    expect((await stack.client.send(new ListBackupsCommand({ TableName: 'Other' }))).BackupSummaries).toEqual(
      [],
    );
  });

  it('lists the SYSTEM backup a table with point-in-time recovery leaves when deleted', async () => {
    await musicTable();
    await stack.client.send(
      new UpdateContinuousBackupsCommand({
        TableName: 'Music',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    await stack.client.send(new DeleteTableCommand({ TableName: 'Music' }));
    const { BackupSummaries } = await stack.client.send(new ListBackupsCommand({ BackupType: 'ALL' }));
    expect(BackupSummaries).toHaveLength(1);
    expect(BackupSummaries![0]).toMatchObject({
      BackupType: 'SYSTEM',
      TableName: 'Music',
      BackupStatus: 'AVAILABLE',
    });
    expect(BackupSummaries![0]!.BackupExpiryDateTime).toBeDefined();
  });
});
