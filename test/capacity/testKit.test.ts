import { PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { EddyConfig, TableConfig } from '../../infra/config.js';
import { createLocalClient } from '../../infra/host/localClient.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { virtualClockRetries } from '../../infra/testing/virtualRetries.js';
import { rejection } from './capacityServer.js';

/**
 * Capacity in the test kit (docs/capacity.md §6, §8): per-table enforcement, injected throttles
 * and 500s that the SDK's retries (on the virtual clock) and event source mappings absorb.
 */
const orders: TableConfig = {
  TableName: 'Orders',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
};
const totals: TableConfig = {
  TableName: 'Totals',
  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
  ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
};

const put = (table: string, id: string) => new PutItemCommand({ TableName: table, Item: { id: { S: id } } });

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** A client on the stack that never retries, to see each answer. */
const noRetries = (testStack: TestStack) =>
  createLocalClient({ pipeline: testStack.stack.pipeline(), client: { maxAttempts: 1 } });

describe('fault injection', () => {
  it('throttles the next requests on a table as its billing mode does, and the SDK retries through them', async () => {
    stack = await startStack({ tables: [orders] });
    stack.throttleNext('Orders', 1);
    const error = await rejection(noRetries(stack).send(put('Orders', 'a')));
    expect(error.name).toBe('ThrottlingException');
    expect(error.throttlingReasons).toEqual([
      {
        reason: 'TableWriteKeyRangeThroughputExceeded',
        resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders',
      },
    ]);

    stack.throttleNext('Orders', 2);
    await stack.client.send(put('Orders', 'b'));
    expect(stack.capacityMetrics()).toMatchObject([{ table: 'Orders', writeThrottleEvents: 3 }]);
  });

  it('answers InternalServerError (HTTP 500) for the next requests on a table', async () => {
    stack = await startStack({ tables: [orders] });
    stack.failNext('Orders', 'InternalServerError', 1);
    const error = await rejection(noRetries(stack).send(put('Orders', 'a')));
    expect(error.name).toBe('InternalServerError');
    expect((error.$metadata as { httpStatusCode: number }).httpStatusCode).toBe(500);
    await noRetries(stack).send(put('Orders', 'a'));
  });

  it("injects the config's faults at start and again on reset", async () => {
    const config: EddyConfig = {
      tables: [orders],
      capacity: { faults: [{ table: 'Orders', fault: 'throttle', times: 1 }] },
    };
    stack = await startStack(config);
    expect((await rejection(noRetries(stack).send(put('Orders', 'a')))).name).toBe('ThrottlingException');
    await noRetries(stack).send(put('Orders', 'a'));
    await stack.reset();
    expect((await rejection(noRetries(stack).send(put('Orders', 'a')))).name).toBe('ThrottlingException');
  });
});

describe('a stream handler writing into a table short of capacity', () => {
  it('finishes every record through the SDK retries and the mapping retries, in order', async () => {
    const written: string[] = [];
    stack = await startStack(
      {
        tables: [orders, totals],
        functions: {
          onOrder: {
            handler: 'inline',
            // The handler's SDK retries move the virtual clock (virtualClockRetries): with Lambda's
            // default 3 s timeout a batch could time out mid-way and wait for the mapping's retry.
            timeout: 900,
            events: [{ stream: { table: 'Orders', StartingPosition: 'TRIM_HORIZON', BatchSize: 10 } }],
          },
        },
      },
      {
        capacity: { mode: 'enforce', tables: ['Totals'], burstSeconds: 0 },
        handlers: {
          onOrder: async (event: DynamoDBStreamEvent) => {
            for (const record of event.Records) {
              const id = record.dynamodb!.NewImage!.step!.S!;
              await stack!.client.send(put('Totals', id));
              written.push(id);
            }
          },
        },
      },
    );
    // Six changes of one item: DynamoDB Streams orders records per item (one shard holds them).
    const ids = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'];
    for (const step of ids)
      await stack.client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { id: { S: 'cart' }, step: { S: step } } }),
      );

    await stack.advance('1m');

    // Each record's first successful write comes after the previous record's.
    expect([...new Set(written)]).toEqual(ids);
    const stored = await stack.client.send(new ScanCommand({ TableName: 'Totals' }));
    expect(stored.Items?.map((item) => item.id!.S).sort()).toEqual(ids);
    const [figures] = stack.capacityMetrics();
    expect(figures).toMatchObject({ table: 'Totals', consumedWriteCapacityUnits: written.length });
    expect(figures!.writeThrottleEvents).toBeGreaterThan(0);
  });
});

describe("a handler's own SDK retries", () => {
  it('count against its timeout, as on AWS: the invocation times out and the mapping retries the batch', async () => {
    // On AWS a function's timeout is the time its invocation runs, whatever it waits on, the SDK's
    // backoff between retries included: "The amount of time (in seconds) that Lambda allows a
    // function to run before stopping it"
    // (https://docs.aws.amazon.com/lambda/latest/api/API_CreateFunction.html#lambda-CreateFunction-request-Timeout).
    // Here the backoff moves the virtual clock, on which the timeout runs too.
    let handlerClient: ReturnType<typeof noRetries> | undefined;
    stack = await startStack(
      {
        tables: [orders, totals],
        functions: {
          onOrder: {
            handler: 'inline',
            timeout: 3,
            events: [{ stream: { table: 'Orders', StartingPosition: 'TRIM_HORIZON', BatchSize: 1 } }],
          },
        },
      },
      {
        handlers: {
          onOrder: async (event: DynamoDBStreamEvent) => {
            const id = event.Records[0]!.dynamodb!.NewImage!.id!.S!;
            await handlerClient!.send(put('Totals', id));
          },
        },
      },
    );
    // The SDK's standard strategy with 50 attempts: 40 throttles in a row back off far beyond 3 s
    // (each wait is random × min(1 s × 2^attempt, 20 s); the first seven under 3 s in total is
    // a chance below 1e-5).
    handlerClient = createLocalClient({
      pipeline: stack.stack.pipeline(),
      client: { retryStrategy: virtualClockRetries(stack.clock, { maxAttempts: 50 }) },
    });
    stack.throttleNext('Totals', 40);
    await stack.client.send(put('Orders', 'o-1'));
    await stack.advance('10m');

    const [first, ...later] = stack.invocations('onOrder');
    expect(first?.error).toEqual({
      errorType: 'Sandbox.Timedout',
      errorMessage: 'Task timed out after 3.00 seconds',
    });
    // Retried by the mapping once the throttles were spent, the record got through.
    expect(later.at(-1)?.status).toBe('ok');
    const stored = await stack.client.send(new ScanCommand({ TableName: 'Totals' }));
    expect(stored.Items?.map((item) => item.id!.S)).toEqual(['o-1']);
    handlerClient.destroy();
  });
});

describe('enforceCapacity', () => {
  it('turns enforcement on for the named table until reset', async () => {
    stack = await startStack({ tables: [orders, totals] }, { capacity: { burstSeconds: 0 } });
    await stack.client.send(put('Totals', 'a'));
    await noRetries(stack).send(put('Totals', 'b'));

    stack.enforceCapacity('Totals');
    await noRetries(stack).send(put('Totals', 'c'));
    expect((await rejection(noRetries(stack).send(put('Totals', 'd')))).name).toBe(
      'ProvisionedThroughputExceededException',
    );
    await noRetries(stack).send(put('Orders', 'not-enforced'));

    await stack.reset();
    await noRetries(stack).send(put('Totals', 'e'));
    await noRetries(stack).send(put('Totals', 'f'));
  });
});
