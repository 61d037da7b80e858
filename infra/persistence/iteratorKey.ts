import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { syncDirectory } from './dataDirectory.js';
import type { PersistenceLogger } from './persistenceLog.js';

/** The file, in the data directory, holding the secret shard iterators are signed with. */
export const ITERATOR_KEY_FILE = 'iterator.key';
/** 32 random bytes: RFC 2104 §3 discourages HMAC keys shorter than the hash's output (SHA-256: 32). */
export const ITERATOR_KEY_BYTES = 32;

/** What the data directory's iterator key file holds: a key, none yet, or something else. */
export type IteratorKeyState =
  | { readonly kind: 'present'; readonly key: Buffer }
  | { readonly kind: 'missing' }
  | { readonly kind: 'damaged'; readonly bytes: number };

export function readIteratorKey(dataDir: string): IteratorKeyState {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dataDir, ITERATOR_KEY_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  return bytes.length === ITERATOR_KEY_BYTES
    ? { kind: 'present', key: bytes }
    : { kind: 'damaged', bytes: bytes.length };
}

/**
 * The data directory's iterator key, made on first use (readable by its owner only: whoever holds
 * it can forge iterators). A key of the wrong length is replaced: iterators signed with it fail as
 * `Invalid ShardIterator`, as they would have after a restart before keys were kept, and expire
 * within 15 minutes anyway. `replaced` says so.
 */
export function loadIteratorKey(dataDir: string): {
  key: Buffer;
  replaced: Extract<IteratorKeyState, { kind: 'damaged' }> | undefined;
} {
  const state = readIteratorKey(dataDir);
  if (state.kind === 'present') return { key: state.key, replaced: undefined };
  const key = randomBytes(ITERATOR_KEY_BYTES);
  const path = join(dataDir, ITERATOR_KEY_FILE);
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, key);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDirectory(dataDir);
  return { key, replaced: state.kind === 'damaged' ? state : undefined };
}

/** The data directory's iterator key, with a warning when a damaged one was replaced. */
export function iteratorKeyOf(dataDir: string, logger: PersistenceLogger): Buffer {
  const { key, replaced } = loadIteratorKey(dataDir);
  if (replaced !== undefined)
    logger.warn(
      { file: join(dataDir, ITERATOR_KEY_FILE), bytes: replaced.bytes },
      'the shard iterator key was damaged and is replaced: iterators handed out before are refused',
    );
  return key;
}
