import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createProgram } from '../../infra/cli/program.js';
import { runProgram } from '../helpers/command.js';
import { listening, startEddy, stopLeftovers } from '../helpers/eddyProcess.js';
import { send } from './rawHttp.js';

// The real command line, as users run it: a child process per case (each costs a tsx start).
const ROOT = join(import.meta.dirname, '..', '..');
const directory = mkdtempSync(join(tmpdir(), 'eddy-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** `eddy ...args` in the temp directory (no eddy.config.* there). */
const eddy = (args: string[], entry?: string) => startEddy(args, directory, entry);
afterEach(stopLeftovers);

describe('eddy serve (CLI)', () => {
  it('prints the endpoint and a command to paste, serves, and exits 0 on SIGTERM (bin/eddy.mjs, as npm start runs it: from its bundle, nothing on stderr)', async () => {
    const run = eddy(['serve', '--port', '0', '--no-config'], join(ROOT, 'bin', 'eddy.mjs'));
    const url = await listening(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.stdout).toContain(
      `aws dynamodb scan --table-name Demo --endpoint-url ${url} --region us-east-1`,
    );
    const health = await send(url, { method: 'GET', path: '/_eddy/health' });
    expect(health.json).toMatchObject({ status: 'ok', tables: 1 });
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('says clearly that the port is in use', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = eddy(['serve', '--port', String(port), '--no-config']);
      expect(await run.exited).toBe(1);
      expect(run.stderr).toContain(`eddy: Port ${port} on 127.0.0.1 is already in use.`);
    } finally {
      blocker.close();
    }
  });

  it('names the file, the path and the reason of a bad config', async () => {
    const file = join(directory, 'eddy.config.json');
    writeFileSync(file, JSON.stringify({ server: { port: 'eight thousand' } }));
    const run = eddy(['serve']);
    expect(await run.exited).toBe(1);
    expect(run.stderr.trim()).toBe(
      `eddy: Bad config ${file} at server.port: must be an integer from 0 to 65535`,
    );
    rmSync(file);
  });

  it('exits 1 naming the function, file and export when a handler is missing', async () => {
    const file = join(directory, 'missing-handler.config.json');
    writeFileSync(
      file,
      JSON.stringify({
        tables: [
          {
            TableName: 'Orders',
            BillingMode: 'PAY_PER_REQUEST',
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
            StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
          },
        ],
        functions: { onOrder: { handler: './src/onOrder.ts', events: [{ stream: { table: 'Orders' } }] } },
      }),
    );
    const run = eddy(['serve', '--port', '0', '--config', file]);
    expect(await run.exited).toBe(1);
    expect(run.stderr.trim()).toBe(
      `eddy: Bad config ${file} at functions.onOrder.handler: function onOrder: handler ${join(directory, 'src', 'onOrder.ts')} (export 'handler'): no such file`,
    );
    rmSync(file);
  });

  it('refuses an unknown flag with a suggestion', async () => {
    const run = eddy(['serve', '--prot', '8000']);
    expect(await run.exited).toBe(1);
    expect(run.stderr).toContain("error: unknown option '--prot'");
    expect(run.stderr).toContain('--port');
  });

  it('documents every option and the config file in eddy --help (through bin/eddy.mjs)', async () => {
    const run = eddy(['--help'], join(ROOT, 'bin', 'eddy.mjs'));
    expect(await run.exited).toBe(0);
    for (const text of [
      '--port',
      '--host',
      '--config',
      '--region',
      '--account-id',
      '--verbose',
      '--max-body-size',
      '--create-delay',
      '--access-key-id',
      '--cors',
      '--allowed-hosts',
      'eddy.config.ts',
      '/_eddy/health',
    ]) {
      expect(run.stdout).toContain(text);
    }
    // One usage line: the program's (serve's options follow under a heading of their own).
    expect(run.stdout.match(/^Usage: /gm)).toEqual(['Usage: ']);
  });
});

describe('eddy with a mistyped command (in process)', () => {
  it('suggests the nearest command and exits 1 instead of taking it for an argument of serve', async () => {
    expect(await runProgram(createProgram, ['serv'], directory)).toEqual({
      out: [],
      err: ["error: unknown command 'serv'\n(Did you mean serve?)\n(see eddy --help)"],
      code: 1,
    });
    expect(await runProgram(createProgram, ['recrod', '--table', 'Orders'], directory)).toMatchObject({
      err: ["error: unknown command 'recrod'\n(Did you mean record?)\n(see eddy --help)"],
      code: 1,
    });
    expect(await runProgram(createProgram, ['xyzzy'], directory)).toMatchObject({
      err: ["error: unknown command 'xyzzy'\n(see eddy --help)"],
      code: 1,
    });
  });
});
