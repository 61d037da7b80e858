import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failedPaymentsReachTheDestination,
  placedOrdersAreFiltered,
  type ShopNames,
  theScheduleRuns,
} from './shopApp.js';

// The SAM fixture (test/fixtures/templates/sam): the shop, with Globals, parameters, a condition,
// a mapping, an esbuild-built TypeScript handler, a Python function and resources eddy ignores.
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'templates', 'sam');
const NAMES: ShopNames = {
  ordersTable: 'test-orders',
  paymentsTable: 'Payments',
  onPlacedOrder: 'OnPlacedOrder',
  onPayment: 'OnPayment',
  nightly: 'test-nightly',
};

let directory: string;
let stack: TestStack;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-sam-'));
  cpSync(FIXTURE, directory, { recursive: true });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('a SAM template run by startStack({ template })', () => {
  beforeAll(async () => {
    stack = await startStack({
      template: 'template.yaml',
      baseDirectory: directory,
      parameters: { Env: 'test' },
    });
  });
  afterAll(() => stack.close());

  it('runs the filtered stream handler on INSERTs of placed orders only', async () => {
    await placedOrdersAreFiltered(stack, NAMES);
  });

  it('retries a partial batch failure and sends the rest to the on-failure destination', async () => {
    await failedPaymentsReachTheDestination(stack, NAMES);
  });

  it('runs the scheduled function at its rate', async () => {
    await theScheduleRuns(stack, NAMES);
  });

  it('creates the tables as the template declares them', async () => {
    const orders = (await stack.client.send(new DescribeTableCommand({ TableName: 'test-orders' }))).Table!;
    expect(orders.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(orders.DeletionProtectionEnabled).toBe(false);
    const payments = (await stack.client.send(new DescribeTableCommand({ TableName: 'Payments' }))).Table!;
    expect(payments.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(['byStatus']);
    expect(payments.ProvisionedThroughput?.ReadCapacityUnits).toBe(5);
  });

  it('keeps the Python function with its mapping disabled', () => {
    const mappings = stack.stack.mappings.list({ FunctionName: 'LegacyAudit' }).EventSourceMappings;
    expect(mappings.map((mapping) => mapping.State)).toEqual(['Disabled']);
  });
});

describe('a SAM function whose esbuild bundle does not build', () => {
  let broken: string;
  beforeAll(() => {
    broken = mkdtempSync(join(tmpdir(), 'eddy-sam-broken-'));
    cpSync(FIXTURE, broken, { recursive: true });
    writeFileSync(join(broken, 'src', 'payments.ts'), "export { handler } from './gone.js';\n");
  });
  afterAll(() => rmSync(broken, { recursive: true, force: true }));
  const options = () => ({ template: 'template.yaml', baseDirectory: broken, parameters: { Env: 'test' } });

  it('stops the start, naming the function', async () => {
    await expect(startStack(options())).rejects.toThrow(
      /OnPayment.*bundling .*payments\.ts failed: .*gone\.js/s,
    );
  });

  it("waits for a fix under --watch (missingHandlers: 'wait'), its mapping held, the others running", async () => {
    const waiting = await startStack({ ...options(), missingHandlers: 'wait' });
    try {
      expect([...waiting.stack.waiting.keys()]).toEqual(['OnPayment']);
      const payments = waiting.stack.mappings.list({ FunctionName: 'OnPayment' }).EventSourceMappings;
      expect(payments.map((mapping) => mapping.State)).toEqual(['Disabled']);
      await placedOrdersAreFiltered(waiting, NAMES);
    } finally {
      await waiting.close();
    }
  });
});
