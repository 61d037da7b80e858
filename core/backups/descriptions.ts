import type { BackupRecord } from './dataProtection.js';
import { sourceTableDetails, sourceTableFeatureDetails } from './tableSchema.js';

/**
 * The wire shapes of backups: BackupDetails, BackupSummary, BackupDescription
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BackupDescription.html).
 * Times are epoch seconds, as every DynamoDB timestamp on the wire.
 */
export function backupDetails(backup: BackupRecord): Record<string, unknown> {
  return {
    BackupArn: backup.arn,
    BackupName: backup.name,
    BackupSizeBytes: backup.sizeBytes,
    BackupStatus: backup.status,
    BackupType: backup.type,
    BackupCreationDateTime: backup.createdAt / 1000,
    ...(backup.expiresAt === undefined ? {} : { BackupExpiryDateTime: backup.expiresAt / 1000 }),
  };
}

export function backupSummary(backup: BackupRecord): Record<string, unknown> {
  return {
    TableName: backup.schema.tableName,
    TableId: backup.schema.tableId,
    TableArn: backup.schema.tableArn,
    BackupArn: backup.arn,
    BackupName: backup.name,
    BackupCreationDateTime: backup.createdAt / 1000,
    ...(backup.expiresAt === undefined ? {} : { BackupExpiryDateTime: backup.expiresAt / 1000 }),
    BackupStatus: backup.status,
    BackupType: backup.type,
    BackupSizeBytes: backup.sizeBytes,
  };
}

export function backupDescription(backup: BackupRecord): Record<string, unknown> {
  return {
    BackupDetails: backupDetails(backup),
    SourceTableDetails: sourceTableDetails(backup.schema, backup.itemCount, backup.sizeBytes),
    SourceTableFeatureDetails: sourceTableFeatureDetails(backup.schema),
  };
}
