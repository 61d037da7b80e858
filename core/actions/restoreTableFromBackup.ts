import { restoreTable } from '../backups/restore.js';
import { BackupInUseException, BackupMessages, BackupNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import {
  type RestoreTableFromBackupInput,
  restoreTableFromBackupShape,
} from '../validations/restoreTableFromBackup.js';

/**
 * RestoreTableFromBackup: a new table with the backup's keys, indexes and items, and the
 * overrides given (docs/backups.md §2). Checks in this order: the backup exists, is not being
 * created, the target name is free; then CreateTable's validation of the restored schema.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableFromBackup.html
 */
export const restoreTableFromBackup = defineOperation<RestoreTableFromBackupInput, Record<string, unknown>>({
  name: 'RestoreTableFromBackup',
  shape: restoreTableFromBackupShape,
  execute(context, input) {
    const protection = context.engine.dataProtection;
    const backup = protection.backups.get(input.BackupArn);
    if (backup === undefined)
      throw new BackupNotFoundException(BackupMessages.backupNotFound(input.BackupArn));
    if (backup.status !== 'AVAILABLE') throw new BackupInUseException(BackupMessages.backupInUse);
    const response = restoreTable(
      context,
      input.TargetTableName,
      backup.schema,
      input,
      { backupArn: backup.arn, restoreDateTime: backup.createdAt, items: backup.items() },
      () => backup.restoring--,
    );
    backup.restoring++;
    return response;
  },
});
