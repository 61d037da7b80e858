import { randomBytes } from 'node:crypto';

/**
 * Identifiers of streams, shards and records.
 *
 * - `eventID` (spec §1.1.5): 32 lowercase hex characters, globally unique. Built when a record is
 *   read, from the stream's random salt and the record's ordinal through a bijective 32-bit mix per
 *   lane, so it is the same on every re-read and unique within a stream by construction.
 * - `ShardId` (spec §1.4.4): `shardId-<20-digit zero-padded creation epoch-ms>-<8 hex>`.
 */

/** A random salt of four 32-bit lanes. */
export function newSalt(): Uint32Array {
  return new Uint32Array(randomBytes(16).buffer.slice(0, 16));
}

/** murmur3's finaliser: a bijection on 32-bit integers. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** 8 lowercase hex digits (a table lookup per byte: 4× faster than toString + padStart). */
function hex8(value: number): string {
  return HEX[value >>> 24]! + HEX[(value >>> 16) & 255]! + HEX[(value >>> 8) & 255]! + HEX[value & 255]!;
}

/** The eventID of the record with this ordinal in a stream with this salt. */
export function eventIdOf(salt: Uint32Array, ordinal: number): string {
  const low = ordinal >>> 0;
  const high = Math.floor(ordinal / 0x1_0000_0000) >>> 0;
  // Lane 0 is a bijection of the low 32 bits, lane 1 of the high bits: together unique.
  return (
    hex8(mix32(low ^ salt[0]!)) +
    hex8(mix32(high ^ salt[1]!) ^ mix32(low + salt[2]!)) +
    hex8(mix32(low ^ salt[3]!) ^ salt[1]!) +
    hex8(mix32((low + salt[0]!) ^ salt[2]!))
  );
}

/** A new ShardId for a shard created at `createdAt` (epoch ms). */
export function newShardId(createdAt: number): string {
  return `shardId-${String(Math.max(0, Math.floor(createdAt))).padStart(20, '0')}-${randomBytes(4).toString('hex')}`;
}
