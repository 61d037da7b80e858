import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

/** One line per order change: what a real handler would turn into e-mails, invoices or metrics. */
export function recordHandler(record: DynamoDBRecord): string {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage ?? {};
  const order = unmarshall(image as Record<string, AttributeValue>);
  return `${record.eventName} order ${order.orderId} (${order.status ?? 'no status'})`;
}

export async function lambdaHandler(event: DynamoDBStreamEvent): Promise<void> {
  for (const record of event.Records) console.log(recordHandler(record));
}

export const handler = middy<DynamoDBStreamEvent, void>().handler(lambdaHandler);
