import { ListFunctionsCommand } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestPipeline } from '../../infra/host/pipeline.js';
import { createLocalLambdaClient, lambdaService } from '../../infra/lambda-api/index.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { fakeAuthorization, jsonHeaders, send } from '../infra/rawHttp.js';
import { ORDERS } from './helpers.js';

// The Lambda API on the wire (raw HTTP): REST-JSON errors with `x-amzn-ErrorType`, the status
// codes of the service model, paths Lambda does not serve, and DynamoDB untouched beside it.
let stack: TestStack;
let url: string;

beforeAll(async () => {
  stack = await startStack(
    { tables: [ORDERS], functions: { onOrder: { handler: './unused.ts' } } },
    { handlers: { onOrder: async (event: { echo?: unknown }) => event.echo ?? null } },
  );
  url = (await stack.stack.listen({ port: 0 })).url;
});

afterAll(async () => {
  await stack?.close();
});

/** A request signed (well-formed, not verified) for service `lambda`. */
function lambdaHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const headers = fakeAuthorization();
  headers.Authorization = headers.Authorization!.replace('/dynamodb/', '/lambda/');
  return { ...headers, ...extra };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('errors on the wire', () => {
  it('answers ResourceNotFoundException: 404, x-amzn-ErrorType, {"Type":"User","Message":...}', async () => {
    const response = await send(url, {
      method: 'GET',
      path: '/2015-03-31/functions/nope',
      headers: lambdaHeaders(),
    });
    expect(response.status).toBe(404);
    expect(response.headers['x-amzn-errortype']).toBe('ResourceNotFoundException');
    expect(response.headers['x-amzn-requestid']).toMatch(UUID);
    expect(response.headers['content-type']).toBe('application/json');
    // The service model spells this exception's member `Message` (botocore service-2.json).
    expect(response.json).toEqual({
      Type: 'User',
      Message: 'Function not found: arn:aws:lambda:us-east-1:000000000000:function:nope',
    });
  });

  it('answers a path Lambda has no operation at with 404 UnknownOperationException, never a DynamoDB error', async () => {
    for (const [method, path] of [
      ['GET', '/2015-03-31/no-such-resource'],
      ['PATCH', '/2015-03-31/functions/onOrder'],
      ['GET', '/2018-10-31/layers'],
      // Versions and aliases are not served (docs/lambda-api.md §7): PublishVersion, CreateAlias,
      // ListAliases, ListVersionsByFunction, PutProvisionedConcurrencyConfig.
      ['POST', '/2015-03-31/functions/onOrder/versions'],
      ['POST', '/2015-03-31/functions/onOrder/aliases'],
      ['GET', '/2015-03-31/functions/onOrder/aliases'],
      ['GET', '/2015-03-31/functions/onOrder/versions'],
      ['PUT', '/2019-09-30/functions/onOrder/provisioned-concurrency'],
    ] as const) {
      const response = await send(url, { method, path, headers: lambdaHeaders() });
      expect(response.status).toBe(404);
      expect(response.headers['x-amzn-errortype']).toBe('UnknownOperationException');
      expect(response.json).toMatchObject({
        Type: 'User',
        message: expect.stringMatching(/^Unknown operation/),
      });
    }
  });

  it('answers a body that is not JSON with InvalidRequestContentException (400)', async () => {
    const response = await send(url, {
      method: 'POST',
      path: '/2015-03-31/event-source-mappings/',
      headers: lambdaHeaders({ 'Content-Type': 'application/json' }),
      body: '{"FunctionName": ',
    });
    expect(response.status).toBe(400);
    expect(response.headers['x-amzn-errortype']).toBe('InvalidRequestContentException');
    expect(response.json).toMatchObject({
      Type: 'User',
      message: expect.stringMatching(/^Could not parse request body into json: /),
    });
  });

  it('answers an invocation payload that is not JSON, and unknown header values, as Lambda does', async () => {
    const bad = await send(url, {
      method: 'POST',
      path: '/2015-03-31/functions/onOrder/invocations',
      headers: lambdaHeaders(),
      body: 'not json',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers['x-amzn-errortype']).toBe('InvalidRequestContentException');
    expect(bad.json!.message).toMatch(
      /^Could not parse request body into json: Could not parse payload into json: /,
    );
    const type = await send(url, {
      method: 'POST',
      path: '/2015-03-31/functions/onOrder/invocations',
      headers: lambdaHeaders({ 'X-Amz-Invocation-Type': 'Later' }),
      body: '{}',
    });
    expect(type.status).toBe(400);
    expect(type.headers['x-amzn-errortype']).toBe('ValidationException');
    expect(type.json).toEqual({
      message:
        "1 validation error detected: Value 'Later' at 'invocationType' failed to satisfy constraint: Member must satisfy enum value set: [Event, RequestResponse, DryRun]",
    });
  });

  it('answers an invocation with the handler result as JSON and its own request id', async () => {
    const response = await send(url, {
      method: 'POST',
      path: `/2015-03-31/functions/${encodeURIComponent('arn:aws:lambda:us-east-1:000000000000:function:onOrder')}/invocations`,
      headers: lambdaHeaders(),
      body: '{"echo":{"a":[1,2]}}',
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-amz-executed-version']).toBe('$LATEST');
    expect(response.headers['x-amz-function-error']).toBeUndefined();
    expect(response.text).toBe('{"a":[1,2]}');
    const requestId = response.headers['x-amzn-requestid'];
    expect(stack.invocations('onOrder').at(-1)!.requestId).toBe(requestId);
  });

  it('answers members of the wrong type with a 4xx Lambda error, never a 500', async () => {
    const cases: [method: string, path: string, body: unknown][] = [
      ['POST', '/2015-03-31/functions', { FunctionName: 5, Role: [], Code: 'zip' }],
      [
        'POST',
        '/2015-03-31/functions',
        { FunctionName: 'x', Role: 'r', Runtime: 'nodejs22.x', Handler: 'i.h', Code: { ZipFile: 7 } },
      ],
      ['POST', '/2015-03-31/functions', { FunctionName: 'x', Timeout: 1.5, Code: {} }],
      // `__proto__` is data: an own member, as JSON.parse makes it.
      [
        'POST',
        '/2015-03-31/functions',
        JSON.parse(
          '{"FunctionName":"x","Role":"arn:aws:iam::000000000000:role/r","Runtime":"nodejs22.x","Handler":"i.h","Code":{"ZipFile":""},"Environment":{"Variables":{"__proto__":"x"}}}',
        ),
      ],
      ['POST', '/2015-03-31/functions', { FunctionName: 'x', Architectures: 'arm64' }],
      ['PUT', '/2015-03-31/functions/onOrder/configuration', { Environment: 'x', MemorySize: '1' }],
      ['PUT', '/2015-03-31/functions/onOrder/code', { ZipFile: '%%%' }],
      ['POST', '/2015-03-31/event-source-mappings', { FunctionName: 'onOrder', Enabled: 'yes' }],
      [
        'POST',
        '/2015-03-31/event-source-mappings',
        { FunctionName: 'onOrder', FilterCriteria: { Filters: 'x' } },
      ],
      ['POST', '/2015-03-31/event-source-mappings', { FunctionName: ['onOrder'], BatchSize: 'ten' }],
      ['PUT', '/2015-03-31/event-source-mappings/nope', { DestinationConfig: { OnFailure: 'x' } }],
      ['PUT', '/2019-09-25/functions/onOrder/event-invoke-config', { MaximumRetryAttempts: 'two' }],
      ['GET', '/2015-03-31/functions?MaxItems=lots', undefined],
      ['GET', '/2015-03-31/event-source-mappings?Marker=forged', undefined],
      ['GET', '/2015-03-31/functions/%E0%A4%A', undefined],
    ];
    for (const [method, path, body] of cases) {
      const response = await send(url, {
        method,
        path,
        headers: lambdaHeaders({ 'Content-Type': 'application/json' }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect([400, 404, 409], `${method} ${path} ${JSON.stringify(body)}`).toContain(response.status);
      expect(response.headers['x-amzn-errortype']).toBeDefined();
    }
    // Nothing was created by any of them.
    expect(stack.stack.functions.names()).toEqual(['onOrder']);
  });

  it('keeps answering DynamoDB at / on the same port', async () => {
    const response = await send(url, { headers: jsonHeaders('DynamoDB_20120810.ListTables'), body: '{}' });
    expect(response.json).toEqual({ TableNames: ['Orders'] });
  });
});

describe('signature verification', () => {
  it('verifies Lambda requests with the credential scope of service lambda', async () => {
    const keys = [{ accessKeyId: 'AKIDLAMBDA', secretAccessKey: 'right-secret' }];
    const pipeline = new RequestPipeline({ engine: stack.engine, accessKeys: keys });
    pipeline.registerRestService(lambdaService(stack.stack.lambdaApi));
    const signed = createLocalLambdaClient(pipeline, { credentials: keys[0]! });
    expect((await signed.send(new ListFunctionsCommand({}))).Functions?.map((fn) => fn.FunctionName)).toEqual(
      ['onOrder'],
    );
    const wrong = createLocalLambdaClient(pipeline, {
      credentials: { accessKeyId: 'AKIDLAMBDA', secretAccessKey: 'wrong-secret' },
    });
    const error = await wrong.send(new ListFunctionsCommand({})).catch((caught: Error) => caught);
    // The SDK's model has no class for it: a generic service exception named as the header says.
    expect(error).toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 403 } });
    // A request scoped to another service is refused with the scope checks' message.
    const response = await pipeline.handle({
      method: 'GET',
      url: '/2015-03-31/functions',
      body: Buffer.alloc(0),
      headers: { host: 'eddy.local', ...lowerCase(authorizationNow('AKIDLAMBDA')) },
      header(name) {
        return (this.headers as Record<string, string>)[name];
      },
    });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body.toString())).toEqual({
      message: "Credential should be scoped to correct service: 'lambda'.",
    });
  });
});

/** `fakeAuthorization`, dated now: verification refuses a signing time 15 minutes off the clock. */
function authorizationNow(keyId: string): Record<string, string> {
  const date = `${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
  const headers = fakeAuthorization('us-east-1', keyId);
  return {
    Authorization: headers.Authorization!.replace('/20260101/', `/${date.slice(0, 8)}/`),
    'X-Amz-Date': date,
  };
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
