import type { RestoreOverrides } from '../backups/tableSchema.js';
import { ValidationException } from '../errors/index.js';
import { tableArn, targetTableName, timestamp } from './backupMembers.js';
import { tableName } from './common.js';
import { restoreOverrideShape } from './restoreTableFromBackup.js';
import type { Shape } from './shape.js';

/**
 * RestoreTableToPointInTime: the source by name or by ARN (one of them), the target, the time
 * (`RestoreDateTime`, or `UseLatestRestorableTime`), and the same overrides as
 * RestoreTableFromBackup.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableToPointInTime.html
 */
export interface RestoreTableToPointInTimeInput extends RestoreOverrides {
  SourceTableArn?: string;
  SourceTableName?: string;
  TargetTableName: string;
  UseLatestRestorableTime?: boolean;
  RestoreDateTime?: number;
}

export const restoreTableToPointInTimeShape: Record<string, Shape> = {
  SourceTableArn: tableArn(false),
  SourceTableName: { ...tableName, required: false },
  TargetTableName: targetTableName,
  UseLatestRestorableTime: { kind: 'boolean' },
  RestoreDateTime: timestamp,
  ...restoreOverrideShape,
};

/** Wording not recorded against AWS (docs/backups.md §7). */
export const PitrMessages = {
  sourceMissing: 'One of SourceTableArn or SourceTableName must be specified',
  sourceTwice: 'Only one of SourceTableArn or SourceTableName may be specified',
  timeMissing: 'Either RestoreDateTime or UseLatestRestorableTime must be specified',
  timeTwice: 'RestoreDateTime cannot be specified when UseLatestRestorableTime is true',
} as const;

export function validateRestoreTableToPointInTime(input: RestoreTableToPointInTimeInput): void {
  if (input.SourceTableArn === undefined && input.SourceTableName === undefined)
    throw new ValidationException(PitrMessages.sourceMissing);
  if (input.SourceTableArn !== undefined && input.SourceTableName !== undefined)
    throw new ValidationException(PitrMessages.sourceTwice);
  if (input.UseLatestRestorableTime === true && input.RestoreDateTime !== undefined)
    throw new ValidationException(PitrMessages.timeTwice);
  if (input.UseLatestRestorableTime !== true && input.RestoreDateTime === undefined)
    throw new ValidationException(PitrMessages.timeMissing);
}
