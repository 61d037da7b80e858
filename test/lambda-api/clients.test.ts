import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { auditedOrders, type BuiltProject, buildAuditProject, ORDERS, ROLE } from './helpers.js';

// The AWS CLI (v1) and boto3 against eddy's Lambda API over HTTP, unchanged but for the endpoint.
const execFileAsync = promisify(execFile);
/** Each `aws` run starts a Python interpreter (about 1 s of CPU): generous on a loaded machine. */
const CLI_TIMEOUT_MS = 120_000;
let project: BuiltProject;
let stack: TestStack;
let streamArn: string;

beforeAll(async () => {
  project = await buildAuditProject();
  stack = await startStack({ tables: [ORDERS] }, { endpoint: true });
  streamArn = stack.engine.region().tables.get('Orders')!.stream!.arn;
});

afterAll(async () => {
  await stack?.close();
  project?.remove();
});

/** Credentials and region from the environment only, none of this machine's AWS config. */
function awsEnvironment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: project.directory,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_CONFIG_FILE: join(project.directory, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(project.directory, 'no-aws-credentials'),
  };
}

/** `aws lambda <args>` → its JSON output, or its exit code and stderr when it fails. */
async function aws(
  ...args: string[]
): Promise<{ json?: Record<string, unknown>; code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(
      'aws',
      ['lambda', ...args, '--endpoint-url', stack.endpoint!, '--output', 'json'],
      { env: awsEnvironment(), cwd: project.directory },
    );
    return { json: stdout.trim() === '' ? {} : JSON.parse(stdout), code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('the AWS CLI', () => {
  it(
    'creates a function from the zip, maps the stream with a filter, disables, invokes, deletes',
    async () => {
      const created = await aws(
        'create-function',
        '--function-name',
        'cli-audit',
        '--runtime',
        'nodejs22.x',
        '--role',
        ROLE,
        '--handler',
        'index.handler',
        '--zip-file',
        `fileb://${project.zipFile}`,
      );
      expect(created.json).toMatchObject({
        FunctionName: 'cli-audit',
        State: 'Pending',
        CodeSize: project.zip.length,
      });
      const filter = JSON.stringify({ Filters: [{ Pattern: '{"eventName":["INSERT"]}' }] });
      const mapping = await aws(
        'create-event-source-mapping',
        '--function-name',
        'cli-audit',
        '--event-source-arn',
        streamArn,
        '--starting-position',
        'LATEST',
        '--filter-criteria',
        filter,
      );
      expect(mapping.json).toMatchObject({ State: 'Creating', FilterCriteria: JSON.parse(filter) });
      const uuid = mapping.json!.UUID as string;
      await stack.client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: 'c-1' }, status: { S: 'placed' } } }),
      );
      await stack.client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: 'c-1' }, status: { S: 'paid' } } }),
      );
      await stack.settled();
      // The MODIFY does not match the filter.
      expect(auditedOrders(stack.invocations('cli-audit'))).toEqual(['INSERT c-1 placed']);

      const disabled = await aws('update-event-source-mapping', '--uuid', uuid, '--no-enabled');
      expect(disabled.json).toMatchObject({ UUID: uuid, State: 'Disabling' });
      const listed = await aws('list-event-source-mappings', '--function-name', 'cli-audit');
      expect(listed.json).toMatchObject({
        EventSourceMappings: [{ UUID: uuid, State: 'Disabled', LastProcessingResult: 'OK' }],
      });

      writeFileSync(join(project.directory, 'event.json'), JSON.stringify({ fail: 'out of stock' }));
      const invoked = await aws(
        'invoke',
        '--function-name',
        'cli-audit',
        '--payload',
        'file://event.json',
        '--log-type',
        'Tail',
        'answer.json',
      );
      expect(invoked.json).toMatchObject({
        StatusCode: 200,
        FunctionError: 'Unhandled',
        ExecutedVersion: '$LATEST',
      });
      expect(Buffer.from(invoked.json!.LogResult as string, 'base64').toString()).toMatch(
        /^START RequestId: /,
      );

      const deleted = await aws('delete-event-source-mapping', '--uuid', uuid);
      expect(deleted.json).toMatchObject({ UUID: uuid, State: 'Deleting' });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'prints Lambda errors as the CLI prints AWS errors',
    async () => {
      const missing = await aws('get-function', '--function-name', 'nope');
      expect(missing.code).toBe(255);
      expect(missing.stderr).toContain(
        'An error occurred (ResourceNotFoundException) when calling the GetFunction operation: Function not found: arn:aws:lambda:us-east-1:000000000000:function:nope',
      );
    },
    CLI_TIMEOUT_MS,
  );
});

describe('boto3', () => {
  it(
    'lists, invokes and reads the Lambda API',
    async () => {
      const script = `
import boto3, json, sys
client = boto3.client('lambda', endpoint_url=sys.argv[1])
names = [f['FunctionName'] for f in client.list_functions()['Functions']]
answer = client.invoke(FunctionName='cli-audit', Payload=json.dumps({'Records': []}))
try:
    client.get_event_source_mapping(UUID='no-such-uuid')
    error = None
except client.exceptions.ResourceNotFoundException as e:
    error = [e.response['Error']['Code'], e.response['Error']['Message'], e.response['ResponseMetadata']['HTTPStatusCode']]
print(json.dumps({'names': names, 'status': answer['StatusCode'], 'payload': json.loads(answer['Payload'].read()), 'error': error}))
`;
      const { stdout } = await execFileAsync('python3', ['-c', script, stack.endpoint!], {
        env: awsEnvironment(),
      });
      expect(JSON.parse(stdout)).toEqual({
        names: ['cli-audit'],
        status: 200,
        payload: { seen: 0 },
        error: ['ResourceNotFoundException', 'The resource you requested does not exist.', 404],
      });
    },
    CLI_TIMEOUT_MS,
  );
});
