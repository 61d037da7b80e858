import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/archiver/handler.js';
import { fileSink } from '../../infra/archive/archiveSink.js';
import { ttlBatch } from '../archive/helpers.js';
import { EDDY_BIN } from '../helpers/eddyProcess.js';
import { lambdaContext } from '../helpers/events.js';

/** The CLI in a shell pipeline whose reader stops early, as `| head -3` does. */

const directory = mkdtempSync(join(tmpdir(), 'eddy-pipes-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs `eddy <args> | head -<lines>` in bash with pipefail: the exit code is eddy's. */
function pipeline(args: string, lines: number) {
  // The package's bin, as users run it (test/helpers/eddyProcess.ts says why not tsx).
  const eddy = `'${process.execPath}' '${EDDY_BIN}'`;
  const child = spawn('bash', ['-c', `set -o pipefail; ${eddy} ${args} | head -${lines}`], {
    cwd: directory,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('a reader that stops early', () => {
  it('ends `eddy archive cat --all | head -3` quietly with exit code 0', async () => {
    const archive = join(directory, 'archive');
    const invoke = createHandler({ sink: fileSink({ directory: archive }) });
    // Enough lines that eddy is still writing when head has gone.
    for (let from = 1; from <= 20_000; from += 1000)
      await invoke(ttlBatch(from, 1000), lambdaContext('archiver') as never);
    const { code, stdout, stderr } = await pipeline(`archive cat --all --dir '${archive}'`, 3);
    // stderr beside the lines: when they are missing it says why.
    expect({ lines: stdout.trim().split('\n').length, stderr }).toEqual({ lines: 3, stderr: '' });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
