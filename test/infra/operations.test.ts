import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBServiceException,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TransportHandle, transports } from '../helpers/transports.js';

// The same SDK calls over HTTP and in-process must answer alike: outputs, error classes, names,
// messages and status codes. The engine's own suites cover semantics; this covers the transport.
const ORDERS = {
  TableName: 'Orders',
  AttributeDefinitions: [
    { AttributeName: 'customer', AttributeType: 'S' as const },
    { AttributeName: 'orderId', AttributeType: 'N' as const },
  ],
  KeySchema: [
    { AttributeName: 'customer', KeyType: 'HASH' as const },
    { AttributeName: 'orderId', KeyType: 'RANGE' as const },
  ],
  BillingMode: 'PAY_PER_REQUEST' as const,
};

async function failure(promise: Promise<unknown>): Promise<DynamoDBServiceException> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DynamoDBServiceException)) throw new Error(`expected a service error, got ${error}`);
  return error;
}

describe.each(transports)('DynamoDB operations over $name', (transport) => {
  let eddy: TransportHandle;
  beforeEach(async () => {
    eddy = await transport.start();
  });
  afterEach(() => eddy.close());

  describe('control plane', () => {
    it('creates a table that ListTables and DescribeTable then show', async () => {
      const created = await eddy.client.send(new CreateTableCommand(ORDERS));
      expect(created.TableDescription).toMatchObject({
        TableName: 'Orders',
        TableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders',
      });
      expect(created.TableDescription?.CreationDateTime).toBeInstanceOf(Date);
      expect(await eddy.client.send(new ListTablesCommand({}))).toMatchObject({ TableNames: ['Orders'] });
      const described = await eddy.client.send(new DescribeTableCommand({ TableName: 'Orders' }));
      expect(described.Table).toMatchObject({ TableName: 'Orders', TableStatus: 'ACTIVE' });
    });

    it('answers ResourceInUseException for a second CreateTable', async () => {
      await eddy.client.send(new CreateTableCommand(ORDERS));
      const error = await failure(eddy.client.send(new CreateTableCommand(ORDERS)));
      expect(error).toBeInstanceOf(ResourceInUseException);
      expect(error.$metadata.httpStatusCode).toBe(400);
    });

    it('answers ValidationException with the service message for a short table name', async () => {
      const error = await failure(eddy.client.send(new DescribeTableCommand({ TableName: 'ab' })));
      expect(error.name).toBe('ValidationException');
      expect(error.message).toBe(
        'TableName must be at least 3 characters long and at most 255 characters long',
      );
      expect(error.$metadata.httpStatusCode).toBe(400);
    });
  });

  describe('items', () => {
    beforeEach(async () => {
      await eddy.client.send(new CreateTableCommand(ORDERS));
    });

    it('puts, reads and deletes an item, numbers normalised', async () => {
      const key = { customer: { S: 'ada' }, orderId: { N: '1' } };
      await eddy.client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { ...key, total: { N: '10.50' } } }),
      );
      const read = await eddy.client.send(new GetItemCommand({ TableName: 'Orders', Key: key }));
      expect(read.Item).toEqual({ ...key, total: { N: '10.5' } });
      expect(read.$metadata.httpStatusCode).toBe(200);
      expect(read.$metadata.requestId).toMatch(/^[0-9A-Z]{52}$/);
      const deleted = await eddy.client.send(
        new DeleteItemCommand({ TableName: 'Orders', Key: key, ReturnValues: 'ALL_OLD' }),
      );
      expect(deleted.Attributes).toEqual({ ...key, total: { N: '10.5' } });
      expect(
        (await eddy.client.send(new GetItemCommand({ TableName: 'Orders', Key: key }))).Item,
      ).toBeUndefined();
    });

    it('updates an item with an UpdateExpression', async () => {
      const key = { customer: { S: 'ada' }, orderId: { N: '1' } };
      await eddy.client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { ...key, total: { N: '10.5' } } }),
      );
      const updated = await eddy.client.send(
        new UpdateItemCommand({
          TableName: 'Orders',
          Key: key,
          // TOTAL is a reserved word: it needs a name placeholder.
          UpdateExpression: 'SET #total = #total + :more',
          ExpressionAttributeNames: { '#total': 'total' },
          ExpressionAttributeValues: { ':more': { N: '1.5' } },
          ReturnValues: 'ALL_NEW',
        }),
      );
      expect(updated.Attributes).toEqual({ ...key, total: { N: '12' } });
    });

    it('round-trips every attribute type through the DocumentClient', async () => {
      const item = {
        customer: 'grace',
        orderId: 7,
        note: 'Zoë 🌊',
        paid: true,
        nothing: null,
        lines: [{ sku: 'a', qty: 2 }],
        blob: new Uint8Array([0, 1, 2, 255]),
        tags: new Set(['x', 'y']),
      };
      await eddy.documents.send(new PutCommand({ TableName: 'Orders', Item: item }));
      const read = await eddy.documents.send(
        new GetCommand({ TableName: 'Orders', Key: { customer: 'grace', orderId: 7 } }),
      );
      expect(read.Item).toEqual(item);
      await eddy.documents.send(
        new DeleteCommand({ TableName: 'Orders', Key: { customer: 'grace', orderId: 7 } }),
      );
      const gone = await eddy.documents.send(
        new GetCommand({ TableName: 'Orders', Key: { customer: 'grace', orderId: 7 } }),
      );
      expect(gone.Item).toBeUndefined();
    });

    it('adds to a set through the DocumentClient', async () => {
      await eddy.documents.send(
        new PutCommand({
          TableName: 'Orders',
          Item: { customer: 'grace', orderId: 7, tags: new Set(['x', 'y']) },
        }),
      );
      const updated = await eddy.documents.send(
        new UpdateCommand({
          TableName: 'Orders',
          Key: { customer: 'grace', orderId: 7 },
          UpdateExpression: 'ADD #tags :more',
          ExpressionAttributeNames: { '#tags': 'tags' },
          ExpressionAttributeValues: { ':more': new Set(['z']) },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      expect(updated.Attributes).toEqual({ tags: new Set(['x', 'y', 'z']) });
    });

    it('answers ConditionalCheckFailedException as the SDK class, with the old item when asked', async () => {
      const item = { customer: { S: 'ada' }, orderId: { N: '2' } };
      await eddy.client.send(new PutItemCommand({ TableName: 'Orders', Item: item }));
      const error = await failure(
        eddy.client.send(
          new PutItemCommand({
            TableName: 'Orders',
            Item: item,
            ConditionExpression: 'attribute_not_exists(customer)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      expect(error).toBeInstanceOf(ConditionalCheckFailedException);
      expect(error.message).toBe('The conditional request failed');
      expect((error as ConditionalCheckFailedException).Item).toEqual(item);
      expect(error.$metadata.httpStatusCode).toBe(400);
    });

    it('answers ResourceNotFoundException for a missing table', async () => {
      const error = await failure(
        eddy.client.send(new GetItemCommand({ TableName: 'Missing', Key: { id: { S: '1' } } })),
      );
      expect(error).toBeInstanceOf(ResourceNotFoundException);
      expect(error.message).toBe('Requested resource not found');
      expect(error.$fault).toBe('client');
    });

    it('answers ValidationException for a key of the wrong type', async () => {
      const error = await failure(
        eddy.client.send(
          new GetItemCommand({ TableName: 'Orders', Key: { customer: { S: 'ada' }, orderId: { S: 'one' } } }),
        ),
      );
      expect(error.name).toBe('ValidationException');
      expect(error.message).toBe('The provided key element does not match the schema');
    });

    it('writes in a batch, then queries, scans and reads in a transaction', async () => {
      const orders = [1, 2, 3].map((orderId) => ({ customer: 'ada', orderId, total: orderId * 10 }));
      const written = await eddy.documents.send(
        new BatchWriteCommand({ RequestItems: { Orders: orders.map((Item) => ({ PutRequest: { Item } })) } }),
      );
      expect(written.UnprocessedItems).toEqual({});
      const queried = await eddy.documents.send(
        new QueryCommand({
          TableName: 'Orders',
          KeyConditionExpression: 'customer = :c AND orderId >= :from',
          ExpressionAttributeValues: { ':c': 'ada', ':from': 2 },
          ScanIndexForward: false,
        }),
      );
      expect(queried.Items).toEqual([orders[2], orders[1]]);
      const scanned = await eddy.documents.send(new ScanCommand({ TableName: 'Orders', Select: 'COUNT' }));
      expect(scanned.Count).toBe(3);
      const read = await eddy.documents.send(
        new TransactGetCommand({
          TransactItems: [{ Get: { TableName: 'Orders', Key: { customer: 'ada', orderId: 1 } } }],
        }),
      );
      expect(read.Responses).toEqual([{ Item: orders[0] }]);
    });

    it('answers TransactionCanceledException with its reasons', async () => {
      await eddy.documents.send(
        new PutCommand({ TableName: 'Orders', Item: { customer: 'ada', orderId: 9 } }),
      );
      const error = await failure(
        eddy.documents.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: 'Orders',
                  Item: { customer: 'ada', orderId: 9 },
                  ConditionExpression: 'attribute_not_exists(customer)',
                },
              },
            ],
          }),
        ),
      );
      expect(error.name).toBe('TransactionCanceledException');
      expect(error.$metadata.httpStatusCode).toBe(400);
      expect((error as unknown as { CancellationReasons: unknown[] }).CancellationReasons).toEqual([
        { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
      ]);
    });

    it('keeps other tables and regions apart', async () => {
      const away = await transport.start({ region: 'eu-west-1' });
      try {
        expect((await away.client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      } finally {
        await away.close();
      }
    });
  });
});
