import { backupArn, tableArn, timestamp } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * ListBackups: filters by table (name or ARN), creation time ([lower, upper): the lower bound is
 * inclusive, the upper exclusive) and type (default USER), pages of `Limit` (1..100) resumed
 * after `ExclusiveStartBackupArn`.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListBackups.html
 */
export interface ListBackupsInput {
  TableName?: string;
  Limit?: number;
  TimeRangeLowerBound?: number;
  TimeRangeUpperBound?: number;
  ExclusiveStartBackupArn?: string;
  BackupType?: 'USER' | 'SYSTEM' | 'AWS_BACKUP' | 'ALL';
}

export const listBackupsShape: Record<string, Shape> = {
  TableName: tableArn(false),
  Limit: { kind: 'integer', min: 1, max: 100 },
  TimeRangeLowerBound: timestamp,
  TimeRangeUpperBound: timestamp,
  ExclusiveStartBackupArn: backupArn(false),
  BackupType: { kind: 'string', enum: ['USER', 'SYSTEM', 'AWS_BACKUP', 'ALL'] },
};
