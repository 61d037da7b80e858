import {
  CreateFunctionCommand,
  DeleteFunctionCommand,
  GetFunctionCommand,
  GetFunctionConfigurationCommand,
  InvalidParameterValueException,
  InvokeCommand,
  ListFunctionsCommand,
  PreconditionFailedException,
  ResourceConflictException,
  ResourceNotFoundException,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
} from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { functionInput, ORDERS, zipOf } from './helpers.js';

// Functions through the Lambda API, in process (stack.lambda), next to a config function.
let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(): Promise<TestStack> {
  stack = await startStack(
    {
      tables: [ORDERS],
      functions: {
        onOrder: { handler: './unused.ts', timeout: 6, events: [{ stream: { table: 'Orders' } }] },
      },
    },
    { handlers: { onOrder: async () => 'from the config' } },
  );
  return stack;
}

const payloadOf = (answer: { Payload?: Uint8Array }) => JSON.parse(Buffer.from(answer.Payload!).toString());
const sendError = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: Error) => error);

describe('ListFunctions, GetFunction, GetFunctionConfiguration', () => {
  it('shows the config functions with Lambda shapes, eddy account and region', async () => {
    const { lambda } = await start();
    const { Functions, NextMarker } = await lambda.send(new ListFunctionsCommand({}));
    expect(NextMarker).toBeUndefined();
    expect(Functions).toEqual([
      expect.objectContaining({
        FunctionName: 'onOrder',
        FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:onOrder',
        Runtime: 'nodejs22.x',
        Handler: 'index.handler',
        Timeout: 6,
        MemorySize: 128,
        Version: '$LATEST',
        State: 'Active',
        LastUpdateStatus: 'Successful',
        PackageType: 'Zip',
      }),
    ]);
    const configuration = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'onOrder' }));
    expect(configuration.FunctionArn).toBe(Functions![0]!.FunctionArn);
    // A config function runs its module from the project: there is no package to download.
    const { Code } = await lambda.send(new GetFunctionCommand({ FunctionName: 'onOrder' }));
    expect(Code).toEqual({ RepositoryType: 'S3' });
  });

  it('pages with MaxItems and Marker, by name', async () => {
    const { lambda } = await start();
    for (const name of ['b-fn', 'a-fn', 'c-fn'])
      await lambda.send(
        new CreateFunctionCommand(functionInput(name, zipOf('export const handler = async () => 1;'))),
      );
    const first = await lambda.send(new ListFunctionsCommand({ MaxItems: 2 }));
    expect(first.Functions?.map((fn) => fn.FunctionName)).toEqual(['a-fn', 'b-fn']);
    const second = await lambda.send(new ListFunctionsCommand({ MaxItems: 2, Marker: first.NextMarker }));
    expect(second.Functions?.map((fn) => fn.FunctionName)).toEqual(['c-fn', 'onOrder']);
    expect(second.NextMarker).toBeUndefined();
  });

  it('finds a function by name, ARN, partial ARN or $LATEST, and no other version', async () => {
    const { lambda } = await start();
    for (const FunctionName of [
      'onOrder',
      'arn:aws:lambda:us-east-1:000000000000:function:onOrder',
      '000000000000:function:onOrder',
      'onOrder:$LATEST',
    ])
      expect((await lambda.send(new GetFunctionConfigurationCommand({ FunctionName }))).FunctionName).toBe(
        'onOrder',
      );
    const version = await sendError(
      lambda.send(new GetFunctionCommand({ FunctionName: 'onOrder', Qualifier: '3' })),
    );
    expect(version).toBeInstanceOf(ResourceNotFoundException);
    expect(version?.message).toBe(
      'Function not found: arn:aws:lambda:us-east-1:000000000000:function:onOrder:3',
    );
    // Lambda's message when the name's qualifier and the query's disagree.
    const mismatch = await sendError(
      lambda.send(new GetFunctionCommand({ FunctionName: 'onOrder:$LATEST', Qualifier: '2' })),
    );
    expect(mismatch).toBeInstanceOf(InvalidParameterValueException);
    expect(mismatch?.message).toBe(
      'The derived qualifier from the function name does not match the specified qualifier.',
    );
  });
});

describe('CreateFunction, UpdateFunctionCode, UpdateFunctionConfiguration, DeleteFunction', () => {
  it('runs new code from the next invocation and new settings too', async () => {
    const { lambda } = await start();
    const created = await lambda.send(
      new CreateFunctionCommand(
        functionInput('greeter', zipOf("export const handler = async (event) => 'v1 ' + event.name;")),
      ),
    );
    expect(
      payloadOf(
        await lambda.send(
          new InvokeCommand({ FunctionName: 'greeter', Payload: Buffer.from('{"name":"ann"}') }),
        ),
      ),
    ).toBe('v1 ann');
    const updated = await lambda.send(
      new UpdateFunctionCodeCommand({
        FunctionName: 'greeter',
        ZipFile: zipOf(
          "exports.handler = async (event) => ['v2', event.name, process.env.GREETING].join(' ');",
          'index.js',
        ),
        RevisionId: created.RevisionId,
      }),
    );
    // An update is in progress in its answer, done at the next read (functions-states.html).
    expect(updated).toMatchObject({ State: 'Active', LastUpdateStatus: 'InProgress' });
    expect(updated.CodeSha256).not.toBe(created.CodeSha256);
    expect(updated.RevisionId).not.toBe(created.RevisionId);
    const configured = await lambda.send(
      new UpdateFunctionConfigurationCommand({
        FunctionName: 'greeter',
        Environment: { Variables: { GREETING: 'hello' } },
        Timeout: 30,
      }),
    );
    expect(configured).toMatchObject({ Timeout: 30, Environment: { Variables: { GREETING: 'hello' } } });
    expect(
      payloadOf(
        await lambda.send(
          new InvokeCommand({ FunctionName: 'greeter', Payload: Buffer.from('{"name":"bo"}') }),
        ),
      ),
    ).toBe('v2 bo hello');
    // Optimistic locking: an update naming an old revision is refused (Lambda's message).
    const stale = await sendError(
      lambda.send(
        new UpdateFunctionConfigurationCommand({
          FunctionName: 'greeter',
          Timeout: 5,
          RevisionId: created.RevisionId,
        }),
      ),
    );
    expect(stale).toBeInstanceOf(PreconditionFailedException);
    expect(stale?.message).toMatch(/^The Revision Id provided does not match the latest Revision Id/);
    const deleted = await lambda.send(new DeleteFunctionCommand({ FunctionName: 'greeter' }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    expect(await sendError(lambda.send(new GetFunctionCommand({ FunctionName: 'greeter' })))).toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  it('refuses a name in use (409) and an unreadable zip', async () => {
    const { lambda } = await start();
    // moto's FunctionAlreadyExists: "Function already exist: <name>", 409.
    const taken = await sendError(
      lambda.send(new CreateFunctionCommand(functionInput('onOrder', zipOf('')))),
    );
    expect(taken).toBeInstanceOf(ResourceConflictException);
    expect(taken).toMatchObject({
      message: 'Function already exist: onOrder',
      $metadata: expect.objectContaining({ httpStatusCode: 409 }),
    });
    const garbage = await sendError(
      lambda.send(new CreateFunctionCommand(functionInput('bad-zip', Buffer.from('not a zip at all')))),
    );
    expect(garbage).toBeInstanceOf(InvalidParameterValueException);
    expect(garbage?.message).toBe(
      'Could not unzip uploaded file. Please check your file, then try to upload again.',
    );
  });

  it('runs Node.js only: other runtimes and retired Node.js ones are refused', async () => {
    const { lambda } = await start();
    const python = await sendError(
      lambda.send(new CreateFunctionCommand({ ...functionInput('py', zipOf('')), Runtime: 'python3.12' })),
    );
    expect(python).toBeInstanceOf(InvalidParameterValueException);
    expect(python?.message).toMatch(/^eddy runs Node\.js functions only: the runtime python3\.12/);
    // Lambda's message for runtimes blocked for creation (lambda-runtimes.html deprecation table).
    const old = await sendError(
      lambda.send(new CreateFunctionCommand({ ...functionInput('old', zipOf('')), Runtime: 'nodejs16.x' })),
    );
    expect(old?.message).toBe(
      'The runtime parameter of nodejs16.x is no longer supported for creating or updating AWS Lambda functions. We recommend you use the new runtime (nodejs24.x) while creating or updating functions.',
    );
  });

  it('validates settings as the request validator does, all violations in one message', async () => {
    const { lambda } = await start();
    const error = await sendError(
      lambda.send(
        new CreateFunctionCommand({ ...functionInput('limits', zipOf('')), Timeout: 901, MemorySize: 64 }),
      ),
    );
    expect(error).toMatchObject({
      name: 'ValidationException',
      message:
        "2 validation errors detected: Value '901' at 'timeout' failed to satisfy constraint: Member must have value less than or equal to 900; Value '64' at 'memorySize' failed to satisfy constraint: Member must have value greater than or equal to 128",
    });
    const reserved = await sendError(
      lambda.send(
        new CreateFunctionCommand({
          ...functionInput('env', zipOf('')),
          Environment: { Variables: { AWS_REGION: 'eu-west-1' } },
        }),
      ),
    );
    expect(reserved?.message).toBe(
      'Lambda was unable to configure your environment variables because the environment variables you have provided contains reserved keys that are currently not supported for modification. Reserved keys used in this request: AWS_REGION',
    );
  });

  it('fails invocations as the runtime does when the handler module is not in the package', async () => {
    const { lambda } = await start();
    await lambda.send(new CreateFunctionCommand({ ...functionInput('lost', zipOf('x', 'other.mjs')) }));
    const answer = await lambda.send(new InvokeCommand({ FunctionName: 'lost' }));
    expect(answer.FunctionError).toBe('Unhandled');
    expect(payloadOf(answer)).toMatchObject({
      errorType: 'Runtime.ImportModuleError',
      errorMessage: "Error: Cannot find module 'index'\nRequire stack:\n- /var/runtime/index.mjs",
    });
  });
});
