import { createHash } from 'node:crypto';
import type { ArchiveBatch } from '../../functions/shared/ports.js';
import { dayOf, exportIdOf, manifestKeysOf, normalizePrefix } from './layout.js';
import type { ObjectStore, ObjectWrite } from './objectStore.js';

/**
 * DynamoDB export manifests for each table day of a DYNAMODB_JSON archive, so the day reads as a
 * finished export (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html):
 *
 * - `manifest-files.json`: JSON lines, one per data object:
 *   `{"itemCount", "md5Checksum" (base64 MD5 of the object), "etag", "dataFileS3Key"}`;
 * - `manifest-summary.json`: `version` 2020-06-30, `exportArn`, `startTime`/`endTime` (the first
 *   and last archived change of the day), `tableArn`, `tableId` (null: stream records do not
 *   carry it), `exportTime`, `s3Bucket` (null for a directory), `s3Prefix`, `s3SseAlgorithm`,
 *   `s3SseKmsKeyId`, `manifestFilesS3Key`, `billedSizeBytes` (0, as in the page's sample: nothing
 *   is billed here), `itemCount`, `outputFormat` DYNAMODB_JSON;
 * - `*.checksum`: the hex MD5 of the manifest beside it.
 *
 * Not written: the `_started` marker (it only proves the bucket was writable; "can safely be
 * deleted" per the page above). Manifests are rewritten with each object, in the same write, from
 * the state read back once per day and then kept in memory: one writer per archive (the sink).
 */

export interface ManifestFileEntry {
  itemCount: number;
  md5Checksum: string;
  etag: string;
  dataFileS3Key: string;
}

export interface ManifestSummary {
  version: '2020-06-30';
  exportArn: string;
  startTime: string;
  endTime: string;
  tableArn: string;
  tableId: string | null;
  exportTime: string;
  s3Bucket: string | null;
  s3Prefix: string | null;
  s3SseAlgorithm: string | null;
  s3SseKmsKeyId: string | null;
  manifestFilesS3Key: string;
  billedSizeBytes: number;
  itemCount: number;
  outputFormat: 'DYNAMODB_JSON';
}

interface DayState {
  readonly entries: Map<string, ManifestFileEntry>;
  startTime: number;
  endTime: number;
}

/** Parses `manifest-files.json` (JSON lines). */
export function parseManifestFiles(text: string): ManifestFileEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ManifestFileEntry);
}

export class Manifests {
  private readonly days = new Map<string, Promise<DayState>>();

  constructor(
    private readonly store: ObjectStore,
    private readonly prefix: string,
  ) {}

  /**
   * The manifest writes that record data objects (each replacing an entry of the same key and
   * dropping the attempts it superseded), to be written with the objects; `commit` makes them the
   * remembered state once written. Callers serialise calls per table day.
   */
  async prepare(
    objects: readonly { batch: ArchiveBatch; key: string; body: Uint8Array; superseded: readonly string[] }[],
  ): Promise<{ writes: ObjectWrite[]; commit: () => void }> {
    const next = new Map<string, { tableArn: string; state: DayState }>();
    for (const { batch, key, body, superseded } of objects) {
      const exportId = exportIdOf(batch.tableArn, dayOf(batch.firstCreatedAt));
      let day = next.get(exportId);
      if (day === undefined) {
        const current = await this.stateOf(exportId);
        day = { tableArn: batch.tableArn, state: { ...current, entries: new Map(current.entries) } };
        next.set(exportId, day);
      }
      const state = day.state;
      state.startTime = Math.min(state.startTime, batch.firstCreatedAt * 1000);
      state.endTime = Math.max(state.endTime, batch.lastCreatedAt * 1000);
      for (const old of superseded) state.entries.delete(old);
      const md5 = createHash('md5').update(body).digest();
      state.entries.set(key, {
        itemCount: batch.items.length,
        md5Checksum: md5.toString('base64'),
        // S3's ETag of a single-part upload without SSE-KMS: the hex MD5 of the object.
        etag: md5.toString('hex'),
        dataFileS3Key: key,
      });
    }
    return {
      writes: [...next].flatMap(([exportId, { tableArn, state }]) =>
        this.writesOf(tableArn, exportId, state),
      ),
      commit: () => {
        for (const [exportId, { state }] of next) this.days.set(exportId, Promise.resolve(state));
      },
    };
  }

  /** The day's state: read back from the store the first time, then kept. */
  private stateOf(exportId: string): Promise<DayState> {
    let state = this.days.get(exportId);
    if (state === undefined) {
      state = this.load(exportId);
      this.days.set(exportId, state);
      // A failed read is retried by the next call rather than remembered.
      state.catch(() => this.days.delete(exportId));
    }
    return state;
  }

  private async load(exportId: string): Promise<DayState> {
    const keys = manifestKeysOf(this.prefix, exportId);
    const state: DayState = { entries: new Map(), startTime: Infinity, endTime: -Infinity };
    const files = await this.store.get(keys.files);
    if (files !== undefined) {
      for (const entry of parseManifestFiles(Buffer.from(files).toString('utf8')))
        state.entries.set(entry.dataFileS3Key, entry);
    }
    const summary = await this.store.get(keys.summary);
    if (summary !== undefined) {
      const parsed = JSON.parse(Buffer.from(summary).toString('utf8')) as Partial<ManifestSummary>;
      if (parsed.startTime) state.startTime = Date.parse(parsed.startTime);
      if (parsed.endTime) state.endTime = Date.parse(parsed.endTime);
    }
    return state;
  }

  private writesOf(tableArn: string, exportId: string, state: DayState): ObjectWrite[] {
    const keys = manifestKeysOf(this.prefix, exportId);
    let itemCount = 0;
    for (const entry of state.entries.values()) itemCount += entry.itemCount;
    const prefix = normalizePrefix(this.prefix);
    const summary: ManifestSummary = {
      version: '2020-06-30',
      exportArn: `${tableArn}/export/${exportId}`,
      startTime: new Date(state.startTime).toISOString(),
      endTime: new Date(state.endTime).toISOString(),
      tableArn,
      tableId: null,
      exportTime: new Date(state.endTime).toISOString(),
      s3Bucket: this.store.bucket,
      s3Prefix: prefix === '' ? null : prefix.slice(0, -1),
      // eddy asks for no server-side encryption; what the bucket applies by default is its own.
      s3SseAlgorithm: null,
      s3SseKmsKeyId: null,
      manifestFilesS3Key: keys.files,
      billedSizeBytes: 0,
      itemCount,
      outputFormat: 'DYNAMODB_JSON',
    };
    return manifestWrites(keys, [...state.entries.values()], summary);
  }
}

/**
 * The four manifest objects of an export, in the order a reader may rely on: the file list
 * (JSON lines), its checksum, the summary pointing to it, the summary's checksum (hex MD5s).
 * The archiver's table days and ExportTableToPointInTime both write them here
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html).
 */
export function manifestWrites(
  keys: { files: string; filesChecksum: string; summary: string; summaryChecksum: string },
  entries: Iterable<ManifestFileEntry>,
  summary: object,
): ObjectWrite[] {
  let lines = '';
  for (const entry of entries) lines += `${JSON.stringify(entry)}\n`;
  const json = { contentType: 'application/json' };
  const text = { contentType: 'text/plain' };
  const filesBody = Buffer.from(lines);
  const summaryBody = Buffer.from(JSON.stringify(summary));
  // The file list before the summary that points to it.
  return [
    { key: keys.files, body: filesBody, options: json },
    { key: keys.filesChecksum, body: Buffer.from(md5Hex(filesBody)), options: text },
    { key: keys.summary, body: summaryBody, options: json },
    { key: keys.summaryChecksum, body: Buffer.from(md5Hex(summaryBody)), options: text },
  ];
}

/** A manifest-files.json entry for a data object (S3's ETag of a single-part upload: hex MD5). */
export function manifestEntryOf(key: string, body: Uint8Array, itemCount: number): ManifestFileEntry {
  const md5 = createHash('md5').update(body).digest();
  return { itemCount, md5Checksum: md5.toString('base64'), etag: md5.toString('hex'), dataFileS3Key: key };
}

function md5Hex(body: Uint8Array): string {
  return createHash('md5').update(body).digest('hex');
}

/**
 * The item count of every data object the archive's manifests name (`manifest-files.json` of
 * each table day under the prefix), by object key: what a reader can know before reading the
 * objects. Parquet archives have no manifests.
 */
export async function manifestItemCounts(store: ObjectStore, prefix = ''): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const folder = `${normalizePrefix(prefix)}AWSDynamoDB/`;
  for (const object of await store.list(folder)) {
    if (!object.key.endsWith('/manifest-files.json')) continue;
    const body = await store.get(object.key);
    if (body === undefined) continue;
    for (const entry of parseManifestFiles(Buffer.from(body).toString('utf8')))
      counts.set(entry.dataFileS3Key, entry.itemCount);
  }
  return counts;
}
