import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Host, openHost, recordingLogger, s, tempDir } from './helpers.js';

/**
 * Global tables survive a restart of a data directory like other table settings
 * (docs/global-tables.md §7): the replicas, their settings and items in both regions, and
 * replication goes on afterwards without replaying what the log already holds twice.
 */
let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const WEST = { region: 'us-west-2' };

async function makeGlobal(host: Host): Promise<void> {
  const { engine } = host;
  engine.execute('CreateTable', {
    TableName: 'Scores',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  engine.execute('PutItem', { TableName: 'Scores', Item: { pk: s('before') } });
  engine.execute('UpdateTable', {
    TableName: 'Scores',
    ReplicaUpdates: [{ Create: { RegionName: 'us-west-2' } }],
  });
  engine.execute('UpdateTable', {
    TableName: 'Scores',
    ReplicaUpdates: [
      { Update: { RegionName: 'us-west-2', OnDemandThroughputOverride: { MaxReadRequestUnits: 40 } } },
    ],
  });
  engine.execute('PutItem', { TableName: 'Scores', Item: { pk: s('east') } });
  engine.execute('PutItem', { TableName: 'Scores', Item: { pk: s('west') } }, WEST);
  await engine.settled();
}

/**
 * A host without a snapshot at close, Scores global, and 'waiting' written in the east while
 * replication is paused: it waits for the lag, the west replica does not have it yet.
 */
async function openWithWriteWaiting(): Promise<Host> {
  const host = await openHost(dir.path, { snapshotOnClose: false });
  await makeGlobal(host);
  host.engine.replication.pause();
  host.engine.execute('PutItem', { TableName: 'Scores', Item: { pk: s('waiting') } });
  return host;
}

const keys = (host: Host, context = {}) =>
  (host.engine.execute('Scan', { TableName: 'Scores' }, context).Items as { pk: { S: string } }[])
    .map((item) => item.pk.S)
    .sort();

describe.each([
  ['the log alone', false],
  ['a snapshot', true],
])('a global table after a restart from %s', (_case, snapshotOnClose) => {
  it('keeps its replicas, their overrides and items, and replicates again', async () => {
    const host = await openHost(dir.path, { snapshotOnClose });
    await makeGlobal(host);
    const before = host.engine.execute('DescribeTable', { TableName: 'Scores' });
    await host.persistence.close();

    const again = await openHost(dir.path, { start: host.clock.now(), snapshotOnClose });
    const after = again.engine.execute('DescribeTable', { TableName: 'Scores' });
    expect(after).toEqual(before);
    expect((after.Table as Record<string, unknown>).Replicas).toEqual([
      { RegionName: 'us-east-1', ReplicaStatus: 'ACTIVE' },
      {
        RegionName: 'us-west-2',
        ReplicaStatus: 'ACTIVE',
        OnDemandThroughputOverride: { MaxReadRequestUnits: 40 },
      },
    ]);
    expect(keys(again, WEST)).toEqual(['before', 'east', 'west']);
    expect(keys(again)).toEqual(['before', 'east', 'west']);

    again.engine.execute('PutItem', { TableName: 'Scores', Item: { pk: s('later') } });
    await again.engine.settled();
    expect(keys(again, WEST)).toEqual(['before', 'east', 'later', 'west']);
    await again.persistence.close();
  });
});

describe('a global table write waiting for the lag when a snapshot is taken', () => {
  it('reaches the other replica after a crash, from the snapshot (docs/global-tables.md §7)', async () => {
    const host = await openWithWriteWaiting();
    await host.persistence.snapshot();
    expect(keys(host, WEST)).not.toContain('waiting');

    // A crash: the directory as the disk holds it now (every record fsynced), opened elsewhere.
    const crashed = tempDir();
    try {
      cpSync(dir.path, crashed.path, { recursive: true });
      rmSync(join(crashed.path, 'LOCK'), { force: true });
      const again = await openHost(crashed.path, { start: host.clock.now(), snapshotOnClose: false });
      expect(again.persistence.recovery.replayed).toBe(0);
      await again.engine.settled();
      expect(keys(again, WEST)).toEqual(['before', 'east', 'waiting', 'west']);
      await again.persistence.close();
    } finally {
      await host.persistence.close();
      crashed.remove();
    }
  });
});

describe('a global table write waiting for the lag at a clean stop without a snapshot', () => {
  it('is delivered and logged by the stop: the next start has nothing to send again', async () => {
    const host = await openWithWriteWaiting();
    expect(keys(host, WEST)).not.toContain('waiting');
    await host.persistence.close();

    const logger = recordingLogger();
    const again = await openHost(dir.path, { start: host.clock.now(), snapshotOnClose: false, logger });
    expect(keys(again, WEST)).toEqual(['before', 'east', 'waiting', 'west']);
    expect(logger.lines.map((line) => line.message)).not.toContain(
      'global tables: replicated writes sent again after a restart',
    );
    await again.persistence.close();
  });
});
