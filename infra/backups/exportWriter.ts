import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import {
  DataTransferFailure,
  type ExportJob,
  type ExportResult,
  type ExportTarget,
} from '../../core/backups/ports.js';
import { normalizePrefix } from '../archive/layout.js';
import { type ManifestFileEntry, manifestEntryOf, manifestWrites } from '../archive/manifests.js';
import type { ObjectStore } from '../archive/objectStore.js';
import type { Buckets } from './buckets.js';
import { ionLine, ionOfItemJson, ionRecord } from './ionText.js';

const gzipAsync = promisify(gzip);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ExportWriterOptions {
  /** Items per data object (default 250,000). */
  readonly itemsPerFile?: number;
  /**
   * gzip level of data objects (default 1): on bench/backup.ts's items, level 1 compresses
   * several times faster than 6 for some 15 % more bytes, and an export is usually read once.
   */
  readonly gzipLevel?: number;
}

/**
 * Writes exports in DynamoDB's layout (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html):
 *
 * ```
 * <prefix>/AWSDynamoDB/<ExportId>/_started
 * <prefix>/AWSDynamoDB/<ExportId>/data/<26 base32>.json.gz      (FULL_EXPORT; .ion.gz for ION)
 * <prefix>/AWSDynamoDB/data/<26 base32>.json.gz                 (INCREMENTAL_EXPORT: shared data folder)
 * <prefix>/AWSDynamoDB/<ExportId>/manifest-files.json (+ .checksum)
 * <prefix>/AWSDynamoDB/<ExportId>/manifest-summary.json (+ .checksum)
 * ```
 *
 * with the archiver's manifest writer (`manifestWrites`). An empty table still gets one (empty)
 * data object, as the service writes one per partition.
 */
export class BucketExportTarget implements ExportTarget {
  private readonly itemsPerFile: number;
  private readonly gzipLevel: number;

  constructor(
    private readonly buckets: Buckets,
    options: ExportWriterOptions = {},
  ) {
    this.itemsPerFile = options.itemsPerFile ?? 250_000;
    this.gzipLevel = options.gzipLevel ?? 1;
  }

  async write(job: ExportJob): Promise<ExportResult> {
    if (!(await this.buckets.exists(job.bucket)))
      throw new DataTransferFailure('S3NoSuchBucket', 'The specified bucket does not exist');
    const store = this.buckets.store(job.bucket);
    const prefix = normalizePrefix(job.prefix);
    const folder = `${prefix}AWSDynamoDB/${job.exportId}/`;
    await store.put(`${folder}_started`, new Uint8Array(), { contentType: 'application/octet-stream' });
    const dataFolder = job.exportType === 'FULL_EXPORT' ? `${folder}data/` : `${prefix}AWSDynamoDB/data/`;
    const extension = job.format === 'ION' ? '.ion.gz' : '.json.gz';
    const entries: ManifestFileEntry[] = [];
    const writes: Promise<void>[] = [];
    let itemCount = 0;
    let billed = 0;
    let lines: string[] = [];
    const flush = async (force: boolean) => {
      if (lines.length === 0 && !(force && entries.length === 0 && writes.length === 0)) return;
      const text = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
      const count = lines.length;
      lines = [];
      const key = `${dataFolder}${randomName()}${extension}`;
      // Two objects compress at once (zlib runs on the thread pool) while lines are made.
      while (writes.length >= 2) await writes.shift();
      writes.push(
        (async () => {
          const body = await gzipAsync(text, { level: this.gzipLevel });
          await store.put(key, body, { contentType: 'application/gzip' });
          entries.push(manifestEntryOf(key, body, count));
        })(),
      );
    };
    let sliceStart = performance.now();
    const pace = async () => {
      if (lines.length >= this.itemsPerFile) await flush(false);
      if (performance.now() - sliceStart > 4) {
        job.onProgress?.(itemCount);
        await nextTurn();
        sliceStart = performance.now();
      }
    };
    try {
      if (job.items !== undefined) {
        let inSlice = 0;
        for (const item of job.items) {
          lines.push(job.format === 'ION' ? ionLine('Item', item.json) : `{"Item":${item.json}}`);
          itemCount++;
          billed += item.size;
          if (++inSlice === 256) {
            inSlice = 0;
            await pace();
          }
        }
      }
      for (const change of job.changes ?? []) {
        lines.push(incrementalLine(job, change));
        itemCount++;
        billed += (change.newItem?.size ?? 0) + (change.oldItem?.size ?? 0);
        await pace();
      }
      await flush(true);
      await Promise.all(writes);
    } catch (error) {
      if (error instanceof DataTransferFailure) throw error;
      throw new DataTransferFailure('UNKNOWN', error instanceof Error ? error.message : String(error));
    }
    job.onProgress?.(itemCount);
    entries.sort((a, b) => (a.dataFileS3Key < b.dataFileS3Key ? -1 : 1));
    const endTime = Date.now();
    const keys = {
      files: `${folder}manifest-files.json`,
      filesChecksum: `${folder}manifest-files.checksum`,
      summary: `${folder}manifest-summary.json`,
      summaryChecksum: `${folder}manifest-summary.checksum`,
    };
    await store.putAll(
      manifestWrites(keys, entries, summaryOf(job, store, prefix, keys.files, endTime, billed, itemCount)),
    );
    return { itemCount, billedSizeBytes: billed, manifestKey: keys.summary, endTime };
  }
}

/**
 * `manifest-summary.json`. Full exports: the fields of the page above, in its order. Incremental
 * exports add `exportFromTime`, `exportToTime`, `outputView` and `exportType`, with version
 * `2023-08-01` (docs/backups.md §5.3).
 */
function summaryOf(
  job: ExportJob,
  store: ObjectStore,
  prefix: string,
  manifestFilesS3Key: string,
  endTime: number,
  billedSizeBytes: number,
  itemCount: number,
): Record<string, unknown> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const common = {
    exportArn: job.exportArn,
    startTime: iso(job.startTime),
    endTime: iso(endTime),
    tableArn: job.tableArn,
    tableId: job.tableId,
  };
  const destination = {
    s3Bucket: store.bucket ?? job.bucket,
    s3Prefix: prefix === '' ? null : prefix.slice(0, -1),
    s3SseAlgorithm: job.sseAlgorithm ?? 'AES256',
    s3SseKmsKeyId: job.sseKmsKeyId ?? null,
    manifestFilesS3Key,
    billedSizeBytes,
    itemCount,
    outputFormat: job.format,
  };
  if (job.exportType === 'FULL_EXPORT')
    return { version: '2020-06-30', ...common, exportTime: iso(job.exportTime), ...destination };
  return {
    version: '2023-08-01',
    ...common,
    exportFromTime: iso(job.exportFromTime!),
    exportToTime: iso(job.exportToTime!),
    ...destination,
    outputView: job.viewType,
    exportType: 'INCREMENTAL_EXPORT',
  };
}

/**
 * An incremental export line: `Metadata.WriteTimestampMicros`, `Keys`, `NewImage` (absent for a
 * delete), and `OldImage` with NEW_AND_OLD_IMAGES (absent for an insert).
 */
function incrementalLine(
  job: ExportJob,
  change: NonNullable<ExportJob['changes']> extends Iterable<infer C> ? C : never,
): string {
  const micros = String(Math.trunc(change.at) * 1000);
  const keys = JSON.stringify(change.keys);
  const withOld = job.viewType !== 'NEW_IMAGE' && change.oldItem !== undefined;
  if (job.format === 'ION') {
    const members: [string, string][] = [
      ['Metadata', `{WriteTimestampMicros:${micros}.}`],
      ['Keys', ionOfItemJson(keys)],
    ];
    if (change.newItem !== undefined) members.push(['NewImage', ionOfItemJson(change.newItem.json)]);
    if (withOld) members.push(['OldImage', ionOfItemJson(change.oldItem!.json)]);
    return ionRecord(members);
  }
  let line = `{"Metadata":{"WriteTimestampMicros":{"N":"${micros}"}},"Keys":${keys}`;
  if (change.newItem !== undefined) line += `,"NewImage":${change.newItem.json}`;
  if (withOld) line += `,"OldImage":${change.oldItem!.json}`;
  return `${line}}`;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 26 lowercase base32 characters, as the service names data objects. */
function randomName(): string {
  const bytes = randomBytes(26);
  let name = '';
  for (let i = 0; i < 26; i++) name += BASE32[bytes[i]! & 31];
  return name;
}
