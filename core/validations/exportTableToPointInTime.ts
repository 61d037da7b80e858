import { clientToken, s3Bucket, s3BucketOwner, s3Prefix, tableArn, timestamp } from './backupMembers.js';
import type { Shape } from './shape.js';

/**
 * ExportTableToPointInTime: request shape.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExportTableToPointInTime.html
 */
export interface ExportTableToPointInTimeInput {
  TableArn: string;
  ExportTime?: number;
  ClientToken?: string;
  S3Bucket: string;
  S3BucketOwner?: string;
  S3Prefix?: string;
  S3SseAlgorithm?: 'AES256' | 'KMS';
  S3SseKmsKeyId?: string;
  ExportFormat?: 'DYNAMODB_JSON' | 'ION';
  ExportType?: 'FULL_EXPORT' | 'INCREMENTAL_EXPORT';
  IncrementalExportSpecification?: {
    ExportFromTime?: number;
    ExportToTime?: number;
    ExportViewType?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES';
  };
}

export const exportTableToPointInTimeShape: Record<string, Shape> = {
  TableArn: tableArn(true),
  ExportTime: timestamp,
  ClientToken: clientToken,
  S3Bucket: s3Bucket(true),
  S3BucketOwner: s3BucketOwner,
  S3Prefix: s3Prefix,
  S3SseAlgorithm: { kind: 'string', enum: ['AES256', 'KMS'] },
  S3SseKmsKeyId: { kind: 'string', minLength: 1, maxLength: 2048 },
  ExportFormat: { kind: 'string', enum: ['DYNAMODB_JSON', 'ION'] },
  ExportType: { kind: 'string', enum: ['FULL_EXPORT', 'INCREMENTAL_EXPORT'] },
  IncrementalExportSpecification: {
    kind: 'structure',
    name: 'IncrementalExportSpecification',
    members: {
      ExportFromTime: timestamp,
      ExportToTime: timestamp,
      ExportViewType: { kind: 'string', enum: ['NEW_IMAGE', 'NEW_AND_OLD_IMAGES'] },
    },
  },
};

/**
 * Incremental windows: 15 minutes to 24 hours, the start inclusive and the end exclusive
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_IncrementalExportSpecification.html,
 * https://aws.amazon.com/blogs/database/introducing-incremental-export-from-amazon-dynamodb-to-amazon-s3/).
 */
export const MIN_INCREMENTAL_MS = 15 * 60_000;
export const MAX_INCREMENTAL_MS = 24 * 3_600_000;

/** Wording not recorded against AWS (docs/backups.md §7). */
export const ExportMessages = {
  exportTime: (earliest: number, now: number) =>
    `ExportTime must be between ${new Date(earliest).toISOString()} and ${new Date(now).toISOString()}`,
  incrementalNeedsSpecification:
    'IncrementalExportSpecification with ExportFromTime and ExportToTime is required for INCREMENTAL_EXPORT',
  exportTimeWithIncremental: 'ExportTime cannot be specified for INCREMENTAL_EXPORT',
  window: 'The incremental export period must be at least 15 minutes and at most 24 hours',
  fromTime: (earliest: number) =>
    `ExportFromTime must be at or after the earliest restorable time ${new Date(earliest).toISOString()}`,
  toTime: 'ExportToTime must not be in the future',
} as const;
