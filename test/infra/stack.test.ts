import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { createHostLogger } from '../../infra/host/logger.js';
import { LocalStack } from '../../infra/stack/localStack.js';
import { bindingUuid } from '../../infra/stack/mappingCheckpoints.js';
import { watchFunctions } from '../../infra/stack/watchFunctions.js';

/**
 * The local stack as `eddy serve` runs it, on the system clock: the config's stream bindings keep
 * their place across restarts with a data directory, and `--watch` swaps a handler's code under
 * a running mapping without re-reading or skipping records.
 */

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
