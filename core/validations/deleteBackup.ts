/**
 * DeleteBackup: the same request as DescribeBackup, a backup ARN.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteBackup.html
 */
export {
  type BackupArnInput as DeleteBackupInput,
  backupArnShape as deleteBackupShape,
} from './describeBackup.js';
