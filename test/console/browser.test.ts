import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { consoleConfig, onOrder } from './fixture.js';

/**
 * The console in a real browser: Debian's Chromium, installed by scripts/install-chromium.sh
 * (.ci/run runs it before the tests), driven by playwright-core. One browser and one page for
 * the whole file; the tests run in order on the same stack, each with its own item keys.
 */
const CHROMIUM = '/usr/bin/chromium';
/**
 * Without these, Chromium on a machine with no network stalls on its background fetches
 * (component updates, sync, QUIC probes); no GPU in CI.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Skipped only where Chromium is not installed: run scripts/install-chromium.sh (CI does).
describe.skipIf(!existsSync(CHROMIUM))('the console in Chromium', () => {
  let stack: TestStack;
  let url: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack(consoleConfig, { handlers: { onOrder } });
    url = await stack.openConsole();
    profile = mkdtempSync(join(tmpdir(), 'eddy-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(10_000);
    await page.goto(`${url}#/tables`);
    await page.locator('body[data-live="open"]').waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  });

  const put = (pk: string, status = 'new') =>
    stack.client.send(
      new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: pk }, status: { S: status } } }),
    );
  const open = async (hash: string) => {
    // Runs in the page: `location` is the browser's.
    await page.evaluate((target) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = target;
    }, hash);
  };

  it('lists the tables with their index, TTL and stream', async () => {
    const row = page.getByTestId('tables').locator('tbody tr', { hasText: 'Orders' });
    await expect.poll(() => row.innerText()).toContain('byStatus: ACTIVE');
    const text = await row.innerText();
    expect(text).toContain('pk (HASH)');
    expect(text).toContain('on expiresAt');
    expect(text).toContain('NEW_AND_OLD_IMAGES');
  });

  it('tails writes made over the SDK as they arrive, and shows the handler run with its logs', async () => {
    await open('#/streams/Orders');
    await page.getByTestId('shards').waitFor();
    await put('sdk-1');
    await stack.settled();
    await page.getByTestId('tail').locator('li[data-event="INSERT"]', { hasText: 'pk=sdk-1' }).waitFor();

    await open('#/functions/onOrder');
    const invocation = page
      .getByTestId('invocations')
      .locator('li.invocation', { hasText: 'order sdk-1 INSERT' });
    await invocation.waitFor();
    expect(await invocation.innerText()).toMatch(/START RequestId: [\s\S]*REPORT RequestId: /);
  });

  it('pauses the tail (new records wait) and resumes it', async () => {
    await open('#/streams/Orders');
    await page.getByTestId('shards').waitFor();
    await page.getByTestId('pause').click();
    await put('paused-1');
    await expect.poll(() => page.getByTestId('tail-state').innerText()).toBe('paused, 1 new records waiting');
    expect(await page.getByTestId('tail').innerText()).not.toContain('paused-1');
    await page.getByTestId('pause').click();
    await page.getByTestId('tail').locator('li', { hasText: 'pk=paused-1' }).waitFor();
  });

  it('edits an item in the item browser, and the stream shows the MODIFY with what changed', async () => {
    await open('#/tables/Orders');
    const row = page.getByTestId('items').locator('tbody tr', { hasText: 'pk=sdk-1' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Item JSON').fill('{ "pk": "sdk-1", "status": "shipped" }');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();

    await open('#/streams/Orders');
    const modify = page.getByTestId('tail').locator('li[data-event="MODIFY"]', { hasText: 'pk=sdk-1' });
    await modify.waitFor();
    expect(await modify.locator('ul.diff').innerText()).toBe('status: "new" → "shipped"');
  });

  it('shows a failing handler retried, then the failed batch at its destination with its records', async () => {
    await put('bad', 'poison');
    await stack.advance('10s');
    await open('#/functions/onOrder');
    await page.locator('select[name="outcome"]').selectOption('error');
    const failures = page.getByTestId('invocations').locator('li[data-status="error"]');
    await expect.poll(() => failures.count()).toBe(2);
    expect(await failures.first().innerText()).toContain('Error: poison order');

    await open('#/destinations');
    const batch = page
      .getByTestId('failed-batches')
      .locator('tbody tr', { hasText: 'RetryAttemptsExhausted' });
    await batch.getByRole('button', { name: 'Records' }).click();
    await page.getByTestId('batch-detail').getByText('INSERT pk=bad').waitFor();
  });

  it('disables the mapping from the UI, and writes stop reaching the handler', async () => {
    await open('#/mappings');
    const row = page.getByTestId('mappings').locator('tbody tr', { hasText: 'onOrder' });
    await row.getByRole('button', { name: 'Disable' }).click();
    await stack.settled();
    await expect
      .poll(() => row.locator('[data-testid^="state-"]').innerText(), { timeout: 10_000 })
      .toBe('Disabled');
    const before = stack.invocations('onOrder').length;
    await put('after-disable');
    await stack.advance('5s');
    expect(stack.invocations('onOrder').length).toBe(before);
    await row.getByRole('button', { name: 'Enable', exact: true }).waitFor();
  });

  it('draws the flow from the table to the function and its destination', async () => {
    await open('#/flow');
    const flow = page.getByTestId('flow');
    await flow.locator('[data-node="table:Orders"]').waitFor();
    await flow.locator('[data-node="function:onOrder"]').waitFor();
    await flow.locator('[data-node^="destination:"]').waitFor();
    expect(await flow.locator('g.edge text', { hasText: 'mapping' }).first().textContent()).toMatch(
      /mapping [0-9a-f]{8}: [\d.]+\/s · \d+ waiting · disabled/,
    );
  });

  it('shows a TTL deletion in the TTL view and in the tail, by the DynamoDB service', async () => {
    const past = Math.floor(stack.clock.now() / 1000) - 60;
    await stack.client.send(
      new PutItemCommand({
        TableName: 'Orders',
        Item: { pk: { S: 'expired-1' }, expiresAt: { N: String(past) } },
      }),
    );
    await open('#/streams/Orders');
    await page.getByTestId('shards').waitFor();
    await stack.expireNow();
    const removal = page.getByTestId('tail').locator('li[data-event="REMOVE"]', { hasText: 'pk=expired-1' });
    expect(await removal.innerText()).toContain('by dynamodb.amazonaws.com (Service, TTL)');
    await open('#/ttl');
    await page.getByTestId('ttl-deletions').getByText('pk=expired-1').waitFor();
  });

  it('advances the virtual clock from the header', async () => {
    const before = stack.clock.now();
    await page.getByRole('button', { name: '+1 h' }).click();
    // Its last five minutes are sampled for the rate charts, 300 looks at every counter: on a
    // loaded machine that takes seconds of wall time.
    await expect.poll(() => stack.clock.now(), { timeout: 20_000 }).toBe(before + 3_600_000);
    await expect
      .poll(() => page.getByTestId('clock').innerText(), { timeout: 20_000 })
      .toContain(new Date(before + 3_600_000).toISOString().slice(0, 16).replace('T', ' '));
  });
});
