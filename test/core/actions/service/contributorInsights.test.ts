import {
  CreateTableCommand,
  DescribeContributorInsightsCommand,
  GetItemCommand,
  ListContributorInsightsCommand,
  PutItemCommand,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capacityMetricsService, METRICS_PATH } from '../../../../infra/capacity/metricsService.js';
import { httpTransport, type TransportHandle } from '../../../helpers/transports.js';

/**
 * Contributor Insights over HTTP: states, modes and rule names as recorded against DynamoDB in
 * 2026 (the ack-api-quirks lab's DDB-TABLE-092) and named in the developer guide
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/contributorinsights_HowItWorks.html),
 * and eddy's own counts of the most accessed keys at /_eddy/metrics
 * (docs/contributor-insights-and-endpoints.md §2).
 */
let eddy: TransportHandle;
beforeEach(async () => {
  eddy = await httpTransport.start();
  eddy.pipeline.registerRestService(capacityMetricsService(eddy.engine));
  await eddy.client.send(
    new CreateTableCommand({
      TableName: 'Music',
      KeySchema: [
        { AttributeName: 'Artist', KeyType: 'HASH' },
        { AttributeName: 'Song', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'Artist', AttributeType: 'S' },
        { AttributeName: 'Song', AttributeType: 'S' },
        { AttributeName: 'Genre', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'ByGenre',
          KeySchema: [{ AttributeName: 'Genre', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
});
afterEach(() => eddy.close());

const update = (action: 'ENABLE' | 'DISABLE', extra: Record<string, string> = {}) =>
  eddy.client.send(
    new UpdateContributorInsightsCommand({ TableName: 'Music', ContributorInsightsAction: action, ...extra }),
  );
const describe_ = (IndexName?: string) =>
  eddy.client.send(
    new DescribeContributorInsightsCommand({ TableName: 'Music', ...(IndexName ? { IndexName } : {}) }),
  );

describe('Contributor Insights', () => {
  it('is DISABLED at first, ENABLING → ENABLED with the rules DynamoDB names', async () => {
    expect((await describe_()).ContributorInsightsStatus).toBe('DISABLED');
    const enabled = await update('ENABLE');
    expect(enabled).toMatchObject({
      TableName: 'Music',
      ContributorInsightsStatus: 'ENABLING',
      ContributorInsightsMode: 'ACCESSED_AND_THROTTLED_KEYS',
    });
    const described = await describe_();
    expect(described.ContributorInsightsStatus).toBe('ENABLED');
    expect(described.ContributorInsightsMode).toBe('ACCESSED_AND_THROTTLED_KEYS');
    expect(described.LastUpdateDateTime).toBeInstanceOf(Date);
    // A table with a sort key gets the sort-key rules too.
    expect(described.ContributorInsightsRuleList).toEqual(
      ['PKC', 'PKT', 'SKC', 'SKT'].map((kind) =>
        expect.stringMatching(new RegExp(`^DynamoDBContributorInsights-${kind}-Music-\\d{13}$`)),
      ),
    );
    // ENABLE in the same mode is a no-op (DDB-TABLE-092).
    expect((await update('ENABLE')).ContributorInsightsStatus).toBe('ENABLED');
  });

  it('THROTTLED_KEYS keeps only the throttled-key rules; ENABLE without a mode goes back to the default', async () => {
    await update('ENABLE', { ContributorInsightsMode: 'THROTTLED_KEYS' });
    const throttledOnly = await describe_();
    expect(throttledOnly.ContributorInsightsMode).toBe('THROTTLED_KEYS');
    expect(throttledOnly.ContributorInsightsRuleList!.map((name) => name.split('-')[1])).toEqual([
      'PKT',
      'SKT',
    ]);
    expect((await update('ENABLE')).ContributorInsightsStatus).toBe('ENABLING');
    expect((await describe_()).ContributorInsightsMode).toBe('ACCESSED_AND_THROTTLED_KEYS');
  });

  it('DISABLE: DISABLING answering the current mode, then DISABLED', async () => {
    await update('ENABLE');
    const disabled = await update('DISABLE', { ContributorInsightsMode: 'THROTTLED_KEYS' });
    expect(disabled).toMatchObject({
      ContributorInsightsStatus: 'DISABLING',
      ContributorInsightsMode: 'ACCESSED_AND_THROTTLED_KEYS',
    });
    expect((await describe_()).ContributorInsightsStatus).toBe('DISABLED');
  });

  it('works per GSI, with the index in the rule names', async () => {
    const output = await update('ENABLE', { IndexName: 'ByGenre' });
    expect(output.IndexName).toBe('ByGenre');
    const described = await describe_('ByGenre');
    expect(described.ContributorInsightsRuleList).toEqual([
      expect.stringMatching(/^DynamoDBContributorInsights-PKC-Music-ByGenre-\d{13}$/),
      expect.stringMatching(/^DynamoDBContributorInsights-PKT-Music-ByGenre-\d{13}$/),
    ]);
    expect((await describe_()).ContributorInsightsStatus).toBe('DISABLED');
  });

  it('answers ResourceNotFoundException for a missing table or index, and checks the action', async () => {
    const missing = await eddy.client
      .send(new DescribeContributorInsightsCommand({ TableName: 'Nope' }))
      .catch((error: Error) => error);
    expect(missing).toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'Requested resource not found: Table: Nope not found',
    });
    const index = await update('ENABLE', { IndexName: 'Nope' }).catch((error: Error) => error);
    expect(index).toMatchObject({ name: 'ResourceNotFoundException' });
    const action = await eddy.client
      .send(
        new UpdateContributorInsightsCommand({
          TableName: 'Music',
          ContributorInsightsAction: 'PAUSE' as never,
        }),
      )
      .catch((error: Error) => error);
    expect(action).toMatchObject({ name: 'ValidationException' });
    expect((action as Error).message).toContain(
      'failed to satisfy constraint: Member must satisfy enum value set: [ENABLE, DISABLE]',
    );
  });

  it('lists what is enabled, paged by MaxResults', async () => {
    await update('ENABLE');
    await update('ENABLE', { IndexName: 'ByGenre' });
    const first = await eddy.client.send(new ListContributorInsightsCommand({ MaxResults: 1 }));
    expect(first.ContributorInsightsSummaries).toEqual([
      {
        TableName: 'Music',
        ContributorInsightsStatus: 'ENABLED',
        ContributorInsightsMode: 'ACCESSED_AND_THROTTLED_KEYS',
      },
    ]);
    expect(first.NextToken).toBeDefined();
    const second = await eddy.client.send(
      new ListContributorInsightsCommand({ MaxResults: 1, NextToken: first.NextToken }),
    );
    expect(second.ContributorInsightsSummaries).toEqual([
      {
        TableName: 'Music',
        IndexName: 'ByGenre',
        ContributorInsightsStatus: 'ENABLED',
        ContributorInsightsMode: 'ACCESSED_AND_THROTTLED_KEYS',
      },
    ]);
    expect(second.NextToken).toBeUndefined();
    const tooMany = await eddy.client
      .send(new ListContributorInsightsCommand({ MaxResults: 101 }))
      .catch((error: Error) => error);
    expect(tooMany).toMatchObject({ name: 'ValidationException' });
  });

  it('counts the most accessed partition keys of eddy traffic, at /_eddy/metrics', async () => {
    await update('ENABLE');
    const put = (artist: string, song: string) =>
      eddy.client.send(
        new PutItemCommand({ TableName: 'Music', Item: { Artist: { S: artist }, Song: { S: song } } }),
      );
    for (let round = 0; round < 5; round++) await put('Hot Band', `song ${round}`);
    await put('Quiet Band', 'one');
    for (let round = 0; round < 3; round++)
      await eddy.client.send(
        new GetItemCommand({ TableName: 'Music', Key: { Artist: { S: 'Quiet Band' }, Song: { S: 'one' } } }),
      );
    // A throttled write counts as throttled, not accessed (an injected throttle, docs/capacity.md §6).
    eddy.engine.capacity.injectFault('Music', 'throttle', 1);
    await expect(put('Quiet Band', 'two')).rejects.toMatchObject({ name: 'ThrottlingException' });
    const response = await fetch(new URL(METRICS_PATH, eddy.endpoint));
    const body = (await response.json()) as { ContributorInsights: unknown[] };
    expect(body.ContributorInsights).toEqual([
      expect.objectContaining({
        table: 'Music',
        status: 'ENABLED',
        mostAccessedKeys: [
          { key: 'Hot Band', count: 5 },
          { key: 'Quiet Band', count: 4 },
        ],
        mostThrottledKeys: [{ key: 'Quiet Band', count: 1 }],
      }),
    ]);
  });
});
