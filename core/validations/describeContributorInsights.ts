import { dataPlaneTableName, indexName } from './common.js';
import type { Shape } from './shape.js';

/**
 * DescribeContributorInsights: TableName (name or ARN) and an optional IndexName.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeContributorInsights.html
 */
export interface DescribeContributorInsightsInput {
  TableName: string;
  IndexName?: string;
}

export const describeContributorInsightsShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
  IndexName: indexName,
};
