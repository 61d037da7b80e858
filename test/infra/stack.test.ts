import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { createHostLogger, type Logger } from '../../infra/host/logger.js';
import { LocalStack } from '../../infra/stack/localStack.js';
import { bindingUuid } from '../../infra/stack/mappingCheckpoints.js';
import { watchFunctions } from '../../infra/stack/watchFunctions.js';

/**
 * The local stack as `eddy serve` runs it, on the system clock: the config's stream bindings keep
 * their place across restarts with a data directory, and `--watch` swaps a handler's code under
 * a running mapping without re-reading or skipping records.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const directory = mkdtempSync(join(tmpdir(), 'eddy-stack-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const silent = createHostLogger({ level: 'silent' });

function ordersConfig(handler: string): EddyConfig {
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
      onOrder: { handler, events: [{ stream: { table: 'Orders', StartingPosition: 'TRIM_HORIZON' } }] },
    },
  };
}

const orderIds = (event: DynamoDBStreamEvent) =>
  event.Records.map((record) => record.dynamodb!.NewImage!.id!.S!);

async function putOrder(stack: LocalStack, id: string): Promise<void> {
  await stack.client().send(new PutItemCommand({ TableName: 'Orders', Item: { id: { S: id } } }));
}

/** Waits (real time) until `done()` holds. */
async function eventually(done: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a data directory', () => {
  it('resumes each stream binding from its checkpoint after a restart: nothing delivered twice, nothing skipped', async () => {
    const dataDir = join(directory, 'data');
    const seen: string[][] = [];
    const start = () =>
      LocalStack.start(ordersConfig('./unused.ts'), {
        dataDir: { path: dataDir },
        baseDirectory: directory,
        logger: silent,
        handlers: { onOrder: async (event: DynamoDBStreamEvent) => void seen.push(orderIds(event)) },
      });

    const first = await start();
    await putOrder(first, 'o-1');
    await putOrder(first, 'o-2');
    await first.settled();
    await first.close();
    expect(seen.flat().sort()).toEqual(['o-1', 'o-2']);

    const second = await start();
    // The same mapping: its UUID comes from the binding, not from chance.
    expect(second.mappings.list({}).EventSourceMappings.map((mapping) => mapping.UUID)).toEqual([
      bindingUuid('onOrder', 'Orders'),
    ]);
    await putOrder(second, 'o-3');
    await second.settled();
    await second.close();
    // TRIM_HORIZON would deliver o-1 and o-2 again (the stream kept them): the checkpoint did not.
    expect(seen.flat().sort()).toEqual(['o-1', 'o-2', 'o-3']);
  });

  it('keeps where a LATEST binding started: what was written before its first batch finished is not skipped', async () => {
    const dataDir = join(directory, 'latest');
    const config = ordersConfig('./unused.ts');
    const onOrder = config.functions!.onOrder!;
    const latest: EddyConfig = {
      ...config,
      functions: {
        onOrder: { ...onOrder, events: [{ stream: { table: 'Orders', StartingPosition: 'LATEST' } }] },
      },
    };
    const start = (handler: (event: DynamoDBStreamEvent) => Promise<void>) =>
      LocalStack.start(latest, {
        dataDir: { path: dataDir },
        baseDirectory: directory,
        logger: silent,
        handlers: { onOrder: handler },
      });

    // The first run's handler fails: no batch ever finishes before the stop.
    const first = await start(async () => {
      throw new Error('down');
    });
    await putOrder(first, 'o-1');
    await first.close();

    const seen: string[] = [];
    const second = await start(async (event) => void seen.push(...orderIds(event)));
    await eventually(() => seen.length > 0);
    await second.settled();
    await second.close();
    expect(seen).toEqual(['o-1']);
  });

  it('gives distinct bindings distinct, stable UUIDs', () => {
    expect(bindingUuid('onOrder', 'Orders')).toBe(bindingUuid('onOrder', 'Orders'));
    expect(bindingUuid('onOrder', 'Orders')).not.toBe(bindingUuid('onOrder', 'Returns'));
    expect(bindingUuid('onOrder', 'Orders')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('watching handlers', () => {
  it('reloads a changed handler under its running mapping, and keeps the previous code when a build fails', async () => {
    const handlerPath = join(directory, 'onOrder.ts');
    const version = (tag: string) =>
      `import type { DynamoDBStreamEvent } from 'aws-lambda';
const seen: string[] = ((globalThis as { seenByWatchTest?: string[] }).seenByWatchTest ??= []);
export const handler = async (event: DynamoDBStreamEvent) => {
  for (const record of event.Records) seen.push('${tag}:' + record.dynamodb!.NewImage!.id!.S);
};
`;
    writeFileSync(handlerPath, version('v1'));
    const stack = await LocalStack.start(ordersConfig('./onOrder.ts'), {
      baseDirectory: directory,
      logger: silent,
    });
    const printed: string[] = [];
    const watcher = watchFunctions(stack, {
      outDirectory: join(directory, '.eddy', 'watch'),
      print: (line) => printed.push(line),
    });
    try {
      await watcher.ready;
      await putOrder(stack, 'o-1');
      await stack.settled();

      writeFileSync(handlerPath, `${version('v2')}\nexport const broken = ;\n`);
      await eventually(() => printed.some((line) => line.includes('build failed')));
      await putOrder(stack, 'o-2');
      await stack.settled();

      writeFileSync(handlerPath, version('v3'));
      await eventually(() => printed.some((line) => line.startsWith('↻ onOrder reloaded')));
      await putOrder(stack, 'o-3');
      await stack.settled();

      expect((globalThis as { seenByWatchTest?: string[] }).seenByWatchTest).toEqual([
        'v1:o-1',
        'v1:o-2',
        'v3:o-3',
      ]);
    } finally {
      await watcher.close();
      await stack.close();
    }
  });
});

/** A logger whose lines (pino JSON) are kept. */
function capturingLogger(): { logger: Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'info', base: undefined },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

describe('watching a handler that is not there yet', () => {
  it('waits for the file and starts the function once it builds and exports its handler', async () => {
    const handlerPath = join(directory, 'pending', 'onOrder.ts');
    rmSync(join(directory, 'pending'), { recursive: true, force: true });
    const stack = await LocalStack.start(ordersConfig('./pending/onOrder.ts'), {
      baseDirectory: directory,
      logger: silent,
      missingHandlers: 'wait',
    });
    const printed: string[] = [];
    const watcher = watchFunctions(stack, {
      outDirectory: join(directory, '.eddy', 'watch-pending'),
      print: (line) => printed.push(line),
    });
    try {
      await watcher.ready;
      expect(printed[0]).toBe('✗ onOrder: build failed, still waiting for a handler');
      await putOrder(stack, 'o-1');

      mkdirSync(join(directory, 'pending'));
      writeFileSync(handlerPath, 'export const main = async () => {};\n');
      await eventually(() => printed.some((line) => line.includes("no export 'handler'")));
      expect(stack.waiting.has('onOrder')).toBe(true);

      writeFileSync(
        handlerPath,
        'export const handler = async (event: { Records: unknown[] }) => ({ got: event.Records.length });\n',
      );
      await eventually(() => printed.some((line) => line.startsWith('↻ onOrder started')));
      await stack.settled();
      expect(stack.functions.invocations('onOrder').map((entry) => entry.result)).toEqual([{ got: 1 }]);
    } finally {
      await watcher.close();
      await stack.close();
    }
  });
});

describe('stream bindings declared by table name', () => {
  it("follow a table that is deleted and created again, from the binding's starting position, and say so in one line", async () => {
    const { default: config } = await import('../../examples/orders/eddy.config.js');
    const seen: string[] = [];
    const { logger, lines } = capturingLogger();
    const stack = await LocalStack.start(config, {
      baseDirectory: join(ROOT, 'examples', 'orders'),
      logger,
      handlers: {
        onOrder: async (event: DynamoDBStreamEvent) => {
          for (const record of event.Records) seen.push(record.dynamodb!.NewImage!.orderId!.S!);
        },
      },
    });
    try {
      const client = stack.client();
      const order = (id: string) =>
        client.send(new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: id } } }));
      await order('o-1');
      await stack.settled();
      const before = stack.engine.region().tables.get('Orders')!.stream!.arn;

      await client.send(new DeleteTableCommand({ TableName: 'Orders' }));
      await client.send(new CreateTableCommand(config.tables![0]! as never));
      await order('o-2');
      await stack.settled();

      expect(seen).toEqual(['o-1', 'o-2']);
      const after = stack.engine.region().tables.get('Orders')!.stream!.arn;
      expect(after).not.toBe(before);
      expect(stack.mappings.list({ FunctionName: 'onOrder' }).EventSourceMappings).toEqual([
        expect.objectContaining({ UUID: bindingUuid('onOrder', 'Orders'), EventSourceArn: after }),
      ]);
      const said = lines.filter((line) => line.msg.includes('new stream'));
      expect(said.map((line) => line.msg)).toEqual([
        'onOrder ← Orders: the table has a new stream (recreated, or its stream enabled again); the binding follows it from LATEST',
      ]);
    } finally {
      await stack.close();
    }
  });
});

describe('a handler that does not load', () => {
  const config = (handler: string, exportName?: string): EddyConfig => {
    const base = ordersConfig(handler);
    const onOrder = base.functions!.onOrder!;
    return { ...base, functions: { onOrder: { ...onOrder, ...(exportName ? { exportName } : {}) } } };
  };

  it('stops the start, naming the function, the file and the export', async () => {
    const missing = join(directory, 'nowhere', 'onOrder.ts');
    await expect(LocalStack.start(config(missing), { logger: silent })).rejects.toThrow(
      `functions.onOrder.handler: function onOrder: handler ${missing} (export 'handler'): no such file`,
    );
    const wrongExport = join(directory, 'exportsOther.ts');
    writeFileSync(wrongExport, 'export const main = async () => {};\n');
    await expect(LocalStack.start(config(wrongExport), { logger: silent })).rejects.toThrow(
      `functions.onOrder.handler: function onOrder: handler ${wrongExport} (export 'handler'): the module has no export 'handler' that is a function`,
    );
    // In a worker thread too (isolation: worker loads the module there, never in the host).
    const worker: EddyConfig = {
      ...config(wrongExport),
      functions: { onOrder: { ...config(wrongExport).functions!.onOrder!, isolation: 'worker' } },
    };
    await expect(LocalStack.start(worker, { logger: silent })).rejects.toThrow(
      "the module has no export 'handler' that is a function",
    );
  });

  it('lets `missingHandlers: wait` start with the mappings held, and starts them once a handler loads', async () => {
    const path = join(directory, 'later.ts');
    rmSync(path, { force: true });
    const stack = await LocalStack.start(config(path), {
      baseDirectory: directory,
      logger: silent,
      missingHandlers: 'wait',
    });
    try {
      expect([...stack.waiting.keys()]).toEqual(['onOrder']);
      await putOrder(stack, 'o-1');
      await stack.settled();
      expect(stack.functions.invocations('onOrder')).toEqual([]);
      expect(stack.mappings.list({}).EventSourceMappings.map((mapping) => mapping.State)).toEqual([
        'Disabled',
      ]);

      writeFileSync(path, 'export const elsewhere = 1;\n');
      await expect(stack.reloadFunction('onOrder', path)).rejects.toThrow("has no export 'handler'");
      expect(stack.waiting.has('onOrder')).toBe(true);

      writeFileSync(
        join(directory, 'later2.ts'),
        `export const handler = async (event: { Records: unknown[] }) => ({ got: event.Records.length });\n`,
      );
      await stack.reloadFunction('onOrder', join(directory, 'later2.ts'));
      await stack.settled();
      expect(stack.waiting.size).toBe(0);
      // TRIM_HORIZON held its place: what was written while waiting is delivered.
      expect(stack.functions.invocations('onOrder').map((entry) => entry.result)).toEqual([{ got: 1 }]);
    } finally {
      await stack.close();
    }
  });
});
