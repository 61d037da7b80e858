import type { ArchiveBatch, ArchivedObject, Sink } from '../../functions/shared/ports.js';
import { FileStore } from './fileStore.js';
import { encodeJsonLines } from './jsonLines.js';
import {
  type ArchiveFormat,
  attemptPrefixOf,
  dayOf,
  normalizePrefix,
  objectKeyOf,
  parseObjectKey,
  partitionOf,
} from './layout.js';
import { Manifests } from './manifests.js';
import type { ObjectStore } from './objectStore.js';
import { S3Store, type S3StoreOptions } from './s3Store.js';

/**
 * The `Sink` port over an object store: encodes a batch (DynamoDB export JSON lines, gzipped, or
 * Parquet), writes it atomically under a name derived from the batch, removes the earlier
 * attempts of the same batch, and keeps the day's export manifests (JSON format).
 *
 * @example
 * ```ts
 * const sink = fileSink({ directory: '.eddy/archive', prefix: 'ttl' });
 * const glacier = s3Sink({ bucket: 'archive', endpoint: 'http://127.0.0.1:4568', storageClass: 'GLACIER' });
 * ```
 */
export interface ArchiveSinkOptions {
  /** `json` (default): gzipped DynamoDB JSON lines, `.json.gz`. `parquet`: `.parquet`. */
  readonly format?: ArchiveFormat;
  /** Key prefix inside the directory or bucket (default none). */
  readonly prefix?: string;
  /**
   * Write DynamoDB export manifests per table day (default: true for `json`). Exports have no
   * Parquet output format, so Parquet archives have none.
   */
  readonly manifests?: boolean;
  /** gzip level of JSON objects, 1 (fast) to 9 (small); default 6. */
  readonly gzipLevel?: number;
  /** S3 storage class of data objects (e.g. GLACIER, DEEP_ARCHIVE); manifests stay STANDARD. */
  readonly storageClass?: string;
}

const CONTENT_TYPES: Record<ArchiveFormat, string> = {
  json: 'application/gzip',
  parquet: 'application/vnd.apache.parquet',
};

const KNOWN_OPTIONS = new Set(['format', 'prefix', 'manifests', 'gzipLevel', 'storageClass']);

/** What a sink wrote for one table since it started (the console's Archive view). */
export interface ArchivedTable {
  readonly tableName: string;
  /** Objects written; a batch written again after a retry counts again. */
  readonly objects: number;
  /** Items in those objects. */
  readonly records: number;
  readonly bytes: number;
  readonly lastKey: string;
  /** ApproximateCreationDateTime of the newest record archived, epoch seconds. */
  readonly lastCreatedAt: number;
}

export class ArchiveSink implements Sink {
  readonly format: ArchiveFormat;
  readonly prefix: string;
  private readonly manifests: Manifests | undefined;
  private readonly gzipLevel: number;
  private readonly storageClass: string | undefined;
  /** Puts waiting for their partition's next group commit, and partitions being committed. */
  private readonly waiting = new Map<string, PendingPut[]>();
  private readonly committing = new Set<string>();
  private readonly tally = new Map<string, ArchivedTable>();

  constructor(
    readonly store: ObjectStore,
    options: ArchiveSinkOptions = {},
  ) {
    for (const key of Object.keys(options)) {
      if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`archive sink: unknown option "${key}"`);
    }
    this.format = options.format ?? 'json';
    if (this.format !== 'json' && this.format !== 'parquet')
      throw new TypeError(`archive sink: format must be json or parquet, got ${String(this.format)}`);
    if (options.manifests === true && this.format !== 'json')
      throw new TypeError('archive sink: manifests describe DYNAMODB_JSON exports; parquet has none');
    this.prefix = normalizePrefix(options.prefix);
    this.manifests =
      (options.manifests ?? this.format === 'json') ? new Manifests(store, this.prefix) : undefined;
    this.gzipLevel = options.gzipLevel ?? 6;
    if (!Number.isInteger(this.gzipLevel) || this.gzipLevel < 1 || this.gzipLevel > 9)
      throw new TypeError(`archive sink: gzipLevel must be 1 to 9, got ${options.gzipLevel}`);
    this.storageClass = options.storageClass;
  }

  async put(batch: ArchiveBatch): Promise<ArchivedObject> {
    if (batch.items.length === 0) throw new TypeError('archive sink: empty batch');
    const body =
      this.format === 'json'
        ? await encodeJsonLines(batch.items, this.gzipLevel)
        : // Loaded on the first Parquet batch: hyparquet-writer costs every start ~0.1 s otherwise.
          (await import('./parquet.js')).encodeParquet(batch.items);
    const key = objectKeyOf(this.prefix, batch, this.format);
    const partition = partitionOf(this.prefix, batch.tableName, dayOf(batch.firstCreatedAt));
    return new Promise<ArchivedObject>((resolve, reject) => {
      const waiting = this.waiting.get(partition);
      const put: PendingPut = { batch, key, body, resolve, reject };
      if (waiting === undefined) this.waiting.set(partition, [put]);
      else waiting.push(put);
      if (!this.committing.has(partition)) void this.commitWaiting(partition);
    });
  }

  /**
   * Group commit, one partition (table day) at a time: every put that arrived while the previous
   * group was being written goes out in the next one, their objects and the day's manifests in a
   * single `putAll`. Concurrent shards of a table thus share the flushes and the manifest rewrite.
   */
  private async commitWaiting(partition: string): Promise<void> {
    this.committing.add(partition);
    try {
      for (;;) {
        const group = this.waiting.get(partition);
        if (group === undefined) return;
        this.waiting.delete(partition);
        try {
          await this.commitGroup(partition, group);
          for (const put of group) {
            this.count(put);
            put.resolve({ key: put.key, itemCount: put.batch.items.length, bytes: put.body.length });
          }
        } catch (error) {
          for (const put of group) put.reject(error);
        }
      }
    } finally {
      this.committing.delete(partition);
    }
  }

  /** Per table: the objects written so far, their records and the newest one. */
  written(): ArchivedTable[] {
    return [...this.tally.values()].sort((a, b) => a.tableName.localeCompare(b.tableName));
  }

  private count({ batch, key, body }: PendingPut): void {
    const known = this.tally.get(batch.tableName);
    this.tally.set(batch.tableName, {
      tableName: batch.tableName,
      objects: (known?.objects ?? 0) + 1,
      records: (known?.records ?? 0) + batch.items.length,
      bytes: (known?.bytes ?? 0) + body.length,
      lastKey: key,
      lastCreatedAt: Math.max(known?.lastCreatedAt ?? 0, batch.lastCreatedAt),
    });
  }

  private async commitGroup(partition: string, group: readonly PendingPut[]): Promise<void> {
    // Two attempts of one batch in a group: the later one is written.
    const puts = [...new Map(group.map((put) => [put.key, put])).values()];
    const keys = new Set(puts.map((put) => put.key));
    // Earlier attempts of each batch (same shard and first record, another last record): the new
    // object replaces them. Written first, removed after: a crash in between leaves both, and
    // readers keep the newer (reader.ts); the next attempt removes the older.
    const planned = [];
    for (const put of puts) {
      const superseded = (await this.store.list(partition + attemptPrefixOf(put.batch)))
        .map((object) => object.key)
        .filter((other) => !keys.has(other) && isAttemptOf(other, put.batch, this.prefix, this.format));
      planned.push({ ...put, superseded });
    }
    const manifests = await this.manifests?.prepare(planned);
    const options = {
      contentType: CONTENT_TYPES[this.format],
      ...(this.storageClass ? { storageClass: this.storageClass } : {}),
    };
    // The objects, then the manifests naming them, in one write: a directory overlaps the flushes.
    await this.store.putAll([
      ...puts.map(({ key, body }) => ({ key, body, options })),
      ...(manifests?.writes ?? []),
    ]);
    manifests?.commit();
    const superseded = planned.flatMap((put) => put.superseded);
    if (superseded.length > 0) await this.store.delete(superseded);
  }
}

interface PendingPut {
  readonly batch: ArchiveBatch;
  readonly key: string;
  readonly body: Uint8Array;
  readonly resolve: (object: ArchivedObject) => void;
  readonly reject: (error: unknown) => void;
}

/** Whether `key` names an attempt of the batch: same shard, first record and format. */
function isAttemptOf(key: string, batch: ArchiveBatch, prefix: string, format: ArchiveFormat): boolean {
  const name = parseObjectKey(key, prefix);
  return (
    name?.shard === batch.shard &&
    name.firstSequenceNumber === batch.firstSequenceNumber &&
    name.format === format
  );
}

/** Options of a directory sink. */
export interface FileSinkOptions extends Omit<ArchiveSinkOptions, 'storageClass'> {
  /** The archive directory (the "bucket"); created on first write. */
  readonly directory: string;
}

/** A sink writing to a directory laid out like the S3 bucket. */
export function fileSink(options: FileSinkOptions): ArchiveSink {
  const { directory, ...sinkOptions } = options;
  return new ArchiveSink(new FileStore(directory), sinkOptions);
}

/** Options of an S3 sink: where (bucket, endpoint, credentials) and how (format, storage class). */
export type S3SinkOptions = S3StoreOptions & ArchiveSinkOptions;

/** A sink writing to S3 or any S3-compatible endpoint. */
export function s3Sink(options: S3SinkOptions): ArchiveSink {
  const { format, prefix, manifests, gzipLevel, storageClass, ...storeOptions } = options;
  const sinkOptions: ArchiveSinkOptions = {
    ...(format !== undefined ? { format } : {}),
    ...(prefix !== undefined ? { prefix } : {}),
    ...(manifests !== undefined ? { manifests } : {}),
    ...(gzipLevel !== undefined ? { gzipLevel } : {}),
    ...(storageClass !== undefined ? { storageClass } : {}),
  };
  return new ArchiveSink(new S3Store(storeOptions), sinkOptions);
}
