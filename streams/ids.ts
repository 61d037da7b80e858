import { createHash } from 'node:crypto';
import { pooledRandomBytes } from '../core/random/pooledRandomBytes.js';

/**
 * Identifiers of streams, shards and records.
 *
 * - `eventID` (docs/streams-and-lambda.md §1.1.5): 32 lowercase hex characters, globally unique. Built when a
 *   record is read, from the stream's salt and the record's ordinal through a bijective 32-bit mix per
 *   lane, so it is the same on every re-read and unique within a stream by construction.
 * - `ShardId` (docs/streams-and-lambda.md §1.4.4): `shardId-<20-digit zero-padded creation epoch-ms>-<8
 *   hex>`.
 *
 * A stream's salt and its shard ids derive from what the stream is (its table incarnation and
 * ARN, the generation's start time), not from fresh randomness: a host that replays its
 * write-ahead log after a crash rebuilds the very same ids, so records and shards a client saw
 * before the crash keep their eventIDs and ShardIds (issue #10).
 */

/** A random salt of four 32-bit lanes. */
export function newSalt(): Uint32Array {
  return new Uint32Array(pooledRandomBytes(16).buffer);
}

/**
 * The salt of a stream, from a seed that names it uniquely (`<tableId>|<stream ARN>`: the table id
 * is a random UUID per table incarnation). SHA-256 spreads any seed over the four lanes.
 */
export function saltOf(seed: string): Uint32Array {
  const digest = createHash('sha256').update(seed).digest();
  return new Uint32Array([
    digest.readUInt32LE(0),
    digest.readUInt32LE(4),
    digest.readUInt32LE(8),
    digest.readUInt32LE(12),
  ]);
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
  return `shardId-${String(Math.max(0, Math.floor(createdAt))).padStart(20, '0')}-${pooledRandomBytes(4).toString('hex')}`;
}

/**
 * The ShardId of the `index`-th shard of the generation a stream opened at `createdAt`: the same
 * on every replay. Within a stream, ids differ by creation time or, in one generation, by index
 * (the mix is a bijection); the salt keeps streams apart.
 */
export function shardIdOf(salt: Uint32Array, createdAt: number, index: number): string {
  const time = Math.max(0, Math.floor(createdAt));
  const suffix = mix32((index ^ salt[3]!) + mix32((time >>> 0) ^ salt[0]!));
  return `shardId-${String(time).padStart(20, '0')}-${hex8(suffix)}`;
}
