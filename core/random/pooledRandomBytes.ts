import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for identifiers (stream salts, shard ids, log stream names), drawn from a pool
 * filled 4 KiB at a time. Each `crypto.randomBytes(16)` is a call into OpenSSL of its own: a
 * stack's `reset()` makes a salt per table feed and a log stream name per function, and those
 * calls were ~6% of its CPU time (bench/startup.ts, `--cpu-prof`). The bytes are the same
 * cryptographic randomness, handed out once each.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `size` fresh random bytes, in a Buffer of their own (its ArrayBuffer holds them alone). */
export function pooledRandomBytes(size: number): Buffer {
  if (offset + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(Math.max(POOL_BYTES, size)));
    offset = 0;
  }
  const bytes = Buffer.allocUnsafeSlow(size);
  pool.copy(bytes, 0, offset, offset + size);
  // Handed out once: the pool's copy is overwritten, so nothing else can read these bytes.
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
}
