import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { ScheduledEvent } from 'aws-lambda';

const client = new DynamoDBClient({});

/** Runs on the hourly schedule: how many audit entries there are. */
export async function handler(event: ScheduledEvent): Promise<{ entries: number }> {
  const { Count } = await client.send(
    new ScanCommand({ TableName: process.env.AUDIT_TABLE, Select: 'COUNT' }),
  );
  console.log(`${event.time}: ${Count} audit entries`);
  return { entries: Count ?? 0 };
}
