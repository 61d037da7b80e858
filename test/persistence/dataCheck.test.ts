import { spawn } from 'node:child_process';
import { readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../infra/cli/program.js';
import { runProgram } from '../helpers/command.js';
import { markOnly, openHost, recordOffsets, s, segmentsOf, tempDir, writeLog } from './helpers.js';

/**
 * Issue #16, item 1: `eddy data check DIR` verifies a data directory offline (snapshots, segments
 * and their frames, the log's mark) and says what a start would recover; exit code 0 when a start
 * would lose nothing written, 1 otherwise. It changes nothing.
 */
let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const check = (path = dir.path) => runProgram(createProgram, ['data', 'check', path], dir.path);

/** Every file of the directory with its size, to show the check changed nothing. */
const listing = () =>
  readdirSync(dir.path, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stat = statSync(join(dir.path, name));
      return stat.isFile() ? `${name} ${stat.size}` : name;
    });

describe('eddy data check', () => {
  it('says what a start would recover from a whole directory, exit 0', async () => {
    await writeLog(dir.path, 5);
    const host = await openHost(dir.path, { snapshotOnClose: false });
    await host.persistence.snapshot();
    host.engine.execute('PutItem', { TableName: 'Things', Item: { pk: s('late') } });
    await host.persistence.close();

    const run = await check();
    expect(run.code).toBe(0);
    expect(run.out[0]).toBe(`data directory ${dir.path}`);
    expect(run.out).toEqual([
      `data directory ${dir.path}`,
      expect.stringMatching(
        /^snapshot snapshots\/00000000000000000007\.snap: LSN 7, [\d.]+ KiB, a start loads it$/,
      ),
      expect.stringMatching(/^segment wal\/00000000000000000008\.log: from LSN 8, \d+ B$/),
      'log.mark: records up to LSN 8 written and fsynced; a start needs the log to reach LSN 8',
      'a start would recover LSN 8: the snapshot at LSN 7 (5 items, 0 stream records), then 1 log record; 1 table, 6 items',
      'ok',
    ]);
    expect(run.err).toEqual([]);
  });

  it('names the damage a start would refuse, exit 1, and changes nothing', async () => {
    await writeLog(dir.path, 20);
    const [segment] = segmentsOf(dir.path);
    const boundary = recordOffsets(segment!)[12]!;
    truncateSync(segment!, boundary + 3);
    const before = listing();

    const run = await check();
    expect(run.code).toBe(1);
    expect(run.out).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          `a start would refuse: ${segment}: the log ends at LSN 12 (byte ${boundary}: a frame header cut short), but records up to LSN 22 had been fsynced`,
        ),
      ]),
    );
    expect(run.out.at(-1)).toBe('not ok');
    expect(listing()).toEqual(before);
  });

  it('reports a torn last write a start would drop, exit 0, without truncating it', async () => {
    await writeLog(dir.path, 20);
    markOnly(dir.path, 21);
    const [segment] = segmentsOf(dir.path);
    const last = recordOffsets(segment!).at(-1)!;
    const size = statSync(segment!).size;
    truncateSync(segment!, size - 4);

    const run = await check();
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      `a start would drop a torn write at the end of the log: wal/00000000000000000001.log from byte ${last} (a frame of ${size - last - 8} bytes running past the end), ${size - 4 - last} bytes, 1 record`,
    );
    expect(statSync(segment!).size).toBe(size - 4);
  });

  it('refuses to check a directory an eddy is using, and one that is not a data directory', async () => {
    await writeLog(dir.path, 1);
    const holder = spawn('sleep', ['30']);
    try {
      writeFileSync(join(dir.path, 'LOCK'), `${holder.pid}\nelsewhere\n`);
      const run = await check();
      expect(run.code).toBe(1);
      expect(run.out).toContain(
        `in use by eddy (process ${holder.pid}): stop it first, its log changes while it runs`,
      );
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.on('exit', resolve));
    }
    const stale = await check();
    expect(stale.code).toBe(0);
    expect(stale.out).toContain(
      `LOCK names process ${holder.pid}, which is gone (a crash): the next start takes it over`,
    );

    const empty = tempDir();
    try {
      const run = await check(empty.path);
      expect(run.code).toBe(1);
      expect(run.out[0]).toMatch(/is not an eddy data directory \(it has no wal\/ folder\)$/);
    } finally {
      empty.remove();
    }
  });
});
