import type { ExportTarget, ImportSource } from '../../core/backups/ports.js';
import type { Engine } from '../../core/engine.js';
import type { Buckets, BucketsOptions } from './buckets.js';
import type { ExportWriterOptions } from './exportWriter.js';

export type { BackupStore } from './backupStore.js';
export { type Buckets, type BucketsOptions, bucketsOf } from './buckets.js';
export type { BucketExportTarget, ExportWriterOptions } from './exportWriter.js';
export type { BucketImportSource } from './importReader.js';

/**
 * Gives an engine's exports and imports their buckets (docs/backups.md §6): S3 or a folder.
 * Import errors go to `log` (eddy's log stands in for CloudWatch Logs).
 *
 * The writer, the reader and the bucket stores (S3's client among them) load at the first export
 * or import: most runs make none, and a start does not evaluate their ~50 KB of code.
 */
export function attachBuckets(
  engine: Engine,
  options: BucketsOptions,
  extra: { log?: (line: string) => void; export?: ExportWriterOptions } = {},
): void {
  let buckets: Promise<Buckets> | undefined;
  const loadBuckets = () => (buckets ??= import('./buckets.js').then(({ bucketsOf }) => bucketsOf(options)));
  let target: Promise<ExportTarget> | undefined;
  let source: Promise<ImportSource> | undefined;
  const protection = engine.dataProtection;
  protection.exportTarget = {
    async write(job) {
      target ??= Promise.all([import('./exportWriter.js'), loadBuckets()]).then(
        ([{ BucketExportTarget }, loaded]) => new BucketExportTarget(loaded, extra.export),
      );
      return (await target).write(job);
    },
  };
  protection.importSource = {
    async *read(request) {
      source ??= Promise.all([import('./importReader.js'), loadBuckets()]).then(
        ([{ BucketImportSource }, loaded]) => new BucketImportSource(loaded),
      );
      yield* (await source).read(request);
    },
  };
  if (extra.log !== undefined) protection.log = extra.log;
}
