import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/** Ten shards per contestant: up to ~10,000 votes/s for one contestant (1,000 writes/s each). */
export const SHARDS = 10;

export const shardKey = (contestant: string, shard: number) => `VOTES#${contestant}#${shard}`;
export const totalKey = (contestant: string) => `TOTAL#${contestant}`;

/** Casts a vote: an atomic counter on a random shard of the contestant. */
export async function castVote(client: DynamoDBDocumentClient, contestant: string, random = Math.random) {
  const shard = Math.floor(random() * SHARDS);
  await client.send(
    new UpdateCommand({
      TableName: 'Votes',
      Key: { pk: shardKey(contestant, shard) },
      UpdateExpression: 'ADD votes :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}
