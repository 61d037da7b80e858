import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { EddyConfig } from '../../infra/config.js';

export const FAILURES_QUEUE = 'arn:aws:sqs:us-east-1:000000000000:orders-failures';

/** Orders (stream, GSI, TTL) → onOrder (one retry, then the failures queue). */
export const consoleConfig: EddyConfig = {
  tables: [
    {
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
    },
  ],
  functions: {
    onOrder: {
      handler: './handled-in-process.mjs',
      events: [
        {
          stream: {
            table: 'Orders',
            StartingPosition: 'TRIM_HORIZON',
            BatchSize: 10,
            MaximumRetryAttempts: 1,
            DestinationConfig: { OnFailure: { Destination: FAILURES_QUEUE } },
          },
        },
      ],
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
