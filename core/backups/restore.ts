import { describeTable } from '../actions/tableDescription.js';
import { BackupMessages, TableAlreadyExistsException } from '../errors/index.js';
import type { ActionContext } from '../operation.js';
import type { StoredItem } from '../store/storedItem.js';
import { fillTable } from './fill.js';
import { setRestoreSummary } from './restoreSummary.js';
import { type RestoreOverrides, restoreInput, type TableSchema } from './tableSchema.js';

/**
 * Restores into a new table (RestoreTableFromBackup, RestoreTableToPointInTime): the table is
 * created by CreateTable from the source's schema and the overrides (so its checks apply), shows
 * CREATING with `RestoreInProgress: true` while its items are committed in the background, then
 * turns ACTIVE (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Restore.Tutorial.html).
 * `Engine.settled()` waits for the fill.
 */
export function restoreTable(
  { engine, region, request }: ActionContext,
  targetTableName: string,
  schema: TableSchema,
  overrides: RestoreOverrides,
  source: { backupArn?: string; restoreDateTime: number; items: Iterable<StoredItem> },
  onDone?: () => void,
): Record<string, unknown> {
  if (region.tables.has(targetTableName))
    throw new TableAlreadyExistsException(BackupMessages.tableAlreadyExists(targetTableName));
  engine.executeRaw('CreateTable', restoreInput(schema, targetTableName, overrides), request);
  const table = region.tables.get(targetTableName)!;
  table.status = 'CREATING';
  const summary = {
    ...(source.backupArn === undefined ? {} : { sourceBackupArn: source.backupArn }),
    sourceTableArn: schema.tableArn,
    restoreDateTime: source.restoreDateTime,
    inProgress: true,
  };
  setRestoreSummary(table, summary);
  engine.tableChanged(region, table, 'updated');
  const response = { TableDescription: describeTable(table, engine.clock.now()) };
  const fill = fillTable(engine, region, table, source.items[Symbol.iterator]()).finally(() => {
    summary.inProgress = false;
    onDone?.();
    if (region.tables.get(table.name) !== table) return;
    if (table.status === 'CREATING') table.status = 'ACTIVE';
    engine.tableChanged(region, table, 'updated');
  });
  engine.dataProtection.track(fill);
  return response;
}
