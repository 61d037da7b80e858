import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { MARK_FILE } from './durableMark.js';
import { DataDirectoryLockedError } from './errors.js';

/**
 * The data directory's layout:
 *
 *   LOCK                     the pid of the host using it (created exclusively)
 *   log.mark                 how far the log reached: written, fsynced (`durableMark.ts`)
 *   iterator.key             the secret shard iterators are signed with (`iteratorKey.ts`)
 *   wal/<first LSN>.log      write-ahead log segments, named by their first record's LSN
 *   snapshots/<LSN>.snap     consistent images of everything up to that LSN (`.tmp` while written)
 *   destinations/            on-failure destination queues (JSON lines, written by mappings)
 *   lambda/                  the Lambda API's functions and mappings (`infra/lambda-api/`)
 *   backups/                 backups, PITR histories, export/import records (`infra/backups/`)
 *   buckets/                 exports and imports, one folder per bucket (without --buckets-dir)
 *   damaged/<time>/          what `--accept-data-loss` cut from a damaged log
 *
 * LSNs in names are zero-padded to 20 digits, so name order is LSN order.
 */
export const LOCK_FILE = 'LOCK';
const LSN_DIGITS = 20;

export interface LsnFile {
  readonly lsn: number;
  readonly path: string;
}

/** Directories open in this process: a second open of the same one is refused like another host. */
const openHere = new Set<string>();

export class DataDirectory {
  readonly walDir: string;
  readonly snapshotDir: string;
  private released = false;

  private constructor(readonly path: string) {
    this.walDir = join(path, 'wal');
    this.snapshotDir = join(path, 'snapshots');
  }

  /**
   * Creates the directory if needed and takes its lock.
   * @throws DataDirectoryLockedError when a live process (or this one) holds it.
   */
  static open(path: string): DataDirectory {
    mkdirSync(path, { recursive: true });
    const directory = new DataDirectory(realpathSync(resolve(path)));
    if (openHere.has(directory.path)) throw new DataDirectoryLockedError(directory.path, process.pid);
    directory.lock();
    openHere.add(directory.path);
    mkdirSync(directory.walDir, { recursive: true });
    mkdirSync(directory.snapshotDir, { recursive: true });
    return directory;
  }

  /**
   * The directory as it is, for reading only (`eddy data check`): no lock taken, nothing created.
   * @throws Error when it is not a data directory (no `wal/` folder).
   */
  static inspect(path: string): DataDirectory {
    const directory = new DataDirectory(realpathSync(resolve(path)));
    if (!existsSync(directory.walDir))
      throw new Error(`${directory.path} is not an eddy data directory (it has no wal/ folder)`);
    return directory;
  }

  /** The process holding the lock, if it is alive (see `lock`). */
  holder(): number | undefined {
    const pid = readPid(join(this.path, LOCK_FILE));
    return pid !== undefined && pid !== process.pid && alive(pid) ? pid : undefined;
  }

  get markPath(): string {
    return join(this.path, MARK_FILE);
  }

  /**
   * A path inside the directory for other components' files (e.g. on-failure destination queues:
   * `resolve('destinations', '<mapping>.jsonl')`); its parent directory is created.
   */
  resolve(...parts: string[]): string {
    const target = join(this.path, ...parts);
    mkdirSync(join(target, '..'), { recursive: true });
    return target;
  }

  segmentPath(firstLsn: number): string {
    return join(this.walDir, `${String(firstLsn).padStart(LSN_DIGITS, '0')}.log`);
  }

  snapshotPath(lsn: number): string {
    return join(this.snapshotDir, `${String(lsn).padStart(LSN_DIGITS, '0')}.snap`);
  }

  /** Log segments, oldest first. */
  segments(): LsnFile[] {
    return listLsnFiles(this.walDir, '.log');
  }

  /** Complete snapshots, oldest first (unfinished `.tmp` files are not listed). */
  snapshots(): LsnFile[] {
    return existsSync(this.snapshotDir) ? listLsnFiles(this.snapshotDir, '.snap') : [];
  }

  /** Removes snapshot files a crash left unfinished. */
  removeUnfinishedSnapshots(): void {
    for (const name of readdirSync(this.snapshotDir))
      if (name.endsWith('.tmp')) rmSync(join(this.snapshotDir, name), { force: true });
  }

  /** Releases the lock (the directory stays). */
  release(): void {
    if (this.released) return;
    this.released = true;
    openHere.delete(this.path);
    rmSync(join(this.path, LOCK_FILE), { force: true });
  }

  /**
   * Takes the LOCK file: created exclusively with this process's pid. A lock naming a process
   * that no longer exists (killed, or a previous life of a container reusing this pid) is stale:
   * it is moved aside and the lock taken.
   */
  private lock(): void {
    const lockPath = join(this.path, LOCK_FILE);
    const content = `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n`;
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const fd = openSync(lockPath, 'wx');
        try {
          writeSync(fd, content);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      // An unreadable lock (a crash between creating and writing it) is stale too.
      const holder = readPid(lockPath);
      if (holder !== undefined && holder !== process.pid && alive(holder))
        throw new DataDirectoryLockedError(this.path, holder);
      // Stale. Rename first (atomic: of two hosts taking over, one rename wins), then check it
      // was the stale lock that moved, not a fresh one written meanwhile.
      const aside = `${lockPath}.stale-${process.pid}`;
      try {
        renameSync(lockPath, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const moved = readPid(aside);
      if (moved !== holder && moved !== undefined && moved !== process.pid && alive(moved)) {
        renameSync(aside, lockPath);
        throw new DataDirectoryLockedError(this.path, moved);
      }
      unlinkSync(aside);
    }
    throw new DataDirectoryLockedError(this.path, readPid(lockPath) ?? 0);
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process exists (EPERM: it exists, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function listLsnFiles(directory: string, extension: string): LsnFile[] {
  const files: LsnFile[] = [];
  for (const name of readdirSync(directory)) {
    if (!name.endsWith(extension)) continue;
    const digits = name.slice(0, -extension.length);
    if (!/^\d+$/.test(digits)) continue;
    files.push({ lsn: Number(digits), path: join(directory, name) });
  }
  return files.sort((a, b) => a.lsn - b.lsn);
}

/** Makes a directory's entries (new, renamed or removed files) durable. */
export function syncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a file's data durable (fdatasync). */
export function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
