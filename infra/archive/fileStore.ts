import { createHash, randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import {
  type ObjectStore,
  ObjectStoreError,
  type ObjectWrite,
  type PutOptions,
  type StoredObject,
} from './objectStore.js';

/**
 * A directory laid out like a bucket: key `a/b/c.json.gz` is the file `<root>/a/b/c.json.gz`.
 *
 * Writes are atomic and durable: the bytes go to a hidden temp file in the target folder, which
 * is fsync'ed, renamed over the target (rename is atomic within a file system, POSIX rename(2)),
 * then the folder is fsync'ed so the rename itself survives a power cut. A crash leaves either
 * the old object or the new one, never half of one; at worst a stray `.<name>.<random>.tmp`,
 * which listings skip and Athena/Hive ignore (files starting with `.` or `_` are hidden to them).
 */
export class FileStore implements ObjectStore {
  readonly root: string;
  readonly location: string;
  readonly bucket = null;

  constructor(directory: string) {
    this.root = resolve(directory);
    this.location = `file://${this.root}`;
  }

  /** The file of a key; refuses keys that would leave the root (`..`, absolute paths). */
  pathOf(key: string): string {
    const parts = key.split('/');
    if (key === '' || parts.some((part) => part === '' || part === '.' || part === '..'))
      throw new ObjectStoreError(`invalid object key: ${JSON.stringify(key)}`);
    return join(this.root, ...parts);
  }

  async put(key: string, body: Uint8Array, options: PutOptions): Promise<{ etag: string }> {
    await this.putAll([{ key, body, options }]);
    return { etag: createHash('md5').update(body).digest('hex') };
  }

  /**
   * Every temp file written and fsync'ed at once (the file system overlaps the flushes), then the
   * renames in the given order, then one fsync per folder.
   */
  async putAll(objects: readonly ObjectWrite[]): Promise<void> {
    const staged = objects.map(({ key, body }) => {
      const target = this.pathOf(key);
      const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
      return { key, body, target, temp };
    });
    let current = staged[0]?.key ?? '';
    try {
      const folders = new Set(staged.map(({ target }) => dirname(target)));
      for (const folder of folders) await mkdir(folder, { recursive: true });
      await Promise.all(
        staged.map(async ({ key, body, temp }) => {
          current = key;
          const file = await open(temp, 'wx');
          try {
            await file.writeFile(body);
            await file.sync();
          } finally {
            await file.close();
          }
        }),
      );
      for (const { key, temp, target } of staged) {
        current = key;
        await rename(temp, target);
      }
      for (const folder of folders) await syncFolder(folder);
    } catch (error) {
      await Promise.all(staged.map(({ temp }) => unlink(temp).catch(() => {})));
      throw new ObjectStoreError(`could not write ${current} to ${this.location}: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a folder of the path is a file, so no object can be there either.
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new ObjectStoreError(`could not read ${key} from ${this.location}: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    // Walk only the deepest folder the prefix names.
    const slash = prefix.lastIndexOf('/');
    const start = slash === -1 ? '' : prefix.slice(0, slash);
    const objects: StoredObject[] = [];
    await this.walk(start, prefix, objects);
    return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private async walk(folderKey: string, prefix: string, out: StoredObject[]): Promise<void> {
    const folder = folderKey === '' ? this.root : join(this.root, ...folderKey.split('/'));
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw new ObjectStoreError(`could not list ${this.location}: ${messageOf(error)}`, { cause: error });
    }
    for (const entry of entries) {
      const key = folderKey === '' ? entry.name : `${folderKey}/${entry.name}`;
      if (entry.isDirectory()) {
        // Descend only where keys can still start with the prefix.
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) await this.walk(key, prefix, out);
      } else if (entry.isFile() && key.startsWith(prefix) && !isTempName(entry.name)) {
        const info = await stat(join(folder, entry.name)).catch(() => undefined);
        if (info !== undefined) out.push({ key, size: info.size, lastModified: info.mtime });
      }
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    const folders = new Set<string>();
    for (const key of keys) {
      const path = this.pathOf(key);
      try {
        await unlink(path);
        folders.add(dirname(path));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw new ObjectStoreError(`could not delete ${key} from ${this.location}: ${messageOf(error)}`, {
          cause: error,
        });
      }
    }
    for (const folder of folders) await syncFolder(folder);
  }
}

/** Temp files of `put`: `.<name>.<12 hex>.tmp`. */
export function isTempName(name: string): boolean {
  return /^\..+\.[0-9a-f]{12}\.tmp$/.test(name);
}

/** fsync a folder so renames and unlinks in it are durable (a no-op where folders can't be opened). */
async function syncFolder(folder: string): Promise<void> {
  if (sep === '\\') return; // Windows cannot open folders for fsync.
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
