import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { nextTurn } from '../../core/backups/fill.js';
import { StoredItem } from '../../core/store/storedItem.js';
import { syncDirectory } from '../persistence/dataDirectory.js';

/**
 * The files of `<data dir>/backups/` (docs/backups.md §8): each is written beside its final name
 * (`.tmp`), fsynced, then renamed, so a crash leaves the old version or the new one, never half
 * of one. Lines of text, read back a buffer at a time (a backup of millions of items is larger
 * than a JavaScript string may be).
 */

/** Replaces a small file durably (write, fsync, rename, fsync the folder). */
export function writeFileDurably(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDirectory(dirname(path));
}

/** Writes lines to `path` durably, yielding to the event loop every ~1 MiB so requests go on. */
export async function writeLinesDurably(path: string, lines: Iterable<string>): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    let chunk = '';
    for (const line of lines) {
      chunk += `${line}\n`;
      if (chunk.length >= 1 << 20) {
        await handle.write(chunk);
        chunk = '';
        await nextTurn();
      }
    }
    if (chunk !== '') await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    rmSync(temporary, { force: true });
    throw error;
  }
  await handle.close();
  renameSync(temporary, path);
  syncDirectory(dirname(path));
}

/** The lines of a file, read 1 MiB at a time (the last one without its newline, if any). */
export function* readLines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      pending += decoder.write(buffer.subarray(0, read));
      let start = 0;
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
        yield pending.slice(start, end);
        start = end + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.end();
    if (pending !== '') yield pending;
  } finally {
    closeSync(fd);
  }
}

/** A backup's items, one a line: `<size by the AWS rules> <canonical DynamoDB JSON>`. */
export function* itemLines(items: Iterable<StoredItem>): Generator<string> {
  for (const item of items) yield `${item.size} ${item.json}`;
}

export function* readItems(path: string): Generator<StoredItem> {
  for (const line of readLines(path)) {
    if (line === '') continue;
    const space = line.indexOf(' ');
    yield new StoredItem(line.slice(space + 1), Number(line.slice(0, space)));
  }
}
