import {
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { EddyServer } from '../../infra/host/server.js';
import { ChangeLog } from '../../streams/changeLog.js';
import { StreamsService } from '../../streams/streamsApi/streamsService.js';
import { START } from './helpers.js';

/** The Streams API over real HTTP with the AWS SDK (`@aws-sdk/client-dynamodb-streams`). */

const CREDENTIALS = { accessKeyId: 'AKIDEDDYTEST', secretAccessKey: 'eddy-test-secret' };

describe('DynamoDB Streams over HTTP', () => {
  let server: EddyServer;
  let clock: VirtualClock;
  let dynamodb: DynamoDBClient;
  let streams: DynamoDBStreamsClient;

  beforeEach(async () => {
    clock = new VirtualClock(START);
    const engine = new Engine({ clock });
    const service = new StreamsService(ChangeLog.attach(engine, { shardCount: 2 }));
    server = new EddyServer({ engine, port: 0 });
    server.registerService(service.protocol);
    const { url } = await server.listen();
    const config = { endpoint: url, region: 'us-east-1', credentials: CREDENTIALS, maxAttempts: 1 };
    dynamodb = new DynamoDBClient(config);
    streams = new DynamoDBStreamsClient(config);
  });

  afterEach(async () => {
    dynamodb.destroy();
    streams.destroy();
    await server.close();
  });

  async function createTable(
    viewType: 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY' = 'NEW_AND_OLD_IMAGES',
  ): Promise<string> {
    const created = await dynamodb.send(
      new CreateTableCommand({
        TableName: 'Orders',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
        StreamSpecification: { StreamEnabled: true, StreamViewType: viewType },
      }),
    );
    return created.TableDescription!.LatestStreamArn!;
  }

  async function readEverything(arn: string) {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    const records = [];
    for (const shard of StreamDescription!.Shards!) {
      let iterator = (
        await streams.send(
          new GetShardIteratorCommand({
            StreamArn: arn,
            ShardId: shard.ShardId,
            ShardIteratorType: 'TRIM_HORIZON',
          }),
        )
      ).ShardIterator;
      while (iterator !== undefined) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        records.push(...page.Records!);
        if (page.Records!.length === 0) break;
        iterator = page.NextShardIterator;
      }
    }
    return records.sort((a, b) =>
      BigInt(a.dynamodb!.SequenceNumber!) < BigInt(b.dynamodb!.SequenceNumber!) ? -1 : 1,
    );
  }

  it('lists, describes and reads a stream with the SDK', async () => {
    const arn = await createTable();
    await dynamodb.send(
      new PutItemCommand({ TableName: 'Orders', Item: { id: { S: '1' }, total: { N: '10' } } }),
    );
    await dynamodb.send(
      new PutItemCommand({ TableName: 'Orders', Item: { id: { S: '1' }, total: { N: '12' } } }),
    );
    await dynamodb.send(new DeleteItemCommand({ TableName: 'Orders', Key: { id: { S: '1' } } }));

    const listed = await streams.send(new ListStreamsCommand({ TableName: 'Orders' }));
    expect(listed.Streams).toEqual([
      { StreamArn: arn, TableName: 'Orders', StreamLabel: '2026-01-01T12:00:00.000' },
    ]);
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    expect(StreamDescription).toMatchObject({
      StreamArn: arn,
      StreamStatus: 'ENABLED',
      StreamViewType: 'NEW_AND_OLD_IMAGES',
      TableName: 'Orders',
      CreationRequestDateTime: new Date(START),
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    });
    expect(StreamDescription!.Shards).toHaveLength(2);

    const records = await readEverything(arn);
    expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(records[1]).toMatchObject({
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        ApproximateCreationDateTime: new Date(START),
        Keys: { id: { S: '1' } },
        NewImage: { id: { S: '1' }, total: { N: '12' } },
        OldImage: { id: { S: '1' }, total: { N: '10' } },
        StreamViewType: 'NEW_AND_OLD_IMAGES',
        SizeBytes: 3 + 10 + 10, // Keys id:"1" = 3; each image 3 + "total" 5 + N 2
      },
    });
    expect(records[0]!.eventID).toMatch(/^[0-9a-f]{32}$/);
  });

  it('returns the service errors as the SDK’s exception classes', async () => {
    const arn = await createTable('KEYS_ONLY');
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    const shardId = StreamDescription!.Shards![0]!.ShardId!;
    await expect(
      streams.send(
        new GetShardIteratorCommand({ StreamArn: arn, ShardId: `${shardId}0`, ShardIteratorType: 'LATEST' }),
      ),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
    await expect(
      streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shardId,
          ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
    await expect(
      streams.send(new GetRecordsCommand({ ShardIterator: 'not-an-iterator' })),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Invalid ShardIterator',
    });

    await dynamodb.send(new PutItemCommand({ TableName: 'Orders', Item: { id: { S: 'old' } } }));
    const iterators = await Promise.all(
      StreamDescription!.Shards!.map(async (shard) => ({
        shardId: shard.ShardId!,
        iterator: (
          await streams.send(
            new GetShardIteratorCommand({
              StreamArn: arn,
              ShardId: shard.ShardId,
              ShardIteratorType: 'TRIM_HORIZON',
            }),
          )
        ).ShardIterator!,
      })),
    );
    let holder: { shardId: string; sequenceNumber: string } | undefined;
    for (const { shardId, iterator } of iterators) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      if (page.Records!.length > 0)
        holder = { shardId, sequenceNumber: page.Records![0]!.dynamodb!.SequenceNumber! };
    }
    await clock.advance('16m');
    await expect(
      streams.send(new GetRecordsCommand({ ShardIterator: iterators[0]!.iterator })),
    ).rejects.toBeInstanceOf(ExpiredIteratorException);
    await clock.advance('24h');
    await expect(
      streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: holder!.shardId,
          ShardIteratorType: 'AT_SEQUENCE_NUMBER',
          SequenceNumber: holder!.sequenceNumber,
        }),
      ),
    ).rejects.toBeInstanceOf(TrimmedDataAccessException);
  });

  it('keeps a disabled stream readable and shows the shard end without NextShardIterator', async () => {
    const arn = await createTable('KEYS_ONLY');
    await dynamodb.send(new PutItemCommand({ TableName: 'Orders', Item: { id: { S: '1' } } }));
    await dynamodb.send(
      new UpdateTableCommand({ TableName: 'Orders', StreamSpecification: { StreamEnabled: false } }),
    );
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    expect(StreamDescription!.StreamStatus).toBe('DISABLED');
    let total = 0;
    for (const shard of StreamDescription!.Shards!) {
      expect(shard.SequenceNumberRange!.EndingSequenceNumber).toMatch(/^\d+$/);
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shard.ShardId,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      const page = await streams.send(new GetRecordsCommand({ ShardIterator }));
      total += page.Records!.length;
      expect(page.NextShardIterator).toBeUndefined();
    }
    expect(total).toBe(1);
  });
});
