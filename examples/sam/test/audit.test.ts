import { join } from 'node:path';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';

// The SAM template as it is, run by the test kit: tables, the esbuild-built handler, its mapping.
let stack: TestStack;
beforeEach(async () => {
  stack = await startStack({
    template: 'template.yaml',
    baseDirectory: join(import.meta.dirname, '..'),
    parameters: { Stage: 'test' },
    // The handler makes its own SDK client: serve the stack on a loopback port for it.
    endpoint: true,
  });
});
afterEach(() => stack.close());

it('keeps an audit trail of status changes', async () => {
  const orders = stack.documentClient;
  await orders.send(new PutCommand({ TableName: 'test-orders', Item: { orderId: 'o-1', status: 'placed' } }));
  const setStatus = (status: string) =>
    orders.send(
      new UpdateCommand({
        TableName: 'test-orders',
        Key: { orderId: 'o-1' },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status },
      }),
    );
  await setStatus('placed'); // no change: no entry
  await setStatus('shipped');
  await stack.advance('2s'); // the 1 s batching window closes
  const { Items } = await orders.send(
    new QueryCommand({
      TableName: 'AuditLog',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'ORDER#o-1' },
    }),
  );
  expect(Items?.map((item) => [item.previous, item.status])).toEqual([
    [null, 'placed'],
    ['placed', 'shipped'],
  ]);
});
