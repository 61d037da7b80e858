import {
  BatchWriteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProvisionedThroughputExceededException } from '../../core/errors/index.js';
import { ThrottleMessages } from '../../core/throttling/throttle.js';
import {
  type CapacityServer,
  itemOfSize,
  pkTable,
  rejection,
  startCapacityServer,
} from './capacityServer.js';

/**
 * Provisioned capacity (docs/capacity.md §2.1). Evidence:
 * - burst: "DynamoDB currently retains up to 5 minutes (300 seconds) of unused read and write
 *   capacity" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html);
 * - the exception, its message and ThrottlingReasons: botocore's service-2.json
 *   (ProvisionedThroughputExceededException with `ThrottlingReasons`, the table message in
 *   TransactionCanceledException's reason list) and
 *   https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html.
 */
const TABLE = 'Scores';
const ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Scores';

async function createProvisioned(eddy: CapacityServer, read: number, write: number) {
  await eddy.once.send(pkTable(TABLE, [read, write]));
}

const put = (key: string) => new PutItemCommand({ TableName: TABLE, Item: itemOfSize(key, 1024) });

/** Spends the write burst in process (1 KB writes until one is throttled); the HTTP path is what the tests watch. */
function spendWriteBurst(eddy: CapacityServer): void {
  for (let index = 0; ; index++) {
    try {
      eddy.engine.execute('PutItem', { TableName: TABLE, Item: itemOfSize(`spent-${index}`, 1024) });
    } catch (error) {
      if ((error as Error).name === 'ProvisionedThroughputExceededException') return;
      throw error;
    }
  }
}

describe('a provisioned table of 5 WCU', () => {
  let eddy: CapacityServer;
  let next = 0;
  const writeOnce = () => eddy.once.send(put(`k${next++}`));

  beforeEach(async () => {
    eddy = await startCapacityServer();
    await createProvisioned(eddy, 5, 5);
  });
  afterEach(() => eddy.close());

  it('takes 1,500 writes of 1 KB in a burst after 300 s idle, then throws ProvisionedThroughputExceededException', async () => {
    await eddy.clock.advance('300s');
    for (let batch = 0; batch < 60; batch++) {
      const items = Array.from({ length: 25 }, (_, index) => ({
        PutRequest: { Item: itemOfSize(`b${batch}-${index}`, 1024) },
      }));
      const output = await eddy.once.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: items } }));
      expect(output.UnprocessedItems).toEqual({});
    }

    const error = await rejection(writeOnce());

    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(error.message).toBe(ThrottleMessages.provisionedTable);
    expect((error.$metadata as { httpStatusCode: number }).httpStatusCode).toBe(400);
    expect(error.ThrottlingReasons).toEqual([
      { reason: 'TableWriteProvisionedThroughputExceeded', resource: ARN },
    ]);
  });

  it('sustains 5 writes of 1 KB per second once the burst is spent, the 6th of a second throttled', async () => {
    spendWriteBurst(eddy);
    for (let second = 0; second < 5; second++) {
      await eddy.clock.advance('1s');
      for (let write = 0; write < 5; write++) await writeOnce();
      expect((await rejection(writeOnce())).name).toBe('ProvisionedThroughputExceededException');
    }
  });

  it('lets a client with the SDK default retries recover: it retries the throttle after its backoff', async () => {
    spendWriteBurst(eddy);
    const before = eddy.clock.now();

    await eddy.retrying.send(put('after-burst'));

    expect(eddy.retries.length).toBeGreaterThanOrEqual(1);
    expect(eddy.retries[0]!.error).toBe('ProvisionedThroughputExceededException');
    // The backoff the SDK chose passed on the virtual clock, refilling the bucket.
    expect(eddy.clock.now() - before).toBe(eddy.retries.reduce((sum, retry) => sum + retry.delayMs, 0));
  });

  it('answers the wire body with the __type, message and ThrottlingReasons of the service', async () => {
    eddy.engine.capacity.injectFault(TABLE, 'throttle', 1);
    let error: unknown;
    try {
      eddy.engine.execute('PutItem', { TableName: TABLE, Item: { pk: { S: 'a' } } });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ProvisionedThroughputExceededException);
    expect((error as ProvisionedThroughputExceededException).toWire()).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: ThrottleMessages.provisionedTable,
      ThrottlingReasons: [{ reason: 'TableWriteProvisionedThroughputExceeded', resource: ARN }],
    });
  });

  it('reads from a bucket of their own: writes throttled, reads still served', async () => {
    spendWriteBurst(eddy);
    const got = await eddy.once.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'spent-0' } } }));
    expect(got.Item?.pk).toEqual({ S: 'spent-0' });
  });
});

describe('a provisioned table of 1 RCU without burst', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer({ mode: 'enforce', burstSeconds: 0 });
    await createProvisioned(eddy, 1, 10);
  });
  afterEach(() => eddy.close());

  it('serves one strongly consistent read of 4 KB a second (two eventually consistent ones), throttling the next with TableReadProvisionedThroughputExceeded', async () => {
    await eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: itemOfSize('a', 4096) }));
    const get = (consistent: boolean) =>
      eddy.once.send(
        new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } }, ConsistentRead: consistent }),
      );

    await get(true);
    const error = await rejection(get(true));
    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(error.ThrottlingReasons).toEqual([
      { reason: 'TableReadProvisionedThroughputExceeded', resource: ARN },
    ]);

    await eddy.clock.advance('1s');
    await get(false);
    await get(false);
    expect((await rejection(get(false))).name).toBe('ProvisionedThroughputExceededException');
  });

  it('charges a Query what it read and throttles the next while the bucket is in debt', async () => {
    await eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: itemOfSize('a', 12 * 1024) }));
    const query = () =>
      eddy.once.send(
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: 'a' } },
          ConsistentRead: true,
        }),
      );
    // 12 KB strongly consistent = 3 RCU from a bucket of 1: served, leaving a debt of 2 units.
    expect((await query()).Count).toBe(1);
    await eddy.clock.advance('2s');
    expect((await rejection(query())).name).toBe('ProvisionedThroughputExceededException');
    await eddy.clock.advance('1s');
    expect((await query()).Count).toBe(1);
  });

  it('applies an UpdateTable capacity increase to the bucket', async () => {
    await eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: itemOfSize('a', 100) }));
    const get = () =>
      eddy.once.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } }, ConsistentRead: true }));
    await get();
    expect((await rejection(get())).name).toBe('ProvisionedThroughputExceededException');

    await eddy.once.send(
      new UpdateTableCommand({
        TableName: TABLE,
        ProvisionedThroughput: { ReadCapacityUnits: 4, WriteCapacityUnits: 10 },
      }),
    );
    await eddy.clock.advance('1s');
    for (let read = 0; read < 4; read++) await get();
    expect((await rejection(get())).name).toBe('ProvisionedThroughputExceededException');
  });
});
