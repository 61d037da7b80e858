import { DescribeTableCommand, PutItemCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { CreateEventSourceMappingCommand, UpdateEventSourceMappingCommand } from '@aws-sdk/client-lambda';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { TableConfig } from '../../infra/config.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { rejection } from './capacityServer.js';

/**
 * GetRecords throttling of DynamoDB Streams (docs/capacity.md §5.1), over HTTP with the SDK's
 * DynamoDBStreamsClient. Evidence:
 * - "you can design for up to two processes to read from the same DynamoDB Streams shard at the
 *   same time. Exceeding this limit can result in request throttling"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-dynamodb-streams-simultaneous-shard-readers);
 * - GetRecords' LimitExceededException, "More than 2 processes are reading from the same streams
 *   shard at the same time"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html);
 * - the live answer `Rate exceeded`, HTTP 400, from DynamoDBStreamsClient (aws/aws-sdk-java-v2#470);
 * - Lambda reads each shard with one poller per event source mapping
 *   (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html).
 */
const orders: TableConfig = {
  TableName: 'Orders',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
};

let stack: TestStack | undefined;
const clients: DynamoDBStreamsClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await stack?.close();
  stack = undefined;
});

/** A Streams client on the stack's port that never retries, to see each answer. */
function streamsClient(testStack: TestStack): DynamoDBStreamsClient {
  const client = new DynamoDBStreamsClient({
    endpoint: testStack.endpoint!,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  clients.push(client);
  return client;
}

async function streamOf(testStack: TestStack) {
  const arn = (await testStack.client.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!
    .LatestStreamArn!;
  const streams = streamsClient(testStack);
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
  return { arn, streams, shardIds: StreamDescription!.Shards!.map((shard) => shard.ShardId!) };
}

/** A reader of one shard: a chain of iterators, each GetRecords continuing with the next. */
async function chain(streams: DynamoDBStreamsClient, arn: string, shardId: string) {
  let iterator = (
    await streams.send(
      new GetShardIteratorCommand({ StreamArn: arn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }),
    )
  ).ShardIterator!;
  return {
    async read() {
      const answer = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      iterator = answer.NextShardIterator!;
      return answer.Records ?? [];
    },
  };
}

const put = (id: string, step: string) =>
  new PutItemCommand({ TableName: 'Orders', Item: { id: { S: id }, step: { S: step } } });

describe('GetRecords with capacity enforced', () => {
  it('serves two readers of a shard and answers a third LimitExceededException "Rate exceeded" (HTTP 400)', async () => {
    stack = await startStack({ tables: [orders] }, { endpoint: true, capacity: { mode: 'enforce' } });
    const { arn, streams, shardIds } = await streamOf(stack);
    const shard = shardIds[0]!;
    const first = await chain(streams, arn, shard);
    const second = await chain(streams, arn, shard);
    const third = await chain(streams, arn, shard);
    await first.read();
    await second.read();

    const error = await rejection(third.read());
    expect(error.name).toBe('LimitExceededException');
    expect(error.message).toBe('Rate exceeded');
    expect((error.$metadata as { httpStatusCode: number }).httpStatusCode).toBe(400);

    // The first two keep their places by reading on; another shard is another count.
    await stack.advance('500ms');
    await first.read();
    await second.read();
    expect((await rejection(third.read())).name).toBe('LimitExceededException');
    await (await chain(streams, arn, shardIds[1]!)).read();

    // A reader that has not read for a second has left: the third gets in, with the same iterator.
    await stack.advance('1s');
    await first.read();
    await third.read();
    expect((await rejection(second.read())).name).toBe('LimitExceededException');
  });

  it('counts an event source mapping as a reader of every shard while it runs', async () => {
    stack = await startStack(
      {
        tables: [orders],
        functions: {
          audit: {
            handler: 'inline',
            events: [{ stream: { table: 'Orders', StartingPosition: 'TRIM_HORIZON' } }],
          },
        },
      },
      { endpoint: true, capacity: { mode: 'enforce' }, handlers: { audit: async () => {} } },
    );
    const { arn, streams, shardIds } = await streamOf(stack);
    for (const shardId of shardIds) await (await chain(streams, arn, shardId)).read();
    const late = await chain(streams, arn, shardIds[0]!);
    expect((await rejection(late.read())).name).toBe('LimitExceededException');

    // Disabled, the mapping reads no more: its place is free at once.
    const [mapping] = stack.stack.mappings.inspect();
    await stack.lambda.send(new UpdateEventSourceMappingCommand({ UUID: mapping!.uuid, Enabled: false }));
    await stack.advance('1s');
    await late.read();
  });

  it('holds a mapping back while two readers hold a shard, then delivers every record in order', async () => {
    const delivered: string[] = [];
    stack = await startStack(
      {
        tables: [orders],
        functions: { onOrder: { handler: 'inline' } },
      },
      {
        endpoint: true,
        capacity: { mode: 'enforce' },
        handlers: {
          onOrder: async (event: DynamoDBStreamEvent) => {
            for (const record of event.Records) delivered.push(record.dynamodb!.NewImage!.step!.S!);
          },
        },
      },
    );
    const { arn, streams, shardIds } = await streamOf(stack);
    const readers: Awaited<ReturnType<typeof chain>>[] = [];
    for (const shardId of shardIds) {
      readers.push(await chain(streams, arn, shardId), await chain(streams, arn, shardId));
    }
    const readAll = async () => {
      for (const reader of readers) await reader.read();
    };
    await readAll();
    const steps = ['s1', 's2', 's3', 's4', 's5'];
    for (const step of steps) await stack.client.send(put('cart', step));
    const { UUID } = await stack.lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'onOrder',
        EventSourceArn: arn,
        StartingPosition: 'TRIM_HORIZON',
      }),
    );

    // Ten seconds of both readers polling every 250 ms: the mapping's polls are refused.
    for (let tick = 0; tick < 40; tick++) {
      await stack.advance('250ms');
      await readAll();
    }
    expect(delivered).toEqual([]);
    expect(stack.stack.mappings.inspect(UUID!).readThrottles).toBeGreaterThan(0);

    // The readers stop: after its back-off the mapping reads, nothing lost, in order.
    await stack.advance('2m');
    expect(delivered).toEqual(steps);
  });

  it('serves one reader of a shard of a global table replica', async () => {
    // "For global tables, we recommend you limit the number of simultaneous readers to one"
    // (ServiceQuotas.html, as above): eddy holds the replica's readers to that.
    const globalOrders: TableConfig = {
      ...orders,
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    };
    stack = await startStack({ tables: [globalOrders] }, { endpoint: true, capacity: { mode: 'enforce' } });
    await stack.client.send(
      new UpdateTableCommand({
        TableName: 'Orders',
        ReplicaUpdates: [{ Create: { RegionName: 'us-west-2' } }],
      }),
    );
    await stack.advance('1m');
    const { arn, streams, shardIds } = await streamOf(stack);
    await (await chain(streams, arn, shardIds[0]!)).read();
    const second = await chain(streams, arn, shardIds[0]!);
    expect((await rejection(second.read())).name).toBe('LimitExceededException');
    await stack.advance('1s');
    await second.read();
  });

  it('throttles no reader while capacity is not enforced on the table', async () => {
    stack = await startStack({ tables: [orders] }, { endpoint: true });
    const { arn, streams, shardIds } = await streamOf(stack);
    for (let count = 0; count < 5; count++) await (await chain(streams, arn, shardIds[0]!)).read();
  });
});
