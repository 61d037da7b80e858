import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { TestStack } from 'eddy/testing';
import { expect } from 'vitest';

/**
 * The shop every template fixture describes (test/fixtures/templates/): two tables, a filtered
 * stream handler, a handler with partial batch failures and an on-failure destination, and a
 * scheduled function. Each format's test runs these against the stack its loader made, so the
 * formats are held to the same behaviour.
 */
export interface ShopNames {
  readonly ordersTable: string;
  readonly paymentsTable: string;
  readonly onPlacedOrder: string;
  readonly onPayment: string;
  readonly nightly: string;
}

interface StreamEvent {
  readonly Records: readonly {
    readonly eventName: string;
    readonly dynamodb: {
      readonly NewImage?: Record<string, { S?: string; N?: string }>;
      readonly Keys: Record<string, { S?: string }>;
    };
  }[];
}

const recordsOf = (stack: TestStack, fn: string) =>
  stack.invocations(fn).map((invocation) => (invocation.event as StreamEvent).Records);

/** Only INSERTs of placed orders reach the filtered handler, with the table name from its environment. */
export async function placedOrdersAreFiltered(stack: TestStack, names: ShopNames): Promise<void> {
  const put = (orderId: string, status: string) =>
    stack.client.send(
      new PutItemCommand({
        TableName: names.ordersTable,
        Item: { orderId: { S: orderId }, status: { S: status } },
      }),
    );
  await put('o-1', 'placed');
  await put('o-2', 'cart');
  await stack.client.send(
    new UpdateItemCommand({
      TableName: names.ordersTable,
      Key: { orderId: { S: 'o-1' } },
      UpdateExpression: 'SET #s = :s',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': { S: 'shipped' } },
    }),
  );
  await put('o-3', 'placed');
  await stack.settled();
  const batches = recordsOf(stack, names.onPlacedOrder);
  const records = batches.flat();
  // o-1 and o-3 are different item keys, so possibly different shards: DynamoDB Streams orders
  // records per item only (docs/streams-and-lambda.md §1.3.8), and so may their batches arrive.
  expect(records.map((record) => record.dynamodb.NewImage?.orderId?.S).sort()).toEqual(['o-1', 'o-3']);
  expect(records.every((record) => record.eventName === 'INSERT')).toBe(true);
  const logs = stack.invocations(names.onPlacedOrder).flatMap((invocation) => invocation.logs);
  expect(logs.some((line) => line.includes(`placed o-1 in ${names.ordersTable}`))).toBe(true);
}

/**
 * Three changes of one payment (one item key: one shard), gathered into one batch by the 1 s
 * batching window: the handler reports the negative amount, the mapping retries from that record
 * once (MaximumRetryAttempts 1), then sends what is left to the on-failure destination and moves on.
 */
export async function failedPaymentsReachTheDestination(stack: TestStack, names: ShopNames): Promise<void> {
  const amounts = async (...values: number[]) => {
    for (const amount of values)
      await stack.client.send(
        new PutItemCommand({
          TableName: names.paymentsTable,
          Item: {
            pk: { S: 'acct-1' },
            sk: { S: 'pay-1' },
            amount: { N: String(amount) },
            status: { S: 'new' },
          },
        }),
      );
  };
  await amounts(10, -5, 7);
  await stack.advance('1m'); // the window closes; the retry backs off on the virtual clock
  const batches = () =>
    recordsOf(stack, names.onPayment).map((records) =>
      records.map((record) => record.dynamodb.NewImage?.amount?.N),
    );
  expect(batches()).toEqual([
    ['10', '-5', '7'],
    ['-5', '7'],
  ]);
  const failures = stack.destination(names.onPayment);
  expect(failures).toHaveLength(1);
  expect(failures[0]!.requestContext.condition).toBe('RetryAttemptsExhausted');
  expect(failures[0]!.DDBStreamBatchInfo.batchSize).toBe(2);
  // Later changes are processed: the mapping moved past the failed batch.
  await amounts(3);
  await stack.advance('2s');
  expect(batches().at(-1)).toEqual(['3']);
}

/** The scheduled function runs every 5 minutes with EventBridge's Scheduled Event. */
export async function theScheduleRuns(stack: TestStack, names: ShopNames): Promise<void> {
  expect(stack.invocations(names.nightly)).toHaveLength(0);
  await stack.advance('5m');
  await stack.advance('5m');
  const events = stack
    .invocations(names.nightly)
    .map((invocation) => invocation.event as Record<string, unknown>);
  expect(events.map((event) => event['detail-type'])).toEqual(['Scheduled Event', 'Scheduled Event']);
  const times = events.map((event) => Date.parse(event.time as string));
  expect(times[1]! - times[0]!).toBe(5 * 60_000);
}
