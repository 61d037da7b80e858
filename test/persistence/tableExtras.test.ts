import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insightsFigures } from '../../core/insights/contributorInsights.js';
import { type Host, openHost, s, tempDir } from './helpers.js';

/**
 * A table's resource-based policy and Contributor Insights settings survive a restart of a data
 * directory like its other settings (docs/persistence.md §1, docs/resource-policies.md,
 * docs/contributor-insights-and-endpoints.md): from the log alone and from a snapshot.
 */
let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders';
const POLICY = JSON.stringify({
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Principal: { AWS: '000000000000' }, Action: 'dynamodb:GetItem', Resource: '*' },
  ],
});

function makeTables(host: Host): string {
  const { engine } = host;
  for (const TableName of ['Orders', 'Gone'])
    engine.execute('CreateTable', {
      TableName,
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'team', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byTeam',
          KeySchema: [{ AttributeName: 'team', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
  const { RevisionId } = engine.execute('PutResourcePolicy', { ResourceArn: ARN, Policy: POLICY }) as {
    RevisionId: string;
  };
  engine.execute('UpdateContributorInsights', { TableName: 'Orders', ContributorInsightsAction: 'ENABLE' });
  engine.execute('UpdateContributorInsights', {
    TableName: 'Orders',
    IndexName: 'byTeam',
    ContributorInsightsAction: 'ENABLE',
    ContributorInsightsMode: 'THROTTLED_KEYS',
  });
  // A policy put and deleted again, and insights enabled then disabled, are gone after the restart.
  const gone = 'arn:aws:dynamodb:us-east-1:000000000000:table/Gone';
  engine.execute('PutResourcePolicy', { ResourceArn: gone, Policy: POLICY });
  engine.execute('DeleteResourcePolicy', { ResourceArn: gone });
  engine.execute('UpdateContributorInsights', { TableName: 'Gone', ContributorInsightsAction: 'ENABLE' });
  engine.execute('UpdateContributorInsights', { TableName: 'Gone', ContributorInsightsAction: 'DISABLE' });
  return RevisionId;
}

describe.each([
  ['the log alone', false],
  ['a snapshot', true],
])('a table after a restart from %s', (_case, snapshotOnClose) => {
  it('keeps its resource policy and revision, and its Contributor Insights settings', async () => {
    const host = await openHost(dir.path, { snapshotOnClose });
    const revision = makeTables(host);
    const insightsBefore = host.engine.execute('ListContributorInsights', {});
    await host.persistence.close();

    const again = await openHost(dir.path, { start: host.clock.now(), snapshotOnClose });
    const { engine } = again;
    expect(engine.execute('GetResourcePolicy', { ResourceArn: ARN })).toEqual({
      Policy: POLICY,
      RevisionId: revision,
    });
    expect(() =>
      engine.execute('GetResourcePolicy', {
        ResourceArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Gone',
      }),
    ).toThrow(expect.objectContaining({ name: 'PolicyNotFoundException' }));
    expect(engine.execute('ListContributorInsights', {})).toEqual(insightsBefore);
    expect(
      engine.execute('DescribeContributorInsights', { TableName: 'Orders', IndexName: 'byTeam' }),
    ).toMatchObject({ ContributorInsightsStatus: 'ENABLED', ContributorInsightsMode: 'THROTTLED_KEYS' });
    expect(engine.execute('DescribeContributorInsights', { TableName: 'Gone' })).toMatchObject({
      ContributorInsightsStatus: 'DISABLED',
    });
    // Counting goes on after the restart: the table's reads are counted per key again.
    engine.execute('PutItem', { TableName: 'Orders', Item: { pk: s('hot'), team: s('red') } });
    engine.execute('GetItem', { TableName: 'Orders', Key: { pk: s('hot') } });
    const figures = insightsFigures(engine).find(
      (entry) => entry.table === 'Orders' && entry.index === undefined,
    );
    expect(figures?.mostAccessedKeys.find((entry) => entry.key === 'hot')?.count).toBeGreaterThan(0);
    await again.persistence.close();
  });
});
