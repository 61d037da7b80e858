import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  DeleteEventSourceMappingCommand,
  GetEventSourceMappingCommand,
  GetFunctionCommand,
  InvokeCommand,
  type LambdaClient,
  ListEventSourceMappingsCommand,
  ResourceNotFoundException,
  UpdateEventSourceMappingCommand,
  waitUntilFunctionActiveV2,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import {
  auditedOrders,
  type BuiltProject,
  buildAuditProject,
  httpLambdaClient,
  ORDERS,
  ROLE,
} from './helpers.js';

// A test suite that provisions its function and mapping with the Lambda API, as it would against
// AWS, over HTTP with @aws-sdk/client-lambda (issue: "Tests"), on the test kit's virtual clock.
let project: BuiltProject;
let stack: TestStack;
let lambda: LambdaClient;
let streamArn: string;

beforeAll(async () => {
  project = await buildAuditProject();
  stack = await startStack({ tables: [ORDERS] }, { endpoint: true });
  lambda = httpLambdaClient(stack.endpoint!);
  streamArn = stack.engine.region().tables.get('Orders')!.stream!.arn;
});

afterAll(async () => {
  lambda?.destroy();
  await stack?.close();
  project?.remove();
});

const putOrder = (orderId: string, status: string) =>
  stack.client.send(
    new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: orderId }, status: { S: status } } }),
  );

describe('a function from an `eddy build` zip, fed by a filtered mapping', () => {
  let uuid: string;

  it('creates the function (201, Pending) and it turns Active as the SDK waiter expects', async () => {
    const created = await lambda.send(
      new CreateFunctionCommand({
        FunctionName: 'audit',
        Runtime: 'nodejs22.x',
        Role: ROLE,
        Handler: 'index.handler',
        Code: { ZipFile: project.zip },
        Timeout: 10,
        Environment: { Variables: { STAGE: 'test' } },
      }),
    );
    // API_CreateFunction: 201, and the function is Pending until Lambda has set it up.
    expect(created.$metadata.httpStatusCode).toBe(201);
    expect(created).toMatchObject({
      FunctionName: 'audit',
      FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:audit',
      Runtime: 'nodejs22.x',
      Handler: 'index.handler',
      CodeSize: project.zip.length,
      Timeout: 10,
      MemorySize: 128,
      Version: '$LATEST',
      Environment: { Variables: { STAGE: 'test' } },
      State: 'Pending',
      StateReasonCode: 'Creating',
      PackageType: 'Zip',
    });
    expect(created.LastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
    const waited = await waitUntilFunctionActiveV2(
      { client: lambda, maxWaitTime: 10 },
      { FunctionName: 'audit' },
    );
    expect(waited.state).toBe('SUCCESS');
    const { Configuration, Code } = await lambda.send(new GetFunctionCommand({ FunctionName: 'audit' }));
    expect(Configuration).toMatchObject({ State: 'Active', LastUpdateStatus: 'Successful' });
    expect(Configuration?.CodeSha256).toBe(created.CodeSha256);
    // Code.Location serves the package as uploaded.
    const downloaded = await fetch(Code!.Location!);
    expect(Buffer.from(await downloaded.arrayBuffer())).toEqual(Buffer.from(project.zip));
  });

  it('creates a mapping with a filter (202, Creating) and delivers only the matching records', async () => {
    const created = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'audit',
        EventSourceArn: streamArn,
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 10,
        FilterCriteria: {
          Filters: [{ Pattern: JSON.stringify({ dynamodb: { NewImage: { status: { S: ['placed'] } } } }) }],
        },
      }),
    );
    expect(created.$metadata.httpStatusCode).toBe(202);
    expect(created).toMatchObject({
      State: 'Creating',
      StateTransitionReason: 'User action',
      LastProcessingResult: 'No records processed',
      EventSourceArn: streamArn,
      FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:audit',
      BatchSize: 10,
      FilterCriteria: { Filters: [{ Pattern: '{"dynamodb":{"NewImage":{"status":{"S":["placed"]}}}}' }] },
      DestinationConfig: { OnFailure: {} },
    });
    uuid = created.UUID!;
    await putOrder('o-1', 'placed');
    await putOrder('o-2', 'cancelled');
    await putOrder('o-3', 'placed');
    await stack.settled();
    expect(auditedOrders(stack.invocations('audit'))).toEqual(['INSERT o-1 placed', 'INSERT o-3 placed']);
    const mapping = await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }));
    expect(mapping).toMatchObject({ State: 'Enabled', LastProcessingResult: 'OK' });
  });

  it('disables it (Disabling, then Disabled): writes meanwhile reach no one', async () => {
    const before = stack.invocations('audit').length;
    const updated = await lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, Enabled: false }));
    expect(updated.$metadata.httpStatusCode).toBe(202);
    expect(updated.State).toBe('Disabling');
    expect((await lambda.send(new GetEventSourceMappingCommand({ UUID: uuid }))).State).toBe('Disabled');
    await putOrder('o-4', 'placed');
    await putOrder('o-5', 'placed');
    await stack.settled();
    expect(stack.invocations('audit')).toHaveLength(before);
  });

  it('enables it again (Enabling): the backlog is processed from where it stopped', async () => {
    const before = stack.invocations('audit').length;
    const updated = await lambda.send(new UpdateEventSourceMappingCommand({ UUID: uuid, Enabled: true }));
    expect(updated.State).toBe('Enabling');
    await stack.settled();
    expect(auditedOrders(stack.invocations('audit').slice(before))).toEqual([
      'INSERT o-4 placed',
      'INSERT o-5 placed',
    ]);
    const { EventSourceMappings } = await lambda.send(
      new ListEventSourceMappingsCommand({ FunctionName: 'audit' }),
    );
    expect(EventSourceMappings?.map((mapping) => [mapping.UUID, mapping.State])).toEqual([[uuid, 'Enabled']]);
  });

  it('deletes it (Deleting): it is gone, and later writes invoke nothing', async () => {
    const deleted = await lambda.send(new DeleteEventSourceMappingCommand({ UUID: uuid }));
    expect(deleted.$metadata.httpStatusCode).toBe(202);
    expect(deleted.State).toBe('Deleting');
    // Recorded answer for an unknown UUID (moto's get_event_source_mapping): 404, `Message`.
    const missing = await lambda
      .send(new GetEventSourceMappingCommand({ UUID: uuid }))
      .catch((error) => error);
    expect(missing).toBeInstanceOf(ResourceNotFoundException);
    expect(missing.$metadata.httpStatusCode).toBe(404);
    expect(missing.message).toBe('The resource you requested does not exist.');
    const before = stack.invocations('audit').length;
    await putOrder('o-6', 'placed');
    await stack.settled();
    expect(stack.invocations('audit')).toHaveLength(before);
  });
});

describe('Invoke', () => {
  it('answers a handler error with 200, X-Amz-Function-Error: Unhandled and the error object', async () => {
    const answer = await lambda.send(
      new InvokeCommand({
        FunctionName: 'audit',
        Payload: Buffer.from(JSON.stringify({ fail: 'no stock' })),
      }),
    );
    // API_Invoke: a function error is still a 200; FunctionError says so, the payload carries it.
    expect(answer).toMatchObject({ StatusCode: 200, FunctionError: 'Unhandled', ExecutedVersion: '$LATEST' });
    expect(answer.LogResult).toBeUndefined();
    const error = JSON.parse(Buffer.from(answer.Payload!).toString());
    expect(error).toMatchObject({ errorType: 'TypeError', errorMessage: 'no stock' });
    expect(error.trace[0]).toBe('TypeError: no stock');
  });

  it('returns the last 4 KB of the log, base64, with --log-type Tail', async () => {
    const answer = await lambda.send(
      new InvokeCommand({
        FunctionName: 'audit',
        LogType: 'Tail',
        Payload: Buffer.from(
          JSON.stringify({
            Records: [{ eventName: 'INSERT', dynamodb: { NewImage: { orderId: { S: 'x' } } } }],
          }),
        ),
      }),
    );
    expect(answer.FunctionError).toBeUndefined();
    expect(JSON.parse(Buffer.from(answer.Payload!).toString())).toEqual({ seen: 1 });
    const log = Buffer.from(answer.LogResult!, 'base64').toString();
    // The invocation's request id is the answer's.
    const requestId = answer.$metadata.requestId!;
    expect(log).toMatch(new RegExp(`^START RequestId: ${requestId} Version: \\$LATEST\\n`));
    expect(log).toContain(`\t${requestId}\tINFO\tINSERT x undefined\n`);
    expect(log).toMatch(new RegExp(`REPORT RequestId: ${requestId}\\tDuration: [\\d.]+ ms\\t.*\\n$`));
  });

  it('keeps only the last 4 KB of a long log', async () => {
    const records = Array.from({ length: 200 }, (_, index) => ({
      eventName: 'INSERT',
      dynamodb: { NewImage: { orderId: { S: `order-${index}` } } },
    }));
    const answer = await lambda.send(
      new InvokeCommand({
        FunctionName: 'audit',
        LogType: 'Tail',
        Payload: Buffer.from(JSON.stringify({ Records: records })),
      }),
    );
    const log = Buffer.from(answer.LogResult!, 'base64');
    expect(log.length).toBeLessThanOrEqual(4096);
    expect(log.length).toBeGreaterThan(4000);
    expect(log.toString()).toContain('order-199');
    expect(log.toString()).not.toContain('order-1 ');
  });

  it('answers DryRun with 204 and runs nothing', async () => {
    const before = stack.invocations('audit').length;
    const answer = await lambda.send(new InvokeCommand({ FunctionName: 'audit', InvocationType: 'DryRun' }));
    expect(answer.StatusCode).toBe(204);
    expect(stack.invocations('audit')).toHaveLength(before);
  });
});
