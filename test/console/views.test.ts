import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ListEventSourceMappingsCommand, UpdateEventSourceMappingCommand } from '@aws-sdk/client-lambda';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { Page } from 'playwright-core';

type Box = { x: number; y: number; width: number; height: number };

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { type Chromium, HAS_CHROMIUM, openChromium, screenshot } from './chromium.js';
import { onOrderStream, ordersTable } from './fixture.js';

/**
 * The console's views in Chromium, each on the same fixed data and virtual clock (the test kit
 * starts at 2026-01-01), so that with EDDY_SCREENSHOTS=1 (`npm run screenshots`) they write
 * the README's screenshots, docs/images/console-*.png, the same on every run. One browser and one
 * stack for the file, reset before each test.
 */
const archiveDirectory = mkdtempSync(join(tmpdir(), 'eddy-console-archive-'));

const config: EddyConfig = {
  archive: { tables: ['Orders'], sink: { type: 'files', directory: archiveDirectory } },
  tables: [ordersTable],
  functions: {
    onOrder: {
      handler: './handled-in-process.mjs',
      events: [{ stream: { ...onOrderStream, MaximumRetryAttempts: 0, BisectBatchOnFunctionError: true } }],
    },
  },
};

/** While set, an invocation of two records waits for it (a bisected batch in flight to look at). */
let holdHalves: Promise<void> | undefined;

/** Logs each order; a batch with a `poison` order fails. */
const onOrder = async (event: DynamoDBStreamEvent) => {
  if (holdHalves !== undefined && event.Records.length === 2) await holdHalves;
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    console.log(`order ${record.dynamodb?.Keys?.pk?.S} ${record.eventName} ${image?.status?.S ?? ''}`);
    if (image?.status?.S === 'poison') throw new Error(`poison order ${record.dynamodb?.Keys?.pk?.S}`);
  }
  return {};
};

const ORDERS = [
  { pk: 'order-1001', status: 'placed', total: 42.5, customer: 'ada' },
  { pk: 'order-1002', status: 'placed', total: 17, customer: 'grace' },
  { pk: 'order-1003', status: 'shipped', total: 99.99, customer: 'edsger' },
  { pk: 'order-1004', status: 'placed', total: 5.25, customer: 'barbara' },
];

describe.skipIf(!HAS_CHROMIUM)('the console views in Chromium', () => {
  let stack: TestStack;
  let url: string;
  let chromium: Chromium;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack(config, { handlers: { onOrder } });
    url = await stack.openConsole();
    chromium = await openChromium();
    page = chromium.page;
    await page.goto(`${url}#/tables`);
    await page.locator('body[data-live="open"]').waitFor();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await stack?.close();
    rmSync(archiveDirectory, { recursive: true, force: true });
  });

  beforeEach(async () => {
    holdHalves = undefined;
    await stack.reset();
  });

  const open = async (hash: string) => {
    await page.evaluate((target) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = target;
    }, hash);
  };

  /** A screenshot (EDDY_SCREENSHOTS=1) once the header shows the stack's virtual time. */
  const shot = async (name: string) => {
    const now = new Date(stack.clock.now()).toISOString().replace('T', ' ').replace('Z', '');
    await expect.poll(() => page.getByTestId('clock').innerText()).toContain(now);
    await screenshot(page, name);
  };

  /** The same orders every time, one of them shipped a minute later. */
  const placeOrders = async () => {
    for (const order of ORDERS)
      await stack.documentClient.send(new PutCommand({ TableName: 'Orders', Item: order }));
    await stack.advance('1m');
    await stack.client.send(
      new PutItemCommand({
        TableName: 'Orders',
        Item: {
          pk: { S: 'order-1001' },
          status: { S: 'shipped' },
          total: { N: '42.5' },
          customer: { S: 'ada' },
        },
      }),
    );
    await stack.advance('1s');
  };

  it('shows a GSI being backfilled as items done of the items to index, then caught up', async () => {
    await stack.client.send(
      new CreateTableCommand({
        TableName: 'Events',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    const TOTAL = 5_000;
    for (let i = 0; i < TOTAL; i++)
      stack.engine.execute('PutItem', {
        TableName: 'Events',
        Item: { id: { S: `e${i}` }, kind: { S: i % 2 === 0 ? 'click' : 'view' } },
      });
    await open('#/tables');
    const events = page.getByTestId('tables').locator('tbody tr', { hasText: 'Events' });
    await events.waitFor();
    // The backfill takes a few turns of the event loop only (1,000 items a turn): the page's
    // next read of the tables adds the index, then asks the server until its (real) answer
    // shows the index backfilling, and shows that one; the reads after it wait until the test
    // has looked.
    let armed = true;
    let release = () => {};
    const looked = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/_eddy/api/tables', async (route) => {
      if (!armed) {
        await looked;
        // Unrouting may have let it through already.
        return route.continue().catch(() => {});
      }
      armed = false;
      stack.engine.execute('UpdateTable', {
        TableName: 'Events',
        AttributeDefinitions: [{ AttributeName: 'kind', AttributeType: 'S' }],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: 'byKind',
              KeySchema: [{ AttributeName: 'kind', KeyType: 'HASH' }],
              Projection: { ProjectionType: 'KEYS_ONLY' },
            },
          },
        ],
      });
      for (;;) {
        const response = await route.fetch();
        const body = await response.text();
        if (body.includes('"backfill"') || !body.includes('CREATING'))
          return route.fulfill({ response, body });
      }
    });
    const progress = page.getByTestId('backfill-byKind');
    expect(await progress.innerText()).toMatch(/^ ?\(backfilling: [\d,]+ \/ 5,000 items \(\d+%\)\)$/);
    expect(await events.innerText()).toContain('byKind: CREATING');
    release();
    await page.unroute('**/_eddy/api/tables');

    await stack.settled();
    await expect.poll(() => events.innerText()).toContain('byKind: ACTIVE, caught up');
    expect(await progress.count()).toBe(0);
  });

  it('shows the batch in flight, bisected after a failure, on the mapping view (screenshot: mapping)', async () => {
    const [mapping] =
      (await stack.lambda.send(new ListEventSourceMappingsCommand({ FunctionName: 'onOrder' })))
        .EventSourceMappings ?? [];
    const UUID = mapping!.UUID!;
    // Four changes of one order (one shard), read as one batch once the mapping is enabled.
    await stack.lambda.send(new UpdateEventSourceMappingCommand({ UUID, Enabled: false }));
    await stack.settled();
    for (const status of ['placed', 'paid', 'poison', 'shipped'])
      await stack.documentClient.send(
        new PutCommand({ TableName: 'Orders', Item: { pk: 'order-2001', status, total: 12 } }),
      );
    let release = () => {};
    holdHalves = new Promise((resolve) => {
      release = resolve;
    });
    await open(`#/mappings/${UUID}`);
    await page.getByTestId('in-flight').getByText('No batch being delivered.').waitFor();
    await stack.lambda.send(new UpdateEventSourceMappingCommand({ UUID, Enabled: true }));
    // The batch of 4 fails (the poison order), is split, and its first half waits in the handler.
    const inFlight = page.getByTestId('in-flight').locator('li');
    await expect
      .poll(() => inFlight.innerText())
      .toMatch(
        /^shardId-\d{20}-[0-9a-f]{8}: batch of 4 records, bisected: 2 of them \(split 1×, 1 part waiting\), #\d+ … #\d+, first attempt, invoking the function$/,
      );
    await expect.poll(() => page.getByTestId('batches').locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId('batches').innerText()).toContain('Error: poison order order-2001');
    // The shard's checkpoint is before its first record: said in words, not as a number that
    // names no record (ordinal 0, `100000000000000000000`).
    const shards = page.getByTestId('mapping-shards');
    await expect.poll(() => shards.innerText()).toContain('nothing finished yet');
    expect(await shards.innerText()).not.toContain('100000000000000000000');
    await shot('mapping');

    release();
    await stack.settled();
    await page.getByTestId('in-flight').getByText('No batch being delivered.').waitFor();
    expect(stack.destination('onOrder')).toHaveLength(1);
    await expect.poll(() => shards.innerText()).toMatch(/\t1\d{20}\t0\t0/);
  });

  it('shows what the archiver wrote per table (screenshot: archive)', async () => {
    await placeOrders();
    await open('#/archive');
    const orders = page.getByTestId('archive').locator('tbody tr', { hasText: 'Orders' });
    await expect.poll(() => orders.innerText()).toMatch(/^Orders\t0\t0\t0 B\t—\t—$/);
    const expired = Math.floor(stack.clock.now() / 1000) - 60;
    for (const pk of ['order-0901', 'order-0902'])
      await stack.documentClient.send(
        new PutCommand({ TableName: 'Orders', Item: { pk, status: 'delivered', expiresAt: expired } }),
      );
    await stack.expireNow();
    // The archiver batches for up to a minute (MaximumBatchingWindowInSeconds 60, functions/archiver/settings.ts).
    await stack.advance('2m');
    await expect.poll(() => orders.innerText()).toMatch(/^Orders\t[12]\t2\t/);
    const text = await orders.innerText();
    expect(text).toContain('Orders/');
    await shot('archive');
  });

  it('lists the tables (screenshot: tables)', async () => {
    await placeOrders();
    await open('#/tables');
    const orders = page.getByTestId('tables').locator('tbody tr', { hasText: 'Orders' });
    await expect.poll(() => orders.innerText()).toContain('byStatus: ACTIVE, caught up');
    await expect.poll(() => orders.innerText()).toContain('NEW_AND_OLD_IMAGES, 5 records');
    await shot('tables');
  });

  it('browses the items (screenshot: items)', async () => {
    await placeOrders();
    await open('#/tables/Orders');
    const items = page.getByTestId('items');
    await items.locator('tbody tr', { hasText: 'order-1004' }).waitFor();
    expect(await items.locator('tbody tr').count()).toBe(4);
    await shot('items');
  });

  it('tails the stream with what changed (screenshot: stream)', async () => {
    await placeOrders();
    await open('#/streams/Orders');
    const modify = page.getByTestId('tail').locator('li[data-event="MODIFY"]', { hasText: 'pk=order-1001' });
    await modify.waitFor();
    expect(await modify.locator('ul.diff').innerText()).toBe('status: "placed" → "shipped"');
    await shot('stream');
  });

  it('shows the handler runs with their logs (screenshot: functions)', async () => {
    await placeOrders();
    await open('#/functions/onOrder');
    const runs = page.getByTestId('invocations').locator('li.invocation');
    await expect.poll(() => runs.count()).toBe(5);
    expect(await runs.first().innerText()).toContain('order order-1001 MODIFY shipped');
    await shot('functions');
  });

  it('draws the flow (screenshot: flow)', async () => {
    await placeOrders();
    await open('#/flow');
    const flow = page.getByTestId('flow');
    await flow.locator('[data-node="function:onOrder"]').waitFor();
    await flow.locator('[data-node^="destination:"]').waitFor();
    // No arrow's label covers another label or a box (their boxes as Chromium laid them out).
    // In one look: the diagram is drawn again on each tick.
    const { labels, nodes } = await page.evaluate(() => {
      const rects = (selector: string) =>
        Array.from(document.querySelectorAll(`[data-testid="flow"] ${selector}`)).map((element) => {
          const { x, y, width, height } = element.getBoundingClientRect();
          return { x, y, width, height };
        });
      return { labels: rects('g.edge text'), nodes: rects('g.node rect') };
    });
    expect(labels.length).toBeGreaterThanOrEqual(6); // changes, internal feed, 2 mappings, on failure, TTL
    const overlap = (a: Box, b: Box) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const [n, label] of labels.entries()) {
      for (const other of labels.slice(n + 1))
        expect(overlap(label, other), JSON.stringify([label, other])).toBe(false);
      for (const node of nodes) expect(overlap(label, node), JSON.stringify([label, node])).toBe(false);
    }
    // A rate chart per arrow, drawn by uPlot from the history of the stack clock's seconds.
    const charts = page.getByTestId('flow-charts').locator('figure.chart');
    await expect.poll(() => charts.count()).toBe(labels.length);
    const changes = charts.filter({ hasText: 'Orders → Orders stream: changes' });
    expect(await changes.locator('canvas').count()).toBe(1);
    const history = await (await fetch(`${stack.endpoint}/_eddy/api/flow/history`)).json();
    const edge = history.edges.find((entry: { label: string }) => entry.label === 'changes');
    // placeOrders: 4 writes, a minute, 1 write, a second: 61 samples, 5 records in two of them.
    expect(history.times).toHaveLength(61);
    expect(edge.rates.filter((rate: number | null) => rate !== null && rate > 0)).toEqual([4, 1]);
    await shot('flow');
  });
});
