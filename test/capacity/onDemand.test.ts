import { PutItemCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeKeyValue } from '../../core/model/keyCodec.js';
import { partitionOf } from '../../core/throttling/partitions.js';
import { ThrottleMessages } from '../../core/throttling/throttle.js';
import { type CapacityServer, pkTable, rejection, startCapacityServer } from './capacityServer.js';

/**
 * On-demand limits (docs/capacity.md §2.2). Evidence:
 * - 1,000 WCU per partition: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html;
 * - a new table takes 4,000 writes/s at once, double the previous peak, more within 30 minutes:
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html;
 * - OnDemandThroughput maximums: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html;
 * - ThrottlingException with `throttlingReasons` and its message: botocore's service-2.json and a
 *   live error quoted in praetorian-inc/chariot-ui#684 (2024): "api error ThrottlingException:
 *   Throughput exceeds the current capacity of your table or index. DynamoDB is automatically
 *   scaling your table or index so please try again shortly. If exceptions persist, check if you
 *   have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
 *   with StatusCode 400.
 */
const TABLE = 'Events';
const ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Events';

/** Writes of 1 WCU, in process (the HTTP path is checked on the throttled one). */
function writeAll(eddy: CapacityServer, keys: readonly string[]): void {
  for (const key of keys) eddy.engine.execute('PutItem', { TableName: TABLE, Item: { pk: { S: key } } });
}

/** `count` distinct keys that fall in each of eddy's `partitions` partitions evenly. */
function evenKeys(partitions: number, perPartition: number): string[] {
  const buckets: string[][] = Array.from({ length: partitions }, () => []);
  for (let index = 0; buckets.some((bucket) => bucket.length < perPartition); index++) {
    const key = `key-${index}`;
    const bucket = buckets[partitionOf(encodeKeyValue('S', key), partitions)]!;
    if (bucket.length < perPartition) bucket.push(key);
  }
  return buckets.flat();
}

describe('an on-demand table', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer();
    await eddy.once.send(pkTable(TABLE, { onDemand: {} }));
  });
  afterEach(() => eddy.close());

  it('throttles a hot key past 1,000 WCU in a second with ThrottlingException and TableWriteKeyRangeThroughputExceeded', async () => {
    for (let write = 0; write < 1000; write++)
      eddy.engine.execute('PutItem', { TableName: TABLE, Item: { pk: { S: 'hot' }, n: { N: `${write}` } } });

    const error = await rejection(
      eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'hot' } } })),
    );

    expect(error.name).toBe('ThrottlingException');
    expect(error.message).toBe(ThrottleMessages.onDemandTable);
    expect((error.$metadata as { httpStatusCode: number }).httpStatusCode).toBe(400);
    expect(error.throttlingReasons).toEqual([
      { reason: 'TableWriteKeyRangeThroughputExceeded', resource: ARN },
    ]);
    // Another key range is not hot; the hot one serves again a second later.
    await eddy.once.send(
      new PutItemCommand({
        TableName: TABLE,
        Item: {
          pk: {
            S: evenKeys(4, 1).find(
              (key) =>
                partitionOf(encodeKeyValue('S', key), 4) !== partitionOf(encodeKeyValue('S', 'hot'), 4),
            )!,
          },
        },
      }),
    );
    await eddy.clock.advance('1s');
    await eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'hot' } } }));
  });

  it('takes 4,000 writes spread over its key space at once when new, and doubles 30 minutes after a new peak', async () => {
    writeAll(eddy, evenKeys(4, 1000));
    const over = await rejection(
      eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'one-more' } } })),
    );
    expect(over.name).toBe('ThrottlingException');

    // A peak of 4,000 WCU/s settles after 30 minutes: the table then holds 8,000 (8 partitions).
    await eddy.clock.advance('30m');
    writeAll(eddy, evenKeys(8, 1000));
    expect(
      (await rejection(eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'x' } } }))))
        .name,
    ).toBe('ThrottlingException');
  });

  it('caps writes at its OnDemandThroughput maximum with TableWriteMaxOnDemandThroughputExceeded', async () => {
    await eddy.once.send(
      new UpdateTableCommand({ TableName: TABLE, OnDemandThroughput: { MaxWriteRequestUnits: 10 } }),
    );
    writeAll(
      eddy,
      Array.from({ length: 10 }, (_, index) => `k${index}`),
    );

    const error = await rejection(
      eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'k10' } } })),
    );

    expect(error.name).toBe('ThrottlingException');
    expect(error.throttlingReasons).toEqual([
      { reason: 'TableWriteMaxOnDemandThroughputExceeded', resource: ARN },
    ]);
    await eddy.clock.advance('1s');
    writeAll(eddy, ['k10']);
  });
});
