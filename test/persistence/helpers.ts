import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
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
