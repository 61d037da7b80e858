import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  DeleteEventSourceMappingCommand,
  GetEventSourceMappingCommand,
  ListEventSourceMappingsCommand,
  ResourceConflictException,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateEventSourceMappingCommand,
} from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { functionInput, httpLambdaClient, ORDERS, zipOf } from './helpers.js';

// A mapping between states (Creating, Updating, Enabling, Disabling, Deleting) refuses updates and
// deletes with ResourceInUseException, as Lambda does (docs/lambda-api.md §4.7). The transition
// lasts `mappingTransitionMs` on the test kit's virtual clock.
let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const sendError = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: Error) => error);
const IN_USE_UPDATE = 'Cannot update the event source mapping because it is in use.';

async function start(mappingTransitionMs: number) {
  stack = await startStack({ tables: [ORDERS] }, { endpoint: true, mappingTransitionMs });
  const lambda = httpLambdaClient(stack.endpoint!);
  await lambda.send(
    new CreateFunctionCommand(functionInput('audit', zipOf('export const handler = async () => null;'))),
  );
  const streamArn = stack.engine.region().tables.get('Orders')!.stream!.arn;
  const created = await lambda.send(
    new CreateEventSourceMappingCommand({
      FunctionName: 'audit',
      EventSourceArn: streamArn,
      StartingPosition: 'LATEST',
    }),
  );
  return { lambda, uuid: created.UUID!, streamArn, created };
}

describe('a mapping in transition', () => {
  it('reads Creating until the moment passes; an update meanwhile is ResourceInUseException (400)', async () => {
    const { lambda, uuid, created } = await start(2000);
    expect(created.State).toBe('Creating');
    expect((await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Creating');
    const error = await sendError(
      lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, BatchSize: 5 })),
    );
    expect(error).toBeInstanceOf(ResourceInUseException);
    // The service model spells this exception's member `Message`, 400 (botocore's lambda model).
    expect(error).toMatchObject({ message: IN_USE_UPDATE, Type: 'User', $metadata: { httpStatusCode: 400 } });
    const deleting = await sendError(lambda.send(new DeleteEventSourceMappingCommand({ UUID: uuid })));
    expect(deleting).toMatchObject({
      name: 'ResourceInUseException',
      message: 'Cannot delete the event source mapping because it is in use.',
    });
    // It runs meanwhile: a write is delivered while it reads Creating.
    await stack!.client.send(new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: 'o-1' } } }));
    await stack!.settled();
    expect(stack!.invocations('audit')).toHaveLength(1);
    await stack!.advance('2s');
    expect((await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Enabled');
    expect((await lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, BatchSize: 5 }))).State).toBe(
      'Updating',
    );
  });

  it('reads Disabling, then Disabled; Enabling, then Enabled; each refusing changes meanwhile', async () => {
    const { lambda, uuid } = await start(1000);
    await stack!.advance('1s');
    expect(
      (await lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, Enabled: false }))).State,
    ).toBe('Disabling');
    const listed = await lambda.send(new ListEventSourceMappingsCommand({}));
    expect(listed.EventSourceMappings?.map((mapping) => mapping.State)).toEqual(['Disabling']);
    expect(
      await sendError(lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, Enabled: true }))),
    ).toMatchObject({ name: 'ResourceInUseException', message: IN_USE_UPDATE });
    await stack!.advance('1s');
    expect((await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Disabled');
    expect(
      (await lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, Enabled: true }))).State,
    ).toBe('Enabling');
    expect((await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Enabling');
    await stack!.advance('1s');
    expect((await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Enabled');
  });

  it('is listed Deleting until the deletion is done, and its stream and function pair is still taken', async () => {
    const { lambda, uuid, streamArn } = await start(1000);
    await stack!.advance('1s');
    expect((await lambda.send(new DeleteEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Deleting');
    expect((await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Deleting');
    expect(
      (await lambda.send(new ListEventSourceMappingsCommand({}))).EventSourceMappings?.map((m) => m.State),
    ).toEqual(['Deleting']);
    expect(await sendError(lambda.send(new DeleteEventSourceMappingCommand({ UUID: uuid })))).toBeInstanceOf(
      ResourceInUseException,
    );
    expect(
      await sendError(
        lambda.send(
          new CreateEventSourceMappingCommand({
            FunctionName: 'audit',
            EventSourceArn: streamArn,
            StartingPosition: 'LATEST',
          }),
        ),
      ),
    ).toBeInstanceOf(ResourceConflictException);
    // Stopped at once: a write now is not delivered.
    await stack!.client.send(new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: 'o-2' } } }));
    await stack!.advance('1s');
    expect(stack!.invocations('audit')).toHaveLength(0);
    expect(await sendError(lambda.send(new GetEventSourceMappingCommand({ UUID: uuid })))).toBeInstanceOf(
      ResourceNotFoundException,
    );
    expect((await lambda.send(new ListEventSourceMappingsCommand({}))).EventSourceMappings).toEqual([]);
  });

  it('is instant in the test kit by default', async () => {
    stack = await startStack({ tables: [ORDERS] });
    const { lambda } = stack;
    await lambda.send(
      new CreateFunctionCommand(functionInput('audit', zipOf('export const handler = async () => null;'))),
    );
    const streamArn = stack.engine.region().tables.get('Orders')!.stream!.arn;
    const { UUID } = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'audit',
        EventSourceArn: streamArn,
        StartingPosition: 'LATEST',
      }),
    );
    await lambda.send(new UpdateEventSourceMappingCommand({ UUID, Enabled: false }));
    await lambda.send(new UpdateEventSourceMappingCommand({ UUID, Enabled: true }));
    await lambda.send(new DeleteEventSourceMappingCommand({ UUID }));
    expect((await lambda.send(new ListEventSourceMappingsCommand({}))).EventSourceMappings).toEqual([]);
  });
});
