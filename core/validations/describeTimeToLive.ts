import { dataPlaneTableName } from './common.js';
import type { Shape } from './shape.js';

/**
 * DescribeTimeToLive: TableName only.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTimeToLive.html
 */
export interface DescribeTimeToLiveInput {
  TableName: string;
}

export const describeTimeToLiveShape: Record<string, Shape> = { TableName: dataPlaneTableName };
