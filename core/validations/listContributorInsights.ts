import { dataPlaneTableName } from './common.js';
import type { Shape } from './shape.js';

/**
 * ListContributorInsights: an optional TableName, NextToken, and MaxResults of at most 100.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListContributorInsights.html
 */
export interface ListContributorInsightsInput {
  TableName?: string;
  NextToken?: string;
  MaxResults?: number;
}

export const listContributorInsightsShape: Record<string, Shape> = {
  TableName: { ...dataPlaneTableName, required: false },
  NextToken: { kind: 'string' },
  MaxResults: { kind: 'integer', javaType: 'Integer', max: 100 },
};
