import { join } from 'node:path';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { changes$, inserts, unmarshallImages } from 'eddy/streams';
import { startStack, type TestStack } from 'eddy/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import config from '../eddy.config.js';

let stack: TestStack;
beforeEach(async () => {
  stack = await startStack(config, { baseDirectory: join(import.meta.dirname, '..') });
});
afterEach(() => stack.close());

it('logs one line per order change, in Lambda log format', async () => {
  const orders = stack.documentClient;
  await orders.send(new PutCommand({ TableName: 'Orders', Item: { orderId: 'o-1', status: 'placed' } }));
  await orders.send(new PutCommand({ TableName: 'Orders', Item: { orderId: 'o-1', status: 'shipped' } }));
  await orders.send(new DeleteCommand({ TableName: 'Orders', Key: { orderId: 'o-1' } }));
  await stack.settled();
  const lines = stack
    .invocations('onOrder')
    .flatMap((invocation) => invocation.logs)
    .filter((line) => line.includes('\tINFO\t'))
    .map((line) => line.split('\t')[3]);
  expect(lines).toEqual([
    'INSERT order o-1 (placed)',
    'MODIFY order o-1 (shipped)',
    'REMOVE order o-1 (shipped)',
  ]);
});

it('shows new orders to an in-process subscriber (the README streams example)', async () => {
  const seen: string[] = [];
  const subscription = changes$(stack.stack.changeLog, 'Orders')
    .pipe(inserts(), unmarshallImages<{ orderId: string; status: string }>())
    .subscribe(({ newImage }) => seen.push(`new order ${newImage?.orderId}`));
  await stack.documentClient.send(
    new PutCommand({ TableName: 'Orders', Item: { orderId: 'o-2', status: 'placed' } }),
  );
  await stack.documentClient.send(
    new PutCommand({ TableName: 'Orders', Item: { orderId: 'o-2', status: 'paid' } }),
  );
  await stack.settled();
  subscription.unsubscribe();
  expect(seen).toEqual(['new order o-2']);
});
