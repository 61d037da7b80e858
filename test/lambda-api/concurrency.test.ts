import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  DeleteFunctionCommand,
  DeleteFunctionConcurrencyCommand,
  GetFunctionCommand,
  GetFunctionConcurrencyCommand,
  InvalidParameterValueException,
  InvokeCommand,
  PutFunctionConcurrencyCommand,
  PutFunctionEventInvokeConfigCommand,
  ResourceNotFoundException,
  TooManyRequestsException,
} from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { functionInput, httpLambdaClient, ORDERS, zipOf } from './helpers.js';

// Reserved concurrency (docs/lambda-api.md §8): PutFunctionConcurrency and its effects on Invoke
// (429 TooManyRequestsException), asynchronous events (back to the queue) and event source
// mappings (the batch waits, in order, without spending retries).
let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const SOURCE = 'export const handler = async (event) => ({ got: event.orderId ?? null });';
const FAILURES = 'arn:aws:sqs:us-east-1:000000000000:ship-failures';
const sendError = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: Error) => error);

async function start(): Promise<TestStack> {
  stack = await startStack({ tables: [ORDERS] }, { endpoint: true });
  await stack.lambda.send(new CreateFunctionCommand(functionInput('ship', zipOf(SOURCE))));
  return stack;
}

describe('Put/Get/DeleteFunctionConcurrency', () => {
  it('set, read and remove the reserved concurrency, shown by GetFunction as Concurrency', async () => {
    const lambda = httpLambdaClient((await start()).endpoint!);
    expect(await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: 'ship' }))).not.toHaveProperty(
      'ReservedConcurrentExecutions',
    );
    expect(await lambda.send(new GetFunctionCommand({ FunctionName: 'ship' }))).not.toHaveProperty(
      'Concurrency',
    );
    const put = await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 3 }),
    );
    expect(put.ReservedConcurrentExecutions).toBe(3);
    expect(
      (await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: 'ship' })))
        .ReservedConcurrentExecutions,
    ).toBe(3);
    expect((await lambda.send(new GetFunctionCommand({ FunctionName: 'ship' }))).Concurrency).toEqual({
      ReservedConcurrentExecutions: 3,
    });
    const deleted = await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'ship' }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    expect(await lambda.send(new GetFunctionCommand({ FunctionName: 'ship' }))).not.toHaveProperty(
      'Concurrency',
    );
  });

  it("answers Lambda's errors: a negative value, the account's unreserved minimum, an unknown function", async () => {
    const lambda = httpLambdaClient((await start()).endpoint!);
    // The service model: ReservedConcurrentExecutions min 0.
    const negative = await sendError(
      lambda.send(
        new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: -1 }),
      ),
    );
    expect(negative).toMatchObject({
      name: 'ValidationException',
      message:
        "1 validation error detected: Value '-1' at 'reservedConcurrentExecutions' failed to satisfy constraint: Member must have value greater than or equal to 0",
    });
    // 1000 concurrent executions per account, 100 of them never reserved (Lambda quotas); the
    // message as moto records it.
    const tooMany = await sendError(
      lambda.send(
        new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 901 }),
      ),
    );
    expect(tooMany).toBeInstanceOf(InvalidParameterValueException);
    expect((tooMany as Error).message).toBe(
      "Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below its minimum value of [100].",
    );
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 900 }),
    );
    const missing = await sendError(
      lambda.send(
        new PutFunctionConcurrencyCommand({ FunctionName: 'nope', ReservedConcurrentExecutions: 1 }),
      ),
    );
    expect(missing).toBeInstanceOf(ResourceNotFoundException);
  });

  it('goes with the function: a function deleted and created again has no reserved concurrency', async () => {
    const { lambda } = await start();
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 0 }),
    );
    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'ship' }));
    await lambda.send(new CreateFunctionCommand(functionInput('ship', zipOf(SOURCE))));
    const answer = await lambda.send(new InvokeCommand({ FunctionName: 'ship', Payload: Buffer.from('{}') }));
    expect(answer.StatusCode).toBe(200);
  });
});

describe('Invoke over the reserved concurrency', () => {
  it('answers 429 TooManyRequestsException with the throttle Reason, and runs nothing (reserved 0)', async () => {
    const lambda = httpLambdaClient((await start()).endpoint!);
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 0 }),
    );
    const error = await sendError(
      lambda.send(new InvokeCommand({ FunctionName: 'ship', Payload: Buffer.from('{"orderId":"o-1"}') })),
    );
    expect(error).toBeInstanceOf(TooManyRequestsException);
    expect(error).toMatchObject({
      message: 'Rate Exceeded.',
      Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded',
      Type: 'User',
      $metadata: { httpStatusCode: 429 },
    });
    expect(stack!.invocations('ship')).toHaveLength(0);
  });

  it('throttles the invocation that would run beyond the limit while the others run (reserved 1)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The in-process client's retries of the 429 move the virtual clock (virtualClockRetries): with
    // Lambda's default 3 s timeout the held invocation could time out and free its slot meanwhile.
    stack = await startStack(
      { functions: { slow: { handler: './unused.ts', timeout: 900 } } },
      { handlers: { slow: async () => gate.then(() => 'done') } },
    );
    const { lambda } = stack;
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'slow', ReservedConcurrentExecutions: 1 }),
    );
    const first = lambda.send(new InvokeCommand({ FunctionName: 'slow' }));
    await expect.poll(() => stack!.stack.functions.concurrency.inFlight('slow')).toBe(1);
    const second = await sendError(lambda.send(new InvokeCommand({ FunctionName: 'slow' })));
    expect(second).toBeInstanceOf(TooManyRequestsException);
    release();
    expect(Buffer.from((await first).Payload!).toString()).toBe('"done"');
    // The slot is free again.
    expect((await lambda.send(new InvokeCommand({ FunctionName: 'slow' }))).StatusCode).toBe(200);
  });

  it('is what the AWS CLI reports for a throttled invoke', async () => {
    const endpoint = (await start()).endpoint!;
    await stack!.lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 0 }),
    );
    const run = await promisify(execFile)(
      'aws',
      ['lambda', 'invoke', '--function-name', 'ship', '--endpoint-url', endpoint, '/dev/null'],
      {
        env: {
          ...process.env,
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
          AWS_DEFAULT_REGION: 'us-east-1',
          AWS_MAX_ATTEMPTS: '1',
          AWS_RETRY_MODE: 'standard',
        },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(run).toMatchObject({ code: 255 });
    expect((run as { stderr: string }).stderr).toContain(
      'An error occurred (TooManyRequestsException) when calling the Invoke operation',
    );
    expect((run as { stderr: string }).stderr).toContain('Rate Exceeded.');
  });
});

describe('asynchronous invocations of a throttled function', () => {
  it('go back to the queue, 1 s then doubling, without spending attempts, and run once it is free', async () => {
    const { lambda } = await start();
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 0 }),
    );
    await lambda.send(
      new InvokeCommand({
        FunctionName: 'ship',
        InvocationType: 'Event',
        Payload: Buffer.from('{"orderId":"o-1"}'),
      }),
    );
    await stack!.advance('10s');
    expect(stack!.invocations('ship')).toHaveLength(0);
    await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'ship' }));
    // Throttled at 0, 1, 3, 7 s; the next retry is 8 s after the last, at 15 s.
    await stack!.advance('4s');
    expect(stack!.invocations('ship')).toHaveLength(0);
    await stack!.advance('1s');
    expect(stack!.invocations('ship').map((entry) => entry.result)).toEqual([{ got: 'o-1' }]);
  });

  it('end on failure with EventAgeExceeded when the function stays throttled past their maximum age', async () => {
    const { lambda } = await start();
    await lambda.send(
      new PutFunctionEventInvokeConfigCommand({
        FunctionName: 'ship',
        MaximumEventAgeInSeconds: 60,
        DestinationConfig: { OnFailure: { Destination: FAILURES } },
      }),
    );
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 0 }),
    );
    await lambda.send(
      new InvokeCommand({
        FunctionName: 'ship',
        InvocationType: 'Event',
        Payload: Buffer.from('{"orderId":"o-2"}'),
      }),
    );
    await stack!.advance('2m');
    const records = stack!.stack.destinations
      .queue(FAILURES)
      .messages()
      .map((message) => JSON.parse(message.body));
    expect(records).toEqual([
      expect.objectContaining({
        requestContext: expect.objectContaining({ condition: 'EventAgeExceeded', approximateInvokeCount: 0 }),
        requestPayload: { orderId: 'o-2' },
      }),
    ]);
    expect(stack!.invocations('ship')).toHaveLength(0);
  });
});

describe('an event source mapping whose function is throttled', () => {
  it('retries the batch in order without spending retry attempts, until the function runs again', async () => {
    const { lambda, client } = await start();
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'ship', ReservedConcurrentExecutions: 0 }),
    );
    const streamArn = stack!.engine.region().tables.get('Orders')!.stream!.arn;
    const { UUID } = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'ship',
        EventSourceArn: streamArn,
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 2,
        // No retries for function errors: throttles are not attempts
        // (docs/streams-and-lambda.md §2.3.4).
        MaximumRetryAttempts: 0,
      }),
    );
    // One item's changes: one shard, in order (records of different keys may interleave).
    for (const status of ['placed', 'paid', 'shipped'])
      await client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: 'o-1' }, status: { S: status } } }),
      );
    await stack!.advance('30s');
    expect(stack!.invocations('ship')).toHaveLength(0);
    expect(stack!.stack.mappings.inspect(UUID!).throttles).toBeGreaterThan(3);
    await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'ship' }));
    await stack!.advance('2s');
    const seen = stack!
      .invocations('ship')
      .flatMap((entry) =>
        (entry.event as { Records: { dynamodb: { NewImage: { status: { S: string } } } }[] }).Records.map(
          (record) => record.dynamodb.NewImage.status.S,
        ),
      );
    expect(seen).toEqual(['placed', 'paid', 'shipped']);
    expect(stack!.stack.mappings.inspect(UUID!)).toMatchObject({ recordsFailed: 0, invokeErrors: 0 });
  });
});
