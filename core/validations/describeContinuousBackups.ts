import { tableArn } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * DescribeContinuousBackups: a table by name or ARN.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeContinuousBackups.html
 */
export interface DescribeContinuousBackupsInput {
  TableName: string;
}

export const describeContinuousBackupsShape: Record<string, Shape> = { TableName: tableArn(true) };
