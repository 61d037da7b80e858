import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimOf, readMark } from '../../infra/persistence/durableMark.js';
import { openHost, recordingLogger, s, tempDir, writeLog } from './helpers.js';

/** The log's mark (`log.mark`): what it claims, and how it survives a torn write of itself. */
let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('the log mark', () => {
  it('claims what was written to the OS only on the same boot, and what was fsynced on any', async () => {
    const mark = { writtenLsn: 90, durableLsn: 70, bootId: 'aaaaaaaa-0000-4000-8000-000000000001' };
    expect(claimOf(mark, mark.bootId)).toEqual({ lsn: 90, basis: 'written' });
    expect(claimOf(mark, 'bbbbbbbb-0000-4000-8000-000000000002')).toEqual({ lsn: 70, basis: 'fsynced' });
    expect(claimOf(mark, '')).toEqual({ lsn: 70, basis: 'fsynced' });
    expect(claimOf(undefined)).toBeUndefined();
  });

  it('falls back to the other slot when the newest one is torn', async () => {
    await writeLog(dir.path, 3);
    const path = join(dir.path, 'log.mark');
    const before = readMark(path)!;
    const bytes = readFileSync(path);
    const tear = (...slots: number[]) => {
      const torn = Buffer.from(bytes);
      for (const slot of slots) torn[slot + 30] = torn[slot + 30]! ^ 0xff;
      writeFileSync(path, torn);
      return readMark(path);
    };
    // The two slots (at 0 and 512) hold the last two versions: tearing the newest leaves the one
    // before (claiming less), tearing the other leaves the newest.
    const [first, second] = [tear(0), tear(512)];
    expect([first, second]).toContainEqual(before);
    const other = JSON.stringify(first) === JSON.stringify(before) ? second : first;
    expect(other!.durableLsn).toBeLessThanOrEqual(before.durableLsn);
    expect(tear(0, 512)).toBeUndefined();
    expect(before).toMatchObject({ durableLsn: 5, writtenLsn: 5 });
  });
});

describe('the mark of a running log', () => {
  it('follows the log within 10 ms, fsynced records and written ones, and is never touched after close', async () => {
    const logger = recordingLogger();
    const host = await openHost(dir.path, { durability: 'everysec', logger, snapshotOnClose: false });
    host.engine.execute('CreateTable', {
      TableName: 'Things',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    await host.persistence.acknowledge(); // written to the OS, not fsynced (everysec)
    // The mark is rewritten on a real timer (MARK_INTERVAL_MS), not the engine's clock.
    await new Promise((resolve) => setTimeout(resolve, 40));
    const path = join(dir.path, 'log.mark');
    expect(readMark(path)).toMatchObject({ writtenLsn: 2, durableLsn: 0 });
    await host.persistence.flush();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(readMark(path)).toMatchObject({ writtenLsn: 2, durableLsn: 2 });

    host.engine.execute('PutItem', { TableName: 'Things', Item: { pk: s('a') } });
    await host.persistence.close();
    const closed = readFileSync(path);
    // A rewrite left scheduled by the last writes would hit a closed (or reused) descriptor.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(readFileSync(path)).toEqual(closed);
    expect(readMark(path)).toMatchObject({ writtenLsn: 3, durableLsn: 3 });
    expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
  });
});
