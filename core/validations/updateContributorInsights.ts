import type { InsightsMode } from '../insights/contributorInsights.js';
import { dataPlaneTableName, indexName } from './common.js';
import { contributorInsightsMode } from './contributorInsightsMembers.js';
import type { Shape } from './shape.js';

/**
 * UpdateContributorInsights: TableName (name or ARN), an optional IndexName, the
 * ContributorInsightsAction and an optional ContributorInsightsMode.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContributorInsights.html
 */
export interface UpdateContributorInsightsInput {
  TableName: string;
  IndexName?: string;
  ContributorInsightsAction: 'ENABLE' | 'DISABLE';
  ContributorInsightsMode?: InsightsMode;
}

export const updateContributorInsightsShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
  IndexName: indexName,
  ContributorInsightsAction: { kind: 'string', required: true, enum: ['ENABLE', 'DISABLE'] },
  ContributorInsightsMode: contributorInsightsMode,
};
