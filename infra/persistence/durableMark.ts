import { closeSync, fdatasync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';

const fdatasyncAsync = promisify(fdatasync);

/**
 * The log's mark (`<dataDir>/log.mark`): how far the log reached, kept beside it so that recovery
 * can tell a torn final write from records lost after they were written (docs/persistence.md §3).
 *
 * - `durableLsn`: every record up to it was fsynced. Such a record can only go missing if the disk
 *   or someone lost it: never a torn write, whatever happened to the machine.
 * - `writtenLsn`: every record up to it was handed to the OS, which keeps it until the machine
 *   stops. Trusted only when the machine has not restarted since (`bootId`, Linux's
 *   `/proc/sys/kernel/random/boot_id`): after a crash of eddy alone, the page cache still holds
 *   everything written, and under `everysec` and `no` that is what an answer waited for.
 *
 * The mark is rewritten in place, never fsynced on an answer's path; it is written only after what
 * it claims happened, so any version of it that reaches the disk claims too little, never too
 * much. A version torn by a power loss fails its checksum, and the other slot (two 64-byte slots
 * in separate 512-byte sectors, written in turn) still holds the one before.
 */
export interface MarkState {
  readonly writtenLsn: number;
  readonly durableLsn: number;
  /** The machine's boot when it was written ('' where the OS does not tell). */
  readonly bootId: string;
}

export const MARK_FILE = 'log.mark';
const MAGIC = 'eddymark';
const VERSION = 1;
const SLOT_BYTES = 64;
const SLOT_OFFSETS = [0, 512] as const;

/** A claim recovery can hold the log to: no record up to `lsn` may be missing. */
export interface MarkClaim {
  readonly lsn: number;
  /** Why the records up to `lsn` were there: `fsynced`, or `written` (to the OS, this boot). */
  readonly basis: 'fsynced' | 'written';
}

let cachedBootId: string | undefined;

/** This machine's boot id, or '' where the OS does not expose one (then only fsyncs count). */
export function currentBootId(): string {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      cachedBootId = '';
    }
  }
  return cachedBootId;
}

/** Reads the newest intact slot of a mark file; undefined when there is none (or no file). */
export function readMark(path: string): MarkState | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let newest: { generation: number; state: MarkState } | undefined;
  for (const offset of SLOT_OFFSETS) {
    const slot = decodeSlot(bytes, offset);
    if (slot !== undefined && (newest === undefined || slot.generation > newest.generation)) newest = slot;
  }
  return newest?.state;
}

/**
 * Writes a mark file holding `state` alone (both slots), fsynced: for tools and tests that set a
 * mark by hand (a running log keeps its own, `DurableMark`).
 */
export function writeMark(path: string, state: MarkState): void {
  const slot = Buffer.alloc(SLOT_BYTES);
  encodeSlot(slot, 1, state);
  const fd = openSync(path, 'w');
  try {
    for (const offset of SLOT_OFFSETS) writeSync(fd, slot, 0, SLOT_BYTES, offset);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What a mark proves on this machine now (see `MarkState`). */
export function claimOf(mark: MarkState | undefined, bootId = currentBootId()): MarkClaim | undefined {
  if (mark === undefined) return undefined;
  if (bootId !== '' && mark.bootId === bootId && mark.writtenLsn > mark.durableLsn)
    return { lsn: mark.writtenLsn, basis: 'written' };
  return mark.durableLsn > 0 ? { lsn: mark.durableLsn, basis: 'fsynced' } : undefined;
}

/**
 * The open mark file of a running log. `record` rewrites it (a `pwrite` of 64 bytes to the page
 * cache); `sync` makes the last version durable (run beside the log's own fsyncs).
 */
export class DurableMark {
  private readonly fd: number;
  private generation = 0;
  private readonly slot = Buffer.alloc(SLOT_BYTES);
  private readonly bootId = currentBootId();
  /** The `durableLsn` of the version the last `sync` made durable. */
  syncedDurableLsn = 0;
  /** The `durableLsn` last recorded. */
  durableLsn = 0;
  writtenLsn = 0;

  /**
   * Starts the mark afresh at `lsn` (recovery's last record, the log already fsynced up to it),
   * fsynced before the log takes new records: a claim left over from before the start (records
   * cut with `--accept-data-loss`) must not outlive it.
   */
  constructor(
    readonly path: string,
    lsn: number,
  ) {
    this.fd = openSync(path, 'w');
    this.record(lsn, lsn);
    fdatasyncSync(this.fd);
    this.syncedDurableLsn = lsn;
  }

  /** Rewrites the mark (synchronously: a page-cache write). */
  record(writtenLsn: number, durableLsn: number): void {
    this.writtenLsn = writtenLsn;
    this.durableLsn = durableLsn;
    this.generation++;
    encodeSlot(this.slot, this.generation, { writtenLsn, durableLsn, bootId: this.bootId });
    writeSync(this.fd, this.slot, 0, SLOT_BYTES, SLOT_OFFSETS[this.generation % 2]!);
  }

  /** Fsyncs the mark; resolves with the `durableLsn` now on disk. */
  async sync(): Promise<number> {
    const durable = this.durableLsn;
    await fdatasyncAsync(this.fd);
    if (durable > this.syncedDurableLsn) this.syncedDurableLsn = durable;
    return durable;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function encodeSlot(slot: Buffer, generation: number, state: MarkState): void {
  slot.fill(0);
  slot.write(MAGIC, 0, 'latin1');
  slot.writeUInt32LE(VERSION, 12);
  slot.writeDoubleLE(generation, 16);
  slot.writeDoubleLE(state.writtenLsn, 24);
  slot.writeDoubleLE(state.durableLsn, 32);
  const boot = Buffer.from(state.bootId.replaceAll('-', ''), 'hex');
  if (boot.length === 16) boot.copy(slot, 40);
  slot.writeUInt32LE(crc32(slot.subarray(12)), 8);
}

function decodeSlot(bytes: Buffer, offset: number): { generation: number; state: MarkState } | undefined {
  if (bytes.length < offset + SLOT_BYTES) return undefined;
  const slot = bytes.subarray(offset, offset + SLOT_BYTES);
  if (slot.toString('latin1', 0, 8) !== MAGIC || slot.readUInt32LE(12) !== VERSION) return undefined;
  if (slot.readUInt32LE(8) !== crc32(slot.subarray(12))) return undefined;
  const boot = slot.subarray(40, 56);
  const hex = boot.toString('hex');
  const bootId = /^0+$/.test(hex)
    ? ''
    : `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return {
    generation: slot.readDoubleLE(16),
    state: { writtenLsn: slot.readDoubleLE(24), durableLsn: slot.readDoubleLE(32), bootId },
  };
}
