import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStack, type StackDefinition } from '../../../infra/stack/sources/index.js';
import { type StackWatcher, watchStack } from '../../../infra/stack/watchStack.js';

// `eddy serve --watch` on a template: the file is read again on change and the running stack
// reconciled with it, keeping its data and the mappings' positions.
const HANDLERS = [
  'export const onOrder = async (event) => event.Records.map((r) => r.eventName + " " + r.dynamodb.Keys.orderId.S);',
  'export const onReturn = async (event) => event.Records.length;',
  'export const nightly = async () => "ran";',
].join('\n');

function template(version: 1 | 2 | 3): string {
  const orders = `
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: orders
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: orderId, AttributeType: S }]
      KeySchema: [{ AttributeName: orderId, KeyType: HASH }]
      StreamSpecification: { StreamViewType: ${version === 3 ? 'NEW_IMAGE' : 'NEW_AND_OLD_IMAGES'} }`;
  const onOrder = (settings: string) => `
  OnOrder:
    Type: AWS::Serverless::Function
    Properties:
      Handler: handlers.onOrder
      Events:
        Orders:
          Type: DynamoDB
          Properties:
            Stream: !GetAtt Orders.StreamArn
            StartingPosition: TRIM_HORIZON
${settings}`;
  const common =
    'Transform: AWS::Serverless-2016-10-31\nGlobals:\n  Function: { Runtime: nodejs22.x, CodeUri: . }\nResources:';
  if (version === 1)
    return `${common}${orders}${onOrder(`            BatchSize: 10
            FilterCriteria: { Filters: [{ Pattern: '{"eventName": ["INSERT"]}' }] }`)}
  Nightly:
    Type: AWS::Serverless::Function
    Properties:
      Handler: handlers.nightly
      Events:
        Every5Minutes: { Type: Schedule, Properties: { Schedule: rate(5 minutes) } }
`;
  return `${common}${orders}${onOrder('            BatchSize: 1')}
  Returns:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: returns
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
      KeySchema: [{ AttributeName: id, KeyType: HASH }]
      StreamSpecification: { StreamViewType: NEW_IMAGE }
  OnReturn:
    Type: AWS::Serverless::Function
    Properties:
      Handler: handlers.onReturn
      Events:
        Returns: { Type: DynamoDB, Properties: { Stream: !GetAtt Returns.StreamArn, StartingPosition: TRIM_HORIZON } }
`;
}

describe('a template changed under --watch', () => {
  let directory: string;
  let stack: TestStack;
  let watcher: StackWatcher;
  let definition: StackDefinition;
  const printed: string[] = [];
  let reconciled: (result: { lines: readonly string[]; error?: unknown }) => void = () => {};
  const nextReconcile = () =>
    new Promise<{ lines: readonly string[]; error?: unknown }>((resolve) => (reconciled = resolve));

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'eddy-watch-'));
    writeFileSync(join(directory, 'handlers.mjs'), HANDLERS);
    writeFileSync(join(directory, 'template.yaml'), template(1));
    definition = (await loadStack({ cwd: directory }))!;
    stack = await startStack({ template: directory });
    watcher = watchStack(stack.stack, definition, {
      reload: async () => (await loadStack({ cwd: directory }))!,
      print: (line) => printed.push(line),
      cwd: directory,
      debounceMs: 20,
      onReconciled: (lines, error) => reconciled({ lines, error }),
    });
  });
  afterAll(async () => {
    watcher.close();
    await stack.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const put = (table: string, key: string, id: string) =>
    stack.client.send(new PutItemCommand({ TableName: table, Item: { [key]: { S: id } } }));
  const orderEvents = () => stack.invocations('OnOrder').map((invocation) => invocation.result);

  it('creates the new table, updates the changed mapping from where it stopped, stops the removed function', async () => {
    await put('orders', 'orderId', 'o-1');
    await put('orders', 'orderId', 'o-2');
    await stack.settled();
    // Two item keys, possibly two shards: no order between them (docs/streams-and-lambda.md §1.3.9).
    expect(orderEvents().flat().sort()).toEqual(['INSERT o-1', 'INSERT o-2']);

    const done = nextReconcile();
    writeFileSync(join(directory, 'template.yaml'), template(2));
    const { lines, error } = await done;
    expect(error).toBeUndefined();
    expect(lines).toEqual([
      '+ table returns',
      '- function Nightly stopped',
      '~ OnOrder ← orders stream: BatchSize, FilterCriteria (from where it stopped)',
      '+ function OnReturn',
    ]);

    // The data is kept, the records already processed are not sent again, the new settings apply.
    expect(
      (await stack.client.send(new GetItemCommand({ TableName: 'orders', Key: { orderId: { S: 'o-1' } } })))
        .Item,
    ).toBeDefined();
    await stack.client.send(
      new UpdateItemCommand({
        TableName: 'orders',
        Key: { orderId: { S: 'o-1' } },
        UpdateExpression: 'SET shipped = :t',
        ExpressionAttributeValues: { ':t': { BOOL: true } },
      }),
    );
    await put('orders', 'orderId', 'o-3');
    await stack.settled();
    // Two item keys, possibly two shards: ordered per item only (docs/streams-and-lambda.md §1.3.8).
    expect(orderEvents().slice(2).sort()).toEqual([['INSERT o-3'], ['MODIFY o-1']]);

    await put('returns', 'id', 'r-1');
    await stack.settled();
    expect(stack.invocations('OnReturn').map((invocation) => invocation.result)).toEqual([1]);
    await stack.advance('10m');
    expect(stack.invocations('Nightly')).toHaveLength(0);
  });

  it('keeps the running stack when the template no longer reads', async () => {
    const done = nextReconcile();
    writeFileSync(join(directory, 'template.yaml'), 'Resources:\n  Broken: [\n');
    const { error } = await done;
    expect((error as Error).message).toMatch(/template\.yaml:\d+:\d+: not valid YAML/);
    expect(printed.at(-1)).toBe('  still running the stack as it was');
    await put('returns', 'id', 'r-2');
    await stack.settled();
    expect(stack.invocations('OnReturn')).toHaveLength(2);
  });

  it("binds a function once to its table's new stream when the stream's view type changes", async () => {
    const done = nextReconcile();
    writeFileSync(join(directory, 'template.yaml'), template(3));
    const { lines, error } = await done;
    expect(error).toBeUndefined();
    expect(lines).toEqual(['~ table orders: stream NEW_IMAGE', '+ OnOrder ← orders stream']);
    const streamArn = stack.stack.engine.region().tables.get('orders')!.stream!.arn;
    const mappings = stack.stack.mappings.list({ FunctionName: 'OnOrder' }).EventSourceMappings;
    expect(mappings.map((mapping) => mapping.EventSourceArn)).toEqual([streamArn]);
    const before = orderEvents().length;
    await put('orders', 'orderId', 'o-4');
    await stack.settled();
    expect(orderEvents().slice(before)).toEqual([['INSERT o-4']]);
  });

  it('resets to the stack as reconciled: its tables, functions and mappings', async () => {
    await stack.reset();
    expect(stack.stack.functions.get('Nightly')).toBeUndefined();
    expect(stack.stack.mappings.list({ FunctionName: 'OnOrder' }).EventSourceMappings).toMatchObject([
      { BatchSize: 1 },
    ]);
    await put('orders', 'orderId', 'o-5');
    await put('returns', 'id', 'r-3');
    await stack.settled();
    expect(orderEvents()).toEqual([['INSERT o-5']]);
    expect(stack.invocations('OnReturn').map((invocation) => invocation.result)).toEqual([1]);
  });
});
