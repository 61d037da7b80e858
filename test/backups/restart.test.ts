import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateBackupCommand,
  CreateTableCommand,
  DescribeContinuousBackupsCommand,
  ListBackupsCommand,
  PutItemCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { BackupStore } from '../../infra/backups/backupStore.js';
import { createHostLogger } from '../../infra/host/logger.js';
import { Persistence } from '../../infra/persistence/persistence.js';
import { ReplayableClock } from '../../infra/persistence/replayableClock.js';
import { LocalStack } from '../../infra/stack/localStack.js';
import { StreamsService } from '../../streams/streamsApi/streamsService.js';
import { START, tempDir } from '../persistence/helpers.js';

/**
 * Backups, PITR histories and export/import records survive a restart with a data directory
 * (docs/backups.md §8), wired as `LocalStack` wires them: the store loads before the log is
 * replayed, hears of snapshots, and closes after the log. On a virtual clock, so restore times
 * inside the window are reachable.
 */
const silent = { info() {}, warn() {}, error() {} };
const warnings: string[] = [];
const logger = { ...silent, warn: (_: object, message: string) => void warnings.push(message) };

interface Host {
  clock: VirtualClock;
  engine: Engine;
  persistence: Persistence;
  store: BackupStore;
  close(options?: { snapshot?: boolean }): Promise<void>;
}

async function openHost(dataDir: string, at: number): Promise<Host> {
  const clock = new VirtualClock(at);
  const engine = new Engine({ clock: new ReplayableClock(clock) });
  new StreamsService(engine);
  const store = BackupStore.open(engine, join(dataDir, 'backups'), logger);
  const persistence = await Persistence.open(engine, {
    dataDir,
    durability: 'always',
    snapshotOnClose: false,
  });
  store.recovered(persistence.recovery.snapshotLsn);
  persistence.onSnapshot((lsn) => store.snapshotTaken(lsn));
  return {
    clock,
    engine,
    persistence,
    store,
    async close({ snapshot = true } = {}) {
      await engine.settled();
      if (snapshot) await persistence.snapshot();
      await persistence.close();
      await store.close();
    },
  };
}

const MINUTE = 60_000;
let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
  warnings.length = 0;
});

const put = (host: Host, id: string, value: string) =>
  host.engine.execute('PutItem', { TableName: 'Notes', Item: { id: { S: id }, value: { S: value } } });
/** Every item of `table` as `id=value`, sorted (all pages: a Scan page stops at 1 MB). */
function scan(host: Host, table: string): string[] {
  type Row = { id: { S: string }; value: { S: string } };
  const lines: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = host.engine.execute('Scan', {
      TableName: table,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    for (const item of page.Items as Row[]) lines.push(`${item.id.S}=${item.value.S}`);
    start = page.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (start !== undefined);
  return lines.sort();
}

async function notesWithHistory(host: Host): Promise<void> {
  host.engine.execute('CreateTable', {
    TableName: 'Notes',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  host.engine.execute('UpdateContinuousBackups', {
    TableName: 'Notes',
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 },
  });
  await host.clock.advance(MINUTE);
  put(host, 'a', '1');
  put(host, 'b', '1');
  await host.clock.advance(MINUTE);
}

describe('a restart with a data directory', () => {
  it('keeps backups with their items, the PITR setting, and export and import records', async () => {
    dir = tempDir('eddy-backups-restart-');
    let host = await openHost(dir.path, START);
    await notesWithHistory(host);
    const { BackupDetails } = host.engine.execute('CreateBackup', {
      TableName: 'Notes',
      BackupName: 'before',
    }) as {
      BackupDetails: { BackupArn: string; BackupStatus: string };
    };
    expect(BackupDetails.BackupStatus).toBe('CREATING');
    put(host, 'a', '2');
    await host.engine.settled();
    const described = host.engine.execute('DescribeBackup', { BackupArn: BackupDetails.BackupArn }) as {
      BackupDescription: { BackupDetails: { BackupStatus: string } };
    };
    expect(described.BackupDescription.BackupDetails.BackupStatus).toBe('AVAILABLE');
    const export1 = host.engine.execute('ExportTableToPointInTime', {
      TableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Notes',
      S3Bucket: 'nowhere',
    }) as { ExportDescription: { ExportArn: string } };
    await host.close();

    host = await openHost(dir.path, START + 10 * MINUTE);
    const backups = host.engine.execute('ListBackups', {}) as { BackupSummaries: Record<string, unknown>[] };
    expect(backups.BackupSummaries).toEqual([
      expect.objectContaining({
        BackupArn: BackupDetails.BackupArn,
        BackupName: 'before',
        BackupStatus: 'AVAILABLE',
      }),
    ]);
    host.engine.execute('RestoreTableFromBackup', {
      BackupArn: BackupDetails.BackupArn,
      TargetTableName: 'Copy',
    });
    await host.engine.settled();
    expect(scan(host, 'Copy')).toEqual(['a=1', 'b=1']);
    const pitr = host.engine.execute('DescribeContinuousBackups', { TableName: 'Notes' }) as {
      ContinuousBackupsDescription: { PointInTimeRecoveryDescription: Record<string, unknown> };
    };
    expect(pitr.ContinuousBackupsDescription.PointInTimeRecoveryDescription).toMatchObject({
      PointInTimeRecoveryStatus: 'ENABLED',
      RecoveryPeriodInDays: 7,
      EarliestRestorableDateTime: START / 1000,
    });
    const exports = host.engine.execute('ListExports', {}) as { ExportSummaries: Record<string, unknown>[] };
    expect(exports.ExportSummaries).toEqual([
      expect.objectContaining({ ExportArn: export1.ExportDescription.ExportArn }),
    ]);
    // A deleted backup's items go with it.
    host.engine.execute('DeleteBackup', { BackupArn: BackupDetails.BackupArn });
    expect(readdirSync(join(dir.path, 'backups', 'items'))).toEqual([]);
    await host.close();
    host = await openHost(dir.path, START + 20 * MINUTE);
    expect(
      (host.engine.execute('ListBackups', {}) as { BackupSummaries: unknown[] }).BackupSummaries,
    ).toEqual([]);
    await host.close();
  });

  it('saves the items of the commit point while writes go on between its slices', async () => {
    dir = tempDir('eddy-backups-restart-');
    let host = await openHost(dir.path, START);
    await notesWithHistory(host);
    // ~2.5 MB of items: the file is written in 1 MiB slices with turns of the event loop between.
    const pad = 'x'.repeat(500);
    for (let i = 0; i < 5_000; i++) put(host, `k${i}`, `v0${pad}`);
    const { BackupDetails } = host.engine.execute('CreateBackup', {
      TableName: 'Notes',
      BackupName: 'busy',
    }) as {
      BackupDetails: { BackupArn: string };
    };
    const backup = host.engine.dataProtection.backups.get(BackupDetails.BackupArn)!;
    let turns = 0;
    let round = 0;
    while (backup.status === 'CREATING') {
      round++;
      for (let i = 0; i < 5_000; i += 50) put(host, `k${i}`, `v${round}${pad}`);
      host.engine.execute('DeleteItem', { TableName: 'Notes', Key: { id: { S: `k${round}` } } });
      turns++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(turns).toBeGreaterThan(1);
    await host.close();

    host = await openHost(dir.path, START + 10 * MINUTE);
    host.engine.execute('RestoreTableFromBackup', {
      BackupArn: BackupDetails.BackupArn,
      TargetTableName: 'Copy',
    });
    await host.engine.settled();
    const restored = scan(host, 'Copy');
    expect(restored).toHaveLength(5_002);
    expect(restored.filter((line) => line.startsWith('k') && !line.includes(`=v0${pad}`))).toEqual([]);
    await host.close();
  });

  it("keeps a deleted table's SYSTEM backup across a restart, and removes it with its items after 35 days", async () => {
    dir = tempDir('eddy-backups-restart-');
    let host = await openHost(dir.path, START);
    await notesWithHistory(host);
    host.engine.execute('DeleteTable', { TableName: 'Notes' });
    await host.engine.settled();
    await host.close();
    host = await openHost(dir.path, START + 30 * MINUTE);
    const listed = () =>
      (
        host.engine.execute('ListBackups', { BackupType: 'SYSTEM' }) as {
          BackupSummaries: { BackupArn: string }[];
        }
      ).BackupSummaries;
    expect(listed()).toEqual([expect.objectContaining({ BackupName: 'Notes$DeletedTableBackup' })]);
    host.engine.execute('RestoreTableFromBackup', {
      BackupArn: listed()[0]!.BackupArn,
      TargetTableName: 'Revived',
    });
    await host.engine.settled();
    expect(scan(host, 'Revived')).toEqual(['a=1', 'b=1']);
    expect(readdirSync(join(dir.path, 'backups', 'items'))).toHaveLength(1);
    await host.clock.advance('35d');
    expect(listed()).toEqual([]);
    expect(readdirSync(join(dir.path, 'backups', 'items'))).toEqual([]);
    await host.close();
  });

  it('restores to a time before the restart, from the snapshot and the log after it', async () => {
    dir = tempDir('eddy-backups-restart-');
    let host = await openHost(dir.path, START);
    await notesWithHistory(host);
    const beforeSnapshot = host.clock.now();
    await host.clock.advance(MINUTE);
    put(host, 'a', '2');
    await host.clock.advance(MINUTE);
    // A snapshot with its history, then changes only the log holds (no snapshot at close).
    await host.persistence.snapshot();
    const afterSnapshot = host.clock.now();
    await host.clock.advance(MINUTE);
    put(host, 'b', '3');
    host.engine.execute('DeleteItem', { TableName: 'Notes', Key: { id: { S: 'a' } } });
    await host.clock.advance(MINUTE);
    await host.close({ snapshot: false });
    expect(existsSync(join(dir.path, 'backups', 'history'))).toBe(true);

    host = await openHost(dir.path, START + 30 * MINUTE);
    const restore = (target: string, at: number) =>
      host.engine.execute('RestoreTableToPointInTime', {
        SourceTableName: 'Notes',
        TargetTableName: target,
        RestoreDateTime: at / 1000,
      });
    restore('AtFirst', beforeSnapshot);
    restore('AtSecond', afterSnapshot);
    await host.engine.settled();
    expect(scan(host, 'AtFirst')).toEqual(['a=1', 'b=1']);
    expect(scan(host, 'AtSecond')).toEqual(['a=2', 'b=1']);
    expect(scan(host, 'Notes')).toEqual(['b=3']);
    expect(warnings).toEqual([]);
    await host.close();
  });

  it('starts the window at the first replayed change when the history of the snapshot is missing', async () => {
    dir = tempDir('eddy-backups-restart-');
    let host = await openHost(dir.path, START);
    await notesWithHistory(host);
    await host.persistence.snapshot();
    await host.store.close();
    await host.clock.advance(MINUTE);
    const firstReplayed = host.clock.now();
    put(host, 'a', '2');
    await host.clock.advance(MINUTE);
    await host.close({ snapshot: false });
    for (const name of readdirSync(join(dir.path, 'backups', 'history')))
      rmSync(join(dir.path, 'backups', 'history', name));

    host = await openHost(dir.path, START + 30 * MINUTE);
    const pitr = host.engine.execute('DescribeContinuousBackups', { TableName: 'Notes' }) as {
      ContinuousBackupsDescription: { PointInTimeRecoveryDescription: Record<string, unknown> };
    };
    expect(pitr.ContinuousBackupsDescription.PointInTimeRecoveryDescription.EarliestRestorableDateTime).toBe(
      firstReplayed / 1000,
    );
    expect(warnings).toEqual([
      'point-in-time history before the last snapshot was not saved; the window starts later',
    ]);
    await host.close();
  });

  it('is wired into a stack with dataDir: a backup and the PITR setting come back', async () => {
    dir = tempDir('eddy-backups-restart-');
    const start = () =>
      LocalStack.start(
        {},
        { dataDir: { path: dir!.path, durability: 'always' }, logger: createHostLogger({ level: 'silent' }) },
      );
    let stack = await start();
    await stack.client().send(
      new CreateTableCommand({
        TableName: 'Notes',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await stack.client().send(new PutItemCommand({ TableName: 'Notes', Item: { id: { S: 'a' } } }));
    await stack.client().send(
      new UpdateContinuousBackupsCommand({
        TableName: 'Notes',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    const { BackupDetails } = await stack
      .client()
      .send(new CreateBackupCommand({ TableName: 'Notes', BackupName: 'nightly' }));
    const enabled = await stack.client().send(new DescribeContinuousBackupsCommand({ TableName: 'Notes' }));
    await stack.close();

    stack = await start();
    try {
      const { BackupSummaries } = await stack.client().send(new ListBackupsCommand({}));
      expect(BackupSummaries).toEqual([
        expect.objectContaining({ BackupArn: BackupDetails!.BackupArn, BackupStatus: 'AVAILABLE' }),
      ]);
      const again = await stack.client().send(new DescribeContinuousBackupsCommand({ TableName: 'Notes' }));
      expect(
        again.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.EarliestRestorableDateTime,
      ).toEqual(
        enabled.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.EarliestRestorableDateTime,
      );
    } finally {
      await stack.close();
    }
  });
});
