import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand, ListTablesCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eddyServe, listening, stopLeftovers } from '../helpers/eddyProcess.js';
import { send } from '../infra/rawHttp.js';
import { segmentsOf, tempDir } from './helpers.js';

/**
 * Issue #16, item 2: once a write of the log fails, `GET /_eddy/health` says so (503 and the
 * reason), and every call answers what DynamoDB answers on an internal failure,
 * InternalServerError (500), with one log line in all rather than a stack trace per request.
 *
 * The failure is real: a file size limit set on the running `eddy serve` with prlimit(1)
 * (RLIMIT_FSIZE), so its next log write fails with EFBIG. Node ignores SIGXFSZ, so the process
 * lives on and sees the error, as it would a full disk.
 */
const prlimit = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const dir = tempDir('eddy-health-');
afterAll(() => dir.remove());
afterEach(stopLeftovers);

// A table with a stream and a function bound to it: its mapping waits on the log too.
const CONFIG = join(dir.path, 'eddy.config.mjs');
writeFileSync(
  CONFIG,
  `export default ${JSON.stringify({
    tables: [
      {
        TableName: 'Demo',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      },
    ],
    functions: { audit: { handler: './audit.mjs', events: [{ stream: { table: 'Demo' } }] } },
  })};\n`,
);
writeFileSync(join(dir.path, 'audit.mjs'), 'export const handler = async () => {};\n');

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const put = (i: number) =>
  new PutItemCommand({
    TableName: 'Demo',
    Item: { pk: { S: `k${i}` }, sk: { S: 'x' }, body: { S: 'y'.repeat(1000) } },
  });

/** pino's JSON lines on stderr, parsed. */
const logLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { level: number; msg: string; [field: string]: unknown });

describe('eddy serve --data-dir when the log cannot be written', () => {
  // prlimit(1) is util-linux's (Linux only); elsewhere no unprivileged way to make writes fail.
  it.skipIf(!prlimit)(
    'answers health 503 with the reason and calls InternalServerError, logged once',
    async () => {
      const dataDir = join(dir.path, 'data');
      const run = eddyServe(
        ['--port', '0', '--no-config', '--data-dir', dataDir, '--durability', 'always'],
        dir.path,
      );
      const url = await listening(run);
      const db = new DynamoDBClient({ endpoint: url, region: 'us-east-1', credentials, maxAttempts: 1 });
      expect((await send(url, { method: 'GET', path: '/_eddy/health' })).status).toBe(200);
      await db.send(put(0));

      const segment = segmentsOf(dataDir).at(-1)!;
      const limit = statSync(segment).size + 2500; // two more puts fit, the third does not
      execFileSync('prlimit', ['--pid', String(run.child.pid), `--fsize=${limit}`]);
      let acknowledged = 1;
      let failure: unknown;
      for (let i = 1; i < 10 && failure === undefined; i++) {
        try {
          await db.send(put(i));
          acknowledged++;
        } catch (error) {
          failure = error;
        }
      }
      expect(acknowledged).toBe(3);
      expect(failure).toMatchObject({ name: 'InternalServerError', $metadata: { httpStatusCode: 500 } });
      // Every call fails from then on, reads too: their answers could show changes not kept.
      for (const command of [
        put(20),
        new ListTablesCommand({}),
        new GetItemCommand({ TableName: 'Demo', Key: { pk: { S: 'k0' }, sk: { S: 'x' } } }),
      ])
        await expect(db.send(command as never)).rejects.toMatchObject({
          name: 'InternalServerError',
          message: 'Internal server error',
          $metadata: { httpStatusCode: 500 },
        });

      const health = await send(url, { method: 'GET', path: '/_eddy/health' });
      expect(health.status).toBe(503);
      expect(health.json).toMatchObject({
        status: 'failing',
        reason: expect.stringMatching(
          /^Writing the log .*\.log failed: EFBIG: file too large, write; changes since are not durable; every call fails until eddy restarts$/,
        ),
      });
      // The mapping keeps retrying its batch meanwhile: give it time to (not) log.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const errors = logLines(run.stderr).filter((line) => line.level >= 50);
      expect(errors).toEqual([
        expect.objectContaining({
          code: 'EFBIG',
          file: segment,
          msg: expect.stringContaining('write-ahead log failed'),
        }),
      ]);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      db.destroy();
      run.child.kill('SIGKILL');
      await run.exited;

      // Restarted without the limit: what was acknowledged is there; the write cut short by the
      // limit was never acknowledged (a torn write), dropped and said.
      const again = eddyServe(['--port', '0', '--config', CONFIG, '--data-dir', dataDir], dir.path);
      const againUrl = await listening(again);
      const client = new DynamoDBClient({
        endpoint: againUrl,
        region: 'us-east-1',
        credentials,
        maxAttempts: 1,
      });
      for (let i = 0; i < acknowledged; i++)
        expect(
          (
            await client.send(
              new GetItemCommand({ TableName: 'Demo', Key: { pk: { S: `k${i}` }, sk: { S: 'x' } } }),
            )
          ).Item,
        ).toBeDefined();
      expect(logLines(again.stderr)).toEqual([
        expect.objectContaining({ level: 40, msg: expect.stringContaining('dropped a torn write'), segment }),
      ]);
      expect((await send(againUrl, { method: 'GET', path: '/_eddy/health' })).json).toMatchObject({
        status: 'ok',
      });
      client.destroy();
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    },
    60_000,
  );
});
