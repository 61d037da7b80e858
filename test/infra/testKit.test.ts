import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { startStack } from '../../infra/testing/index.js';

/**
 * The test kit (`eddy/testing`) as a project's tests use it: virtual time that a stuck handler
 * cannot hold, a process that stays up while a settle is pending, and a `close()` that leaves
 * the process as it found it.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const directory = mkdtempSync(join(tmpdir(), 'eddy-testkit-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function file(name: string, source: string): string {
  const path = join(directory, name);
  writeFileSync(path, source);
  return path;
}

const LOOPING = file(
  'looping.mjs',
  `export const handler = async (event) => {
  for (const record of event.Records) {
    console.log('got', record.dynamodb.NewImage.id.S);
    if (record.dynamodb.NewImage.id.S === 'loop') for (;;) {}
  }
};
`,
);

function ordersConfig(handler: string, fn: Record<string, unknown> = {}): EddyConfig {
  return {
    tables: [
      {
        TableName: 'Orders',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      },
    ],
    functions: {
      onOrder: {
        handler,
        ...fn,
        events: [{ stream: { table: 'Orders', StartingPosition: 'TRIM_HORIZON', MaximumRetryAttempts: 0 } }],
      },
    },
  };
}

const put = (id: string) => new PutItemCommand({ TableName: 'Orders', Item: { id: { S: id } } });

describe('a worker-isolated handler that never returns', () => {
  it('times out within the advance (in real time too), reports its timeout as its duration, and the next record is processed', async () => {
    const stack = await startStack(ordersConfig(LOOPING, { isolation: 'worker', timeout: 1 }));
    try {
      await stack.client.send(put('loop'));
      const started = performance.now();
      await stack.advance('10s');
      // Before: the timeout waited for the virtual clock, which waited for the settle: for ever.
      expect(performance.now() - started).toBeLessThan(8_000);
      const [stuck] = stack.invocations('onOrder');
      expect(stuck).toMatchObject({
        status: 'error',
        error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 1.00 seconds' },
        durationMs: 1000,
      });
      expect(stuck!.logs.at(-1)).toMatch(
        /^REPORT RequestId: \S+\tDuration: 1000\.00 ms\tBilled Duration: 1000 ms/,
      );

      await stack.client.send(put('after'));
      await stack.advance('1s');
      expect(stack.invocations('onOrder').map((entry) => entry.status)).toEqual(['error', 'ok']);
    } finally {
      await stack.close();
    }
  });
});

describe('handler log lines', () => {
  it("carry the virtual clock's time", async () => {
    const startAt = Date.UTC(2030, 4, 6, 7, 8, 9);
    const stack = await startStack(ordersConfig(LOOPING), { startAt });
    try {
      await stack.advance('90s');
      await stack.client.send(put('o-1'));
      await stack.settled();
      const [entry] = stack.invocations('onOrder');
      expect(entry!.logs.find((line) => line.includes('\tINFO\t'))).toMatch(
        /^2030-05-06T07:09:39\.000Z\t[0-9a-f-]{36}\tINFO\tgot o-1$/,
      );
    } finally {
      await stack.close();
    }
  });
});

describe('outside a test runner', () => {
  it('keeps the process alive while a settle waits on a handler (no exit 13 mid-test)', async () => {
    // An in-process handler that waits on nothing the event loop holds: only the pending settle
    // (and the function's timeout) should keep `node script.mjs` running.
    const handler = file('waiting.mjs', 'export const handler = () => new Promise(() => {});\n');
    const script = file(
      'script.mts',
      `import { startStack } from ${JSON.stringify(pathToFileURL(join(ROOT, 'infra', 'testing', 'index.ts')).href)};
const stack = await startStack(${JSON.stringify(ordersConfig(handler, { timeout: 1 }))});
stack.engine.execute('PutItem', { TableName: 'Orders', Item: { id: { S: 'o-1' } } });
await stack.advance('5s');
console.log(JSON.stringify(stack.invocations('onOrder').map((entry) => entry.error?.errorType)));
await stack.close();
`,
    );
    const loader = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', loader, script], {
      cwd: ROOT,
      env: { ...process.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stdout: stdout.trim(), stderr }).toEqual({
      code: 0,
      stdout: '["Sandbox.Timedout"]',
      stderr: '',
    });
    // The child transpiles infra/testing through tsx before it starts: a few seconds on a quiet
    // machine, over the suite's 20 s at load average 20 (27 November 2026). Its own wait is 5 s
    // of virtual time, so a generous limit hides no hang.
  }, 60_000);
});

describe('stack.close()', () => {
  const NAMES = [
    'AWS_ENDPOINT_URL_DYNAMODB',
    'AWS_ENDPOINT_URL_DYNAMODB_STREAMS',
    'AWS_REGION',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'ORDERS_TABLE',
  ] as const;

  it('puts back the environment the stack changed, with stacks overlapping too', async () => {
    const before = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
    process.env.AWS_REGION = 'eu-west-3';
    delete process.env.AWS_ACCESS_KEY_ID;
    try {
      const config = ordersConfig(LOOPING, { environment: { ORDERS_TABLE: 'Orders' } });
      const first = await startStack(config, { endpoint: true });
      expect(process.env).toMatchObject({
        AWS_ENDPOINT_URL_DYNAMODB: first.endpoint,
        AWS_ENDPOINT_URL_DYNAMODB_STREAMS: first.endpoint,
        AWS_REGION: 'eu-west-3',
        AWS_ACCESS_KEY_ID: 'eddy',
        AWS_SECRET_ACCESS_KEY: 'eddy',
        ORDERS_TABLE: 'Orders',
      });
      const second = await startStack(config, { endpoint: true });
      expect(process.env.AWS_ENDPOINT_URL_DYNAMODB).toBe(second.endpoint);
      await first.close();
      // The second stack is still open: its endpoint stays.
      expect(process.env.AWS_ENDPOINT_URL_DYNAMODB).toBe(second.endpoint);
      await second.close();
      expect(process.env.AWS_ENDPOINT_URL_DYNAMODB).toBe(before.AWS_ENDPOINT_URL_DYNAMODB);
      expect(process.env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS).toBe(before.AWS_ENDPOINT_URL_DYNAMODB_STREAMS);
      expect(process.env.AWS_REGION).toBe('eu-west-3');
      expect(process.env.AWS_ACCESS_KEY_ID).toBeUndefined();
      expect(process.env.AWS_SECRET_ACCESS_KEY).toBe(before.AWS_SECRET_ACCESS_KEY);
      expect(process.env.ORDERS_TABLE).toBe(before.ORDERS_TABLE);
    } finally {
      for (const name of NAMES) {
        if (before[name] === undefined) delete process.env[name];
        else process.env[name] = before[name];
      }
    }
  });

  it('completes every changes$ Observable of the stack, after what it had not delivered', async () => {
    const { changes$ } = await import('../../streams/index.js');
    const stack = await startStack(ordersConfig(LOOPING));
    const seen: string[] = [];
    const completed = new Promise<void>((resolve, reject) =>
      changes$(stack.stack.changeLog, 'Orders').subscribe({
        next: (record) => seen.push(record.dynamodb!.NewImage!.id!.S!),
        error: reject,
        complete: resolve,
      }),
    );
    stack.engine.execute('PutItem', { TableName: 'Orders', Item: { id: { S: 'o-1' } } });
    await stack.close();
    await completed;
    expect(seen).toEqual(['o-1']);
  });
});
