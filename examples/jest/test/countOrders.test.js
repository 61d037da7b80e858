import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startStack } from 'eddy/testing';
import config from '../eddy.config.js';

// One stack for the file, reset before each test: a reset takes about a millisecond.
let stack;
beforeAll(async () => {
  const baseDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
  // endpoint: the handler makes its own SDK client, which reaches the stack over loopback.
  stack = await startStack(config, { baseDirectory, endpoint: true });
});
beforeEach(() => stack.reset());
afterAll(() => stack.close());

const placeOrder = (id, customer) =>
  stack.documentClient.send(
    new PutCommand({
      TableName: 'Orders',
      Item: { pk: `ORDER#${id}`, customer },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
const countOf = async (customer) =>
  (await stack.documentClient.send(new GetCommand({ TableName: 'Orders', Key: { pk: `COUNT#${customer}` } })))
    .Item?.orders;

describe('countOrders', () => {
  it("counts each customer's orders from the stream", async () => {
    await placeOrder('1', 'ada');
    await placeOrder('2', 'ada');
    await placeOrder('3', 'grace');
    await stack.settled();
    expect(await countOf('ada')).toBe(2);
    expect(await countOf('grace')).toBe(1);
  });

  it('starts from an empty table after the reset', async () => {
    await placeOrder('1', 'ada');
    await stack.settled();
    expect(await countOf('ada')).toBe(1);
  });

  it("answers DynamoDB's own errors, as the SDK's classes", async () => {
    await placeOrder('1', 'ada');
    await expect(placeOrder('1', 'ada')).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });
});
