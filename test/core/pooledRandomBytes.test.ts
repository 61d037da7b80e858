import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from '../../core/random/pooledRandomBytes.js';

describe('pooledRandomBytes (ids drawn from a pool of random bytes)', () => {
  it('hands out fresh bytes of the asked size, each in an ArrayBuffer of its own, across refills', () => {
    const seen = new Set<string>();
    // 1,000 draws of 16 bytes: about four refills of the 4 KiB pool.
    for (let i = 0; i < 1000; i++) {
      const bytes = pooledRandomBytes(16);
      expect(bytes).toHaveLength(16);
      expect(bytes.buffer.byteLength).toBe(16);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(1000);
    expect(pooledRandomBytes(5000)).toHaveLength(5000);
  });
});
