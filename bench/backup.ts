/**
 * Backups, exports, imports and point-in-time recovery (issue #23 figures), on an in-process
 * engine holding 1,000,000 items of ~150 bytes:
 *
 * - CreateBackup: the answer (the items frozen at one commit point) and the time until the backup
 *   is AVAILABLE with its items durable in a data directory's `backups/items/` (target ≤ 2 s);
 *   PutItem's rate while that file is written, beside its rate with nothing running (target:
 *   ≥ 50 % kept).
 * - ExportTableToPointInTime (FULL_EXPORT, DynamoDB JSON, gzip) to a folder: items/s until
 *   COMPLETED (target ≥ 200,000/s).
 * - ImportTable of that export into a new table: items/s until COMPLETED (target ≥ 100,000/s).
 * - PutItem with point-in-time recovery on, beside the same without it (target: ≤ 20 % slower).
 *
 * Run: npm run bench -- backup (BENCH_TSX=1: through tsx)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { VirtualClock } from '../core/clock.js';
import { Engine } from '../core/engine.js';
import { BackupStore } from '../infra/backups/backupStore.js';
import { attachBuckets } from '../infra/backups/index.js';
import { formatRate, measure, nextTurn, printTable, type Row } from './support.js';

const ITEMS = 1_000_000;
const T0 = Date.UTC(2026, 0, 1);
const silent = { info() {}, warn() {}, error() {} };

/** A full collection between measures (the runner passes --expose-gc). */
function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function makeItem(i: number) {
  return {
    pk: { S: `user#${String(i).padStart(8, '0')}` },
    email: { S: `user${i}@example.com` },
    plan: { S: i % 3 === 0 ? 'pro' : 'free' },
    visits: { N: String(i % 997) },
    score: { N: `${i}.5` },
    active: { BOOL: i % 2 === 0 },
  };
}

function createTable(engine: Engine, name: string): void {
  engine.executeRaw('CreateTable', {
    TableName: name,
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
}

function enablePitr(engine: Engine, name: string): void {
  engine.executeRaw('UpdateContinuousBackups', {
    TableName: name,
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
  });
}

/** CPU time (user + system) since `from`, in seconds. */
function cpuSeconds(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

/** PutItems in slices of 256, a turn of the event loop between slices, for `ms`: writes/s. */
async function writeFor(engine: Engine, table: string, ms: number, from: number, until?: () => boolean) {
  let written = 0;
  const start = performance.now();
  while (until === undefined ? performance.now() - start < ms : !until()) {
    for (let i = 0; i < 256; i++) {
      const n = from + written++;
      engine.executeRaw('PutItem', { TableName: table, Item: makeItem(n) });
    }
    await nextTurn();
  }
  return { written, rate: (written * 1000) / (performance.now() - start) };
}

/** PutItem rate on a fresh table (200,000 inserts), with or without PITR on. */
function putRate(withPitr: boolean): number {
  const engine = new Engine({ clock: new VirtualClock(T0) });
  createTable(engine, 'PutBench');
  if (withPitr) enablePitr(engine, 'PutBench');
  const inputs = Array.from({ length: 200_000 }, (_, i) => ({ TableName: 'PutBench', Item: makeItem(i) }));
  return measure(inputs.length, (i) => engine.executeRaw('PutItem', inputs[i]));
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  const home = mkdtempSync(join(tmpdir(), 'eddy-bench-backup-'));
  try {
    const clock = new VirtualClock(T0);
    const engine = new Engine({ clock });
    mkdirSync(join(home, 'buckets', 'exports'), { recursive: true });
    attachBuckets(engine, { directory: join(home, 'buckets') });
    BackupStore.open(engine, join(home, 'backups'), silent);
    createTable(engine, 'Users');
    enablePitr(engine, 'Users');
    for (let i = 0; i < ITEMS; i++) engine.executeRaw('PutItem', { TableName: 'Users', Item: makeItem(i) });

    // The backup alone, then writes with nothing in the background and during a second backup.
    let begun = performance.now();
    let cpu = process.cpuUsage();
    const answer = engine.executeRaw('CreateBackup', { TableName: 'Users', BackupName: 'bench' }) as {
      BackupDetails: { BackupArn: string };
    };
    const answeredMs = performance.now() - begun;
    await engine.settled();
    const first = engine.dataProtection.backups.get(answer.BackupDetails.BackupArn)!;
    while (first.status !== 'AVAILABLE') await nextTurn();
    const availableMs = performance.now() - begun;
    const backupCpu = cpuSeconds(cpu);
    const quiet = await writeFor(engine, 'Users', 1_500, ITEMS);
    const second = engine.executeRaw('CreateBackup', { TableName: 'Users', BackupName: 'second' }) as {
      BackupDetails: { BackupArn: string };
    };
    const backup = engine.dataProtection.backups.get(second.BackupDetails.BackupArn)!;
    const during = await writeFor(
      engine,
      'Users',
      0,
      ITEMS + quiet.written,
      () => backup.status === 'AVAILABLE',
    );
    rows.push(
      { name: 'CreateBackup answered (items frozen)', value: `${answeredMs.toFixed(1)} ms` },
      {
        name: `backup of ${ITEMS.toLocaleString('en-US')} items AVAILABLE (durable)`,
        value: `${(availableMs / 1000).toFixed(2)} s`,
        baseline: `${backupCpu.toFixed(2)} s CPU`,
        target: '≤ 2 s',
      },
      {
        name: 'PutItem during a backup',
        value: formatRate(during.rate),
        baseline: `${formatRate(quiet.rate)} without`,
        ratio: during.rate / quiet.rate,
        target: '≥ 0.50×',
      },
    );

    gc();
    begun = performance.now();
    cpu = process.cpuUsage();
    const exported = engine.executeRaw('ExportTableToPointInTime', {
      TableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Users',
      S3Bucket: 'exports',
    }) as { ExportDescription: { ExportArn: string } };
    await engine.settled();
    const exportSeconds = (performance.now() - begun) / 1000;
    const exportCpu = cpuSeconds(cpu);
    const exportRecord = engine.dataProtection.exports.get(exported.ExportDescription.ExportArn)!.description;
    const exportedCount = exportRecord.ItemCount as number;
    rows.push({
      name: `export, DynamoDB JSON gzip (${exportedCount.toLocaleString('en-US')} items)`,
      value: formatRate(exportedCount / exportSeconds),
      baseline: `${formatRate(exportedCount / exportCpu)} per CPU-second`,
      target: '≥ 200,000/s',
    });

    const exportId = exported.ExportDescription.ExportArn.split('/export/')[1]!;
    gc();
    begun = performance.now();
    cpu = process.cpuUsage();
    const imported = engine.executeRaw('ImportTable', {
      S3BucketSource: { S3Bucket: 'exports', S3KeyPrefix: `AWSDynamoDB/${exportId}/data/` },
      InputFormat: 'DYNAMODB_JSON',
      InputCompressionType: 'GZIP',
      TableCreationParameters: {
        TableName: 'UsersCopy',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
    }) as { ImportTableDescription: { ImportArn: string } };
    await engine.settled();
    const importSeconds = (performance.now() - begun) / 1000;
    const importCpu = cpuSeconds(cpu);
    const importRecord = engine.dataProtection.imports.get(
      imported.ImportTableDescription.ImportArn,
    )!.description;
    const importedCount = importRecord.ImportedItemCount as number;
    rows.push({
      name: `import, DynamoDB JSON gzip (${importedCount.toLocaleString('en-US')} items)`,
      value: formatRate(importedCount / importSeconds),
      baseline: `${formatRate(importedCount / importCpu)} per CPU-second`,
      target: '≥ 100,000/s',
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }

  // Best of two, alternating, each on a fresh engine after a GC.
  let plain = 0;
  let withPitr = 0;
  for (let round = 0; round < 2; round++) {
    gc();
    plain = Math.max(plain, putRate(false));
    gc();
    withPitr = Math.max(withPitr, putRate(true));
  }
  rows.push({
    name: 'PutItem, point-in-time recovery on',
    value: formatRate(withPitr),
    baseline: `${formatRate(plain)} without`,
    ratio: withPitr / plain,
    target: '≥ 0.80×',
  });

  printTable(`Backups, exports, imports, PITR (${ITEMS.toLocaleString('en-US')} items)`, rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
