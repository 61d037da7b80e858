import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { App } from 'aws-cdk-lib';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InventoryStack } from '../inventory.js';

// The CDK app synthesized here (aws-cdk-lib, as `cdk synth` does), its cloud assembly run by the
// test kit: the tables, the NodejsFunction bundles as CDK built them, the mapping's filter, the rule.
let directory: string;
let stack: TestStack;
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-inventory-'));
  // CloudFormation validation at synth takes seconds; cfn-lint checks templates elsewhere.
  const app = new App({ outdir: join(directory, 'cdk.out'), builtinCloudFormationValidation: false });
  new InventoryStack(app, 'Inventory');
  app.synth();
  stack = await startStack({ template: join(directory, 'cdk.out'), endpoint: true });
});
afterAll(async () => {
  await stack.close();
  rmSync(directory, { recursive: true, force: true });
});

it('reorders an item when its stock falls below the threshold, and only then', async () => {
  const setStock = (count: number) =>
    stack.documentClient.send(
      new PutCommand({
        TableName: 'stock',
        Item: { sku: 'tea', count, threshold: 5, belowThreshold: count < 5 },
      }),
    );
  await setStock(20);
  await setStock(8);
  await setStock(3);
  await stack.settled();
  expect(stack.invocations('onLowStock')).toHaveLength(1);
  const { Item } = await stack.documentClient.send(
    new GetCommand({ TableName: 'reorders', Key: { sku: 'tea' } }),
  );
  expect(Item).toEqual({ sku: 'tea', quantity: 10 });
});

it('runs the hourly rule', async () => {
  await stack.advance('1h');
  expect(stack.invocations('restock').map((invocation) => invocation.result)).toEqual([
    '2026-01-01T01:00:00Z',
  ]);
});
