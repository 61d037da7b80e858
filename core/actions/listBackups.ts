import { regionPrefix } from '../backups/dataProtection.js';
import { backupSummary } from '../backups/descriptions.js';
import { defineOperation } from '../operation.js';
import { type ListBackupsInput, listBackupsShape } from '../validations/listBackups.js';

/**
 * ListBackups: the region's backups, oldest first, filtered by table (name or ARN), creation time
 * (lower bound inclusive, upper exclusive) and type (USER when not given), in pages of `Limit`
 * that end with `LastEvaluatedBackupArn` while more remain.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListBackups.html
 */
export const listBackups = defineOperation<ListBackupsInput, Record<string, unknown>>({
  name: 'ListBackups',
  shape: listBackupsShape,
  execute({ engine, region }, input) {
    const protection = engine.dataProtection;
    protection.expire(engine.clock.now());
    const prefix = regionPrefix(region);
    const type = input.BackupType ?? 'USER';
    const lower = input.TimeRangeLowerBound === undefined ? undefined : input.TimeRangeLowerBound * 1000;
    const upper = input.TimeRangeUpperBound === undefined ? undefined : input.TimeRangeUpperBound * 1000;
    const table = input.TableName;
    const matching = [...protection.backups.values()]
      .filter(
        (backup) =>
          backup.arn.startsWith(prefix) &&
          (table === undefined || backup.schema.tableName === table || backup.schema.tableArn === table) &&
          (type === 'ALL' || backup.type === type) &&
          (lower === undefined || backup.createdAt >= lower) &&
          (upper === undefined || backup.createdAt < upper),
      )
      .sort((a, b) => a.createdAt - b.createdAt || (a.arn < b.arn ? -1 : a.arn > b.arn ? 1 : 0));
    let start = 0;
    if (input.ExclusiveStartBackupArn !== undefined) {
      const at = matching.findIndex((backup) => backup.arn === input.ExclusiveStartBackupArn);
      start = at === -1 ? matching.length : at + 1;
    }
    const end = input.Limit === undefined ? matching.length : Math.min(matching.length, start + input.Limit);
    const page = matching.slice(start, end);
    const output: Record<string, unknown> = { BackupSummaries: page.map(backupSummary) };
    if (end < matching.length && page.length > 0) output.LastEvaluatedBackupArn = page[page.length - 1]!.arn;
    return output;
  },
});
