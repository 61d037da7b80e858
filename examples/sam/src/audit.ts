import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

// The SDK finds eddy through AWS_ENDPOINT_URL_DYNAMODB, which eddy sets, as it finds DynamoDB in Lambda.
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

/** An audit entry for an order whose status changed (or that was just placed); none otherwise. */
export function auditEntryOf(record: DynamoDBRecord): Record<string, unknown> | undefined {
  const now = unmarshall((record.dynamodb?.NewImage ?? {}) as never);
  const before = unmarshall((record.dynamodb?.OldImage ?? {}) as never);
  if (record.eventName === 'MODIFY' && now.status === before.status) return undefined;
  return {
    pk: `ORDER#${now.orderId}`,
    at: `${record.dynamodb?.ApproximateCreationDateTime}#${record.dynamodb?.SequenceNumber}`,
    status: now.status,
    previous: before.status ?? null,
  };
}

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    const entry = auditEntryOf(record);
    if (entry === undefined) continue;
    try {
      await client.send(new PutCommand({ TableName: process.env.AUDIT_TABLE, Item: entry }));
      console.log(`${entry.pk}: ${entry.previous ?? 'new'} → ${entry.status}`);
    } catch (error) {
      // This record and the ones after it are retried; those before it are done.
      batchItemFailures.push({ itemIdentifier: record.dynamodb!.SequenceNumber! });
      console.error(`${entry.pk}: ${(error as Error).message}`);
      break;
    }
  }
  return { batchItemFailures };
}
