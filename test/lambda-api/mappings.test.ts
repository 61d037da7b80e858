import { DeleteTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  GetEventSourceMappingCommand,
  InvalidParameterValueException,
  ListEventSourceMappingsCommand,
  ResourceConflictException,
  ResourceNotFoundException,
  UpdateEventSourceMappingCommand,
} from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { bindingUuid } from '../../infra/stack/mappingCheckpoints.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { functionInput, ORDERS, zipOf } from './helpers.js';

// Event source mappings through the Lambda API: the config's and the API's are the same objects
// of one mapping manager.
let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const RETURNS = {
  ...ORDERS,
  TableName: 'Returns',
};

async function start(): Promise<TestStack> {
  stack = await startStack(
    {
      tables: [ORDERS, RETURNS],
      functions: {
        onOrder: { handler: './unused.ts', events: [{ stream: { table: 'Orders', BatchSize: 5 } }] },
      },
    },
    { handlers: { onOrder: async () => undefined } },
  );
  return stack;
}

const streamOf = (stack: TestStack, table: string) => stack.engine.region().tables.get(table)!.stream!.arn;
const sendError = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: Error) => error);
const put = (stack: TestStack, table: string, orderId: string) =>
  stack.client.send(new PutItemCommand({ TableName: table, Item: { orderId: { S: orderId } } }));

describe("the config's mappings", () => {
  it('are listed with a UUID stable across starts, and can be disabled and enabled', async () => {
    const { lambda } = await start();
    const uuid = bindingUuid('onOrder', 'Orders');
    const { EventSourceMappings } = await lambda.send(new ListEventSourceMappingsCommand({}));
    expect(EventSourceMappings).toEqual([
      expect.objectContaining({
        UUID: uuid,
        EventSourceArn: streamOf(stack!, 'Orders'),
        FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:onOrder',
        BatchSize: 5,
        State: 'Enabled',
        StateTransitionReason: 'User action',
      }),
    ]);
    expect(
      (await lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, Enabled: false }))).State,
    ).toBe('Disabling');
    await put(stack!, 'Orders', 'o-1');
    await stack!.settled();
    expect(stack!.invocations('onOrder')).toHaveLength(0);
    await lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, Enabled: true, BatchSize: 50 }));
    await stack!.settled();
    expect(stack!.invocations('onOrder')).toHaveLength(1);
    expect(await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).toMatchObject({
      State: 'Enabled',
      BatchSize: 50,
      LastProcessingResult: 'OK',
    });
  });
});

describe('CreateEventSourceMapping', () => {
  it("answers Lambda's errors: an existing pair (409), an unknown stream, a source eddy does not run", async () => {
    const { lambda } = await start();
    const arn = streamOf(stack!, 'Orders');
    const duplicate = await sendError(
      lambda.send(
        new CreateEventSourceMappingCommand({
          FunctionName: 'onOrder',
          EventSourceArn: arn,
          StartingPosition: 'LATEST',
        }),
      ),
    );
    // Recorded message (LocalStack's AWS-validated snapshot), HTTP 409.
    expect(duplicate).toBeInstanceOf(ResourceConflictException);
    expect(duplicate?.message).toBe(
      `The event source arn (" ${arn} ") and function (" onOrder ") provided mapping already exists. Please update or delete the existing mapping with UUID ${bindingUuid('onOrder', 'Orders')}`,
    );
    const unknown = `${arn.slice(0, -3)}999`;
    const missing = await sendError(
      lambda.send(
        new CreateEventSourceMappingCommand({
          FunctionName: 'onOrder',
          EventSourceArn: unknown,
          StartingPosition: 'LATEST',
        }),
      ),
    );
    expect(missing).toBeInstanceOf(InvalidParameterValueException);
    expect(missing?.message).toBe(`Stream not found: ${unknown}`);
    const queue = await sendError(
      lambda.send(
        new CreateEventSourceMappingCommand({
          FunctionName: 'onOrder',
          EventSourceArn: 'arn:aws:sqs:us-east-1:000000000000:orders',
        }),
      ),
    );
    expect(queue?.message).toMatch(/^eddy runs event source mappings for DynamoDB streams only/);
    const noFunction = await sendError(
      lambda.send(
        new CreateEventSourceMappingCommand({
          FunctionName: 'ghost',
          EventSourceArn: streamOf(stack!, 'Returns'),
          StartingPosition: 'LATEST',
        }),
      ),
    );
    expect(noFunction).toBeInstanceOf(ResourceNotFoundException);
    expect(noFunction?.message).toBe(
      'Function not found: arn:aws:lambda:us-east-1:000000000000:function:ghost',
    );
    const batch = await sendError(
      lambda.send(
        new CreateEventSourceMappingCommand({
          FunctionName: 'onOrder',
          EventSourceArn: streamOf(stack!, 'Returns'),
          StartingPosition: 'LATEST',
          BatchSize: 0,
        }),
      ),
    );
    expect(batch).toMatchObject({
      name: 'ValidationException',
      message:
        "1 validation error detected: Value '0' at 'batchSize' failed to satisfy constraint: Member must have value greater than or equal to 1",
    });
  });
});

describe('ListEventSourceMappings', () => {
  it('filters by function and stream and pages with MaxItems and Marker', async () => {
    const { lambda } = await start();
    await lambda.send(
      new CreateFunctionCommand(functionInput('refunds', zipOf('export const handler = async () => {};'))),
    );
    const returns = streamOf(stack!, 'Returns');
    const a = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'refunds',
        EventSourceArn: returns,
        StartingPosition: 'LATEST',
      }),
    );
    const b = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'onOrder',
        EventSourceArn: returns,
        StartingPosition: 'LATEST',
      }),
    );
    const config = bindingUuid('onOrder', 'Orders');
    const byFunction = await lambda.send(new ListEventSourceMappingsCommand({ FunctionName: 'onOrder' }));
    expect(byFunction.EventSourceMappings?.map((mapping) => mapping.UUID)).toEqual([config, b.UUID]);
    const byStream = await lambda.send(new ListEventSourceMappingsCommand({ EventSourceArn: returns }));
    expect(byStream.EventSourceMappings?.map((mapping) => mapping.UUID)).toEqual([a.UUID, b.UUID]);
    const pages: (string | undefined)[][] = [];
    let marker: string | undefined;
    do {
      const page = await lambda.send(new ListEventSourceMappingsCommand({ MaxItems: 2, Marker: marker }));
      pages.push(page.EventSourceMappings!.map((mapping) => mapping.UUID));
      marker = page.NextMarker;
    } while (marker !== undefined);
    expect(pages).toEqual([[config, a.UUID], [b.UUID]]);
    const zero = await sendError(lambda.send(new ListEventSourceMappingsCommand({ MaxItems: 0 })));
    expect(zero?.message).toBe(
      "1 validation error detected: Value '0' at 'maxItems' failed to satisfy constraint: Member must have value greater than or equal to 1",
    );
  });
});

describe('a mapping whose stream is gone', () => {
  it('finishes the records the stream held, then turns Disabled with a PROBLEM result', async () => {
    const { lambda } = await start();
    const uuid = bindingUuid('onOrder', 'Orders');
    await put(stack!, 'Orders', 'o-1');
    await stack!.client.send(new DeleteTableCommand({ TableName: 'Orders' }));
    await stack!.settled();
    // The record written before the table went is still delivered (the stream keeps it 24 h).
    expect(stack!.invocations('onOrder')).toHaveLength(1);
    expect(await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).toMatchObject({
      State: 'Disabled',
      StateTransitionReason: 'Lambda initiated',
      LastProcessingResult: expect.stringMatching(/^PROBLEM: /),
    });
  });
});
