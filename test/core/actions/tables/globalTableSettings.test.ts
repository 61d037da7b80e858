import {
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { VirtualClock } from '../../../../core/clock.js';
import type { TransportHandle } from '../../../helpers/transports.js';
import { type ScoresTable, startScores } from './scoresGlobalTable.js';

/**
 * Settings of a global table changed after its replicas exist (docs/global-tables.md §2.6):
 * which reach every replica, which stay per replica, and the answers of a group busy with a
 * change. Sources: "Settings synchronization" in
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html
 * and the ack-api-quirks lab's 2026-10-09 catalogues (DDB-TABLE-442, -444, -457).
 */
describe('global table settings over HTTP', () => {
  let scores: ScoresTable;
  let eddy: TransportHandle;
  let west: DynamoDBClient;
  let clock: VirtualClock;

  async function start(transientStatusDelayMs = 0): Promise<void> {
    scores = await startScores(transientStatusDelayMs);
    ({ eddy, west, clock } = scores);
  }
  afterEach(() => scores.close());

  const addWest = () => scores.addWest();
  const describeIn = async (client: DynamoDBClient) =>
    (await client.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;

  it('creates a GSI in every replica, backfilled from each replica’s items, and deletes it everywhere', async () => {
    await start();
    await eddy.client.send(
      new PutItemCommand({ TableName: 'Scores', Item: { pk: { S: 'a' }, team: { S: 'red' } } }),
    );
    await addWest();
    await eddy.engine.settled();
    const answer = await west.send(
      new UpdateTableCommand({
        TableName: 'Scores',
        AttributeDefinitions: [{ AttributeName: 'team', AttributeType: 'S' }],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: 'byTeam',
              KeySchema: [{ AttributeName: 'team', KeyType: 'HASH' }],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
    expect(answer.TableDescription?.TableStatus).toBe('UPDATING');
    await eddy.engine.settled();
    for (const client of [eddy.client, west]) {
      const table = await describeIn(client);
      expect(table.TableStatus).toBe('ACTIVE');
      expect(table.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.IndexStatus])).toEqual([
        ['byTeam', 'ACTIVE'],
      ]);
      const { Items } = await client.send(
        new QueryCommand({
          TableName: 'Scores',
          IndexName: 'byTeam',
          KeyConditionExpression: 'team = :t',
          ExpressionAttributeValues: { ':t': { S: 'red' } },
        }),
      );
      expect(Items?.map((item) => item.pk?.S)).toEqual(['a']);
    }

    await eddy.client.send(
      new UpdateTableCommand({
        TableName: 'Scores',
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'byTeam' } }],
      }),
    );
    await eddy.engine.settled();
    expect((await describeIn(west)).GlobalSecondaryIndexes).toBeUndefined();
  });

  it('carries on-demand maximum and warm throughput to every replica', async () => {
    await start();
    await addWest();
    await eddy.engine.settled();
    await eddy.client.send(
      new UpdateTableCommand({ TableName: 'Scores', OnDemandThroughput: { MaxWriteRequestUnits: 50 } }),
    );
    await eddy.engine.settled();
    expect((await describeIn(west)).OnDemandThroughput?.MaxWriteRequestUnits).toBe(50);
    await west.send(
      new UpdateTableCommand({ TableName: 'Scores', WarmThroughput: { ReadUnitsPerSecond: 15_000 } }),
    );
    await eddy.engine.settled();
    expect((await describeIn(eddy.client)).WarmThroughput?.ReadUnitsPerSecond).toBe(15_000);
  });

  it('keeps table class and deletion protection per replica', async () => {
    await start();
    await addWest();
    await eddy.engine.settled();
    await west.send(new UpdateTableCommand({ TableName: 'Scores', DeletionProtectionEnabled: true }));
    await west.send(
      new UpdateTableCommand({ TableName: 'Scores', TableClass: 'STANDARD_INFREQUENT_ACCESS' }),
    );
    await eddy.engine.settled();
    const east = await describeIn(eddy.client);
    expect(east.DeletionProtectionEnabled).toBe(false);
    expect(east.TableClassSummary?.TableClass ?? 'STANDARD').toBe('STANDARD');
    const replica = await describeIn(west);
    expect(replica.DeletionProtectionEnabled).toBe(true);
    expect(replica.TableClassSummary?.TableClass).toBe('STANDARD_INFREQUENT_ACCESS');
  });

  it('carries a TTL change made after the replicas exist to every replica', async () => {
    await start();
    await addWest();
    await eddy.engine.settled();
    await west.send(
      new UpdateTimeToLiveCommand({
        TableName: 'Scores',
        TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true },
      }),
    );
    const east = await eddy.client.send(new DescribeTimeToLiveCommand({ TableName: 'Scores' }));
    expect(east.TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expires' });
  });

  it('refuses switching a global table to PROVISIONED: eddy runs no auto scaling', async () => {
    await start();
    await addWest();
    await eddy.engine.settled();
    await expect(
      eddy.client.send(
        new UpdateTableCommand({
          TableName: 'Scores',
          BillingMode: 'PROVISIONED',
          ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Table write capacity should either be Pay-Per-Request or AutoScaled.',
    });
    expect((await describeIn(west)).BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it.each([
    ['a region AWS does not have', 'mars-north-1'],
    ['an empty region name', ''],
  ])('refuses a replica in %s with the service’s text (DDB-TABLE-457, -442)', async (_case, region) => {
    await start();
    const error = await eddy.client
      .send(
        new UpdateTableCommand({ TableName: 'Scores', ReplicaUpdates: [{ Delete: { RegionName: region } }] }),
      )
      .catch((caught: Error) => caught);
    expect(error).toMatchObject({ name: 'ValidationException' });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Region ${region} is not supported\\. The latest version of global tables are only supported in the following regions: \\[us-east-1, us-east-2, .*, sa-east-1\\]\\.$`,
      ),
    );
  });

  it('answers a second change during a replica change as DynamoDB does (DDB-TABLE-444, -442)', async () => {
    await start(5_000);
    await addWest();
    // The replica is being added: another replica action, and TTL, get the validation text.
    await expect(
      eddy.client.send(
        new UpdateTableCommand({
          TableName: 'Scores',
          ReplicaUpdates: [{ Create: { RegionName: 'eu-west-1' } }],
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        'Create/Update/Delete of replica is not allowed while the replica is being added to table with name: ‘Scores’ in region: ‘us-west-2’.',
    });
    await expect(
      eddy.client.send(
        new UpdateTimeToLiveCommand({
          TableName: 'Scores',
          TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true },
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    // Any other change, and DeleteTable, get the detail-free text of global tables.
    for (const send of [
      () =>
        eddy.client.send(
          new UpdateTableCommand({ TableName: 'Scores', OnDemandThroughput: { MaxReadRequestUnits: 9 } }),
        ),
      () => eddy.client.send(new DeleteTableCommand({ TableName: 'Scores' })),
      () => west.send(new UpdateTableCommand({ TableName: 'Scores', DeletionProtectionEnabled: true })),
    ])
      await expect(send()).rejects.toMatchObject({
        name: 'ResourceInUseException',
        message: 'The resource which you are attempting to change is in use.',
      });
    await clock.advance(5_000);
    await eddy.client.send(
      new UpdateTableCommand({ TableName: 'Scores', OnDemandThroughput: { MaxReadRequestUnits: 9 } }),
    );
    // The change propagates: the replica is UPDATING too, and refuses its own change meanwhile.
    expect((await describeIn(west)).TableStatus).toBe('UPDATING');
    await expect(
      west.send(new UpdateTableCommand({ TableName: 'Scores', TableClass: 'STANDARD_INFREQUENT_ACCESS' })),
    ).rejects.toMatchObject({ name: 'ResourceInUseException' });
    await clock.advance(5_000);
    expect((await describeIn(west)).TableStatus).toBe('ACTIVE');
  });
});
