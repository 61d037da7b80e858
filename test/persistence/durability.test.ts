import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalClient } from '../../infra/host/localClient.js';
import { createHostLogger } from '../../infra/host/logger.js';
import { type Host, openHost, tempDir } from './helpers.js';

let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

function clientOf(host: Host) {
  host.engine.execute('CreateTable', {
    TableName: 'Things',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  return createLocalClient({ engine: host.engine, afterCall: host.persistence.afterCall });
}

const put = (pk: string) => new PutItemCommand({ TableName: 'Things', Item: { pk: { S: pk } } });
const logBytes = () =>
  readdirSync(join(dir.path, 'wal')).reduce(
    (sum, name) => sum + statSync(join(dir.path, 'wal', name)).size,
    0,
  );

describe('durability modes', () => {
  it('always: a write is answered once the log is fsynced past it', async () => {
    const host = await openHost(dir.path, { durability: 'always' });
    const client = clientOf(host);
    await client.send(put('a'));
    expect(host.persistence.durableLsn).toBe(host.persistence.appendedLsn);
    await host.persistence.close();
  });

  it('always: concurrent writes share fsyncs (group commit)', async () => {
    const host = await openHost(dir.path, { durability: 'always' });
    const client = clientOf(host);
    await client.send(put('warm-up'));
    const before = host.persistence.stats.fsyncs;
    await Promise.all(Array.from({ length: 200 }, (_, i) => client.send(put(`k${i}`))));
    const fsyncs = host.persistence.stats.fsyncs - before;
    expect(fsyncs).toBeGreaterThan(0);
    expect(fsyncs).toBeLessThan(40);
    expect(host.persistence.durableLsn).toBe(host.persistence.appendedLsn);
    await host.persistence.close();
  });

  it('everysec: a write is answered once written (a crash of eddy keeps it), fsynced within a second', async () => {
    const host = await openHost(dir.path, { durability: 'everysec' });
    const client = clientOf(host);
    await host.persistence.flush();
    const bytes = logBytes();
    await client.send(put('a'));
    expect(logBytes()).toBeGreaterThan(bytes);
    expect(host.persistence.durableLsn).toBeLessThan(host.persistence.appendedLsn);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(host.persistence.durableLsn).toBe(host.persistence.appendedLsn);
    await host.persistence.close();
  });

  it('a failed log write answers InternalServerError instead of acknowledging', async () => {
    const host = await openHost(dir.path, { durability: 'always' });
    clientOf(host);
    const failing = createLocalClient({
      engine: host.engine,
      afterCall: () => Promise.reject(new Error('disk full')),
      logger: createHostLogger({ level: 'silent' }),
      client: { maxAttempts: 1 },
    });
    await expect(failing.send(put('a'))).rejects.toMatchObject({ name: 'InternalServerError' });
    await host.persistence.close();
  });

  it('checkpoints resolve once they are as durable as writes', async () => {
    const host = await openHost(dir.path, { durability: 'always' });
    await host.persistence.checkpoints.set('mapping', 'shard', '100000000000000000001');
    expect(host.persistence.durableLsn).toBe(host.persistence.appendedLsn);
    await host.persistence.close();
  });
});
