import { type BackupRecord, findTable, newId } from '../backups/dataProtection.js';
import { backupDetails } from '../backups/descriptions.js';
import { itemsOf } from '../backups/pointInTime.js';
import { schemaOf } from '../backups/tableSchema.js';
import { BackupInUseException, BackupMessages, TableInUseException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { type CreateBackupInput, createBackupShape } from '../validations/createBackup.js';

/**
 * CreateBackup: a consistent copy of the table at this commit point, taken without blocking
 * writes: the items are frozen in O(partitions) (`ItemStore.freeze`, copy-on-write trees), and
 * writes go on. The answer says CREATING, as the service's does; in memory the backup is
 * AVAILABLE at once, with a data directory once its items are on disk (docs/backups.md §2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateBackup.html
 */
export const createBackup = defineOperation<CreateBackupInput, Record<string, unknown>>({
  name: 'CreateBackup',
  shape: createBackupShape,
  execute({ engine, region }, input) {
    const table = findTable(region, input.TableName);
    if (table.status !== 'ACTIVE')
      throw new TableInUseException(BackupMessages.tableInUse(table.name, table.status));
    const protection = engine.dataProtection;
    for (const other of protection.backups.values())
      if (other.status === 'CREATING' && other.schema.tableId === table.tableId)
        throw new BackupInUseException(BackupMessages.backupInUse);
    const now = engine.clock.now();
    const frozen = table.items.freeze();
    const backup: BackupRecord = {
      arn: `${table.arn}/backup/${newId(now)}`,
      name: input.BackupName,
      accountId: region.accountId,
      regionName: region.name,
      schema: schemaOf(table),
      createdAt: now,
      status: 'CREATING',
      type: 'USER',
      itemCount: frozen.count,
      sizeBytes: frozen.bytes,
      items: () => itemsOf(frozen),
      restoring: 0,
    };
    protection.backups.set(backup.arn, backup);
    const response = { BackupDetails: backupDetails(backup) };
    const save = protection.store?.saveBackup?.(backup);
    if (save === undefined) backup.status = 'AVAILABLE';
    else
      protection.track(
        save.then(() => {
          if (backup.status === 'CREATING') backup.status = 'AVAILABLE';
          protection.changed();
        }),
      );
    protection.changed();
    return response;
  },
});
