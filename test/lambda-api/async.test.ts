import {
  CreateFunctionCommand,
  DeleteFunctionEventInvokeConfigCommand,
  GetFunctionEventInvokeConfigCommand,
  InvokeCommand,
  PutFunctionEventInvokeConfigCommand,
  ResourceNotFoundException,
  UpdateFunctionConfigurationCommand,
} from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { functionInput, zipOf } from './helpers.js';

// Asynchronous invocations (InvocationType Event) on the test kit's virtual clock: retries wait
// one minute, then two ("Error handling and automatic retries in Lambda", developer guide).
let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const FAILURES = 'arn:aws:sqs:us-east-1:000000000000:order-failures';
const SUCCESSES = 'arn:aws:sqs:us-east-1:000000000000:order-successes';
const DLQ = 'arn:aws:sqs:us-east-1:000000000000:order-dlq';

/** A function that fails while `event.fail` is set. */
const SOURCE = `export const handler = async (event) => {
  if (event.fail) throw new Error('cannot ship ' + event.orderId);
  return { shipped: event.orderId };
};`;

async function start(): Promise<TestStack> {
  stack = await startStack({});
  await stack.lambda.send(new CreateFunctionCommand(functionInput('ship', zipOf(SOURCE))));
  return stack;
}

const invokeEvent = (payload: object) =>
  stack!.lambda.send(
    new InvokeCommand({
      FunctionName: 'ship',
      InvocationType: 'Event',
      Payload: Buffer.from(JSON.stringify(payload)),
    }),
  );
const messages = (arn: string) =>
  stack!.stack.destinations
    .queue(arn)
    .messages()
    .map((message) => JSON.parse(message.body));

describe('Invoke with InvocationType Event', () => {
  it('answers 202 at once and runs the function with the same request id', async () => {
    await start();
    const answer = await invokeEvent({ orderId: 'o-1' });
    expect(answer.StatusCode).toBe(202);
    expect(answer.Payload?.length ?? 0).toBe(0);
    await stack!.settled();
    const [invocation] = stack!.invocations('ship');
    expect(invocation).toMatchObject({
      requestId: answer.$metadata.requestId,
      status: 'ok',
      result: { shipped: 'o-1' },
    });
  });

  it('retries a failure twice, one then two minutes later, then sends the record on failure', async () => {
    const { lambda } = await start();
    const config = await lambda.send(
      new PutFunctionEventInvokeConfigCommand({
        FunctionName: 'ship',
        DestinationConfig: { OnFailure: { Destination: FAILURES }, OnSuccess: { Destination: SUCCESSES } },
      }),
    );
    expect(config).toMatchObject({
      FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:ship:$LATEST',
      DestinationConfig: { OnFailure: { Destination: FAILURES }, OnSuccess: { Destination: SUCCESSES } },
    });
    await lambda.send(
      new UpdateFunctionConfigurationCommand({ FunctionName: 'ship', DeadLetterConfig: { TargetArn: DLQ } }),
    );
    const answer = await invokeEvent({ orderId: 'o-2', fail: true });
    await stack!.settled();
    expect(stack!.invocations('ship')).toHaveLength(1);
    await stack!.advance('59s');
    expect(stack!.invocations('ship')).toHaveLength(1);
    await stack!.advance('1s');
    expect(stack!.invocations('ship')).toHaveLength(2);
    await stack!.advance('2m');
    expect(stack!.invocations('ship')).toHaveLength(3);
    expect(new Set(stack!.invocations('ship').map((invocation) => invocation.requestId))).toEqual(
      new Set([answer.$metadata.requestId]),
    );
    // The record's shape: "Capturing records of Lambda asynchronous invocations" (developer guide).
    expect(messages(FAILURES)).toEqual([
      {
        version: '1.0',
        timestamp: expect.stringMatching(/^2026-01-01T00:03:00\.\d{3}Z$/),
        requestContext: {
          requestId: answer.$metadata.requestId,
          functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:ship:$LATEST',
          condition: 'RetriesExhausted',
          approximateInvokeCount: 3,
        },
        requestPayload: { orderId: 'o-2', fail: true },
        responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
        responsePayload: expect.objectContaining({ errorType: 'Error', errorMessage: 'cannot ship o-2' }),
      },
    ]);
    // The dead-letter queue gets the event itself.
    expect(messages(DLQ)).toEqual([{ orderId: 'o-2', fail: true }]);
    await invokeEvent({ orderId: 'o-3' });
    await stack!.settled();
    expect(messages(SUCCESSES)).toEqual([
      expect.objectContaining({
        requestContext: expect.objectContaining({ condition: 'Success', approximateInvokeCount: 1 }),
        responseContext: { statusCode: 200, executedVersion: '$LATEST' },
        responsePayload: { shipped: 'o-3' },
      }),
    ]);
  });

  it('follows MaximumRetryAttempts and MaximumEventAgeInSeconds', async () => {
    const { lambda } = await start();
    await lambda.send(
      new PutFunctionEventInvokeConfigCommand({
        FunctionName: 'ship',
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: FAILURES } },
      }),
    );
    await invokeEvent({ orderId: 'o-4', fail: true });
    await stack!.advance('10m');
    expect(stack!.invocations('ship')).toHaveLength(1);
    expect(messages(FAILURES)[0].requestContext.condition).toBe('RetriesExhausted');
    await lambda.send(
      new PutFunctionEventInvokeConfigCommand({
        FunctionName: 'ship',
        MaximumEventAgeInSeconds: 60,
        DestinationConfig: { OnFailure: { Destination: FAILURES } },
      }),
    );
    await invokeEvent({ orderId: 'o-5', fail: true });
    await stack!.advance('5m');
    // Retried at 60 s (60 s old: not over the limit), then 180 s old when the second retry came
    // due: discarded without running.
    expect(stack!.invocations('ship')).toHaveLength(3);
    expect(messages(FAILURES)[1]).toMatchObject({
      requestContext: { condition: 'EventAgeExceeded', approximateInvokeCount: 2 },
    });
  });
});

describe('Get/DeleteFunctionEventInvokeConfig', () => {
  it('reads the config back, deletes it (204), then answers ResourceNotFoundException', async () => {
    const { lambda } = await start();
    await lambda.send(
      new PutFunctionEventInvokeConfigCommand({ FunctionName: 'ship', MaximumRetryAttempts: 1 }),
    );
    expect(
      await lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'ship' })),
    ).toMatchObject({
      MaximumRetryAttempts: 1,
      DestinationConfig: { OnSuccess: {}, OnFailure: {} },
    });
    const deleted = await lambda.send(new DeleteFunctionEventInvokeConfigCommand({ FunctionName: 'ship' }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    const gone = await lambda
      .send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'ship' }))
      .catch((error: Error) => error);
    expect(gone).toBeInstanceOf(ResourceNotFoundException);
    // moto's UnknownEventConfig message.
    expect((gone as Error).message).toBe(
      "The function arn:aws:lambda:us-east-1:000000000000:function:ship doesn't have an EventInvokeConfig",
    );
    const range = await lambda
      .send(new PutFunctionEventInvokeConfigCommand({ FunctionName: 'ship', MaximumRetryAttempts: 3 }))
      .catch((error: Error) => error);
    expect((range as Error).message).toBe(
      "1 validation error detected: Value '3' at 'maximumRetryAttempts' failed to satisfy constraint: Member must have value less than or equal to 2",
    );
  });
});
