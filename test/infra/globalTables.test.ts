import {
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateEventSourceMappingCommand } from '@aws-sdk/client-lambda';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EddyConfig } from '../../infra/config.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';

/**
 * The classic bug of stream handlers on global tables (docs/global-tables.md §5): a handler
 * deployed in every region sees every change twice, once where it was written and once where it
 * arrived by replication, and a handler that writes back to the item it was told about makes the
 * regions ping-pong. "Each global table produces an independent stream based on all its writes,
 * regardless of the origination point for those writes"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html).
 */
const EAST = 'us-east-1';
const WEST = 'us-west-2';

const config: EddyConfig = {
  tables: [
    {
      TableName: 'Orders',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    },
  ],
  functions: {
    // Bound here to the east stream; the test maps the west stream to its twin.
    notifyEast: {
      handler: './unused.mjs',
      events: [{ stream: { table: 'Orders', StartingPosition: 'TRIM_HORIZON' } }],
    },
    notifyWest: { handler: './unused.mjs' },
  },
};

/** What each region's handler did: emails sent, per region. */
const emails: Record<string, string[]> = { [EAST]: [], [WEST]: [] };
let guarded = false;
let echo = false;
let stack: TestStack;
let west: DynamoDBClient;

/**
 * The handler as a project writes it: on a placed order, send an email; with `echo`, also stamp
 * the order as handled here (a write back to the item the record is about), which the other
 * region's handler sees as news.
 */
function notifier(region: string) {
  return async (event: DynamoDBStreamEvent) => {
    for (const record of event.Records) {
      const image = record.dynamodb?.NewImage;
      if (image === undefined) continue;
      // The guard: act only on changes written in this region. The item says where it was
      // written (`writtenIn`), and the record says where it is read (`awsRegion`).
      if (guarded && image.writtenIn?.S !== record.awsRegion) continue;
      // Its own stamp is not news (without this, one region alone would loop).
      if (image.handledIn?.S === region) continue;
      emails[region]!.push(String(image.pk?.S));
      if (echo) {
        const client = region === EAST ? stack.client : west;
        await client.send(
          new UpdateItemCommand({
            TableName: 'Orders',
            Key: { pk: { S: String(image.pk?.S) } },
            UpdateExpression: 'SET handledIn = :region, writtenIn = :region ADD handled :one',
            ExpressionAttributeValues: { ':region': { S: region }, ':one': { N: '1' } },
          }),
        );
      }
    }
  };
}

beforeAll(async () => {
  stack = await startStack(config, { handlers: { notifyEast: notifier(EAST), notifyWest: notifier(WEST) } });
  west = stack.regionClient(WEST);
});
afterEach(() => {
  emails[EAST] = [];
  emails[WEST] = [];
  guarded = false;
  echo = false;
});
afterAll(() => stack.close());

async function makeGlobal(before?: () => Promise<unknown>): Promise<void> {
  await stack.reset();
  await before?.();
  await stack.client.send(
    new UpdateTableCommand({ TableName: 'Orders', ReplicaUpdates: [{ Create: { RegionName: WEST } }] }),
  );
  await stack.settled();
  const arn = (await west.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!.LatestStreamArn!;
  await stack.lambda.send(
    new CreateEventSourceMappingCommand({
      FunctionName: 'notifyWest',
      EventSourceArn: arn,
      StartingPosition: 'TRIM_HORIZON',
    }),
  );
}

const placeOrder = (client: DynamoDBClient, region: string, pk: string) =>
  client.send(new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: pk }, writtenIn: { S: region } } }));

describe('a stream handler in each region of a global table', () => {
  it('sends the email twice when each region reacts to every change (the bug)', async () => {
    await makeGlobal();
    await placeOrder(stack.client, EAST, 'o-1');
    await stack.settled();
    expect(emails).toEqual({ [EAST]: ['o-1'], [WEST]: ['o-1'] });
  });

  it('sends it once when each handler acts only on changes written in its region (the guard)', async () => {
    await makeGlobal();
    guarded = true;
    await placeOrder(stack.client, EAST, 'o-1');
    await placeOrder(west, WEST, 'o-2');
    await stack.settled();
    expect(emails).toEqual({ [EAST]: ['o-1'], [WEST]: ['o-2'] });
  });

  it('ping-pongs for as long as time runs when handlers write back, and stops with the guard', async () => {
    await makeGlobal();
    stack.setReplicationLag('1s');
    echo = true;
    await placeOrder(stack.client, EAST, 'o-1');
    await stack.advance('10s');
    const bounces = emails[EAST]!.length + emails[WEST]!.length;
    // Each hop takes the 1 s lag: about ten handler runs in ten seconds, and still going.
    expect(bounces).toBeGreaterThanOrEqual(8);
    await stack.advance('10s');
    expect(emails[EAST]!.length + emails[WEST]!.length).toBeGreaterThan(bounces);

    await makeGlobal();
    stack.setReplicationLag('1s');
    emails[EAST] = [];
    emails[WEST] = [];
    guarded = true;
    await placeOrder(stack.client, EAST, 'o-2');
    await stack.advance('20s');
    expect(emails).toEqual({ [EAST]: ['o-2'], [WEST]: [] });
    const item = await west.send(new GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o-2' } } }));
    expect(item.Item?.handled).toEqual({ N: '1' });
  });
});

describe('replication in the test kit', () => {
  it('holds writes back while paused and delivers them in order on resume', async () => {
    await makeGlobal();
    stack.pauseReplication();
    await placeOrder(stack.client, EAST, 'o-1');
    await stack.settled();
    expect(
      (await west.send(new GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o-1' } } }))).Item,
    ).toBeUndefined();
    stack.resumeReplication();
    await stack.settled();
    expect(
      (await west.send(new GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o-1' } } }))).Item,
    ).toBeDefined();
  });

  it('resolves concurrent writes of one item the same way in both regions: the later write wins', async () => {
    await makeGlobal();
    stack.pauseReplication();
    await placeOrder(stack.client, EAST, 'o-1');
    await stack.advance('1ms');
    await placeOrder(west, WEST, 'o-1');
    stack.resumeReplication();
    await stack.settled();
    for (const client of [stack.client, west]) {
      const item = await client.send(new GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o-1' } } }));
      expect(item.Item?.writtenIn).toEqual({ S: WEST });
    }
  });

  it('breaks a tie of the same millisecond by region name, in both regions', async () => {
    await makeGlobal();
    stack.pauseReplication();
    await placeOrder(west, WEST, 'o-1');
    await placeOrder(stack.client, EAST, 'o-1');
    stack.resumeReplication();
    await stack.settled();
    for (const client of [stack.client, west]) {
      const item = await client.send(new GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o-1' } } }));
      expect(item.Item?.writtenIn).toEqual({ S: WEST });
    }
  });
});

describe("the replica's stream", () => {
  const records = (functionName: string) =>
    stack.invocations(functionName).flatMap((entry) => (entry.event as DynamoDBStreamEvent).Records);

  it('carries writes that arrived by replication as its own records: its region and stream, no identity', async () => {
    await makeGlobal();
    await placeOrder(stack.client, EAST, 'o-1');
    await stack.settled();
    const [record] = records('notifyWest');
    const westArn = (await west.send(new DescribeTableCommand({ TableName: 'Orders' }))).Table!
      .LatestStreamArn;
    expect(record).toMatchObject({
      eventName: 'INSERT',
      awsRegion: WEST,
      eventSource: 'aws:dynamodb',
      eventSourceARN: westArn,
      dynamodb: { Keys: { pk: { S: 'o-1' } }, NewImage: { pk: { S: 'o-1' }, writtenIn: { S: EAST } } },
    });
    expect(record).not.toHaveProperty('userIdentity');
  });

  it('carries a TTL deletion made in the other region as a plain REMOVE, without the TTL identity', async () => {
    // "replicas of a global table do not carry the marker" (docs/streams-and-lambda.md §5.11).
    await makeGlobal(() =>
      stack.client.send(
        new UpdateTimeToLiveCommand({
          TableName: 'Orders',
          TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        }),
      ),
    );
    const expiresAt = Math.floor(stack.clock.now() / 1000) - 60;
    await stack.client.send(
      new PutItemCommand({
        TableName: 'Orders',
        Item: { pk: { S: 'o-1' }, expiresAt: { N: String(expiresAt) } },
      }),
    );
    await stack.settled();
    await stack.expireNow();
    const east = records('notifyEast').find((record) => record.eventName === 'REMOVE');
    const westRemove = records('notifyWest').find((record) => record.eventName === 'REMOVE');
    expect(east?.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
    expect(westRemove).toMatchObject({ awsRegion: WEST, dynamodb: { Keys: { pk: { S: 'o-1' } } } });
    expect(westRemove).not.toHaveProperty('userIdentity');
    expect(
      (await west.send(new GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o-1' } } }))).Item,
    ).toBeUndefined();
  });
});

describe('globalTables.replicationLag in the config', () => {
  it('delays every replicated write by the lag on the virtual clock', async () => {
    const lagged = await startStack({ ...config, functions: {}, globalTables: { replicationLag: '2s' } });
    try {
      const lagWest = lagged.regionClient(WEST);
      await lagged.client.send(
        new UpdateTableCommand({ TableName: 'Orders', ReplicaUpdates: [{ Create: { RegionName: WEST } }] }),
      );
      await placeOrder(lagged.client, EAST, 'o-1');
      await lagged.settled();
      const get = () => lagWest.send(new GetItemCommand({ TableName: 'Orders', Key: { pk: { S: 'o-1' } } }));
      expect((await get()).Item).toBeUndefined();
      await lagged.advance('1999ms');
      expect((await get()).Item).toBeUndefined();
      await lagged.advance('1ms');
      expect((await get()).Item).toEqual({ pk: { S: 'o-1' }, writtenIn: { S: EAST } });
    } finally {
      await lagged.close();
    }
  });
});
