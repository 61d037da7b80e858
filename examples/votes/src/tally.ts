import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { SHARDS, shardKey, totalKey } from './votes.js';

/**
 * Keeps TOTAL#<contestant> in step with the contestant's vote shards.
 *
 * It recomputes the total from all shards instead of adding each record's delta, so it is
 * idempotent: a batch delivered twice (streams deliver at least once) or retried after a failure
 * leaves the same total.
 */

let client: DynamoDBDocumentClient | undefined;
/** Created on first use: the endpoint and credentials come from the environment at that time. */
const documentClient = () => (client ??= DynamoDBDocumentClient.from(new DynamoDBClient({})));

/** The contestant a vote shard record is about. */
export function recordHandler(record: DynamoDBRecord): string | undefined {
  const pk = record.dynamodb?.Keys?.pk?.S ?? '';
  return /^VOTES#(.+)#\d+$/.exec(pk)?.[1];
}

async function recountTotal(contestant: string): Promise<void> {
  const keys = Array.from({ length: SHARDS }, (_, shard) => ({ pk: shardKey(contestant, shard) }));
  const result = await documentClient().send(
    new BatchGetCommand({ RequestItems: { Votes: { Keys: keys } } }),
  );
  const total = (result.Responses?.Votes ?? []).reduce((sum, item) => sum + Number(item.votes ?? 0), 0);
  await documentClient().send(
    new PutCommand({ TableName: 'Votes', Item: { pk: totalKey(contestant), total } }),
  );
}

export async function lambdaHandler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const contestants = new Map<string, string[]>();
  for (const record of event.Records) {
    const contestant = recordHandler(record);
    if (contestant === undefined) continue;
    const sequences = contestants.get(contestant) ?? [];
    sequences.push(record.dynamodb!.SequenceNumber!);
    contestants.set(contestant, sequences);
  }
  const failures: string[] = [];
  for (const [contestant, sequences] of contestants) {
    try {
      await recountTotal(contestant);
    } catch {
      failures.push(...sequences);
    }
  }
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}

export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>().handler(lambdaHandler);
