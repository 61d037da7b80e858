import {
  CreateGlobalTableCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeGlobalTableCommand,
  DescribeGlobalTableSettingsCommand,
  DescribeTableCommand,
  DescribeTableReplicaAutoScalingCommand,
  type DynamoDBClient,
  GetItemCommand,
  ListGlobalTablesCommand,
  PutItemCommand,
  UpdateGlobalTableCommand,
  UpdateGlobalTableSettingsCommand,
  UpdateTableCommand,
  UpdateTableReplicaAutoScalingCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VirtualClock } from '../../../../core/clock.js';
import { httpTransport, type TransportHandle } from '../../../helpers/transports.js';
import { type ScoresTable, startScores, WEST } from './scoresGlobalTable.js';

/**
 * Global tables version 2019.11.21 over HTTP with the AWS SDK (docs/global-tables.md). Texts and
 * behaviours from the 2026 recordings of DynamoDB quoted in docs/global-tables.md §2 (ack-api-quirks
 * DDB-TABLE-223, -227, -265, -267; ScyllaDB's AWS-run test/alternator/test_global_tables.py).
 */
describe('UpdateTable ReplicaUpdates over HTTP', () => {
  let scores: ScoresTable;
  let eddy: TransportHandle;
  let west: DynamoDBClient;
  let clock: VirtualClock;

  beforeEach(async () => {
    scores = await startScores();
    ({ eddy, west, clock } = scores);
  });
  afterEach(() => scores.close());

  const addWest = () => scores.addWest();

  it('creates the replica in the other region with the items the table holds, and describes both', async () => {
    await eddy.client.send(
      new PutItemCommand({ TableName: 'Scores', Item: { pk: { S: 'a' }, n: { N: '1' } } }),
    );
    const answer = await addWest();
    expect(answer.TableDescription?.TableStatus).toBe('UPDATING');
    await eddy.engine.settled();

    const east = (await eddy.client.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(east.GlobalTableVersion).toBe('2019.11.21');
    expect(east.Replicas).toEqual([
      { RegionName: 'us-east-1', ReplicaStatus: 'ACTIVE' },
      { RegionName: WEST, ReplicaStatus: 'ACTIVE' },
    ]);
    // "making a table global always enables a stream with NEW_AND_OLD_IMAGES" (ScyllaDB, run on AWS).
    expect(east.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const replica = (await west.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(replica.TableArn).toBe('arn:aws:dynamodb:us-west-2:000000000000:table/Scores');
    expect(replica.Replicas?.map((entry) => entry.RegionName)).toEqual(['us-east-1', WEST]);
    const item = await west.send(new GetItemCommand({ TableName: 'Scores', Key: { pk: { S: 'a' } } }));
    expect(item.Item).toEqual({ pk: { S: 'a' }, n: { N: '1' } });
  });

  it('replicates later writes both ways', async () => {
    await addWest();
    await eddy.client.send(new PutItemCommand({ TableName: 'Scores', Item: { pk: { S: 'e' } } }));
    await west.send(new PutItemCommand({ TableName: 'Scores', Item: { pk: { S: 'w' } } }));
    await eddy.engine.settled();
    expect(
      (await west.send(new GetItemCommand({ TableName: 'Scores', Key: { pk: { S: 'e' } } }))).Item,
    ).toBeDefined();
    expect(
      (await eddy.client.send(new GetItemCommand({ TableName: 'Scores', Key: { pk: { S: 'w' } } }))).Item,
    ).toBeDefined();
  });

  it('keeps the replica CREATING for the transient delay', async () => {
    await scores.close();
    scores = await startScores(5_000);
    ({ eddy, west, clock } = scores);
    await addWest();
    const during = (await eddy.client.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(during.Replicas?.[1]).toEqual({ RegionName: WEST, ReplicaStatus: 'CREATING' });
    // A CREATING replica answers DescribeTable only (recorded 2026).
    await expect(
      west.send(new GetItemCommand({ TableName: 'Scores', Key: { pk: { S: 'a' } } })),
    ).rejects.toThrow('Requested resource not found');
    await clock.advance(5_000);
    const after = (await eddy.client.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(after.TableStatus).toBe('ACTIVE');
    expect(after.Replicas?.[1]?.ReplicaStatus).toBe('ACTIVE');
  });

  it.each([
    [
      'the local region',
      [{ Create: { RegionName: 'us-east-1' } }],
      'Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required.',
    ],
    [
      'an element with no action',
      [{}],
      'There are no actions specified in the Replica Update Action of the request.',
    ],
    [
      'an Update naming only the region',
      [{ Update: { RegionName: WEST } }],
      'There are no actions specified in the Replica Update Action of the request.',
    ],
    [
      'Create and Delete in one element',
      [{ Create: { RegionName: WEST }, Delete: { RegionName: WEST } }],
      'Update table operation with more than one type of replica actions not allowed.',
    ],
    [
      'two Creates',
      [{ Create: { RegionName: WEST } }, { Create: { RegionName: 'eu-west-1' } }],
      'Update table operation with more than one create or delete replica actions not allowed',
    ],
    [
      'a Delete of a region that is no replica',
      [{ Delete: { RegionName: 'eu-west-1' } }],
      'Update global table operation failed because one or more replicas were not part of the global table. Please retry the request without these replicas: [eu-west-1].',
    ],
  ])('answers ValidationException for %s', async (_case, ReplicaUpdates, message) => {
    const error = await eddy.client
      .send(new UpdateTableCommand({ TableName: 'Scores', ReplicaUpdates }))
      .catch((caught: unknown) => caught as Error & { $metadata: { httpStatusCode: number } });
    expect(error).toMatchObject({ name: 'ValidationException', message, $metadata: { httpStatusCode: 400 } });
  });

  it('refuses a replica where a table of that name exists', async () => {
    await west.send(
      new CreateTableCommand({
        TableName: 'Scores',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await expect(addWest()).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        'Failed to create a the new replica of table with name: ‘Scores’ because one or more replicas already existed as tables.',
    });
  });

  it('refuses ReplicaUpdates with another change, and a provisioned table without auto scaling', async () => {
    await expect(
      eddy.client.send(
        new UpdateTableCommand({
          TableName: 'Scores',
          DeletionProtectionEnabled: true,
          ReplicaUpdates: [{ Create: { RegionName: WEST } }],
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        'One or more parameter values were invalid: Replica modification must be the only operation in the request',
    });
    await eddy.client.send(
      new CreateTableCommand({
        TableName: 'Fixed',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
      }),
    );
    await expect(
      eddy.client.send(
        new UpdateTableCommand({ TableName: 'Fixed', ReplicaUpdates: [{ Create: { RegionName: WEST } }] }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Table write capacity should either be Pay-Per-Request or AutoScaled.',
    });
  });

  it('refuses to disable the stream of a global table', async () => {
    await addWest();
    await expect(
      eddy.client.send(
        new UpdateTableCommand({ TableName: 'Scores', StreamSpecification: { StreamEnabled: false } }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        'One or more parameter values were invalid: Disabling Stream is not allowed for a Global Table replica.',
    });
  });

  it('sets and describes replica overrides with Update', async () => {
    await addWest();
    await eddy.client.send(
      new UpdateTableCommand({
        TableName: 'Scores',
        ReplicaUpdates: [
          {
            Update: {
              RegionName: WEST,
              OnDemandThroughputOverride: { MaxReadRequestUnits: 50 },
              TableClassOverride: 'STANDARD_INFREQUENT_ACCESS',
            },
          },
        ],
      }),
    );
    const east = (await eddy.client.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(east.Replicas?.[1]).toEqual({
      RegionName: WEST,
      ReplicaStatus: 'ACTIVE',
      OnDemandThroughputOverride: { MaxReadRequestUnits: 50 },
      ReplicaTableClassSummary: { TableClass: 'STANDARD_INFREQUENT_ACCESS' },
    });
    const replica = (await west.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(replica.TableClassSummary?.TableClass).toBe('STANDARD_INFREQUENT_ACCESS');
    await expect(
      eddy.client.send(
        new UpdateTableCommand({
          TableName: 'Scores',
          ReplicaUpdates: [
            { Update: { RegionName: WEST, ProvisionedThroughputOverride: { ReadCapacityUnits: 5 } } },
          ],
        }),
      ),
    ).rejects.toMatchObject({
      message:
        'One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST',
    });
  });

  it('deletes a replica: the table is regional again and keeps its stream', async () => {
    await addWest();
    await eddy.client.send(
      new UpdateTableCommand({ TableName: 'Scores', ReplicaUpdates: [{ Delete: { RegionName: WEST } }] }),
    );
    await expect(west.send(new DescribeTableCommand({ TableName: 'Scores' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    const east = (await eddy.client.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(east.Replicas).toBeUndefined();
    expect(east.GlobalTableVersion).toBeUndefined();
    expect(east.StreamSpecification?.StreamEnabled).toBe(true);
  });

  it('refuses DeleteTable of the source for 24 hours while its replica exists, allows the replica', async () => {
    await addWest();
    await expect(eddy.client.send(new DeleteTableCommand({ TableName: 'Scores' }))).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        'Replica cannot be deleted because it has acted as a source region for new replica(s) being added to the table in the last 24 hours.',
    });
    await west.send(new DeleteTableCommand({ TableName: 'Scores' }));
    const east = (await eddy.client.send(new DescribeTableCommand({ TableName: 'Scores' }))).Table!;
    expect(east.Replicas).toBeUndefined();
    await eddy.client.send(new DeleteTableCommand({ TableName: 'Scores' }));
  });
});

describe('DescribeTableReplicaAutoScaling and UpdateTableReplicaAutoScaling over HTTP', () => {
  let scores: ScoresTable;
  let eddy: TransportHandle;
  beforeEach(async () => {
    scores = await startScores();
    eddy = scores.eddy;
  });
  afterEach(() => scores.close());

  it('describes each replica of a global table, without auto scaling settings on demand', async () => {
    await scores.addWest();
    const answer = await eddy.client.send(
      new DescribeTableReplicaAutoScalingCommand({ TableName: 'Scores' }),
    );
    expect(answer.TableAutoScalingDescription).toEqual({
      TableName: 'Scores',
      TableStatus: 'ACTIVE',
      Replicas: [
        { RegionName: 'us-east-1', GlobalSecondaryIndexes: [], ReplicaStatus: 'ACTIVE' },
        { RegionName: WEST, GlobalSecondaryIndexes: [], ReplicaStatus: 'ACTIVE' },
      ],
    });
    // Turning auto scaling off is the one update on-demand replicas take (recorded 2026).
    const off = await eddy.client.send(
      new UpdateTableReplicaAutoScalingCommand({
        TableName: 'Scores',
        ProvisionedWriteCapacityAutoScalingUpdate: { AutoScalingDisabled: true },
      }),
    );
    expect(off.TableAutoScalingDescription?.Replicas).toHaveLength(2);
    await expect(
      eddy.client.send(
        new UpdateTableReplicaAutoScalingCommand({
          TableName: 'Scores',
          ProvisionedWriteCapacityAutoScalingUpdate: { MinimumUnits: 5, MaximumUnits: 10 },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        "Failed to update global table with name ‘Scores‘. Replicas 'us-east-1', 'us-west-2' BillingMode is PayPerRequest. You must convert table's BillingMode to PROVISIONED to set parameters: 'ProvisionedWriteCapacityAutoScalingUpdate'.",
    });
  });

  it('answers ResourceNotFoundException for UpdateTableReplicaAutoScaling on a regional table', async () => {
    await expect(
      eddy.client.send(
        new UpdateTableReplicaAutoScalingCommand({
          TableName: 'Scores',
          ProvisionedWriteCapacityAutoScalingUpdate: { AutoScalingDisabled: true },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'Global table with name: ‘Scores’ does not exist.',
    });
    const regional = await eddy.client.send(
      new DescribeTableReplicaAutoScalingCommand({ TableName: 'Scores' }),
    );
    expect(regional.TableAutoScalingDescription?.Replicas).toEqual([]);
  });
});

describe('the legacy global tables operations (version 2017.11.29) over HTTP', () => {
  // As DynamoDB answers them in 2026 (ScyllaDB's test/alternator/test_global_tables.py, run on AWS).
  let eddy: TransportHandle;
  beforeEach(async () => {
    eddy = await httpTransport.start();
  });
  afterEach(() => eddy.close());

  it('refuses CreateGlobalTable: version 2017.11.29 is not supported', async () => {
    await expect(
      eddy.client.send(
        new CreateGlobalTableCommand({ GlobalTableName: 'Scores', ReplicationGroup: [{ RegionName: WEST }] }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationException',
      message:
        'One or more parameter values were invalid: DynamoDB global tables version 2017.11.29 is not supported. We recommend using DynamoDB global tables version 2019.11.21, instead of version 2017.11.29 (Legacy).',
    });
  });

  it('finds no legacy global table, and lists none', async () => {
    for (const command of [
      new DescribeGlobalTableCommand({ GlobalTableName: 'Scores' }),
      new DescribeGlobalTableSettingsCommand({ GlobalTableName: 'Scores' }),
      new UpdateGlobalTableCommand({
        GlobalTableName: 'Scores',
        ReplicaUpdates: [{ Create: { RegionName: WEST } }],
      }),
      new UpdateGlobalTableSettingsCommand({
        GlobalTableName: 'Scores',
        GlobalTableBillingMode: 'PAY_PER_REQUEST',
      }),
    ]) {
      await expect(eddy.client.send(command as never)).rejects.toMatchObject({
        name: 'GlobalTableNotFoundException',
        message: "Global table with name 'Scores' does not exist.",
        $metadata: { httpStatusCode: 400 },
      });
    }
    expect((await eddy.client.send(new ListGlobalTablesCommand({}))).GlobalTables).toEqual([]);
  });
});
