import { backupDescription } from '../backups/descriptions.js';
import { BackupInUseException, BackupMessages, BackupNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type DeleteBackupInput, deleteBackupShape } from '../validations/deleteBackup.js';

/**
 * DeleteBackup: answers the backup's description with status DELETED. A backup being created or
 * being restored from is in use (BackupInUseException).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteBackup.html
 */
export const deleteBackup = defineOperation<DeleteBackupInput, Record<string, unknown>>({
  name: 'DeleteBackup',
  shape: deleteBackupShape,
  execute({ engine }, input) {
    const protection = engine.dataProtection;
    const backup = protection.backups.get(input.BackupArn);
    if (backup === undefined)
      throw new BackupNotFoundException(BackupMessages.backupNotFound(input.BackupArn));
    if (backup.status === 'CREATING' || backup.restoring > 0)
      throw new BackupInUseException(BackupMessages.backupInUse);
    protection.backups.delete(backup.arn);
    backup.status = 'DELETED';
    protection.store?.deleteBackup?.(backup);
    protection.changed();
    return { BackupDescription: backupDescription(backup) };
  },
});
