import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { FRAME_HEADER_BYTES, frameIntact, MAX_FRAME_BYTES } from './binary.js';

/** One frame read from a file: its payload is `buffer[start, end)`, valid until the next read. */
export interface Frame {
  /** File offset of the frame's header. */
  readonly offset: number;
  readonly buffer: Buffer;
  readonly start: number;
  readonly end: number;
}

/**
 * A frame that could not be read. `torn`: it runs to the end of the file (a write cut short by a
 * crash, or a tail of zeros the file system allocated but never filled); `corrupt`: intact data
 * follows it, so it was damaged after being written.
 */
export interface FrameProblem {
  readonly kind: 'torn' | 'corrupt';
  readonly offset: number;
  readonly reason: string;
  /** Whether anything but zeros is left from `offset` on (a zero tail from a frame's start holds no record). */
  readonly data: boolean;
}

/**
 * Whether the bytes at a file offset could start a frame of this file (cheap checks on the
 * payload's first bytes, before its checksum): how a reader tells a record damaged in the middle
 * of the log, with intact records after it, from a torn tail.
 */
export type FrameProbe = (payload: Buffer, start: number, length: number) => boolean;

/** Looks this far past a bad frame for intact ones (the tail of one write batch is far shorter). */
const RESYNC_SCAN_BYTES = 64 * 1024 * 1024;

/** Reads 8 MiB at a time: few system calls, and loading never holds a whole file in memory. */
const WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * Reads the frames of a file in order (startup only: synchronous reads, nothing else runs yet).
 *
 * @example
 * ```ts
 * const reader = new FrameReader('wal/00000000000000000001.log');
 * for (let frame = reader.next(); frame !== undefined; frame = reader.next()) decode(frame);
 * if (reader.problem) console.log(reader.problem.kind, reader.problem.offset);
 * reader.close();
 * ```
 */
export class FrameReader {
  readonly size: number;
  /** Set when `next()` stopped before the end of the file. */
  problem: FrameProblem | undefined;
  private readonly fd: number;
  private window = Buffer.allocUnsafe(WINDOW_BYTES);
  /** File offset of `window[0]` and number of valid bytes in it. */
  private windowStart = 0;
  private windowBytes = 0;
  private position = 0;

  constructor(
    readonly path: string,
    private readonly probe?: FrameProbe,
  ) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
  }

  /** File offset of the next frame (after the last one read). */
  get offset(): number {
    return this.position;
  }

  /** The next intact frame, or undefined at the end of the file or at a problem (see `problem`). */
  next(): Frame | undefined {
    const offset = this.position;
    if (offset >= this.size || this.problem !== undefined) return undefined;
    if (this.size - offset < FRAME_HEADER_BYTES) return this.fail(offset, 'a frame header cut short');
    this.load(offset, FRAME_HEADER_BYTES);
    const at = offset - this.windowStart;
    const length = this.window.readUInt32LE(at);
    const checksum = this.window.readUInt32LE(at + 4);
    if (length === 0 || length > MAX_FRAME_BYTES)
      return this.fail(offset, `an impossible length (${length})`);
    const end = offset + FRAME_HEADER_BYTES + length;
    if (end > this.size) return this.fail(offset, `a frame of ${length} bytes running past the end`);
    this.load(offset, FRAME_HEADER_BYTES + length);
    const start = offset - this.windowStart + FRAME_HEADER_BYTES;
    if (!frameIntact(this.window, start, length, checksum)) return this.fail(offset, 'a checksum mismatch');
    this.position = end;
    return { offset, buffer: this.window, start, end: start + length };
  }

  close(): void {
    closeSync(this.fd);
  }

  /** Makes `window` hold file bytes [offset, offset + bytes). */
  private load(offset: number, bytes: number): void {
    if (offset >= this.windowStart && offset + bytes <= this.windowStart + this.windowBytes) return;
    if (bytes > this.window.length) this.window = Buffer.allocUnsafe(Math.max(bytes, this.window.length * 2));
    const wanted = Math.min(this.window.length, this.size - offset);
    let read = 0;
    while (read < wanted) {
      const count = readSync(this.fd, this.window, read, wanted - read, offset + read);
      if (count === 0) break;
      read += count;
    }
    this.windowStart = offset;
    this.windowBytes = read;
  }

  /**
   * Classifies the problem at `offset`. Torn: the bad frame holds the file's last data (it runs
   * past the end, or nothing but zeros follows from some point inside it) and no intact frame
   * starts after it (a flipped bit in a length can make a frame in the middle look as if it ran to
   * the end); corrupt otherwise. Zeros count from inside the frame, not only from its header: a
   * power loss on a file the file system had already extended (or preallocated) leaves the last
   * write's unwritten part, and everything after it, as zeros (docs/persistence.md §2).
   */
  private fail(offset: number, reason: string): undefined {
    const lastData = this.lastNonZero(offset);
    let torn = lastData < offset + FRAME_HEADER_BYTES;
    if (!torn) {
      this.load(offset, FRAME_HEADER_BYTES);
      const length = this.window.readUInt32LE(offset - this.windowStart);
      const end = offset + FRAME_HEADER_BYTES + length;
      const plausible = length > 0 && length <= MAX_FRAME_BYTES;
      const lastInFile = end >= this.size || (plausible && lastData < end);
      torn = lastInFile && !this.intactFrameAfter(offset + 1);
    }
    this.problem = { kind: torn ? 'torn' : 'corrupt', offset, reason, data: lastData >= offset };
    return undefined;
  }

  /**
   * Intact frames at or after `from` (resynchronising past damage, as `intactFrameAfter` does),
   * each passed to `visit`: how recovery learns what a dropped stretch of the log held.
   */
  salvage(from: number, visit: (frame: Frame) => void): void {
    let offset = from;
    let gapStart = from;
    while (offset <= this.size - FRAME_HEADER_BYTES && offset - gapStart <= RESYNC_SCAN_BYTES) {
      const length = this.intactFrameAt(offset);
      if (length === undefined) {
        offset++;
        continue;
      }
      const start = offset - this.windowStart + FRAME_HEADER_BYTES;
      visit({ offset, buffer: this.window, start, end: start + length });
      offset += FRAME_HEADER_BYTES + length;
      gapStart = offset;
    }
  }

  /** Whether an intact frame (passing the probe, then its checksum) starts at or after `from`. */
  private intactFrameAfter(from: number): boolean {
    if (this.probe === undefined) return false;
    const last = Math.min(this.size - FRAME_HEADER_BYTES - 1, from + RESYNC_SCAN_BYTES);
    for (let offset = from; offset <= last; offset++)
      if (this.intactFrameAt(offset) !== undefined) return true;
    return false;
  }

  /** The payload length of an intact frame (passing the probe, then its checksum) at `offset`. */
  private intactFrameAt(offset: number): number | undefined {
    if (this.probe === undefined) return undefined;
    this.load(offset, FRAME_HEADER_BYTES + 16);
    const at = offset - this.windowStart;
    const length = this.window.readUInt32LE(at);
    if (length === 0 || length > MAX_FRAME_BYTES || offset + FRAME_HEADER_BYTES + length > this.size)
      return undefined;
    const visible = Math.min(length, this.windowBytes - at - FRAME_HEADER_BYTES);
    if (!this.probe(this.window, at + FRAME_HEADER_BYTES, visible)) return undefined;
    this.load(offset, FRAME_HEADER_BYTES + length);
    const start = offset - this.windowStart + FRAME_HEADER_BYTES;
    return frameIntact(this.window, start, length, this.window.readUInt32LE(start - 4)) ? length : undefined;
  }

  /** The offset of the file's last non-zero byte at or after `from` (`from - 1`: only zeros). */
  private lastNonZero(from: number): number {
    for (let end = this.size; end > from; ) {
      const begin = Math.max(from, end - this.window.length);
      this.load(begin, end - begin);
      const base = begin - this.windowStart;
      for (let index = base + (end - begin) - 1; index >= base; index--)
        if (this.window[index] !== 0) return this.windowStart + index;
      end = begin;
    }
    return from - 1;
  }
}
