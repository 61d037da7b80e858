import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  type BatchWriteItemCommandOutput,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ThrottleMessages } from '../../core/throttling/throttle.js';
import {
  type CapacityServer,
  itemOfSize,
  pkTable,
  rejection,
  startCapacityServer,
  tableWithIndex,
} from './capacityServer.js';

/**
 * Batches, transactions and GSI back-pressure under enforced capacity (docs/capacity.md §5), with
 * no burst so each second holds exactly the provisioned units. Evidence:
 * - BatchWriteItem returns throttled requests in UnprocessedItems and throws
 *   ProvisionedThroughputExceededException only when none could be processed
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html), as
 *   BatchGetItem does with UnprocessedKeys (API_BatchGetItem.html);
 * - a GSI without write capacity throttles the table's writes, with the GSI message (botocore's
 *   TransactionCanceledException documentation; a live error quoted in exercism/website#949);
 * - transactions cost double and are cancelled with `ProvisionedThroughputExceeded` reasons
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
 */
const TABLE = 'Orders';
const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders';

describe('BatchWriteItem and BatchGetItem against 10 units', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer({ mode: 'enforce', burstSeconds: 0 });
    await eddy.once.send(pkTable(TABLE, [10, 10]));
  });
  afterEach(() => eddy.close());

  const requests = (count: number): WriteRequest[] =>
    Array.from({ length: count }, (_, index) => ({
      PutRequest: { Item: itemOfSize(`item-${index}`, 1000) },
    }));

  it('writes 25 items of 1 KB partly, returns the rest in UnprocessedItems, and completes as the caller retries them', async () => {
    let pending: WriteRequest[] = requests(25);
    const processedPerRound: number[] = [];
    while (pending.length > 0) {
      const output: BatchWriteItemCommandOutput = await eddy.once.send(
        new BatchWriteItemCommand({ RequestItems: { [TABLE]: pending } }),
      );
      const unprocessed = output.UnprocessedItems?.[TABLE] ?? [];
      processedPerRound.push(pending.length - unprocessed.length);
      pending = unprocessed;
      if (pending.length > 0) await eddy.clock.advance('1s');
    }

    expect(processedPerRound).toEqual([10, 10, 5]);
    const last = await eddy.once.send(
      new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'item-24' } } }),
    );
    expect(last.Item?.pk).toEqual({ S: 'item-24' });
  });

  it('returns the unprocessed requests as sent, in order', async () => {
    const sent = requests(12);
    const output = await eddy.once.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: sent } }));
    expect(output.UnprocessedItems).toEqual({ [TABLE]: sent.slice(10) });
  });

  it('throws ProvisionedThroughputExceededException when no item at all can be written', async () => {
    await eddy.once.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: requests(10) } }));

    const error = await rejection(
      eddy.once.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: requests(3) } })),
    );

    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(error.ThrottlingReasons).toEqual([
      { reason: 'TableWriteProvisionedThroughputExceeded', resource: TABLE_ARN },
    ]);
  });

  it('reads keys strongly consistent: throws when none can be read, returns the rest in UnprocessedKeys when some can', async () => {
    await eddy.once.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: requests(10) } }));
    await eddy.clock.advance('1s');
    const keys = Array.from({ length: 10 }, (_, index) => ({ pk: { S: `item-${index}` } }));
    const output = await eddy.once.send(
      new BatchGetItemCommand({
        RequestItems: { [TABLE]: { Keys: keys.slice(0, 10), ConsistentRead: true } },
      }),
    );
    expect(output.Responses?.[TABLE]).toHaveLength(10);

    const next = await eddy.once
      .send(new BatchGetItemCommand({ RequestItems: { [TABLE]: { Keys: keys, ConsistentRead: true } } }))
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(next?.name).toBe('ProvisionedThroughputExceededException');

    await eddy.clock.advance('500ms');
    const half = await eddy.once.send(
      new BatchGetItemCommand({ RequestItems: { [TABLE]: { Keys: keys, ConsistentRead: true } } }),
    );
    expect(half.Responses?.[TABLE]).toHaveLength(5);
    expect(half.UnprocessedKeys?.[TABLE]).toEqual({ Keys: keys.slice(5), ConsistentRead: true });
  });

  it('charges a transaction double and cancels the next one as a whole with ProvisionedThroughputExceeded', async () => {
    const transactPut = (keys: string[]) =>
      eddy.once.send(
        new TransactWriteItemsCommand({
          TransactItems: keys.map((key) => ({ Put: { TableName: TABLE, Item: itemOfSize(key, 1000) } })),
        }),
      );
    await transactPut(['a', 'b', 'c', 'd', 'e']);

    const error = await rejection(transactPut(['f', 'g']));

    expect(error.name).toBe('TransactionCanceledException');
    expect(error.CancellationReasons).toEqual([
      { Code: 'ProvisionedThroughputExceeded', Message: ThrottleMessages.provisionedTable },
      { Code: 'ProvisionedThroughputExceeded', Message: ThrottleMessages.provisionedTable },
    ]);
    await eddy.clock.advance('2s');
    const nothing = await eddy.once.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'f' } } }));
    expect(nothing.Item).toBeUndefined();
  });
});

describe('a GSI short of write capacity', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer({ mode: 'enforce', burstSeconds: 0 });
    await eddy.once.send(
      tableWithIndex(TABLE, [100, 100], { name: 'byStatus', attribute: 'status', capacity: [1, 1] }),
    );
  });
  afterEach(() => eddy.close());

  it('throttles the table write that would update it, with IndexWriteProvisionedThroughputExceeded and the index ARN', async () => {
    const put = (key: string, status?: string) =>
      eddy.once.send(
        new PutItemCommand({
          TableName: TABLE,
          Item: status === undefined ? { pk: { S: key } } : { pk: { S: key }, status: { S: status } },
        }),
      );
    await put('a', 'open');

    const error = await rejection(put('b', 'open'));

    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(error.message).toBe(ThrottleMessages.provisionedIndex);
    expect(error.ThrottlingReasons).toEqual([
      { reason: 'IndexWriteProvisionedThroughputExceeded', resource: `${TABLE_ARN}/index/byStatus` },
    ]);
    const missing = await eddy.once.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'b' } } }));
    expect(missing.Item).toBeUndefined();
    // A write the index does not hold is not held back.
    await put('c');
  });
});
