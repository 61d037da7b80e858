import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eddyServe, listening, stopLeftovers } from '../helpers/eddyProcess.js';
import { send } from '../infra/rawHttp.js';
import { tempDir } from './helpers.js';

const dir = tempDir('eddy-cli-data-');
afterAll(() => dir.remove());
afterEach(stopLeftovers);
const dataDir = join(dir.path, 'data');

describe('eddy serve --data-dir', () => {
  it('refuses persistence flags without --data-dir', async () => {
    const run = eddyServe(['--port', '0', '--no-config', '--durability', 'always'], dir.path);
    expect(await run.exited).toBe(2);
    expect(run.stderr.trim()).toBe('eddy: --durability and --snapshot-* need --data-dir');
  });

  it('refuses a second host on the same directory, snapshots on SIGTERM, and keeps the tables', async () => {
    const first = eddyServe(['--port', '0', '--no-config', '--data-dir', dataDir], dir.path);
    const url = await listening(first);
    expect(first.stdout).toContain(`data dir ${dataDir} (durability everysec)`);

    const second = eddyServe(['--port', '0', '--no-config', '--data-dir', dataDir], dir.path);
    expect(await second.exited).toBe(1);
    expect(second.stderr.trim()).toBe(
      `eddy: Data directory ${dataDir} is in use by another eddy (process ${first.child.pid}). ` +
        `Stop it first, or use another --data-dir (if no eddy uses it, the process is another program: delete ${dataDir}/LOCK).`,
    );
    expect((await send(url, { method: 'GET', path: '/_eddy/health' })).json).toMatchObject({ tables: 1 });

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stderr).toBe('');
    expect(existsSync(join(dataDir, 'LOCK'))).toBe(false);
    expect(readdirSync(join(dataDir, 'snapshots'))).toHaveLength(1);

    // The demo table comes back from the data directory (not created again).
    const third = eddyServe(['--port', '0', '--no-config', '--data-dir', dataDir], dir.path);
    const again = await listening(third);
    expect(third.stdout).not.toContain('demo table');
    expect((await send(again, { method: 'GET', path: '/_eddy/health' })).json).toMatchObject({ tables: 1 });
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });
});
