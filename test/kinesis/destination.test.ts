import {
  DescribeKinesisStreamingDestinationCommand,
  DisableKinesisStreamingDestinationCommand,
  DynamoDBClient,
  EnableKinesisStreamingDestinationCommand,
  UpdateKinesisStreamingDestinationCommand,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KinesisMessages, NO_ENDPOINT } from '../../core/kinesis/destinations.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { KINESIS_CREDENTIALS, type Kinesalite, startKinesalite } from '../helpers/kinesalite.js';

/**
 * Kinesis Data Streams destinations against kinesalite (a Kinesis server from npm), over HTTP with
 * the AWS SDK: the state machine and texts recorded against DynamoDB in 2026 (the ack-api-quirks
 * lab, findings DDB-TABLE-268, -299, -300, -301, -302, -318; docs/kinesis-destinations.md §2), and
 * the records read back with GetRecords in the format of the AWS documentation's example
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/kds.html; docs/kinesis-destinations.md §4).
 */
const TABLES = [
  {
    TableName: 'Orders',
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' as const },
      { AttributeName: 'sk', KeyType: 'RANGE' as const },
    ],
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' as const },
      { AttributeName: 'sk', AttributeType: 'N' as const },
    ],
    BillingMode: 'PAY_PER_REQUEST' as const,
  },
];

let kinesis: Kinesalite;
let stack: TestStack;
let client: DynamoDBClient;
let streamArn: string;
let streamCount = 0;

beforeAll(async () => {
  kinesis = await startKinesalite();
});
afterAll(() => kinesis.close());

beforeEach(async () => {
  stack = await startStack(
    { tables: TABLES },
    { endpoint: true, kinesis: { endpoint: kinesis.endpoint, credentials: KINESIS_CREDENTIALS } },
  );
  client = new DynamoDBClient({
    endpoint: stack.endpoint!,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
  streamArn = await kinesis.createStream(`orders-changes-${++streamCount}`, 2);
});
afterEach(async () => {
  client.destroy();
  await stack.stack.close();
});

const streamName = () => streamArn.slice(streamArn.indexOf('/') + 1);

async function describe_(): Promise<Record<string, unknown>[]> {
  const output = await client.send(new DescribeKinesisStreamingDestinationCommand({ TableName: 'Orders' }));
  expect(output.TableName).toBe('Orders');
  return output.KinesisDataStreamDestinations as Record<string, unknown>[];
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; status?: number }> {
  const error = await promise.then(
    () => undefined,
    (caught: Error & { $metadata?: { httpStatusCode?: number } }) => caught,
  );
  expect(error).toBeDefined();
  return { name: error!.name, message: error!.message, status: error!.$metadata?.httpStatusCode };
}

async function enable(arn = streamArn, precision?: 'MILLISECOND' | 'MICROSECOND') {
  const output = await client.send(
    new EnableKinesisStreamingDestinationCommand({
      TableName: 'Orders',
      StreamArn: arn,
      ...(precision
        ? { EnableKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: precision } }
        : {}),
    }),
  );
  await stack.settled();
  return output;
}

describe('the destination state machine', () => {
  it('lists nothing at first, then ENABLING → ACTIVE with the shapes DynamoDB answers', async () => {
    expect(await describe_()).toEqual([]);
    const output = await client.send(
      new EnableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
    );
    // DDB-TABLE-299: the configuration is echoed as {} when none was sent.
    expect(output).toMatchObject({
      DestinationStatus: 'ENABLING',
      EnableKinesisStreamingConfiguration: {},
      StreamArn: streamArn,
      TableName: 'Orders',
    });
    await stack.settled();
    // No precision field until one is set (DDB-TABLE-300).
    expect(await describe_()).toEqual([{ StreamArn: streamArn, DestinationStatus: 'ACTIVE' }]);
  });

  it('takes the table ARN for TableName', async () => {
    const table = await stack.client.send(
      new DescribeKinesisStreamingDestinationCommand({ TableName: 'Orders' }),
    );
    expect(table.KinesisDataStreamDestinations).toEqual([]);
    const arn = 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders';
    const output = await client.send(
      new EnableKinesisStreamingDestinationCommand({ TableName: arn, StreamArn: streamArn }),
    );
    expect(output.TableName).toBe('Orders');
  });

  it('refuses a second Enable, of the same or another stream, while one is live (DDB-TABLE-268, -299)', async () => {
    await enable();
    const other = await kinesis.createStream(`other-${streamCount}`);
    for (const arn of [streamArn, other]) {
      expect(
        await failure(
          client.send(new EnableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: arn })),
        ),
      ).toEqual({ name: 'ValidationException', message: KinesisMessages.enableNotAllowed, status: 400 });
    }
  });

  it('fails a missing stream, another region and another account asynchronously, and keeps the failed entries (DDB-TABLE-318, -268)', async () => {
    const missing = 'arn:aws:kinesis:us-east-1:000000000000:stream/no-such-stream';
    expect((await enable(missing)).DestinationStatus).toBe('ENABLING');
    const otherRegion = streamArn.replace('us-east-1', 'eu-west-1');
    await enable(otherRegion);
    const otherAccount = streamArn.replace('000000000000', '111111111111');
    await enable(otherAccount);
    expect(await describe_()).toEqual([
      {
        StreamArn: otherAccount,
        DestinationStatus: 'ENABLE_FAILED',
        DestinationStatusDescription: KinesisMessages.notActive,
      },
      {
        StreamArn: otherRegion,
        DestinationStatus: 'ENABLE_FAILED',
        DestinationStatusDescription: KinesisMessages.otherRegion,
      },
      {
        StreamArn: missing,
        DestinationStatus: 'ENABLE_FAILED',
        DestinationStatusDescription: KinesisMessages.noPermission,
      },
    ]);
    // Enabling a failed entry again flips it rather than adding one.
    await enable(missing);
    expect((await describe_()).filter((entry) => entry.StreamArn === missing)).toHaveLength(1);
    // A good stream beside the failed ones.
    await enable();
    expect((await describe_())[0]).toEqual({ StreamArn: streamArn, DestinationStatus: 'ACTIVE' });
  });

  it('Disable: DISABLING then a DISABLED entry that stays; the refusals of DDB-TABLE-301 and -302', async () => {
    const never = await kinesis.createStream(`never-${streamCount}`);
    expect(
      await failure(
        client.send(new DisableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: never })),
      ),
    ).toEqual({ name: 'ValidationException', message: KinesisMessages.disableNotActive, status: 400 });
    await enable();
    expect(
      await failure(
        client.send(
          new DisableKinesisStreamingDestinationCommand({
            TableName: 'Orders',
            StreamArn: streamArn,
            EnableKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: 'MICROSECOND' },
          }),
        ),
      ),
    ).toEqual({
      name: 'ValidationException',
      message: KinesisMessages.disableWithConfiguration,
      status: 400,
    });
    const output = await client.send(
      new DisableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
    );
    expect(output).toMatchObject({
      TableName: 'Orders',
      StreamArn: streamArn,
      DestinationStatus: 'DISABLING',
    });
    await stack.settled();
    expect(await describe_()).toEqual([{ StreamArn: streamArn, DestinationStatus: 'DISABLED' }]);
    expect(
      await failure(
        client.send(
          new DisableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
        ),
      ),
    ).toEqual({ name: 'ValidationException', message: KinesisMessages.disableNotActive, status: 400 });
    expect(
      await failure(
        client.send(
          new UpdateKinesisStreamingDestinationCommand({
            TableName: 'Orders',
            StreamArn: streamArn,
            UpdateKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: 'MICROSECOND' },
          }),
        ),
      ),
    ).toEqual({
      name: 'ValidationException',
      message: KinesisMessages.updateNotActive('Orders'),
      status: 400,
    });
    // Re-enable flips the DISABLED entry (DDB-TABLE-301).
    await enable();
    expect(await describe_()).toEqual([{ StreamArn: streamArn, DestinationStatus: 'ACTIVE' }]);
  });

  it('Update: UPDATING with the new precision, then ACTIVE; the refusals of DDB-TABLE-300 and -302', async () => {
    await enable();
    const update = (configuration?: object, arn = streamArn) =>
      client.send(
        new UpdateKinesisStreamingDestinationCommand({
          TableName: 'Orders',
          StreamArn: arn,
          ...(configuration ? { UpdateKinesisStreamingConfiguration: configuration } : {}),
        }),
      );
    for (const configuration of [undefined, {}])
      expect(await failure(update(configuration))).toEqual({
        name: 'ValidationException',
        message: KinesisMessages.updateWithoutConfiguration,
        status: 400,
      });
    // Absent means MILLISECOND: asking for it again is refused.
    const tableId = stack.engine.region('000000000000', 'us-east-1').tables.get('Orders')!.tableId;
    expect(await failure(update({ ApproximateCreationDateTimePrecision: 'MILLISECOND' }))).toEqual({
      name: 'ValidationException',
      message: KinesisMessages.precisionAlreadySet('MILLISECOND', tableId, streamArn),
      status: 400,
    });
    const never = streamArn.replace('orders-changes', 'nothing');
    expect(await failure(update({ ApproximateCreationDateTimePrecision: 'MICROSECOND' }, never))).toEqual({
      name: 'ValidationException',
      message: KinesisMessages.updateUnknown(never),
      status: 400,
    });
    const output = await update({ ApproximateCreationDateTimePrecision: 'MICROSECOND' });
    expect(output).toMatchObject({
      DestinationStatus: 'UPDATING',
      UpdateKinesisStreamingConfiguration: { ApproximateCreationDateTimePrecision: 'MICROSECOND' },
    });
    await stack.settled();
    expect(await describe_()).toEqual([
      {
        StreamArn: streamArn,
        DestinationStatus: 'ACTIVE',
        ApproximateCreationDateTimePrecision: 'MICROSECOND',
      },
    ]);
  });

  it('answers ResourceNotFoundException for a missing table, and the constraint list for a short ARN', async () => {
    expect(
      await failure(client.send(new DescribeKinesisStreamingDestinationCommand({ TableName: 'Nope' }))),
    ).toEqual({
      name: 'ResourceNotFoundException',
      message: 'Requested resource not found: Table: Nope not found',
      status: 400,
    });
    expect(
      await failure(
        client.send(
          new EnableKinesisStreamingDestinationCommand({ TableName: 'Nope', StreamArn: streamArn }),
        ),
      ),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
    const short = await failure(
      client.send(
        new EnableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: 'not-an-arn' }),
      ),
    );
    expect(short.name).toBe('ValidationException');
    expect(short.message).toBe(
      "1 validation error detected: Value 'not-an-arn' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37",
    );
  });
});

describe('the records eddy writes', () => {
  it('writes every change in the documented record format, each item in commit order', async () => {
    await enable();
    const documents = stack.documentClient;
    await documents.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'a', sk: 1, amount: 10 } }));
    await documents.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'b', sk: 1, amount: 5 } }));
    for (let step = 1; step <= 30; step++)
      await documents.send(
        new UpdateCommand({
          TableName: 'Orders',
          Key: { pk: 'a', sk: 1 },
          UpdateExpression: 'SET amount = :t',
          ExpressionAttributeValues: { ':t': 10 + step },
        }),
      );
    await documents.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: 'Orders', Item: { pk: 'c', sk: 2, amount: 1 } } },
          { Delete: { TableName: 'Orders', Key: { pk: 'b', sk: 1 } } },
        ],
      }),
    );
    await documents.send(new DeleteCommand({ TableName: 'Orders', Key: { pk: 'a', sk: 1 } }));
    await stack.settled();

    const records = await kinesis.readAll(streamName());
    expect(records).toHaveLength(2 + 30 + 2 + 1);
    const ofA = records.filter(
      (record) => (record.data.dynamodb as { Keys: { pk: { S: string } } }).Keys.pk.S === 'a',
    );
    // One item's changes: one partition key, hence one shard, in commit order.
    expect(new Set(ofA.map((record) => record.partitionKey)).size).toBe(1);
    expect(ofA.map((record) => record.data.eventName)).toEqual([
      'INSERT',
      ...Array(30).fill('MODIFY'),
      'REMOVE',
    ]);
    expect(
      ofA
        .slice(1, -1)
        .map((record) => (record.data.dynamodb as { NewImage: { amount: { N: string } } }).NewImage.amount.N),
    ).toEqual(Array.from({ length: 30 }, (_, step) => String(11 + step)));

    // The AWS documentation's example record: these members in this order, images in DynamoDB JSON.
    const modify = ofA[1]!.data;
    expect(Object.keys(modify)).toEqual([
      'awsRegion',
      'eventID',
      'eventName',
      'userIdentity',
      'recordFormat',
      'tableName',
      'dynamodb',
      'eventSource',
    ]);
    expect(modify).toMatchObject({
      awsRegion: 'us-east-1',
      eventName: 'MODIFY',
      userIdentity: null,
      recordFormat: 'application/json',
      tableName: 'Orders',
      eventSource: 'aws:dynamodb',
    });
    expect(modify.eventID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const body = modify.dynamodb as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'ApproximateCreationDateTime',
      'Keys',
      'NewImage',
      'OldImage',
      'SizeBytes',
    ]);
    expect(body.ApproximateCreationDateTime).toBe(stack.clock.now());
    expect(body.Keys).toEqual({ pk: { S: 'a' }, sk: { N: '1' } });
    expect(body.NewImage).toEqual({ pk: { S: 'a' }, sk: { N: '1' }, amount: { N: '11' } });
    expect(body.OldImage).toEqual({ pk: { S: 'a' }, sk: { N: '1' }, amount: { N: '10' } });
    expect(body.SizeBytes).toBeGreaterThan(0);
    // An INSERT has no OldImage, a REMOVE no NewImage.
    expect(Object.keys(ofA[0]!.data.dynamodb as object)).not.toContain('OldImage');
    expect(Object.keys(ofA.at(-1)!.data.dynamodb as object)).not.toContain('NewImage');
    expect(new Set(records.map((record) => record.data.eventID)).size).toBe(records.length);
  });

  it('writes ApproximateCreationDateTime in microseconds once asked to', async () => {
    await enable(streamArn, 'MICROSECOND');
    await stack.documentClient.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'a', sk: 1 } }));
    await stack.settled();
    const [record] = await kinesis.readAll(streamName());
    expect(
      (record!.data.dynamodb as { ApproximateCreationDateTime: number }).ApproximateCreationDateTime,
    ).toBe(stack.clock.now() * 1000);
  });

  it('writes large bursts in PutRecords batches within Kinesis limits, keeping each item in order', async () => {
    await enable();
    const writes: Promise<unknown>[] = [];
    for (let index = 0; index < 800; index++)
      writes.push(
        stack.documentClient.send(
          new PutCommand({ TableName: 'Orders', Item: { pk: `k${index % 520}`, sk: 1, n: index } }),
        ),
      );
    await Promise.all(writes);
    await stack.settled();
    const records = await kinesis.readAll(streamName());
    expect(records).toHaveLength(800);
    const seen = new Map<string, number>();
    for (const record of records) {
      const image = (record.data.dynamodb as { NewImage: { pk: { S: string }; n: { N: string } } }).NewImage;
      const previous = seen.get(image.pk.S) ?? -1;
      expect(Number(image.n.N)).toBeGreaterThan(previous);
      seen.set(image.pk.S, Number(image.n.N));
    }
    expect(stack.stack.kinesis!.counts().calls).toBeGreaterThanOrEqual(3);
  });

  it('writes nothing committed before the Enable or after the Disable', async () => {
    await stack.documentClient.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'before', sk: 1 } }));
    await enable();
    await stack.documentClient.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'during', sk: 1 } }));
    await client.send(
      new DisableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
    );
    await stack.documentClient.send(new PutCommand({ TableName: 'Orders', Item: { pk: 'after', sk: 1 } }));
    await stack.settled();
    const keys = (await kinesis.readAll(streamName())).map(
      (record) => (record.data.dynamodb as { Keys: { pk: { S: string } } }).Keys.pk.S,
    );
    expect(keys).toEqual(['during']);
  });

  it('keeps the changes while Kinesis is unreachable and writes them once it answers again', async () => {
    await enable();
    await kinesis.pause();
    try {
      await stack.documentClient.send(
        new PutCommand({ TableName: 'Orders', Item: { pk: 'x', sk: 1, n: 1 } }),
      );
      await stack.documentClient.send(
        new PutCommand({ TableName: 'Orders', Item: { pk: 'x', sk: 1, n: 2 } }),
      );
      await stack.settled();
    } finally {
      await kinesis.resume();
    }
    // The back-off runs on the stack's virtual clock.
    await stack.advance('10s');
    const images = (await kinesis.readAll(streamName())).map(
      (record) => (record.data.dynamodb as { NewImage: { n: { N: string } } }).NewImage.n.N,
    );
    expect(images).toEqual(['1', '2']);
    expect(stack.stack.kinesis!.counts().retries).toBeGreaterThan(0);
  });
});

describe('without a Kinesis endpoint', () => {
  it('fails the Enable with a description saying how to configure one', async () => {
    const bare = await startStack({ tables: TABLES });
    try {
      await bare.client.send(
        new EnableKinesisStreamingDestinationCommand({ TableName: 'Orders', StreamArn: streamArn }),
      );
      await bare.settled();
      await new Promise((resolve) => setImmediate(resolve));
      const output = await bare.client.send(
        new DescribeKinesisStreamingDestinationCommand({ TableName: 'Orders' }),
      );
      expect(output.KinesisDataStreamDestinations).toEqual([
        {
          StreamArn: streamArn,
          DestinationStatus: 'ENABLE_FAILED',
          DestinationStatusDescription: NO_ENDPOINT,
        },
      ]);
    } finally {
      await bare.stack.close();
    }
  });
});
