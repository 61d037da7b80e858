import type { Engine } from '../../core/engine.js';
import type { CheckpointMap } from '../../core/persistence/checkpointStore.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import { BinaryReader } from './binary.js';
import type { DataDirectory, LsnFile } from './dataDirectory.js';
import { claimOf, type MarkClaim, readMark } from './durableMark.js';
import { CorruptDataError, DataLossError, IncompleteDataError, type Leftover } from './errors.js';
import { FrameReader } from './frameReader.js';
import { restoreAllInsights } from './insightsCodec.js';
import { bytesAfter, cutLog, damagedFolder, highestLsnAfter, type LogEnd, sizeOf } from './logDamage.js';
import { rebuildIndexes, replayRecord } from './replay.js';
import type { ReplayableClock } from './replayableClock.js';
import { linkReplicas } from './replicaCodec.js';
import { loadSnapshot } from './snapshotReader.js';
import { readWalRecord, type WalRecord, walProbe } from './walRecords.js';

/**
 * What recovery dropped from the end of the log (docs/persistence.md §3): `torn`, a last write
 * cut short (a crash while writing; nothing the mark proves was there); `lost`, records that had
 * been written, dropped only because `acceptDataLoss` said so.
 */
export interface DroppedTail {
  readonly kind: 'torn' | 'lost';
  /** The segment where the log was cut, and the byte offset of the cut. */
  readonly segment: string;
  readonly offset: number;
  /** Bytes dropped (that segment's rest and any later segment). */
  readonly bytes: number;
  /** Records dropped, as far as the bytes and the mark tell (at least this many). */
  readonly records: number;
  /** The last record recovered. */
  readonly lastLsn: number;
  readonly reason: string;
  /** `lost`: where the dropped bytes were moved. */
  readonly keptIn: string | undefined;
}

/** One log segment recovery read. */
export interface SegmentReport {
  readonly path: string;
  readonly firstLsn: number;
  readonly bytes: number;
  /** Intact records read from it. */
  readonly records: number;
}

export interface RecoveryReport {
  /** LSN of the snapshot loaded (0: none). */
  readonly snapshotLsn: number;
  /** LSN of the last record applied. */
  readonly lastLsn: number;
  /** Log records replayed after the snapshot. */
  readonly replayed: number;
  /** Items and stream records loaded from the snapshot. */
  readonly snapshotItems: number;
  readonly snapshotRecords: number;
  /** The end of the log that was dropped, if any. */
  readonly dropped: DroppedTail | undefined;
  /** What the log's mark proved had been written (undefined: no mark, or it proves nothing). */
  readonly claim: MarkClaim | undefined;
  /**
   * Records the mark says were written to the OS, but never fsynced before the machine stopped:
   * lost, as `everysec` and `no` allow (their answers had gone out; under `always` they had not).
   * At least this many: the mark on disk may be older than the crash.
   */
  readonly unsynced: { readonly writtenLsn: number; readonly records: number } | undefined;
  /** The segments read, oldest first. */
  readonly segments: readonly SegmentReport[];
  /** The last segment, to keep appending to. */
  readonly tail: { readonly path: string; readonly bytes: number } | undefined;
  readonly ms: number;
}

export interface RecoveryOptions {
  /**
   * Start from the longest whole prefix of a damaged log instead of refusing: the rest is moved
   * to `<dataDir>/damaged/<time>/` (the `--accept-data-loss` flag).
   */
  readonly acceptDataLoss?: boolean;
  /** Change nothing on disk (`eddy data check`): report what a start would do. */
  readonly readOnly?: boolean;
  /**
   * Runs once the snapshot is loaded, before the log is replayed: what must see the replayed
   * commits (a Kinesis destination's writer, docs/kinesis-destinations.md §3.3) registers here.
   */
  readonly beforeReplay?: () => void;
}

interface RecoveryTarget {
  readonly directory: DataDirectory;
  readonly engine: Engine;
  readonly clock: ReplayableClock;
  readonly changeLog: ChangeLog;
  readonly checkpoints: CheckpointMap;
}

/**
 * Brings an empty engine to the state its data directory records: the newest snapshot, then
 * every log record after it, replayed through the engine's own commit point, so the change log
 * rebuilds stream records exactly (same ordinals, same eventIDs, same shards) with the clock held
 * at each record's time. Secondary indexes are rebuilt from the items at the end.
 *
 * Where the log stops being whole, the log's mark (`durableMark.ts`) decides: a torn last write,
 * beyond what the mark proves was written, is dropped (the segment truncated); a log that ends
 * before the mark, damage with intact records after it, or a missing segment is data loss, and
 * recovery stops with the file, the offset and what is missing, unless `acceptDataLoss`. A
 * history that cannot be rebuilt at all (a damaged snapshot, no snapshot and a log not starting
 * at LSN 1, a record that does not fit) stops it whatever the options.
 */
export function recover(target: RecoveryTarget, options: RecoveryOptions = {}): RecoveryReport {
  const started = performance.now();
  const { directory, engine, clock, changeLog } = target;
  if (options.readOnly !== true) directory.removeUnfinishedSnapshots();
  const snapshot = directory.snapshots().at(-1);
  let snapshotLsn = 0;
  let snapshotItems = 0;
  let snapshotRecords = 0;
  if (snapshot !== undefined) {
    const loaded = loadSnapshot(snapshot.path, engine, changeLog.settings, target.checkpoints);
    if (loaded.lsn !== snapshot.lsn)
      throw new CorruptDataError(
        snapshot.path,
        0,
        `it holds LSN ${loaded.lsn}, its name says ${snapshot.lsn}`,
      );
    clock.at(loaded.capturedAt, () => changeLog.restoreStreams(loaded.streams));
    snapshotLsn = loaded.lsn;
    snapshotItems = loaded.items;
    snapshotRecords = loaded.records;
  }
  options.beforeReplay?.();
  const segments = relevantSegments(directory, snapshotLsn);
  const read = replayLog(target, segments, snapshotLsn);
  const { lastLsn } = read;
  const mark = readMark(directory.markPath);
  const claim = claimOf(mark);
  const end = read.end ?? endBeforeClaim(directory, segments, lastLsn, claim);
  let dropped: DroppedTail | undefined;
  if (end !== undefined) {
    const lost = end.kind !== 'torn' || (claim !== undefined && claim.lsn > lastLsn);
    const bytes = bytesAfter(segments, end);
    const highest = Math.max(highestLsnAfter(segments, end, lastLsn), claim?.lsn ?? 0);
    const records = Math.max(highest - lastLsn, end.data ? 1 : 0);
    const keptIn = lost ? damagedFolder(directory) : undefined;
    if (lost && options.acceptDataLoss !== true) throw lossError(directory, end, lastLsn, claim, keptIn!);
    dropped = { kind: lost ? 'lost' : 'torn', ...pick(end), bytes, records, lastLsn, keptIn };
    if (options.readOnly !== true) cutLog(directory, segments, end, keptIn);
    // What `cutLog` removed (a whole log cut short is left as it is).
    if (end.kind !== 'end') segments.length = end.offset === 0 ? end.index : end.index + 1;
  }
  // Written beyond what was fsynced, in a run the machine did not survive (else `claim` holds it).
  const unsyncedFrom = mark === undefined ? 0 : Math.max(lastLsn, mark.durableLsn);
  const unsynced =
    mark !== undefined && claim?.basis !== 'written' && mark.writtenLsn > unsyncedFrom
      ? { writtenLsn: mark.writtenLsn, records: mark.writtenLsn - unsyncedFrom }
      : undefined;
  rebuildIndexes(engine);
  linkReplicas(engine);
  restoreAllInsights(engine);
  const last = segments.at(-1);
  const tail =
    last === undefined
      ? undefined
      : { path: last.path, bytes: dropped?.segment === last.path ? dropped.offset : sizeOf(last.path) };
  return {
    snapshotLsn,
    lastLsn,
    replayed: read.replayed,
    snapshotItems,
    snapshotRecords,
    dropped,
    claim,
    unsynced,
    segments: read.segments,
    tail,
    ms: performance.now() - started,
  };
}

/** Replays the segments' records up to where the log stops being whole (`end`). */
function replayLog(
  target: RecoveryTarget,
  segments: readonly LsnFile[],
  snapshotLsn: number,
): { lastLsn: number; replayed: number; end: LogEnd | undefined; segments: SegmentReport[] } {
  let lastLsn = snapshotLsn;
  let replayed = 0;
  const reports: SegmentReport[] = [];
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (segment.lsn > lastLsn + 1) {
      const reason = `records ${lastLsn + 1} to ${segment.lsn - 1} are missing (the log resumes in ${segment.path})`;
      const end: LogEnd = { index, segment: segment.path, offset: 0, reason, kind: 'hole', data: true };
      return { lastLsn, replayed, end, segments: reports };
    }
    const reader = new FrameReader(
      segment.path,
      walProbe(() => lastLsn),
    );
    let records = 0;
    try {
      for (let frame = reader.next(); frame !== undefined; frame = reader.next()) {
        records++;
        let record: WalRecord;
        try {
          record = readWalRecord(new BinaryReader(frame.buffer, frame.start, frame.end));
        } catch (error) {
          throw new CorruptDataError(segment.path, frame.offset, (error as Error).message, { cause: error });
        }
        if (record.lsn <= lastLsn && record.lsn <= snapshotLsn) continue;
        if (record.lsn !== lastLsn + 1)
          throw new CorruptDataError(segment.path, frame.offset, `LSN ${record.lsn} follows LSN ${lastLsn}`);
        try {
          replayRecord(target, record);
        } catch (error) {
          if (error instanceof CorruptDataError) throw error;
          const reason = `replaying LSN ${record.lsn}: ${(error as Error).message}`;
          throw new CorruptDataError(segment.path, frame.offset, reason, { cause: error });
        }
        lastLsn = record.lsn;
        replayed++;
      }
    } finally {
      reader.close();
    }
    reports.push({ path: segment.path, firstLsn: segment.lsn, bytes: reader.size, records });
    const problem = reader.problem;
    if (problem === undefined) continue;
    // A torn tail is the end of the history: the last segment's, or one whose later segments
    // hold nothing yet (a machine crash right after a new segment was started).
    const laterData = segments.slice(index + 1).some((file) => sizeOf(file.path) > 0);
    const kind = problem.kind === 'corrupt' || laterData ? 'corrupt' : 'torn';
    const end: LogEnd = { index, segment: segment.path, ...problem, kind };
    return { lastLsn, replayed, end, segments: reports };
  }
  return { lastLsn, replayed, end: undefined, segments: reports };
}

/** A whole log that ends before its mark's claim: cut short at a frame boundary, or a segment gone. */
function endBeforeClaim(
  directory: DataDirectory,
  segments: readonly LsnFile[],
  lastLsn: number,
  claim: MarkClaim | undefined,
): LogEnd | undefined {
  if (claim === undefined || claim.lsn <= lastLsn) return undefined;
  const last = segments.at(-1);
  if (last === undefined)
    return {
      index: 0,
      segment: directory.segmentPath(lastLsn + 1),
      offset: 0,
      reason: 'no segment holds them',
      kind: 'end',
      data: false,
    };
  return {
    index: segments.length - 1,
    segment: last.path,
    offset: sizeOf(last.path),
    reason: 'the end of the file',
    kind: 'end',
    data: false,
  };
}

function lossError(
  directory: DataDirectory,
  end: LogEnd,
  lastLsn: number,
  claim: MarkClaim | undefined,
  damagedDir: string,
): Error {
  const leftover: Leftover = { lastLsn, damagedDir };
  if (end.kind === 'hole') return new IncompleteDataError(directory.path, end.reason, { leftover });
  if (end.kind === 'corrupt' || claim === undefined)
    return new CorruptDataError(end.segment, end.offset, end.reason, { leftover });
  return new DataLossError(end.segment, end.offset, end.reason, lastLsn, claim.lsn, claim.basis, leftover);
}

function pick(end: LogEnd): Pick<DroppedTail, 'segment' | 'offset' | 'reason'> {
  return { segment: end.segment, offset: end.offset, reason: end.reason };
}

/** Segments holding records after `snapshotLsn`, oldest first (older ones wait for deletion). */
function relevantSegments(directory: DataDirectory, snapshotLsn: number): LsnFile[] {
  const segments = directory.segments();
  if (snapshotLsn === 0 && segments.length > 0 && segments[0]!.lsn !== 1)
    throw new IncompleteDataError(
      directory.path,
      `there is no snapshot, and the log starts at LSN ${segments[0]!.lsn} (${segments[0]!.path}), not 1`,
    );
  return segments.filter((_segment, index) => {
    const next = segments[index + 1];
    return next === undefined || next.lsn > snapshotLsn + 1;
  });
}
