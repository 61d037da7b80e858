import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { EddyConfig } from '../../infra/config.js';

export const FAILURES_QUEUE = 'arn:aws:sqs:us-east-1:000000000000:orders-failures';

type TableDefinition = NonNullable<EddyConfig['tables']>[number];

/** Orders: a stream, a GSI and TTL, as the console's views show them. */
export const ordersTable: TableDefinition = {
  TableName: 'Orders',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'status', AttributeType: 'S' },
  ],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'byStatus',
      KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
};

/** onOrder's binding to the Orders stream: failed batches go to the failures queue. */
export const onOrderStream = {
  table: 'Orders',
  StartingPosition: 'TRIM_HORIZON',
  BatchSize: 10,
  DestinationConfig: { OnFailure: { Destination: FAILURES_QUEUE } },
} as const;

/** Orders (stream, GSI, TTL) → onOrder (one retry, then the failures queue). */
export const consoleConfig: EddyConfig = {
  tables: [ordersTable],
  functions: {
    onOrder: {
      handler: './handled-in-process.mjs',
      events: [{ stream: { ...onOrderStream, MaximumRetryAttempts: 1 } }],
    },
  },
};

/** Logs each record's key; throws on an item whose `status` is `poison`. */
export const onOrder = async (event: DynamoDBStreamEvent) => {
  for (const record of event.Records) {
    console.log(`order ${record.dynamodb?.Keys?.pk?.S} ${record.eventName}`);
    if (record.dynamodb?.NewImage?.status?.S === 'poison') throw new Error('poison order');
  }
  return {};
};
