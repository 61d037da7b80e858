import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

/** Only stock changes below the threshold arrive here (the mapping's filter): each is a reorder. */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    const item = unmarshall((record.dynamodb?.NewImage ?? {}) as never);
    await client.send(
      new PutCommand({
        TableName: process.env.REORDERS_TABLE,
        Item: { sku: item.sku, quantity: item.threshold * 2 },
      }),
    );
    console.log(`reorder ${item.sku}: ${item.count} left`);
  }
  return { batchItemFailures: [] };
}
