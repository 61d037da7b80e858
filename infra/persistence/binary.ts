import { crc32 } from 'node:zlib';

/**
 * Records on disk, in the write-ahead log and in snapshots alike, are frames:
 *
 *   [length u32 LE][crc32 u32 LE][payload: `length` bytes]
 *
 * The CRC-32 (zlib's, the same as the service's `x-amz-crc32`) covers the payload. A frame whose
 * length runs past the end of the file, or whose checksum fails, is either a torn write (at the
 * tail of the log: dropped) or corruption (anywhere else: startup stops). See `frameReader.ts`.
 *
 * Payloads are built with `BinaryWriter`: numbers little-endian, strings length-prefixed. Item
 * text (already canonical JSON) goes in as UTF-8 bytes, never re-encoded as a JSON string, so a
 * loader turns it back into the very same text with one `toString`.
 */
export const FRAME_HEADER_BYTES = 8;
/** No frame is this large: a length above it is garbage, not a record (items are ≤ 400 KB). */
export const MAX_FRAME_BYTES = 512 * 1024 * 1024;
/** The length written for an absent optional string. */
const ABSENT = 0xffffffff;

export class BinaryWriter {
  buffer: Buffer;
  offset = 0;

  constructor(initialBytes = 1 << 16) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  /** Makes room for `bytes` more. */
  ensure(bytes: number): void {
    const needed = this.offset + bytes;
    if (needed <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }

  u8(value: number): void {
    this.ensure(1);
    this.buffer[this.offset++] = value;
  }

  u32(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32LE(value, this.offset);
    this.offset += 4;
  }

  /** Any safe integer or time: an IEEE double (LSNs, positions and times stay below 2^53). */
  f64(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.offset);
    this.offset += 8;
  }

  /** A UTF-8 string with its byte length. */
  str(text: string): void {
    // A UTF-16 code unit takes at most 3 UTF-8 bytes.
    this.ensure(4 + text.length * 3);
    const written = this.buffer.write(text, this.offset + 4, 'utf8');
    this.buffer.writeUInt32LE(written, this.offset);
    this.offset += 4 + written;
  }

  optStr(text: string | undefined): void {
    if (text === undefined) this.u32(ABSENT);
    else this.str(text);
  }

  /**
   * A string as UTF-16 code units: encoded keys (`keyCodec.ts`) may hold any code unit, lone
   * surrogates included, which UTF-8 cannot carry.
   */
  str16(text: string): void {
    this.ensure(4 + text.length * 2);
    const written = this.buffer.write(text, this.offset + 4, 'utf16le');
    this.buffer.writeUInt32LE(written, this.offset);
    this.offset += 4 + written;
  }

  /** Opens a frame: reserves its header; returns where it starts (for `endFrame`). */
  beginFrame(): number {
    this.ensure(FRAME_HEADER_BYTES);
    const start = this.offset;
    this.offset += FRAME_HEADER_BYTES;
    return start;
  }

  /** Closes the frame opened at `start`: writes its length and checksum. */
  endFrame(start: number): void {
    const payloadStart = start + FRAME_HEADER_BYTES;
    this.buffer.writeUInt32LE(this.offset - payloadStart, start);
    this.buffer.writeUInt32LE(crc32(this.buffer.subarray(payloadStart, this.offset)), start + 4);
  }

  /** A copy of the bytes written so far; the writer starts over (its buffer is reused). */
  take(): Buffer {
    const out = Buffer.from(this.buffer.subarray(0, this.offset));
    this.offset = 0;
    return out;
  }
}

/** Reads what `BinaryWriter` wrote. Reading past the end throws a RangeError (a bad payload). */
export class BinaryReader {
  offset: number;

  constructor(
    readonly buffer: Buffer,
    start = 0,
    readonly end = buffer.length,
  ) {
    this.offset = start;
  }

  private take(bytes: number): number {
    const at = this.offset;
    if (at + bytes > this.end) throw new RangeError(`payload ends early (need ${bytes} bytes at ${at})`);
    this.offset = at + bytes;
    return at;
  }

  get done(): boolean {
    return this.offset >= this.end;
  }

  u8(): number {
    return this.buffer[this.take(1)]!;
  }

  u32(): number {
    return this.buffer.readUInt32LE(this.take(4));
  }

  f64(): number {
    return this.buffer.readDoubleLE(this.take(8));
  }

  str(): string {
    const length = this.u32();
    const at = this.take(length);
    return this.buffer.toString('utf8', at, at + length);
  }

  optStr(): string | undefined {
    const length = this.buffer.readUInt32LE(this.take(4));
    if (length === ABSENT) return undefined;
    const at = this.take(length);
    return this.buffer.toString('utf8', at, at + length);
  }

  str16(): string {
    const length = this.u32();
    const at = this.take(length);
    return this.buffer.toString('utf16le', at, at + length);
  }
}

/** Whether a frame's payload matches its checksum. */
export function frameIntact(buffer: Buffer, payloadStart: number, length: number, expected: number): boolean {
  return crc32(buffer.subarray(payloadStart, payloadStart + length)) === expected;
}
