import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTransport, type TransportHandle } from '../../../helpers/transports.js';

/**
 * A table's ARN wherever DynamoDB takes a table name: "You can also provide the Amazon Resource
 * Name (ARN) of the table in this parameter" (TableName of every operation on an existing table,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html, 1..1024
 * characters), the RequestItems keys of the batches and the TableName of each transaction
 * action. Answers name the table as the request did ("If you had specified the Amazon Resource
 * Name (ARN) of a table in the input, you'll see the table ARN in the response",
 * API_ConsumedCapacity.html, API_BatchGetItem.html). docs/table-arns.md.
 */
const ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders';
const key = (id: string) => ({ id: { S: id } });

let eddy: TransportHandle;
beforeEach(async () => {
  eddy = await httpTransport.start();
  await eddy.client.send(
    new CreateTableCommand({
      TableName: 'Orders',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
});
afterEach(() => eddy.close());

async function failure(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; status?: number }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('expected the call to fail');
}

describe('a table ARN in place of its name', () => {
  it('reads and writes items by ARN, and ConsumedCapacity names the ARN', async () => {
    const put = await eddy.client.send(
      new PutItemCommand({ TableName: ARN, Item: key('a'), ReturnConsumedCapacity: 'TOTAL' }),
    );
    expect(put.ConsumedCapacity).toEqual({ TableName: ARN, CapacityUnits: 1 });
    const got = await eddy.client.send(new GetItemCommand({ TableName: 'Orders', Key: key('a') }));
    expect(got.Item).toEqual(key('a'));
    const query = await eddy.client.send(
      new QueryCommand({
        TableName: ARN,
        KeyConditionExpression: 'id = :a',
        ExpressionAttributeValues: { ':a': { S: 'a' } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expect(query.Count).toBe(1);
    expect(query.ConsumedCapacity?.TableName).toBe(ARN);
    const scan = await eddy.client.send(new ScanCommand({ TableName: ARN, ReturnConsumedCapacity: 'TOTAL' }));
    expect(scan.Items).toEqual([key('a')]);
    expect(scan.ConsumedCapacity?.TableName).toBe(ARN);
    // By name, the answer names the name.
    const byName = await eddy.client.send(
      new GetItemCommand({ TableName: 'Orders', Key: key('a'), ReturnConsumedCapacity: 'TOTAL' }),
    );
    expect(byName.ConsumedCapacity?.TableName).toBe('Orders');
  });

  it('describes, updates and deletes a table by ARN', async () => {
    const described = await eddy.client.send(new DescribeTableCommand({ TableName: ARN }));
    expect(described.Table?.TableName).toBe('Orders');
    expect(described.Table?.TableArn).toBe(ARN);
    await eddy.client.send(
      new UpdateTimeToLiveCommand({
        TableName: ARN,
        TimeToLiveSpecification: { Enabled: true, AttributeName: 'expires' },
      }),
    );
    const ttl = await eddy.client.send(new DescribeTimeToLiveCommand({ TableName: ARN }));
    expect(ttl.TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });
    const updated = await eddy.client.send(
      new UpdateTableCommand({ TableName: ARN, DeletionProtectionEnabled: true }),
    );
    expect(updated.TableDescription?.DeletionProtectionEnabled).toBe(true);
    await eddy.client.send(new UpdateTableCommand({ TableName: ARN, DeletionProtectionEnabled: false }));
    const deleted = await eddy.client.send(new DeleteTableCommand({ TableName: ARN }));
    expect(deleted.TableDescription?.TableName).toBe('Orders');
    expect(eddy.engine.region().tables.has('Orders')).toBe(false);
  });

  it('answers batches keyed by what was sent: the ARN under the ARN, the name under the name', async () => {
    await eddy.client.send(new PutItemCommand({ TableName: 'Orders', Item: key('a') }));
    await eddy.client.send(
      new CreateTableCommand({
        TableName: 'Lines',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await eddy.client.send(new PutItemCommand({ TableName: 'Lines', Item: key('l') }));
    const got = await eddy.client.send(
      new BatchGetItemCommand({
        RequestItems: { [ARN]: { Keys: [key('a')] }, Lines: { Keys: [key('l')] } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expect(got.Responses).toEqual({ [ARN]: [key('a')], Lines: [key('l')] });
    expect(got.ConsumedCapacity?.map((consumed) => consumed.TableName).sort()).toEqual([ARN, 'Lines'].sort());

    const written = await eddy.client.send(
      new BatchWriteItemCommand({
        RequestItems: { [ARN]: [{ PutRequest: { Item: key('b') } }, { DeleteRequest: { Key: key('a') } }] },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expect(written.UnprocessedItems).toEqual({});
    expect(written.ConsumedCapacity).toEqual([{ TableName: ARN, CapacityUnits: 2 }]);
    const scan = await eddy.client.send(new ScanCommand({ TableName: 'Orders' }));
    expect(scan.Items).toEqual([key('b')]);
  });

  it('takes an ARN as the TableName of each transaction action', async () => {
    await eddy.client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: ARN, Item: key('t1') } },
          { Put: { TableName: 'Orders', Item: key('t2') } },
        ],
      }),
    );
    const got = await eddy.client.send(
      new TransactGetItemsCommand({
        TransactItems: [
          { Get: { TableName: ARN, Key: key('t1') } },
          { Get: { TableName: 'Orders', Key: key('t2') } },
        ],
      }),
    );
    expect(got.Responses).toEqual([{ Item: key('t1') }, { Item: key('t2') }]);
    // The same item named once by ARN and once by name is one item.
    const twice = await failure(
      eddy.client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: ARN, Item: key('t1') } },
            { Delete: { TableName: 'Orders', Key: key('t1') } },
          ],
        }),
      ),
    );
    expect(twice).toMatchObject({
      name: 'ValidationException',
      message: 'Transaction request cannot include multiple operations on one item',
    });
  });

  it("answers AccessDeniedException for another account's table, the caller and action named", async () => {
    // Without a resource-based policy on the other account's table nothing allows the call:
    // the IAM text of https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html
    const other = 'arn:aws:dynamodb:us-east-1:111122223333:table/Orders';
    expect(await failure(eddy.client.send(new GetItemCommand({ TableName: other, Key: key('a') })))).toEqual({
      name: 'AccessDeniedException',
      message: `User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:GetItem on resource: ${other} because no resource-based policy allows the dynamodb:GetItem action`,
      status: 400,
    });
    expect(
      await failure(
        eddy.client.send(new BatchGetItemCommand({ RequestItems: { [other]: { Keys: [key('a')] } } })),
      ),
    ).toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('dynamodb:BatchGetItem on resource'),
    });
    // Account before region: another account's ARN in another region is still denied.
    const elsewhere = 'arn:aws:dynamodb:eu-west-1:111122223333:table/Orders';
    expect(await failure(eddy.client.send(new DescribeTableCommand({ TableName: elsewhere })))).toMatchObject(
      {
        name: 'AccessDeniedException',
      },
    );
  });

  it('answers ValidationException for a table ARN of another region', async () => {
    // Recorded 2025: `1 validation error detected: Invalid AWS region in '<arn>'`
    // (https://github.com/hashicorp/terraform-provider-aws/issues/42792).
    const other = 'arn:aws:dynamodb:eu-west-1:000000000000:table/Orders';
    for (const send of [
      () => eddy.client.send(new GetItemCommand({ TableName: other, Key: key('a') })),
      () => eddy.client.send(new DescribeTableCommand({ TableName: other })),
      () =>
        eddy.client.send(
          new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: other, Key: key('a') } }] }),
        ),
    ]) {
      expect(await failure(send())).toEqual({
        name: 'ValidationException',
        message: `1 validation error detected: Invalid AWS region in '${other}'`,
        status: 400,
      });
    }
  });

  it("answers ResourceNotFoundException for an ARN that is not a table's", async () => {
    for (const name of [`${ARN}/index/byDate`, 'arn:aws:dynamodb:us-east-1:000000000000:table/Missing']) {
      expect(
        await failure(eddy.client.send(new GetItemCommand({ TableName: name, Key: key('a') }))),
      ).toMatchObject({
        name: 'ResourceNotFoundException',
      });
    }
  });

  it('still holds a control-plane name that is not an ARN to 3..255 characters', async () => {
    expect(await failure(eddy.client.send(new DescribeTableCommand({ TableName: 'ab' })))).toMatchObject({
      name: 'ValidationException',
      message: 'TableName must be at least 3 characters long and at most 255 characters long',
    });
  });
});
