import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

// The SDK finds eddy through AWS_ENDPOINT_URL_DYNAMODB, which eddy sets, as it finds DynamoDB in Lambda.
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

/** An audit entry for an order whose status changed (or that was just placed); none otherwise. */
function auditEntryOf(record) {
  const now = unmarshall(record.dynamodb?.NewImage ?? {});
  const before = unmarshall(record.dynamodb?.OldImage ?? {});
  if (record.eventName === 'MODIFY' && now.status === before.status) return undefined;
  return {
    pk: `ORDER#${now.orderId}`,
    at: `${record.dynamodb?.ApproximateCreationDateTime}#${record.dynamodb?.SequenceNumber}`,
    status: now.status,
    previous: before.status ?? null,
  };
}

export async function handler(event) {
  const batchItemFailures = [];
  for (const record of event.Records) {
    const entry = auditEntryOf(record);
    if (entry === undefined) continue;
    try {
      await client.send(new PutCommand({ TableName: process.env.AUDIT_TABLE, Item: entry }));
      console.log(`${entry.pk}: ${entry.previous ?? 'new'} → ${entry.status}`);
    } catch (error) {
      // This record and the ones after it are retried; those before it are done.
      batchItemFailures.push({ itemIdentifier: record.dynamodb.SequenceNumber });
      console.error(`${entry.pk}: ${error.message}`);
      break;
    }
  }
  return { batchItemFailures };
}
