import { createHash } from 'node:crypto';
import type { ArchiveBatch } from '../../functions/shared/ports.js';

/**
 * Where archive objects live, the same for a directory and an S3 bucket:
 *
 * ```
 * <prefix>/<table>/year=YYYY/month=MM/day=DD/<shard>-<first>-<last>.json.gz   (or .parquet)
 * <prefix>/AWSDynamoDB/<exportId>/manifest-summary.json, manifest-files.json, *.checksum
 * ```
 *
 * The data keys use Hive-style partitions (`year=`, `month=`, `day=`), which Athena and Redshift
 * Spectrum read as partition columns
 * (https://docs.aws.amazon.com/athena/latest/ug/partitions.html). The manifests sit outside the
 * table folders, so a table location `<prefix>/<table>/` holds data objects only. Each day of a
 * table reads as one DynamoDB export (`AWSDynamoDB/<ExportId>/`, as in
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html).
 */

export type ArchiveFormat = 'json' | 'parquet';

export const EXTENSIONS: Record<ArchiveFormat, string> = { json: '.json.gz', parquet: '.parquet' };

/** A data object's identity, parsed from its key. */
export interface ObjectName {
  readonly key: string;
  readonly tableName: string;
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly shard: string;
  readonly firstSequenceNumber: string;
  readonly lastSequenceNumber: string;
  readonly format: ArchiveFormat;
}

/** `''`, or the prefix with exactly one trailing `/` (leading slashes dropped). */
export function normalizePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

/** Epoch seconds → `YYYY-MM-DD` in UTC. */
export function dayOf(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

/** The folder of a table's day: `<prefix><table>/year=YYYY/month=MM/day=DD/`. */
export function partitionOf(prefix: string, tableName: string, day: string): string {
  const [year, month, date] = day.split('-');
  return `${normalizePrefix(prefix)}${tableName}/year=${year}/month=${month}/day=${date}/`;
}

/**
 * The key of a batch's object. The day is the first archived record's creation day, so every
 * attempt of a batch (same first record) names the same folder.
 */
export function objectKeyOf(prefix: string, batch: ArchiveBatch, format: ArchiveFormat): string {
  return (
    partitionOf(prefix, batch.tableName, dayOf(batch.firstCreatedAt)) +
    `${attemptPrefixOf(batch)}${batch.lastSequenceNumber}${EXTENSIONS[format]}`
  );
}

/**
 * `<shard>-<first>-`: what every attempt of a batch starting at the same record shares. A retry
 * may carry more or fewer records (a batching window that filled further, a bisection), so it
 * replaces the earlier attempts found under this prefix.
 */
export function attemptPrefixOf(batch: Pick<ArchiveBatch, 'shard' | 'firstSequenceNumber'>): string {
  return `${batch.shard}-${batch.firstSequenceNumber}-`;
}

const DATA_KEY =
  /^([^/]+)\/year=(\d{4})\/month=(\d{2})\/day=(\d{2})\/([^/]+)-(\d{1,40})-(\d{1,40})\.(json\.gz|parquet)$/;

/** Parses a data object key under `prefix`; `undefined` for anything else (manifests, temp files). */
export function parseObjectKey(key: string, prefix = ''): ObjectName | undefined {
  const base = normalizePrefix(prefix);
  if (!key.startsWith(base)) return undefined;
  const match = DATA_KEY.exec(key.slice(base.length));
  if (match === null) return undefined;
  return {
    key,
    tableName: match[1]!,
    day: `${match[2]}-${match[3]}-${match[4]}`,
    shard: match[5]!,
    firstSequenceNumber: match[6]!,
    lastSequenceNumber: match[7]!,
    format: match[8] === 'parquet' ? 'parquet' : 'json',
  };
}

/**
 * The export id of a table's day, in the service's shape (`<14 digits>-<8 hex>`): the day's start
 * in epoch ms and a hash of the table ARN, so every writer names the same export.
 */
export function exportIdOf(tableArn: string, day: string): string {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  const hash = createHash('sha256').update(tableArn).digest('hex').slice(0, 8);
  return `${String(start).padStart(14, '0')}-${hash}`;
}

/** The keys of a table day's manifests. */
export function manifestKeysOf(prefix: string, exportId: string) {
  const folder = `${normalizePrefix(prefix)}AWSDynamoDB/${exportId}/`;
  return {
    folder,
    summary: `${folder}manifest-summary.json`,
    summaryChecksum: `${folder}manifest-summary.checksum`,
    files: `${folder}manifest-files.json`,
    filesChecksum: `${folder}manifest-files.checksum`,
  };
}

/** Compares sequence numbers as big integers (docs/streams-and-lambda.md §1.2.6), never as strings. */
export function compareSequenceNumbers(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
