import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { DurableMark } from '../../infra/persistence/durableMark.js';
import { Persistence, type PersistenceOptions } from '../../infra/persistence/persistence.js';
import { ReplayableClock } from '../../infra/persistence/replayableClock.js';
import { StreamsService } from '../../streams/streamsApi/streamsService.js';
import { readStreamRecords } from '../helpers/streamRecords.js';

/** Fixtures for persistence: engines on a virtual clock over a temp data directory. */

export const START = Date.UTC(2026, 0, 1, 12, 0, 0, 0);

export interface Host {
  readonly clock: VirtualClock;
  readonly engine: Engine;
  readonly streams: StreamsService;
  readonly persistence: Persistence;
}

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = 'eddy-persistence-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** An engine with streams, recovered from `dataDir` (the clock starts at `start`). */
export async function openHost(
  dataDir: string,
  options: Partial<PersistenceOptions> & { start?: number } = {},
): Promise<Host> {
  const clock = new VirtualClock(options.start ?? START);
  const engine = new Engine({ clock: new ReplayableClock(clock) });
  const streams = new StreamsService(engine);
  const persistence = await Persistence.open(engine, { durability: 'always', ...options, dataDir });
  return { clock, engine, streams, persistence };
}

export const s = (value: string) => ({ S: value });
export const n = (value: number | string) => ({ N: String(value) });

/**
 * Everything a client can observe, for before/after comparisons: each table's description,
 * items (Scan), index contents (Scan of each index), TTL and tags; each stream's description and
 * records.
 */
export function observe(host: Pick<Host, 'engine' | 'streams'>): Record<string, unknown> {
  const { engine, streams } = host;
  const tables: Record<string, unknown> = {};
  for (const name of engine.execute('ListTables', {}).TableNames as string[]) {
    const table = engine.execute('DescribeTable', { TableName: name }).Table as Record<string, unknown>;
    const indexes = [
      ...((table.GlobalSecondaryIndexes as { IndexName: string }[] | undefined) ?? []),
      ...((table.LocalSecondaryIndexes as { IndexName: string }[] | undefined) ?? []),
    ];
    tables[name] = {
      table,
      items: engine.execute('Scan', { TableName: name }).Items,
      indexes: Object.fromEntries(
        indexes.map(({ IndexName }) => [
          IndexName,
          engine.execute('Scan', { TableName: name, IndexName }).Items,
        ]),
      ),
      ttl: engine.supports('DescribeTimeToLive')
        ? engine.execute('DescribeTimeToLive', { TableName: name })
        : undefined,
      tags: engine.execute('ListTagsOfResource', { ResourceArn: table.TableArn }),
    };
  }
  const streamList = streams.execute('ListStreams', {}).Streams as { StreamArn: string }[];
  const streamStates = Object.fromEntries(
    streamList.map(({ StreamArn }) => [
      StreamArn,
      {
        description: streams.execute('DescribeStream', { StreamArn }).StreamDescription,
        records: readStreamRecords(streams, StreamArn),
      },
    ]),
  );
  return { tables, streams: streamStates };
}

/** The log segments of a data directory, oldest first. */
export const segmentsOf = (dataDir: string): string[] =>
  readdirSync(join(dataDir, 'wal'))
    .filter((name) => name.endsWith('.log'))
    .sort()
    .map((name) => join(dataDir, 'wal', name));

/**
 * A data directory holding a table `Things` and `count` puts in its log (no snapshot), closed
 * cleanly: its mark says every record was fsynced. CreateTable logs two table records (CREATING,
 * then ACTIVE), so the last LSN is `count + 2`.
 */
export async function writeLog(dataDir: string, count: number): Promise<void> {
  const host = await openHost(dataDir, { snapshotOnClose: false });
  host.engine.execute('CreateTable', {
    TableName: 'Things',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  for (let i = 0; i < count; i++)
    host.engine.execute('PutItem', {
      TableName: 'Things',
      Item: { pk: s(`k${i}`), body: s('x'.repeat(40)) },
    });
  await host.persistence.close();
}

/** How many items `Things` holds after a start (the start's own changes kept). */
export async function itemCountOf(
  dataDir: string,
  options: Partial<PersistenceOptions> = {},
): Promise<number> {
  const host = await openHost(dataDir, { snapshotOnClose: false, ...options });
  const count = (host.engine.execute('Scan', { TableName: 'Things' }).Items as unknown[]).length;
  await host.persistence.close();
  return count;
}

/** File offsets of the records of a segment (walking the frame lengths). */
export function recordOffsets(file: string): number[] {
  const bytes = readFileSync(file);
  const offsets: number[] = [];
  for (let offset = 0; offset < bytes.length; offset += 8 + bytes.readUInt32LE(offset)) offsets.push(offset);
  return offsets;
}

export function flip(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 0xff;
  writeFileSync(file, bytes);
}

/**
 * Rewrites the log's mark to claim records up to `lsn` only: as a crash leaves it when it comes
 * while the later records were being written (the mark is rewritten after each write returns).
 */
export function markOnly(dataDir: string, lsn: number): void {
  new DurableMark(join(dataDir, 'log.mark'), lsn).close();
}

/** A PersistenceLogger that keeps what it is told, by level. */
export function recordingLogger() {
  const lines: { level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string }[] = [];
  const at =
    (level: 'info' | 'warn' | 'error') =>
    (fields: object, message: string): void => {
      lines.push({ level, fields: fields as Record<string, unknown>, message });
    };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}
