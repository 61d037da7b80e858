import { dataPlaneTableName } from './common.js';
import type { Shape } from './shape.js';

/**
 * DescribeKinesisStreamingDestination: TableName (name or ARN) only.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeKinesisStreamingDestination.html
 */
export interface DescribeKinesisStreamingDestinationInput {
  TableName: string;
}

export const describeKinesisStreamingDestinationShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
};
