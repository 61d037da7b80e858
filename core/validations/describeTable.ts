import { dataPlaneTableName } from './common.js';
import type { Shape } from './shape.js';

/**
 * DescribeTable: TableName only (control-plane name checks, docs/dynamodb.md §2.5.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html
 */
export interface DescribeTableInput {
  TableName: string;
}

export const describeTableShape: Record<string, Shape> = { TableName: dataPlaneTableName };
