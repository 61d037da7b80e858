import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../core/engine.js';
import { Table } from '../../core/store/table.js';
import { TABLE_FIELDS, tableDefinition } from '../../infra/persistence/tableCodec.js';
import { readStreamRecords } from '../helpers/streamRecords.js';
import { type Host, n, openHost, s, tempDir } from './helpers.js';

let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const ITEMS = 25_000;

function createTables(engine: Engine): string {
  engine.execute('CreateTable', {
    TableName: 'Pairs',
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  });
  engine.execute('CreateTable', {
    TableName: 'Singles',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  return (engine.execute('DescribeTable', { TableName: 'Pairs' }).Table as { LatestStreamArn: string })
    .LatestStreamArn;
}

/** Every item's stored text, per table (straight from the store: fast for 40,000 items). */
function contents(engine: Engine): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const table of engine.region().tables.values())
    out[table.name] = [...table.items.items()].map((item) => item.json).sort();
  return out;
}

/** A random write: new keys, changes and deletes of existing ones, in both tables. */
function randomWrite(engine: Engine, step: number): void {
  const pick = Math.floor(Math.random() * ITEMS);
  const choice = step % 4;
  if (choice === 0)
    engine.execute('PutItem', {
      TableName: 'Pairs',
      Item: { pk: s(`p${pick % 500}`), sk: n(pick), v: n(-step) },
    });
  else if (choice === 1)
    engine.execute('DeleteItem', { TableName: 'Pairs', Key: { pk: s(`p${pick % 500}`), sk: n(pick) } });
  else if (choice === 2)
    engine.execute('PutItem', { TableName: 'Singles', Item: { id: n(pick + ITEMS), v: n(step) } });
  else engine.execute('DeleteItem', { TableName: 'Singles', Key: { id: n(pick) } });
}

async function populated(): Promise<{ host: Host; streamArn: string }> {
  const host = await openHost(dir.path, { durability: 'no', snapshotOnClose: false });
  const streamArn = createTables(host.engine);
  for (let i = 0; i < ITEMS; i++) {
    host.engine.execute('PutItem', { TableName: 'Pairs', Item: { pk: s(`p${i % 500}`), sk: n(i), v: n(i) } });
    host.engine.execute('PutItem', { TableName: 'Singles', Item: { id: n(i), body: s(`item ${i}`) } });
  }
  return { host, streamArn };
}

describe('snapshots', () => {
  it('hold exactly the state at their LSN while writes go on, giving writers a turn between chunks', async () => {
    const { host, streamArn } = await populated();
    const atS = contents(host.engine);
    const recordsAtS = readStreamRecords(host.streams, streamArn);
    const snapshot = host.persistence.snapshot();
    let done = false;
    void snapshot.finally(() => {
      done = true;
    });
    let writes = 0;
    let turns = 0;
    while (!done) {
      for (let i = 0; i < 20; i++) randomWrite(host.engine, writes++);
      turns++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const result = await snapshot;
    expect(writes).toBeGreaterThan(100);
    expect(result?.items).toBe(2 * ITEMS);
    // The copy runs in chunks of ~2 ms (infra/persistence/snapshotWriter.ts), yielding between
    // them: writers get a turn after every chunk, not one pause for the whole copy. Counted in
    // turns rather than timed, so a busy machine (which only makes chunks slower, and so more of
    // them) cannot fail it; `npm run bench -- persistence` measures the pause itself.
    expect(turns).toBeGreaterThan(10);
    await host.persistence.close();

    // The snapshot alone, in a directory of its own.
    const copy = tempDir();
    try {
      mkdirSync(join(copy.path, 'snapshots'), { recursive: true });
      copyFileSync(result!.path, join(copy.path, 'snapshots', basename(result!.path)));
      const restored = await openHost(copy.path, { snapshotOnClose: false });
      expect(restored.persistence.recovery).toMatchObject({ snapshotLsn: result!.lsn, replayed: 0 });
      expect(contents(restored.engine)).toEqual(atS);
      expect(readStreamRecords(restored.streams, streamArn)).toEqual(recordsAtS);
      await restored.persistence.close();
    } finally {
      copy.remove();
    }
    // A bound, not a speed: 50,000 items written, snapshotted, restored and compared (35 s at a
    // load average of 15 on 2 cores).
  }, 120_000);

  it('start after enough log and delete the segments they cover', async () => {
    const host = await openHost(dir.path, { snapshotLogBytes: 64 * 1024, snapshotOnClose: false });
    createTables(host.engine);
    for (let i = 0; i < 2000; i++) {
      host.engine.execute('PutItem', { TableName: 'Singles', Item: { id: n(i), body: s('x'.repeat(100)) } });
      if (i % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await host.persistence.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // ~300 KB of log: snapshots ran, one is kept, and the log before it is gone.
    expect(readdirSync(join(dir.path, 'snapshots')).filter((name) => name.endsWith('.snap'))).toHaveLength(1);
    const firstSegment = readdirSync(join(dir.path, 'wal')).sort()[0]!;
    expect(Number(firstSegment.slice(0, 20))).toBeGreaterThan(1);
    const before = contents(host.engine);
    await host.persistence.close();
    const again = await openHost(dir.path, { snapshotOnClose: false });
    expect(again.persistence.recovery.snapshotLsn).toBeGreaterThan(0);
    expect(again.persistence.recovery.replayed).toBeLessThan(2000);
    expect(contents(again.engine)).toEqual(before);
    await again.persistence.close();
  });
});

describe('table definitions', () => {
  it('cover every field of Table (a new field must be added to the codec)', () => {
    const table = new Table({
      name: 'T',
      tableId: 'id',
      arn: 'arn:aws:dynamodb:us-east-1:000000000000:table/T',
      createdAt: 0,
      status: 'ACTIVE',
      attributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      keySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      billingMode: 'PAY_PER_REQUEST',
      throughput: { readCapacityUnits: 0, writeCapacityUnits: 0, numberOfDecreasesToday: 0 },
    });
    table.ref('000000000000', 'us-east-1');
    expect(Object.keys(table).sort()).toEqual([...TABLE_FIELDS].sort());
    expect(Object.keys(tableDefinition(table))).toContain('timeToLive');
  });
});
