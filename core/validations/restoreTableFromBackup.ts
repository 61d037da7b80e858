import type { RestoreOverrides } from '../backups/tableSchema.js';
import { backupArn, billingModeOverride, targetTableName } from './backupMembers.js';
import { createTableShape } from './createTable.js';
import type { Shape } from './shape.js';

/**
 * RestoreTableFromBackup: the target table, the backup, and the overrides DynamoDB allows
 * (billing, throughput, the GSIs and LSIs to create, SSE). The restored table's schema is then
 * checked by CreateTable's own validation.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreTableFromBackup.html
 */
export interface RestoreTableFromBackupInput extends RestoreOverrides {
  TargetTableName: string;
  BackupArn: string;
}

/** The override members, shared with RestoreTableToPointInTime. */
export const restoreOverrideShape: Record<string, Shape> = {
  BillingModeOverride: billingModeOverride,
  GlobalSecondaryIndexOverride: createTableShape.GlobalSecondaryIndexes!,
  LocalSecondaryIndexOverride: createTableShape.LocalSecondaryIndexes!,
  ProvisionedThroughputOverride: createTableShape.ProvisionedThroughput!,
  OnDemandThroughputOverride: createTableShape.OnDemandThroughput!,
  SSESpecificationOverride: createTableShape.SSESpecification!,
};

export const restoreTableFromBackupShape: Record<string, Shape> = {
  TargetTableName: targetTableName,
  BackupArn: backupArn(true),
  ...restoreOverrideShape,
};
