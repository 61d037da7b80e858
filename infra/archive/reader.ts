import type { Image } from '../../functions/shared/ports.js';
import { decodeJsonLines } from './jsonLines.js';
import { compareSequenceNumbers, normalizePrefix, type ObjectName, parseObjectKey } from './layout.js';
import type { ObjectStore } from './objectStore.js';

/**
 * Reading an archive back: its data objects in stream order, without the attempts a later
 * attempt of the same batch replaced, and the items of each object.
 */

export interface ArchiveEntry extends ObjectName {
  readonly size: number;
  readonly lastModified: Date;
  readonly storageClass?: string;
}

export interface ArchiveListing {
  /** The objects to read, by table, shard, then first sequence number. */
  readonly objects: ArchiveEntry[];
  /**
   * Earlier attempts of a batch still present (a crash between writing a retry and removing the
   * attempt it replaced): skipped, since the newer attempt holds the batch.
   */
  readonly superseded: ArchiveEntry[];
}

export interface ListOptions {
  /** Key prefix the archive was written with (default none). */
  readonly prefix?: string;
  /** Only this table's objects. */
  readonly table?: string;
}

function byStreamOrder(a: ArchiveEntry, b: ArchiveEntry): number {
  if (a.tableName !== b.tableName) return a.tableName < b.tableName ? -1 : 1;
  if (a.shard !== b.shard) return a.shard < b.shard ? -1 : 1;
  return compareSequenceNumbers(a.firstSequenceNumber, b.firstSequenceNumber);
}

/** Lists an archive's data objects (manifests and stray temp files are not data objects). */
export async function listArchive(store: ObjectStore, options: ListOptions = {}): Promise<ArchiveListing> {
  const prefix = normalizePrefix(options.prefix);
  const listed = await store.list(options.table === undefined ? prefix : `${prefix}${options.table}/`);
  // Attempts of one batch share table, shard, first record and format: the newest wins, then
  // the longest (a retry that found more records in the stream).
  const attempts = new Map<string, ArchiveEntry[]>();
  for (const object of listed) {
    const name = parseObjectKey(object.key, prefix);
    if (name === undefined) continue;
    const entry: ArchiveEntry = {
      ...name,
      size: object.size,
      lastModified: object.lastModified,
      ...(object.storageClass ? { storageClass: object.storageClass } : {}),
    };
    const id = `${name.tableName}\n${name.shard}\n${name.firstSequenceNumber}\n${name.format}`;
    const group = attempts.get(id);
    if (group === undefined) attempts.set(id, [entry]);
    else group.push(entry);
  }
  const objects: ArchiveEntry[] = [];
  const superseded: ArchiveEntry[] = [];
  for (const group of attempts.values()) {
    group.sort(
      (a, b) =>
        b.lastModified.getTime() - a.lastModified.getTime() ||
        compareSequenceNumbers(b.lastSequenceNumber, a.lastSequenceNumber),
    );
    objects.push(group[0]!);
    superseded.push(...group.slice(1));
  }
  return { objects: objects.sort(byStreamOrder), superseded: superseded.sort(byStreamOrder) };
}

/** An archive object that could not be read. */
export class ArchiveReadError extends Error {
  override readonly name = 'ArchiveReadError';
}

/** The items of one data object, in the order they were archived. */
export async function readObjectItems(store: ObjectStore, key: string, prefix = ''): Promise<Image[]> {
  const name = parseObjectKey(key, prefix);
  const format = name?.format ?? (key.endsWith('.parquet') ? 'parquet' : 'json');
  const body = await store.get(key);
  if (body === undefined) throw new ArchiveReadError(`no object ${key} in ${store.location}`);
  try {
    // hyparquet loads with the first Parquet object: JSON archives never need it.
    return format === 'parquet'
      ? await (await import('./parquet.js')).decodeParquet(body)
      : await decodeJsonLines(body);
  } catch (error) {
    throw new ArchiveReadError(
      `could not read ${key}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** Every archived item of the listing, object by object (stream order within a shard). */
export async function* readArchive(
  store: ObjectStore,
  objects: readonly ArchiveEntry[],
  prefix = '',
): AsyncGenerator<{ object: ArchiveEntry; items: Image[] }> {
  for (const object of objects) yield { object, items: await readObjectItems(store, object.key, prefix) };
}
