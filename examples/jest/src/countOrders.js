import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

// Created as in Lambda: eddy points the SDK at the stack it runs in (AWS_ENDPOINT_URL_DYNAMODB).
const orders = DynamoDBDocumentClient.from(new DynamoDBClient({}));

/** Adds each new order to its customer's `COUNT#<customer>` item. */
export async function handler(event) {
  for (const record of event.Records) {
    const customer = record.dynamodb.NewImage.customer.S;
    await orders.send(
      new UpdateCommand({
        TableName: 'Orders',
        Key: { pk: `COUNT#${customer}` },
        UpdateExpression: 'ADD orders :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  }
}
