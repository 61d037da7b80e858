import { existsSync, readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../infra/cli/program.js';
import { runProgram } from '../helpers/command.js';
import { eddyServe, listening, stopLeftovers } from '../helpers/eddyProcess.js';
import { send } from '../infra/rawHttp.js';
import { segmentsOf, tempDir } from './helpers.js';

const dir = tempDir('eddy-cli-data-');
afterAll(() => dir.remove());
afterEach(stopLeftovers);
const dataDir = join(dir.path, 'data');

describe('eddy serve --data-dir', () => {
  it('refuses persistence flags without --data-dir', async () => {
    const run = eddyServe(['--port', '0', '--no-config', '--durability', 'always'], dir.path);
    expect(await run.exited).toBe(2);
    expect(run.stderr.trim()).toBe('eddy: --durability, --snapshot-* and --accept-data-loss need --data-dir');
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

describe('eddy serve --data-dir with a damaged log (issue #16, item 1)', () => {
  it('refuses to start without acknowledged writes, names the damage; --accept-data-loss starts with what is left', async () => {
    const damagedDir = join(dir.path, 'damaged-log');
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    // The default durability (everysec): answers wait for the write to the OS, not the fsync.
    const first = eddyServe(['--port', '0', '--no-config', '--data-dir', damagedDir], dir.path);
    const db = new DynamoDBClient({ endpoint: await listening(first), region: 'us-east-1', credentials });
    for (let i = 0; i < 100; i++)
      await db.send(new PutItemCommand({ TableName: 'Demo', Item: { pk: { S: `k${i}` }, sk: { S: 'x' } } }));
    const { Count: written } = await db.send(new ScanCommand({ TableName: 'Demo' }));
    db.destroy();
    first.child.kill('SIGKILL'); // no snapshot: everything is in the log
    await first.exited;
    const segment = segmentsOf(damagedDir).at(-1)!;
    truncateSync(segment, Math.floor(statSync(segment).size / 2));

    const refused = eddyServe(['--port', '0', '--no-config', '--data-dir', damagedDir], dir.path);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^eddy: ${segment}: the log ends at LSN \\d+ \\(byte \\d+: .*\\), but records up to LSN \\d+ had been ` +
          '(written to the OS since the machine last started|fsynced) \\(log\\.mark\\): \\d+ records are lost\\. ' +
          'eddy will not start without them: .* with --accept-data-loss\\.\n$',
      ),
    );
    const before = await runProgram(createProgram, ['data', 'check', damagedDir], dir.path);
    expect(before.code).toBe(1);
    expect(before.out).toEqual(expect.arrayContaining([expect.stringMatching(/^a start would refuse: /)]));

    const accepted = eddyServe(
      ['--port', '0', '--no-config', '--data-dir', damagedDir, '--accept-data-loss'],
      dir.path,
    );
    const url = await listening(accepted);
    const warning = JSON.parse(accepted.stderr.trim()) as Record<string, unknown>;
    expect(warning).toMatchObject({
      level: 40,
      msg: expect.stringContaining('--accept-data-loss'),
      segment,
      keptIn: expect.stringContaining(join(damagedDir, 'damaged')),
    });
    const client = new DynamoDBClient({ endpoint: url, region: 'us-east-1', credentials });
    const { Count } = await client.send(new ScanCommand({ TableName: 'Demo' }));
    client.destroy();
    // The records before the cut: the demo's items and some of the puts.
    expect(Count).toBeGreaterThan(0);
    expect(Count).toBeLessThan(written!);
    accepted.child.kill('SIGTERM');
    expect(await accepted.exited).toBe(0);

    const after = await runProgram(createProgram, ['data', 'check', damagedDir], dir.path);
    expect(after.code).toBe(0);
    expect(after.out.at(-1)).toBe('ok');
  }, 120_000);
});
