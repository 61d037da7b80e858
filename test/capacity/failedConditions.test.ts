import {
  DeleteItemCommand,
  ExecuteStatementCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CapacityServer,
  itemOfSize,
  pkTable,
  rejection,
  startCapacityServer,
} from './capacityServer.js';

/**
 * Failed conditional writes consume write capacity (docs/capacity.md §5). Evidence:
 * - "If a ConditionExpression evaluates to false during a conditional write, DynamoDB will still
 *   consume write capacity units from the table: If the item exists, the number of write capacity
 *   units consumed depends on the size of the item [...] If the item does not exist, DynamoDB will
 *   consume one write capacity unit." and "A failed conditional write will return a
 *   ConditionalCheckFailedException [...] you will not receive any information about the write
 *   capacity unit that was consumed. However, you can view the ConsumedWriteCapacityUnits metric"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html#WorkingWithItems.ConditionalUpdate);
 *   botocore's ConditionalCheckFailedException has only `message` and `Item`, no ConsumedCapacity.
 * - transactions: "one to prepare the transaction and one to commit the transaction"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling):
 *   a cancelled transaction consumed its prepare.
 */
const TABLE = 'Ledger';

describe('failed conditional writes on a provisioned table of 3 WCU without burst', () => {
  let eddy: CapacityServer;

  beforeEach(async () => {
    eddy = await startCapacityServer({ mode: 'enforce', burstSeconds: 0 });
    await eddy.once.send(pkTable(TABLE, [10, 3]));
    // A stored item of 2 KB, then a fresh second's worth of capacity.
    await eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: itemOfSize('big', 2048) }));
    await eddy.clock.advance('1s');
  });
  afterEach(() => eddy.close());

  const consumedWrites = () =>
    eddy.engine.capacity.metrics.snapshot(eddy.clock.now()).find((figures) => figures.index === undefined)!
      .consumedWriteCapacityUnits;
  const putIfAbsent = (key: string) =>
    new PutItemCommand({
      TableName: TABLE,
      Item: { pk: { S: key } },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnConsumedCapacity: 'TOTAL',
    });

  it('charges a failed PutItem the stored item (2 KB: 2 WCU) and answers ConditionalCheckFailedException without ConsumedCapacity', async () => {
    const before = consumedWrites();

    const error = await rejection(eddy.once.send(putIfAbsent('big')));

    expect(error.name).toBe('ConditionalCheckFailedException');
    expect(error.ConsumedCapacity).toBeUndefined();
    expect(consumedWrites() - before).toBe(2);
  });

  it('charges a failed condition on a missing item one WCU (UpdateItem and DeleteItem alike)', async () => {
    const before = consumedWrites();
    const update = new UpdateItemCommand({
      TableName: TABLE,
      Key: { pk: { S: 'missing' } },
      UpdateExpression: 'SET n = :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': { N: '1' } },
    });
    const remove = new DeleteItemCommand({
      TableName: TABLE,
      Key: { pk: { S: 'missing' } },
      ConditionExpression: 'attribute_exists(pk)',
    });

    expect((await rejection(eddy.once.send(update))).name).toBe('ConditionalCheckFailedException');
    expect((await rejection(eddy.once.send(remove))).name).toBe('ConditionalCheckFailedException');

    expect(consumedWrites() - before).toBe(2);
  });

  it('spends the table with failed conditions: once 3 WCU are gone the next write is throttled instead', async () => {
    // Two failed conditions on the 2 KB item (2 units each) spend the second's 3 WCU: the second
    // is admitted on the last unit and leaves a debt (docs/capacity.md §2).
    expect((await rejection(eddy.once.send(putIfAbsent('big')))).name).toBe(
      'ConditionalCheckFailedException',
    );
    expect((await rejection(eddy.once.send(putIfAbsent('big')))).name).toBe(
      'ConditionalCheckFailedException',
    );

    const error = await rejection(eddy.once.send(putIfAbsent('big')));

    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(eddy.engine.capacity.metrics.snapshot(eddy.clock.now())[0]!.writeThrottleEvents).toBe(1);
  });

  it('charges PartiQL writes whose condition fails as their single-item twins (INSERT of an existing key, UPDATE ... WHERE)', async () => {
    const before = consumedWrites();
    const insert = new ExecuteStatementCommand({ Statement: `INSERT INTO "${TABLE}" VALUE {'pk': 'big'}` });
    const update = new ExecuteStatementCommand({
      Statement: `UPDATE "${TABLE}" SET n = 1 WHERE pk = 'big' AND n = 7`,
    });

    expect((await rejection(eddy.once.send(insert))).name).toBe('DuplicateItemException');
    await eddy.clock.advance('1s');
    expect((await rejection(eddy.once.send(update))).name).toBe('ConditionalCheckFailedException');

    expect(consumedWrites() - before).toBe(4);
  });

  it('charges a transaction cancelled by a condition its prepare: one write on each item as stored', async () => {
    const before = consumedWrites();

    const error = await rejection(
      eddy.once.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { pk: { S: 'fresh' } } } },
            {
              Put: {
                TableName: TABLE,
                Item: { pk: { S: 'big' } },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      ),
    );

    expect(error.name).toBe('TransactionCanceledException');
    // 'fresh' is absent (1 unit), 'big' is 2 KB (2 units); nothing was committed (no double).
    expect(consumedWrites() - before).toBe(3);
  });
});
