import {
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeContinuousBackupsCommand,
  ListBackupsCommand,
  PutItemCommand,
  RestoreTableFromBackupCommand,
  RestoreTableToPointInTimeCommand,
  ScanCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestStack } from '../../infra/testing/index.js';
import { arnOf, backupStack } from './helpers.js';

/**
 * Point-in-time recovery (docs/backups.md §3), on the test kit's virtual clock: the window runs
 * from the enabling time to five minutes ago
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PointInTimeRecoveryDescription.html).
 * PointInTimeRecoveryUnavailableException's text is recorded against AWS in getmoto/moto
 * tests/test_dynamodb/test_dynamodb_export_table.py (test_export_point_in_time_recovery_not_enabled).
 */
let stack: TestStack;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ stack, close } = await backupStack());
});
afterAll(() => close());
beforeEach(() => stack.reset());

const createTable = (name = 'Ledger') =>
  stack.client.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
const enable = (name = 'Ledger', days?: number) =>
  stack.client.send(
    new UpdateContinuousBackupsCommand({
      TableName: name,
      PointInTimeRecoverySpecification: {
        PointInTimeRecoveryEnabled: true,
        ...(days === undefined ? {} : { RecoveryPeriodInDays: days }),
      },
    }),
  );
const put = (id: string, value: number) =>
  stack.client.send(
    new PutItemCommand({ TableName: 'Ledger', Item: { id: { S: id }, v: { N: String(value) } } }),
  );
const scanAll = async (table: string) =>
  Object.fromEntries(
    ((await stack.client.send(new ScanCommand({ TableName: table }))).Items ?? []).map((item) => [
      item.id!.S!,
      Number(item.v!.N),
    ]),
  );

describe('UpdateContinuousBackups and DescribeContinuousBackups', () => {
  it('is DISABLED until enabled, then reports the window and the recovery period', async () => {
    await createTable();
    const before = await stack.client.send(new DescribeContinuousBackupsCommand({ TableName: 'Ledger' }));
    expect(before.ContinuousBackupsDescription).toEqual({
      ContinuousBackupsStatus: 'ENABLED',
      PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'DISABLED' },
    });
    const enabledAt = stack.clock.now();
    // The shortest period (1 day, docs/backups.md §3) and 25 hours on: the window is cut to the
    // period. Each virtual hour steps through 360 runs of the TTL schedule (every 10 s): 10 days
    // with a 7-day period took 86,400 steps, seconds of CPU.
    const { ContinuousBackupsDescription } = await enable('Ledger', 1);
    expect(ContinuousBackupsDescription?.PointInTimeRecoveryDescription).toMatchObject({
      PointInTimeRecoveryStatus: 'ENABLED',
      RecoveryPeriodInDays: 1,
    });
    await stack.advance('25h');
    const later = await stack.client.send(
      new DescribeContinuousBackupsCommand({ TableName: arnOf('Ledger') }),
    );
    const description = later.ContinuousBackupsDescription!.PointInTimeRecoveryDescription!;
    const now = stack.clock.now();
    expect(description.EarliestRestorableDateTime!.getTime()).toBe(now - 1 * 86_400_000);
    expect(description.LatestRestorableDateTime!.getTime()).toBe(now - 5 * 60_000);
    expect(enabledAt).toBeLessThan(description.EarliestRestorableDateTime!.getTime());
  });

  // "If you disable point-in-time recovery and later re-enable it on a table, you reset the start
  // time for which you can recover that table. As a result, you can only immediately restore that
  // table using the LatestRestorableDateTime"
  // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/PointInTimeRecovery_Howitworks.html):
  // LatestRestorableDateTime is now − 5 minutes, but never before EarliestRestorableDateTime.
  it('keeps LatestRestorableDateTime at the enabling time for the first five minutes, restorable at once', async () => {
    await createTable();
    await put('before', 1);
    await enable();
    const enabledAt = stack.clock.now();
    const window = async () => {
      const { ContinuousBackupsDescription } = await stack.client.send(
        new DescribeContinuousBackupsCommand({ TableName: 'Ledger' }),
      );
      const description = ContinuousBackupsDescription!.PointInTimeRecoveryDescription!;
      return [
        description.EarliestRestorableDateTime!.getTime(),
        description.LatestRestorableDateTime!.getTime(),
      ];
    };
    expect(await window()).toEqual([enabledAt, enabledAt]);
    await stack.advance('1m');
    await put('after', 2);
    expect(await window()).toEqual([enabledAt, enabledAt]);
    await stack.client.send(
      new RestoreTableToPointInTimeCommand({
        SourceTableName: 'Ledger',
        TargetTableName: 'AtOnce',
        UseLatestRestorableTime: true,
      }),
    );
    await stack.settled();
    expect(await scanAll('AtOnce')).toEqual({ before: 1 });
    await stack.advance('5m');
    expect(await window()).toEqual([enabledAt, enabledAt + 60_000]);
    // Off and on again: the window starts over, at the new enabling time.
    await stack.client.send(
      new UpdateContinuousBackupsCommand({
        TableName: 'Ledger',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
      }),
    );
    await enable();
    expect(await window()).toEqual([stack.clock.now(), stack.clock.now()]);
  });

  it('refuses a recovery period outside 1..35 days', async () => {
    await createTable();
    await expect(enable('Ledger', 36)).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        "1 validation error detected: Value '36' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value less than or equal to 35",
    });
  });

  it('answers TableNotFoundException for a missing table', async () => {
    await expect(
      stack.client.send(new DescribeContinuousBackupsCommand({ TableName: 'Nope' })),
    ).rejects.toMatchObject({
      name: 'TableNotFoundException',
      message: 'Table not found: Nope',
    });
  });
});

describe('RestoreTableToPointInTime', () => {
  it('restores the table as it was at a second between writes', async () => {
    await createTable();
    await enable();
    await put('a', 1);
    await stack.advance(10_000);
    const between = stack.clock.now();
    await stack.advance(10_000);
    await put('a', 2);
    await put('b', 1);
    await stack.client.send(new DeleteItemCommand({ TableName: 'Ledger', Key: { id: { S: 'a' } } }));
    await stack.advance('6m');
    await stack.client.send(
      new RestoreTableToPointInTimeCommand({
        SourceTableName: 'Ledger',
        TargetTableName: 'Then',
        RestoreDateTime: new Date(between),
      }),
    );
    await stack.client.send(
      new RestoreTableToPointInTimeCommand({
        SourceTableArn: arnOf('Ledger'),
        TargetTableName: 'Latest',
        UseLatestRestorableTime: true,
      }),
    );
    await stack.settled();
    expect(await scanAll('Then')).toEqual({ a: 1 });
    expect(await scanAll('Latest')).toEqual({ b: 1 });
  });

  it('answers PointInTimeRecoveryUnavailableException without PITR, InvalidRestoreTimeException outside the window', async () => {
    await createTable();
    await expect(
      stack.client.send(
        new RestoreTableToPointInTimeCommand({
          SourceTableName: 'Ledger',
          TargetTableName: 'Tgt',
          UseLatestRestorableTime: true,
        }),
      ),
    ).rejects.toMatchObject({
      name: 'PointInTimeRecoveryUnavailableException',
      message: "Point in time recovery is not enabled for table 'Ledger'",
    });
    await enable();
    await stack.advance('10m');
    await expect(
      stack.client.send(
        new RestoreTableToPointInTimeCommand({
          SourceTableName: 'Ledger',
          TargetTableName: 'Tgt',
          RestoreDateTime: new Date(stack.clock.now() - 60_000),
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidRestoreTimeException' });
  });

  // "Once a table with point-in-time recovery enabled is deleted, you can use system restore to
  // restore that table to a single point in time: the moment just before deletion. You do not have
  // the capability to restore a deleted table to any other point in time"
  // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/PointInTimeRecovery_Howitworks.html);
  // "This SYSTEM on-demand backup expires automatically 35 days after its creation"
  // (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BackupDetails.html).
  it('restores a deleted table from its SYSTEM backup, as it was just before the deletion', async () => {
    await createTable();
    await enable();
    await put('kept', 7);
    await stack.advance('10m');
    await put('late', 8);
    await stack.client.send(new DeleteTableCommand({ TableName: 'Ledger' }));
    await expect(
      stack.client.send(
        new RestoreTableToPointInTimeCommand({
          SourceTableArn: arnOf('Ledger'),
          TargetTableName: 'Revived',
          UseLatestRestorableTime: true,
        }),
      ),
    ).rejects.toMatchObject({
      name: 'TableNotFoundException',
      message: `Table not found: ${arnOf('Ledger')}`,
    });
    const deletedAt = stack.clock.now();
    const { BackupSummaries } = await stack.client.send(new ListBackupsCommand({ BackupType: 'SYSTEM' }));
    expect(BackupSummaries).toEqual([
      expect.objectContaining({ BackupName: 'Ledger$DeletedTableBackup', TableArn: arnOf('Ledger') }),
    ]);
    expect(BackupSummaries![0]!.BackupExpiryDateTime!.getTime()).toBe(deletedAt + 35 * 86_400_000);
    await stack.client.send(
      new RestoreTableFromBackupCommand({
        BackupArn: BackupSummaries![0]!.BackupArn,
        TargetTableName: 'Revived',
      }),
    );
    await stack.settled();
    expect(await scanAll('Revived')).toEqual({ kept: 7, late: 8 });
    // Its removal after 35 days: test/backups/restart.test.ts (a stack would step 35 days of timers).
  });

  it('gives exactly the state of a model at any restorable second (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            gapMs: fc.integer({ min: 0, max: 4000 }),
            id: fc.constantFrom('a', 'b', 'c', 'd'),
            value: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (writes, pick) => {
          stack.reset();
          await createTable();
          await enable();
          const start = stack.clock.now();
          const model: { at: number; state: Record<string, number> }[] = [{ at: start, state: {} }];
          let state: Record<string, number> = {};
          for (const write of writes) {
            await stack.advance(write.gapMs);
            if (write.value === undefined) {
              await stack.client.send(
                new DeleteItemCommand({ TableName: 'Ledger', Key: { id: { S: write.id } } }),
              );
              const { [write.id]: _, ...rest } = state;
              state = rest;
            } else {
              await put(write.id, write.value);
              state = { ...state, [write.id]: write.value };
            }
            model.push({ at: stack.clock.now(), state });
          }
          await stack.advance('6m');
          const end = model[model.length - 1]!.at;
          // A whole second of the window: the state after every write at or before it.
          const second =
            Math.ceil(start / 1000) +
            Math.floor(pick * (Math.floor(end / 1000) + 1 - Math.ceil(start / 1000)));
          const expected = [...model].reverse().find((entry) => entry.at <= second * 1000)?.state ?? {};
          await stack.client.send(
            new RestoreTableToPointInTimeCommand({
              SourceTableName: 'Ledger',
              TargetTableName: 'Restored',
              RestoreDateTime: new Date(second * 1000),
            }),
          );
          await stack.settled();
          expect(await scanAll('Restored')).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});
