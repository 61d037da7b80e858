import { backupName, tableArn } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * CreateBackup: request shape. The table may be named by name or ARN.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateBackup.html
 */
export interface CreateBackupInput {
  TableName: string;
  BackupName: string;
}

export const createBackupShape: Record<string, Shape> = {
  TableName: tableArn(true),
  BackupName: backupName,
};
