import type { Engine } from '../../core/engine.js';
import { type Buckets, type BucketsOptions, bucketsOf } from './buckets.js';
import { BucketExportTarget, type ExportWriterOptions } from './exportWriter.js';
import { BucketImportSource } from './importReader.js';

export { BackupStore } from './backupStore.js';
export { type Buckets, type BucketsOptions, bucketsOf } from './buckets.js';
export { BucketExportTarget, type ExportWriterOptions } from './exportWriter.js';
export { BucketImportSource } from './importReader.js';

/**
 * Gives an engine's exports and imports their buckets (docs/backups.md §6): S3 or a folder.
 * Import errors go to `log` (eddy's log stands in for CloudWatch Logs).
 */
export function attachBuckets(
  engine: Engine,
  options: BucketsOptions,
  extra: { log?: (line: string) => void; export?: ExportWriterOptions } = {},
): Buckets {
  const buckets = bucketsOf(options);
  const protection = engine.dataProtection;
  protection.exportTarget = new BucketExportTarget(buckets, extra.export);
  protection.importSource = new BucketImportSource(buckets);
  if (extra.log !== undefined) protection.log = extra.log;
  return buckets;
}
