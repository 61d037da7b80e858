import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Engine } from '../../core/engine.js';
import type { CheckpointMap } from '../../core/persistence/checkpointStore.js';
import { ChangeLog } from '../../streams/changeLog.js';
import { DataDirectory, LOCK_FILE } from './dataDirectory.js';
import { claimOf, currentBootId, readMark } from './durableMark.js';
import { CorruptDataError, DataLossError, IncompleteDataError } from './errors.js';
import { FrameReader } from './frameReader.js';
import { ITERATOR_KEY_BYTES, ITERATOR_KEY_FILE, readIteratorKey } from './iteratorKey.js';
import { type RecoveryReport, recover } from './recovery.js';
import { ReplayableClock } from './replayableClock.js';

/** What `eddy data check` found: `ok` when a start would succeed without losing written records. */
export interface DataCheckResult {
  readonly ok: boolean;
  /** Human-readable lines, in order: the files, the mark, then what a start would do. */
  readonly lines: string[];
  /** The recovery a start would make (undefined when it would refuse). */
  readonly recovery: RecoveryReport | undefined;
}

/**
 * Verifies a data directory without changing it (`eddy data check DIR`): every snapshot's and
 * segment's frames, the log's mark, the iterator key, and a dry run of the recovery a start would
 * make (the same code, into a scratch engine, with nothing truncated or moved). Not while an eddy
 * holds the directory: its log moves under the check.
 *
 * @example
 * ```ts
 * const { ok, lines } = checkDataDirectory('./.eddy');
 * for (const line of lines) console.log(line);
 * process.exitCode = ok ? 0 : 1;
 * ```
 */
export function checkDataDirectory(path: string): DataCheckResult {
  const lines: string[] = [];
  let directory: DataDirectory;
  try {
    directory = DataDirectory.inspect(path);
  } catch (error) {
    const message =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${path} does not exist`
        : (error as Error).message;
    return { ok: false, lines: [message], recovery: undefined };
  }
  const name = (file: string) => relative(directory.path, file);
  lines.push(`data directory ${directory.path}`);
  const holder = directory.holder();
  if (holder !== undefined) {
    lines.push(`in use by eddy (process ${holder}): stop it first, its log changes while it runs`);
    return { ok: false, lines, recovery: undefined };
  }
  const stale = readLockPid(join(directory.path, LOCK_FILE));
  if (stale !== undefined)
    lines.push(`LOCK names process ${stale}, which is gone (a crash): the next start takes it over`);

  const snapshots = directory.snapshots();
  if (snapshots.length === 0) lines.push('snapshots: none (a start replays the log from LSN 1)');
  snapshots.forEach((snapshot, index) => {
    const newest = index === snapshots.length - 1;
    const frames = verifyFrames(snapshot.path);
    const role = newest ? 'a start loads it' : 'older, deleted after the next snapshot';
    lines.push(`snapshot ${name(snapshot.path)}: LSN ${snapshot.lsn}, ${formatBytes(frames.bytes)}, ${role}`);
    // The newest is checked by the dry run below; an older one is not needed to start.
    if (!newest && frames.problem !== undefined)
      lines.push(`  damaged (not needed to start): ${frames.problem}`);
  });
  const snapshotLsn = snapshots.at(-1)?.lsn ?? 0;
  const segments = directory.segments();
  if (segments.length === 0) lines.push('log: no segments');
  segments.forEach((segment, index) => {
    const next = segments[index + 1];
    const line = `segment ${name(segment.path)}: from LSN ${segment.lsn}, ${formatBytes(sizeOf(segment.path))}`;
    if (next === undefined || next.lsn > snapshotLsn + 1) {
      lines.push(line); // read by the dry run below
      return;
    }
    // Wholly covered by the snapshot: recovery skips it; its frames are checked all the same.
    const frames = verifyFrames(segment.path);
    lines.push(`${line}, ${plural(frames.count, 'record')}, covered by the snapshot`);
    if (frames.problem !== undefined) lines.push(`  damaged (not needed to start): ${frames.problem}`);
  });

  const mark = readMark(directory.markPath);
  const claim = claimOf(mark);
  if (mark === undefined) lines.push('log.mark: none (torn writes cannot be told from lost records)');
  else {
    const sameBoot = mark.bootId !== '' && mark.bootId === currentBootId();
    const reached =
      mark.writtenLsn > mark.durableLsn
        ? `records up to LSN ${mark.durableLsn} fsynced, up to LSN ${mark.writtenLsn} written to the OS ` +
          (sameBoot
            ? '(since the machine last started)'
            : '(before the machine restarted: only fsyncs count)')
        : `records up to LSN ${mark.durableLsn} written and fsynced`;
    lines.push(
      `log.mark: ${reached}${claim === undefined ? '' : `; a start needs the log to reach LSN ${claim.lsn}`}`,
    );
  }

  const key = readIteratorKey(directory.path);
  if (key.kind === 'missing') lines.push(`${ITERATOR_KEY_FILE}: none yet (the next start makes it)`);
  else if (key.kind === 'damaged')
    lines.push(
      `${ITERATOR_KEY_FILE}: ${key.bytes} bytes, not ${ITERATOR_KEY_BYTES}: the next start replaces it ` +
        '(shard iterators handed out before are refused)',
    );

  let run: { recovery: RecoveryReport; tables: number; items: number };
  try {
    run = dryRun(directory);
  } catch (error) {
    if (
      !(error instanceof CorruptDataError) &&
      !(error instanceof IncompleteDataError) &&
      !(error instanceof DataLossError)
    )
      throw error;
    lines.push(`a start would refuse: ${error.message}`);
    return { ok: false, lines, recovery: undefined };
  }
  const { recovery, tables, items } = run;
  const dropped = recovery.dropped;
  if (dropped !== undefined)
    lines.push(
      `a start would drop a torn write at the end of the log: ${name(dropped.segment)} from byte ` +
        `${dropped.offset} (${dropped.reason}), ${dropped.bytes} bytes, ${plural(dropped.records, 'record')}`,
    );
  if (recovery.unsynced !== undefined)
    lines.push(
      `the machine stopped before records up to LSN ${recovery.unsynced.writtenLsn} were fsynced: ` +
        `${plural(recovery.unsynced.records, 'record')} written to the OS are lost ` +
        '(--durability everysec and no had answered them; always had not)',
    );
  const snapshot =
    recovery.snapshotLsn === 0
      ? ''
      : `the snapshot at LSN ${recovery.snapshotLsn} (${plural(recovery.snapshotItems, 'item')}, ` +
        `${plural(recovery.snapshotRecords, 'stream record')}), then `;
  lines.push(
    `a start would recover LSN ${recovery.lastLsn}: ${snapshot}${plural(recovery.replayed, 'log record')}; ` +
      `${plural(tables, 'table')}, ${plural(items, 'item')}`,
  );
  return { ok: true, lines, recovery };
}

/** The recovery a start would make, into a scratch engine, changing nothing on disk. */
function dryRun(directory: DataDirectory): { recovery: RecoveryReport; tables: number; items: number } {
  const clock = new ReplayableClock();
  const engine = new Engine({ clock });
  const changeLog = ChangeLog.attach(engine);
  const checkpoints: CheckpointMap = new Map();
  try {
    const recovery = recover({ directory, engine, clock, changeLog, checkpoints }, { readOnly: true });
    let tables = 0;
    let items = 0;
    for (const region of engine.allRegions())
      for (const table of region.tables.values()) {
        tables++;
        items += table.items.size;
      }
    return { recovery, tables, items };
  } finally {
    changeLog.close();
  }
}

/** Reads every frame of a file: how many are intact, and what stopped the reader, if anything. */
function verifyFrames(path: string): { count: number; bytes: number; problem: string | undefined } {
  const reader = new FrameReader(path);
  let count = 0;
  try {
    while (reader.next() !== undefined) count++;
  } finally {
    reader.close();
  }
  const problem = reader.problem;
  return {
    count,
    bytes: reader.size,
    problem: problem === undefined ? undefined : `byte ${problem.offset}: ${problem.reason}`,
  };
}

function sizeOf(path: string): number {
  return statSync(path).size;
}

function readLockPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
