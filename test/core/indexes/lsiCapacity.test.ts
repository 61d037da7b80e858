import { expect, it } from 'vitest';
import { instantEngine } from '../actions/tables/helpers.js';

/**
 * An LSI Query that asks for attributes the index does not project fetches the whole items from
 * the table, and the fetched items are read capacity of the table apart from the index's
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html, "Provisioned
 * throughput considerations"; docs/dynamodb.md §4.3.6). At the 4 KB boundary: one fetched item of
 * 4096 bytes is 1 unit, 4097 bytes 2.
 */
it.each([
  [4095, 1],
  [4096, 1],
  [4097, 2],
])('charges the table 4 KB units for %i fetched bytes: %i', (itemSize, tableUnits) => {
  const engine = instantEngine();
  engine.execute('CreateTable', {
    TableName: 'Thread',
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'p', AttributeType: 'S' },
      { AttributeName: 's', AttributeType: 'S' },
      { AttributeName: 'l', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'p', KeyType: 'HASH' },
      { AttributeName: 's', KeyType: 'RANGE' },
    ],
    LocalSecondaryIndexes: [
      {
        IndexName: 'byLast',
        KeySchema: [
          { AttributeName: 'p', KeyType: 'HASH' },
          { AttributeName: 'l', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
  });
  // p, s and l take 2 bytes each (name + value); body's name 4: the value fills the rest.
  const item = { p: { S: 'x' }, s: { S: 'y' }, l: { S: 'z' }, body: { S: 'b'.repeat(itemSize - 10) } };
  engine.execute('PutItem', { TableName: 'Thread', Item: item });
  const consumed = (Select: string) =>
    engine.execute('Query', {
      TableName: 'Thread',
      IndexName: 'byLast',
      ConsistentRead: true,
      KeyConditionExpression: 'p = :p',
      ExpressionAttributeValues: { ':p': { S: 'x' } },
      ReturnConsumedCapacity: 'INDEXES',
      Select,
    }).ConsumedCapacity;
  expect(consumed('ALL_ATTRIBUTES')).toEqual({
    TableName: 'Thread',
    CapacityUnits: 1 + tableUnits,
    Table: { CapacityUnits: tableUnits },
    LocalSecondaryIndexes: { byLast: { CapacityUnits: 1 } },
  });
  // What the index projects is read from the index alone.
  expect(consumed('ALL_PROJECTED_ATTRIBUTES')).toEqual({
    TableName: 'Thread',
    CapacityUnits: 1,
    Table: { CapacityUnits: 0 },
    LocalSecondaryIndexes: { byLast: { CapacityUnits: 1 } },
  });
});
