import { TABLE_NAME_PATTERN } from './common.js';
import type { IntegerShape, Shape, StringShape } from './shape.js';

/**
 * Members shared by the backup, PITR, export and import operations, as botocore's service-2.json
 * declares them (shapes TableArn, BackupArn, BackupName, ...).
 */

/** `TableArn` (the TableName of backup operations takes a name or an ARN): 1..1024. */
export const tableArn = (required: boolean): StringShape => ({
  kind: 'string',
  minLength: 1,
  maxLength: 1024,
  ...(required ? { required } : {}),
});

export const backupArn = (required: boolean): StringShape => ({
  kind: 'string',
  minLength: 37,
  maxLength: 1024,
  ...(required ? { required } : {}),
});

export const backupName: StringShape = {
  kind: 'string',
  required: true,
  minLength: 3,
  maxLength: 255,
  pattern: TABLE_NAME_PATTERN,
};

export const targetTableName: StringShape = {
  kind: 'string',
  required: true,
  minLength: 3,
  maxLength: 255,
  pattern: TABLE_NAME_PATTERN,
};

/**
 * A timestamp: epoch seconds on the JSON wire. Read as a whole number of seconds, the granularity
 * of point-in-time recovery and exports ("per-second granularity", docs/backups.md §3).
 */
export const timestamp: IntegerShape = { kind: 'integer', javaType: 'Long' };

export const billingModeOverride: StringShape = { kind: 'string', enum: ['PROVISIONED', 'PAY_PER_REQUEST'] };

export const s3Bucket = (required: boolean): StringShape => ({
  kind: 'string',
  maxLength: 255,
  pattern: '^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$',
  ...(required ? { required } : {}),
});

export const s3BucketOwner: StringShape = { kind: 'string', pattern: '[0-9]{12}' };
export const s3Prefix: StringShape = { kind: 'string', maxLength: 1024 };
export const clientToken: StringShape = { kind: 'string', pattern: '^[^\\$]+$' };

export type Shapes = Record<string, Shape>;
