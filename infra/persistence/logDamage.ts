import {
  closeSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import type { DataDirectory, LsnFile } from './dataDirectory.js';
import { syncDirectory } from './dataDirectory.js';
import { FrameReader } from './frameReader.js';
import { walProbe } from './walRecords.js';

/**
 * Where the log stops being whole: the first segment (`index` in the recovered segments) and the
 * byte offset from which everything, later segments included, is left out of the history.
 */
export interface LogEnd {
  readonly index: number;
  readonly segment: string;
  readonly offset: number;
  readonly reason: string;
  /**
   * torn: the last write, cut short (nothing intact after it); corrupt: damage with intact records
   * after it; hole: a segment missing before this one; end: the log is whole but shorter than its
   * mark says.
   */
  readonly kind: 'torn' | 'corrupt' | 'hole' | 'end';
  /** Whether anything but zeros is dropped (a record, whole or in part). */
  readonly data: boolean;
}

/** Bytes from `end` to the end of the log (this segment's rest, and every later segment). */
export function bytesAfter(segments: readonly LsnFile[], end: LogEnd): number {
  if (end.kind === 'end') return 0;
  let bytes = Math.max(0, sizeOf(end.segment) - end.offset);
  for (const later of segments.slice(end.index + 1)) bytes += sizeOf(later.path);
  return bytes;
}

/**
 * The highest LSN among the intact records after `end` (found past the damage the way the frame
 * reader resynchronises), or `lastLsn` when there is none: with the mark, how many records a
 * damaged stretch of the log held.
 */
export function highestLsnAfter(segments: readonly LsnFile[], end: LogEnd, lastLsn: number): number {
  let highest = lastLsn;
  if (end.kind === 'end') return highest;
  const probe = walProbe(() => lastLsn);
  const files = [
    { path: end.segment, from: end.kind === 'hole' ? 0 : end.offset + 1 },
    ...segments.slice(end.index + 1).map((segment) => ({ path: segment.path, from: 0 })),
  ];
  for (const { path, from } of files) {
    const reader = new FrameReader(path, probe);
    try {
      reader.salvage(from, (frame) => {
        highest = Math.max(highest, frame.buffer.readDoubleLE(frame.start + 1));
      });
    } finally {
      reader.close();
    }
  }
  return highest;
}

/**
 * Cuts the log at `end`: the segment is truncated there, later segments go. With `keepIn`, what
 * is cut is first copied there (the segment's dropped bytes as `<segment>.from-<offset>`, later
 * segments moved whole), so nothing is destroyed when data loss is accepted.
 */
export function cutLog(
  directory: DataDirectory,
  segments: readonly LsnFile[],
  end: LogEnd,
  keepIn: string | undefined,
): void {
  // A log that is whole but short has nothing to cut.
  if (end.kind === 'end') return;
  // A segment cut at its first byte goes whole: an empty segment would keep a name (its first
  // LSN) that the next record may not have.
  const whole = segments.slice(end.offset === 0 ? end.index : end.index + 1);
  if (keepIn !== undefined) {
    mkdirSync(keepIn, { recursive: true });
    if (end.offset > 0)
      copyTail(end.segment, end.offset, join(keepIn, `${basename(end.segment)}.from-${end.offset}`));
    for (const segment of whole) renameSync(segment.path, join(keepIn, basename(segment.path)));
    syncDirectory(keepIn);
  }
  if (end.offset > 0) truncate(end.segment, end.offset);
  if (keepIn === undefined) for (const segment of whole) rmSync(segment.path, { force: true });
  syncDirectory(directory.walDir);
}

/** A fresh folder name under `<dataDir>/damaged/` for bytes cut from the log. */
export function damagedFolder(directory: DataDirectory, at = new Date()): string {
  return join(directory.path, 'damaged', at.toISOString().replaceAll(':', '-'));
}

function copyTail(from: string, offset: number, to: string): void {
  const input = openSync(from, 'r');
  const output = openSync(to, 'w');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let position = offset; ; ) {
      const count = readSync(input, buffer, 0, buffer.length, position);
      if (count === 0) break;
      writeSync(output, buffer, 0, count);
      position += count;
    }
    fsyncSync(output);
  } finally {
    closeSync(input);
    closeSync(output);
  }
}

function truncate(path: string, length: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function sizeOf(path: string): number {
  return statSync(path).size;
}
