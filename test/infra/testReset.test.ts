import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';

/**
 * `TestStack.reset()`: one stack per suite, back to its starting state before each test. Each
 * case dirties the stack the way a test would, resets, and checks that nothing of it is left.
 */
const directory = mkdtempSync(join(tmpdir(), 'eddy-reset-'));
// A handler module that counts how often it is evaluated: reset keeps loaded code.
writeFileSync(
  join(directory, 'audit.mjs'),
  'globalThis.auditLoads = (globalThis.auditLoads ?? 0) + 1;\nexport const handler = async () => {};\n',
);

const TRIM_HORIZON_DLQ = 'arn:aws:sqs:us-east-1:000000000000:orders-failures';
const config: EddyConfig = {
  tables: [
    {
      TableName: 'Orders',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byStatus',
          KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    },
  ],
  functions: {
    onOrder: {
      handler: './unused.mjs',
      events: [
        {
          stream: {
            table: 'Orders',
            StartingPosition: 'TRIM_HORIZON',
            MaximumRetryAttempts: 0,
            DestinationConfig: { OnFailure: { Destination: TRIM_HORIZON_DLQ } },
          },
        },
      ],
    },
    audit: { handler: './audit.mjs', events: [{ stream: { table: 'Orders' } }] },
  },
};

const seen: string[] = [];
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack(config, {
    baseDirectory: directory,
    endpoint: true,
    handlers: {
      onOrder: async (event: DynamoDBStreamEvent) => {
        for (const record of event.Records) seen.push(String(record.dynamodb?.Keys?.pk?.S));
      },
    },
  });
});
afterEach(async () => {
  await stack.reset();
  seen.length = 0;
});
afterAll(async () => {
  await stack.close();
  rmSync(directory, { recursive: true, force: true });
});

const put = (pk: string, status = 'placed') =>
  stack.documentClient.send(new PutCommand({ TableName: 'Orders', Item: { pk, status } }));
const scanCount = async () =>
  (await stack.documentClient.send(new ScanCommand({ TableName: 'Orders' }))).Count;

describe('TestStack.reset', () => {
  it('empties the tables and their indexes, and rewinds virtual time', async () => {
    const startedAt = stack.clock.now();
    await put('o-1');
    await stack.advance('1h');
    await stack.reset();
    expect(stack.clock.now()).toBe(startedAt);
    expect(await scanCount()).toBe(0);
    const byStatus = await stack.documentClient.send(
      new QueryCommand({
        TableName: 'Orders',
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'placed' },
      }),
    );
    expect(byStatus.Items).toEqual([]);
  });

  it('keeps the definitions: same table, index, TTL and stream ARN; tables made since are gone', async () => {
    const before = (await stack.client.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!;
    await stack.client.send(new DeleteTableCommand({ TableName: 'Orders' }));
    await stack.client.send(
      new CreateTableCommand({
        TableName: 'Scratch',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    await stack.reset();
    expect((await stack.client.send(new ListTablesCommand({}))).TableNames).toEqual(['Orders']);
    const after = (await stack.client.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!;
    expect(after.LatestStreamArn).toBe(before.LatestStreamArn);
    expect(after.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(['byStatus']);
    expect(after.CreationDateTime).toEqual(before.CreationDateTime);
  });

  it('empties the stream: a reader from TRIM_HORIZON finds only what was written after the reset', async () => {
    await put('before');
    await stack.settled();
    await stack.reset();
    await put('after');
    const streams = new DynamoDBStreamsClient({
      endpoint: stack.endpoint!,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const arn = (await stack.client.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!
      .LatestStreamArn!;
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    const keys: string[] = [];
    for (const shard of StreamDescription!.Shards!) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shard.ShardId!,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      const { Records } = await streams.send(new GetRecordsCommand({ ShardIterator: ShardIterator! }));
      for (const record of Records ?? []) keys.push(String(record.dynamodb?.Keys?.pk?.S));
    }
    streams.destroy();
    expect(keys).toEqual(['after']);
  });

  it('starts the mappings again from their starting position, with empty invocation logs', async () => {
    await put('o-1');
    await stack.settled();
    expect(seen).toEqual(['o-1']);
    await stack.reset();
    seen.length = 0;
    expect(stack.invocations('onOrder')).toEqual([]);
    await put('o-2');
    await stack.settled();
    expect(seen).toEqual(['o-2']);
    expect(stack.invocations('onOrder')).toHaveLength(1);
  });

  it('empties the on-failure destination and forgets injected faults', async () => {
    stack.failNext('onOrder', Number.POSITIVE_INFINITY);
    await put('o-1');
    await stack.advance('1m');
    expect(stack.destination('onOrder')).toHaveLength(1);
    await stack.reset();
    expect(stack.destination('onOrder')).toEqual([]);
    await put('o-2');
    await stack.advance('1m');
    expect(stack.destination('onOrder')).toEqual([]);
    expect(seen).toEqual(['o-2']);
  });

  it('resumes paused indexes', async () => {
    stack.pauseIndexes();
    await stack.reset();
    await put('o-1', 'shipped');
    await stack.settled();
    const shipped = await stack.documentClient.send(
      new QueryCommand({
        TableName: 'Orders',
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'shipped' },
      }),
    );
    expect(shipped.Items).toEqual([{ pk: 'o-1', status: 'shipped' }]);
  });

  it('keeps the loaded handler code and the endpoint', async () => {
    await put('o-1');
    await stack.settled();
    const endpoint = stack.endpoint;
    await stack.reset();
    await put('o-2');
    await stack.settled();
    expect(stack.invocations('audit')).toHaveLength(1);
    expect((globalThis as { auditLoads?: number }).auditLoads).toBe(1);
    expect(stack.endpoint).toBe(endpoint);
    const { Item } = await stack.documentClient.send(
      new GetCommand({ TableName: 'Orders', Key: { pk: 'o-2' } }),
    );
    expect(Item).toEqual({ pk: 'o-2', status: 'placed' });
  });
});
