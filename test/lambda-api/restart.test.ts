import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  GetFunctionConcurrencyCommand,
  GetFunctionConfigurationCommand,
  GetFunctionEventInvokeConfigCommand,
  InvokeCommand,
  ListEventSourceMappingsCommand,
  ListFunctionsCommand,
  PutFunctionConcurrencyCommand,
  PutFunctionEventInvokeConfigCommand,
  UpdateEventSourceMappingCommand,
} from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { createHostLogger } from '../../infra/host/logger.js';
import { createLocalLambdaClient } from '../../infra/lambda-api/localClient.js';
import { LocalStack } from '../../infra/stack/localStack.js';
import { bindingUuid } from '../../infra/stack/mappingCheckpoints.js';
import { auditedOrders, type BuiltProject, buildAuditProject, ORDERS, ROLE } from './helpers.js';

// With a data directory, what the Lambda API created (functions, mappings, their states) and
// where each mapping stands survive a restart (issue: "Restart with --data-dir and find
// everything again").
const CONFIG: EddyConfig = {
  tables: [ORDERS],
  functions: { onOrder: { handler: './unused.ts', events: [{ stream: { table: 'Orders' } }] } },
};

let directory: string | undefined;
let project: BuiltProject | undefined;
let running: LocalStack | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  project?.remove();
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
});

const seen: string[] = [];
async function start(path: string): Promise<LocalStack> {
  running = await LocalStack.start(CONFIG, {
    dataDir: { path, durability: 'always' },
    logger: createHostLogger({ level: 'silent' }),
    handlers: {
      onOrder: async (event: { Records: { dynamodb: { Keys: { orderId: { S: string } } } }[] }) => {
        for (const record of event.Records) seen.push(record.dynamodb.Keys.orderId.S);
      },
    },
  });
  return running;
}

const putOrder = (stack: LocalStack, orderId: string, status = 'placed') =>
  stack
    .client()
    .send(
      new PutItemCommand({ TableName: 'Orders', Item: { orderId: { S: orderId }, status: { S: status } } }),
    );

describe('a restart with a data directory', () => {
  it('finds the API functions, mappings, their states and positions again', async () => {
    project = await buildAuditProject();
    directory = mkdtempSync(join(tmpdir(), 'eddy-lambda-restart-'));
    let stack = await start(directory);
    let lambda = createLocalLambdaClient(stack.pipeline());
    const created = await lambda.send(
      new CreateFunctionCommand({
        FunctionName: 'audit',
        Runtime: 'nodejs22.x',
        Role: ROLE,
        Handler: 'index.handler',
        Code: { ZipFile: project.zip },
        Environment: { Variables: { STAGE: 'restart' } },
      }),
    );
    await lambda.send(
      new PutFunctionEventInvokeConfigCommand({ FunctionName: 'audit', MaximumRetryAttempts: 1 }),
    );
    // Reserved concurrency is kept too, the config's functions' included (docs/lambda-api.md §8.1).
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'audit', ReservedConcurrentExecutions: 5 }),
    );
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'onOrder', ReservedConcurrentExecutions: 3 }),
    );
    const streamArn = stack.engine.region().tables.get('Orders')!.stream!.arn;
    const mapping = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'audit',
        EventSourceArn: streamArn,
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 7,
        FilterCriteria: { Filters: [{ Pattern: '{"eventName":["INSERT"]}' }] },
      }),
    );
    const configMapping = bindingUuid('onOrder', 'Orders');
    await putOrder(stack, 'o-1');
    await stack.settled();
    expect(seen).toEqual(['o-1']);
    await lambda.send(new UpdateEventSourceMappingCommand({ UUID: configMapping, Enabled: false }));
    await putOrder(stack, 'o-2');
    await stack.settled();
    expect(auditedOrders(stack.functions.invocations('audit'))).toEqual([
      'INSERT o-1 placed',
      'INSERT o-2 placed',
    ]);
    await stack.close();

    stack = await start(directory);
    lambda = createLocalLambdaClient(stack.pipeline());
    const { Functions } = await lambda.send(new ListFunctionsCommand({}));
    expect(Functions?.map((fn) => fn.FunctionName)).toEqual(['audit', 'onOrder']);
    expect(await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'audit' }))).toMatchObject({
      CodeSha256: created.CodeSha256,
      RevisionId: created.RevisionId,
      LastModified: created.LastModified,
      Environment: { Variables: { STAGE: 'restart' } },
    });
    expect(
      await lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'audit' })),
    ).toMatchObject({
      MaximumRetryAttempts: 1,
    });
    for (const [FunctionName, reserved] of [
      ['audit', 5],
      ['onOrder', 3],
    ] as const)
      expect(
        (await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName }))).ReservedConcurrentExecutions,
      ).toBe(reserved);
    const { EventSourceMappings } = await lambda.send(new ListEventSourceMappingsCommand({}));
    expect(EventSourceMappings?.map((each) => [each.UUID, each.State, each.LastProcessingResult])).toEqual([
      [configMapping, 'Disabled', 'OK'],
      [mapping.UUID, 'Enabled', 'OK'],
    ]);
    expect(EventSourceMappings![1]).toMatchObject({
      BatchSize: 7,
      FilterCriteria: { Filters: [{ Pattern: '{"eventName":["INSERT"]}' }] },
      LastModified: mapping.LastModified,
    });
    // The API's mapping resumes after o-2: nothing is delivered twice.
    await putOrder(stack, 'o-3');
    await stack.settled();
    expect(auditedOrders(stack.functions.invocations('audit'))).toEqual(['INSERT o-3 placed']);
    // The config's mapping, disabled before the restart, takes up its backlog when enabled.
    await lambda.send(new UpdateEventSourceMappingCommand({ UUID: configMapping, Enabled: true }));
    await stack.settled();
    // Items are spread over shards: order holds within a shard only.
    expect([...seen].sort()).toEqual(['o-1', 'o-2', 'o-3']);
    const answer = await lambda.send(
      new InvokeCommand({ FunctionName: 'audit', Payload: Buffer.from('{}') }),
    );
    expect(JSON.parse(Buffer.from(answer.Payload!).toString())).toEqual({ seen: 0 });
  });
});
