import { backupArn } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * DescribeBackup and DeleteBackup: a backup ARN.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeBackup.html
 */
export interface BackupArnInput {
  BackupArn: string;
}

export const backupArnShape: Record<string, Shape> = { BackupArn: backupArn(true) };
