import { backupDescription } from '../backups/descriptions.js';
import { BackupMessages, BackupNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type BackupArnInput, backupArnShape } from '../validations/describeBackup.js';

/**
 * DescribeBackup: the backup's details, its source table's details and features at backup time.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeBackup.html
 */
export const describeBackup = defineOperation<BackupArnInput, Record<string, unknown>>({
  name: 'DescribeBackup',
  shape: backupArnShape,
  execute({ engine }, input) {
    const backup = engine.dataProtection.backups.get(input.BackupArn);
    if (backup === undefined)
      throw new BackupNotFoundException(BackupMessages.backupNotFound(input.BackupArn));
    return { BackupDescription: backupDescription(backup) };
  },
});
