import { restorableWindow } from '../backups/continuousBackups.js';
import { tableByNameOrArn } from '../backups/dataProtection.js';
import { itemsOf } from '../backups/pointInTime.js';
import { restoreTable } from '../backups/restore.js';
import type { TableHistory } from '../backups/tableHistory.js';
import { schemaOf, type TableSchema } from '../backups/tableSchema.js';
import {
  BackupMessages,
  InvalidRestoreTimeException,
  PointInTimeRecoveryUnavailableException,
  TableNotFoundException,
} from '../errors/index.js';
import { defineOperation } from '../operation.js';
import type { FrozenItems } from '../store/itemStore.js';
import type { Region } from '../store/region.js';
import {
  type RestoreTableToPointInTimeInput,
  restoreTableToPointInTimeShape,
  validateRestoreTableToPointInTime,
} from '../validations/restoreTableToPointInTime.js';

interface Source {
  schema: TableSchema;
  frozen: () => FrozenItems;
  history: TableHistory;
  earliest: number;
  latest: number;
}

/**
 * RestoreTableToPointInTime: a new table holding the source's items as they were at a second of
 * its recovery window (or at its latest restorable time): the source's items now, with every key
 * changed since set back to its value then (docs/backups.md §3). A deleted table is not a source:
 * its SYSTEM backup restores it, with RestoreTableFromBackup (docs/backups.md §2.4).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableToPointInTime.html
 */
export const restoreTableToPointInTime = defineOperation<
  RestoreTableToPointInTimeInput,
  Record<string, unknown>
>({
  name: 'RestoreTableToPointInTime',
  shape: restoreTableToPointInTimeShape,
  validate: validateRestoreTableToPointInTime,
  execute(context, input) {
    const { engine, region } = context;
    const named = (input.SourceTableArn ?? input.SourceTableName)!;
    const source = sourceOf(context.engine, region, named);
    const at = input.UseLatestRestorableTime === true ? source.latest : input.RestoreDateTime! * 1000;
    if (at < source.earliest - 999 || at > source.latest)
      throw new InvalidRestoreTimeException(
        BackupMessages.invalidRestoreTime(source.earliest, source.latest),
      );
    const items = itemsOf(source.frozen(), source.history.valuesAt(Math.max(at, source.earliest)));
    engine.dataProtection.expire(engine.clock.now());
    return restoreTable(context, input.TargetTableName, source.schema, input, { restoreDateTime: at, items });
  },
});

function sourceOf(engine: import('../engine.js').Engine, region: Region, named: string): Source {
  const protection = engine.dataProtection;
  const table = tableByNameOrArn(region, named);
  if (table !== undefined) {
    const history = protection.histories.get(table.tableId);
    const window = restorableWindow(engine, table);
    if (history === undefined || window === undefined)
      throw new PointInTimeRecoveryUnavailableException(BackupMessages.pitrUnavailable(table.name));
    return { schema: schemaOf(table), frozen: () => table.items.freeze(), history, ...window };
  }
  throw new TableNotFoundException(BackupMessages.tableNotFound(named));
}
