import { join } from 'node:path';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';

// serverless.yml as it is, run by the test kit at stage `test`: tables, handlers, mapping, schedule.
let stack: TestStack;
beforeEach(async () => {
  stack = await startStack({
    template: 'serverless.yml',
    baseDirectory: join(import.meta.dirname, '..'),
    stage: 'test',
    // The handlers make their own SDK clients: serve the stack on a loopback port for them.
    endpoint: true,
  });
});
afterEach(() => stack.close());

it('keeps an audit trail of status changes, and counts it every hour', async () => {
  const orders = stack.documentClient;
  await orders.send(new PutCommand({ TableName: 'test-orders', Item: { orderId: 'o-1', status: 'placed' } }));
  await orders.send(
    new UpdateCommand({
      TableName: 'test-orders',
      Key: { orderId: 'o-1' },
      UpdateExpression: 'SET #s = :s',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'shipped' },
    }),
  );
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
  await stack.advance('1h');
  expect(stack.invocations('hourlyReport').map((invocation) => invocation.result)).toEqual([{ entries: 2 }]);
});
