import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CorruptDataError,
  DataDirectoryLockedError,
  IncompleteDataError,
} from '../../infra/persistence/errors.js';
import {
  flip,
  itemCountOf,
  markOnly,
  openHost,
  recordOffsets,
  s,
  segmentsOf,
  tempDir,
  writeLog,
} from './helpers.js';

let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const segments = () => segmentsOf(dir.path);
const snapshots = () =>
  readdirSync(join(dir.path, 'snapshots')).map((name) => join(dir.path, 'snapshots', name));
const logOnly = (count: number) => writeLog(dir.path, count);
const itemCount = () => itemCountOf(dir.path);

const crashDuringLastWrite = (lastLsn: number) => markOnly(dir.path, lastLsn - 1);

describe('a torn tail', () => {
  it('drops a record cut short by a crash, truncates the file and starts', async () => {
    await logOnly(10);
    crashDuringLastWrite(12); // 2 table records (CREATING, ACTIVE) and 10 puts
    const [segment] = segments();
    const size = statSync(segment!).size;
    const lastRecord = recordOffsets(segment!).at(-1)!;
    truncateSync(segment!, size - 5);
    const host = await openHost(dir.path, { snapshotOnClose: false });
    expect(host.persistence.recovery.dropped).toEqual({
      kind: 'torn',
      segment,
      offset: lastRecord,
      bytes: size - 5 - lastRecord,
      records: 1,
      lastLsn: 11,
      reason: expect.stringMatching(/running past the end/),
      keptIn: undefined,
    });
    expect(statSync(segment!).size).toBe(lastRecord);
    expect((host.engine.execute('Scan', { TableName: 'Things' }).Items as unknown[]).length).toBe(9);
    host.engine.execute('PutItem', { TableName: 'Things', Item: { pk: s('after') } });
    await host.persistence.close();
    expect(await itemCount()).toBe(10);
  });

  it('drops a torn tail followed only by an empty segment (a machine crash after a new segment began)', async () => {
    await logOnly(10);
    crashDuringLastWrite(12);
    const [segment] = segments();
    truncateSync(segment!, statSync(segment!).size - 3);
    const next = join(dir.path, 'wal', `${String(13).padStart(20, '0')}.log`);
    writeFileSync(next, '');
    expect(await itemCount()).toBe(9);
    expect(segments()).toEqual([segment]);
  });

  it('drops a half-written header and a tail of zeros the file system left', async () => {
    await logOnly(3);
    const [segment] = segments();
    writeFileSync(segment!, Buffer.concat([readFileSync(segment!), Buffer.from([7, 0, 0])]));
    expect(await itemCount()).toBe(3);
    writeFileSync(segment!, Buffer.concat([readFileSync(segment!), Buffer.alloc(4096)]));
    expect(await itemCount()).toBe(3);
  });
});

describe('damage in the middle', () => {
  it('refuses to start on a flipped byte, naming the file and the offset', async () => {
    await logOnly(10);
    const [segment] = segments();
    const offset = recordOffsets(segment!)[4]!;
    flip(segment!, offset + 20);
    const attempt = openHost(dir.path);
    await expect(attempt).rejects.toThrow(CorruptDataError);
    await expect(attempt).rejects.toThrow(`${segment} is damaged at byte ${offset} (a checksum mismatch)`);
    // Refused without leaving the lock behind.
    flip(segment!, offset + 20);
    expect(await itemCount()).toBe(10);
  });

  it('refuses a flipped length that makes a middle record look like a torn tail', async () => {
    await logOnly(10);
    const [segment] = segments();
    const offset = recordOffsets(segment!)[3]!;
    flip(segment!, offset + 2); // the length now runs far past the end of the file
    await expect(openHost(dir.path)).rejects.toThrow(`${segment} is damaged at byte ${offset}`);
  });

  it('refuses a damaged snapshot', async () => {
    await logOnly(10);
    const host = await openHost(dir.path);
    await host.persistence.close();
    const [snapshot] = snapshots();
    flip(snapshot!, 40);
    await expect(openHost(dir.path)).rejects.toThrow(CorruptDataError);
    await expect(openHost(dir.path)).rejects.toThrow(snapshot!);
  });
});

describe('missing pieces', () => {
  it('refuses a log that does not start at LSN 1 when the snapshot is missing', async () => {
    await logOnly(5);
    const host = await openHost(dir.path, { snapshotOnClose: false });
    await host.persistence.snapshot();
    host.engine.execute('PutItem', { TableName: 'Things', Item: { pk: s('late') } });
    await host.persistence.close();
    // CreateTable logs two table records (CREATING, then ACTIVE), 5 puts: the snapshot is at 7.
    expect(segments().map((file) => file.slice(-8))).toEqual(['0008.log']);
    unlinkSync(snapshots()[0]!);
    const attempt = openHost(dir.path);
    await expect(attempt).rejects.toThrow(IncompleteDataError);
    await expect(attempt).rejects.toThrow('there is no snapshot, and the log starts at LSN 8');
  });

  it('recovers from the log alone when the snapshot is missing but the log is whole', async () => {
    await logOnly(5);
    expect(segments()).toHaveLength(1);
    expect(await itemCount()).toBe(5);
  });

  it('refuses a hole between segments', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false, segmentBytes: 200 });
    host.engine.execute('CreateTable', {
      TableName: 'Things',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    for (let i = 0; i < 6; i++) {
      host.engine.execute('PutItem', {
        TableName: 'Things',
        Item: { pk: s(`k${i}`), body: s('x'.repeat(300)) },
      });
      await host.persistence.flush();
    }
    await host.persistence.close();
    const files = segments();
    expect(files.length).toBeGreaterThan(3);
    unlinkSync(files[2]!);
    await expect(openHost(dir.path)).rejects.toThrow(/records \d+ to \d+ are missing/);
  });
});

describe('the lock', () => {
  it('refuses a data directory held by a live process, and takes over a dead one', async () => {
    const holder = spawn('sleep', ['30']);
    try {
      writeFileSync(join(dir.path, 'LOCK'), `${holder.pid}\nelsewhere\n`);
      const attempt = openHost(dir.path);
      await expect(attempt).rejects.toThrow(DataDirectoryLockedError);
      await expect(attempt).rejects.toThrow(`is in use by another eddy (process ${holder.pid})`);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.on('exit', resolve));
    }
    const host = await openHost(dir.path);
    expect(readFileSync(join(dir.path, 'LOCK'), 'utf8').split('\n')[0]).toBe(String(process.pid));
    await expect(openHost(dir.path)).rejects.toThrow(DataDirectoryLockedError);
    await host.persistence.close();
    expect(readdirSync(dir.path)).not.toContain('LOCK');
  });
});
