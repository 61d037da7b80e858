import { closeSync, fsyncSync, ftruncateSync, openSync, rmSync, statSync } from 'node:fs';
import { TTL_PRINCIPAL } from '../../core/changeEvent.js';
import type { Engine, ItemWrite } from '../../core/engine.js';
import { putEntry } from '../../core/indexes/maintenance.js';
import type { AttributeMap } from '../../core/model/attributeValue.js';
import { applyCheckpoint, type CheckpointMap } from '../../core/persistence/checkpointStore.js';
import type { Region } from '../../core/store/region.js';
import { StoredItem } from '../../core/store/storedItem.js';
import type { Table } from '../../core/store/table.js';
import { extractKey } from '../../core/validations/keys.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import { BinaryReader } from './binary.js';
import type { DataDirectory, LsnFile } from './dataDirectory.js';
import { CorruptDataError, IncompleteDataError } from './errors.js';
import { FrameReader } from './frameReader.js';
import type { ReplayableClock } from './replayableClock.js';
import { loadSnapshot } from './snapshotReader.js';
import { applyTableDefinition } from './tableCodec.js';
import { readWalRecord, type TokenEntry, type WalRecord, walProbe } from './walRecords.js';

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
  /** A torn tail dropped from the last segment: where, and how many bytes. */
  readonly truncated: { readonly file: string; readonly offset: number; readonly bytes: number } | undefined;
  /** The last segment, to keep appending to. */
  readonly tail: { readonly path: string; readonly bytes: number } | undefined;
  readonly ms: number;
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
 * A torn last record is dropped and the segment truncated; any other damage stops recovery with
 * the file and offset; a history with a hole (no snapshot and a log not starting at LSN 1, a
 * segment missing) stops it too.
 */
export function recover(target: RecoveryTarget): RecoveryReport {
  const started = performance.now();
  const { directory, engine, clock, changeLog } = target;
  directory.removeUnfinishedSnapshots();
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
  const segments = relevantSegments(directory, snapshotLsn);
  let lastLsn = snapshotLsn;
  let replayed = 0;
  let truncated: RecoveryReport['truncated'];
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (segment.lsn > lastLsn + 1)
      throw new IncompleteDataError(
        directory.path,
        `records ${lastLsn + 1} to ${segment.lsn - 1} are missing (the log resumes in ${segment.path})`,
      );
    const reader = new FrameReader(
      segment.path,
      walProbe(() => lastLsn),
    );
    try {
      for (let frame = reader.next(); frame !== undefined; frame = reader.next()) {
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
          apply(target, record);
        } catch (error) {
          if (error instanceof CorruptDataError) throw error;
          throw new CorruptDataError(
            segment.path,
            frame.offset,
            `replaying LSN ${record.lsn}: ${(error as Error).message}`,
            {
              cause: error,
            },
          );
        }
        lastLsn = record.lsn;
        replayed++;
      }
    } finally {
      reader.close();
    }
    const problem = reader.problem;
    if (problem === undefined) continue;
    // A torn tail is the end of the history: the last segment's, or one whose later segments
    // hold nothing yet (a machine crash right after a new segment was started).
    const later = segments.slice(index + 1);
    if (problem.kind === 'corrupt' || later.some((file) => sizeOf(file.path) > 0))
      throw new CorruptDataError(segment.path, problem.offset, problem.reason);
    truncated = { file: segment.path, offset: problem.offset, bytes: reader.size - problem.offset };
    truncate(segment.path, problem.offset);
    for (const file of later) rmSync(file.path);
    segments.length = index + 1;
    break;
  }
  rebuildIndexes(engine);
  const last = segments.at(-1);
  const tail =
    last === undefined
      ? undefined
      : { path: last.path, bytes: truncated?.file === last.path ? truncated.offset : sizeOf(last.path) };
  return {
    snapshotLsn,
    lastLsn,
    replayed,
    snapshotItems,
    snapshotRecords,
    truncated,
    tail,
    ms: performance.now() - started,
  };
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

function apply(target: RecoveryTarget, record: WalRecord): void {
  const { engine, clock } = target;
  switch (record.kind) {
    case 'table': {
      const region = engine.region(record.accountId, record.region);
      clock.at(record.at, () => applyTable(engine, region, record));
      return;
    }
    case 'commit': {
      const region = engine.region(record.accountId, record.region);
      const entries = record.writes.map((write) => ({
        table: tableOf(region, write.tableName, write.tableId),
        write: itemWrite(write, region),
      }));
      clock.at(record.at, () => engine.commitAcross(region, entries, record.ttl ? TTL_PRINCIPAL : undefined));
      rememberTokens(region, record.tokens);
      return;
    }
    case 'token':
      rememberTokens(engine.region(record.accountId, record.region), [record.entry]);
      return;
    case 'checkpoint':
      applyCheckpoint(target.checkpoints, record.mappingId, record.shardId, record.sequenceNumber);
      return;
  }
}

function applyTable(engine: Engine, region: Region, record: Extract<WalRecord, { kind: 'table' }>): void {
  const { definition } = record;
  if (record.change === 'deleted') {
    const table = region.tables.get(definition.name);
    if (table === undefined || table.tableId !== definition.tableId) return;
    region.tables.delete(definition.name);
    engine.tableChanged(region, table, 'deleted');
    return;
  }
  const label = definition.stream?.label;
  const lastLabel = region.lastStreamLabels.get(definition.name);
  if (label !== undefined && (lastLabel === undefined || label > lastLabel))
    region.lastStreamLabels.set(definition.name, label);
  engine.tableChanged(region, applyTableDefinition(region, definition), record.change);
}

function tableOf(region: Region, name: string, tableId: string): Table {
  const table = region.tables.get(name);
  if (table === undefined || table.tableId !== tableId)
    throw new Error(`a commit to table ${name} (${tableId}), which does not exist at that point`);
  return table;
}

function itemWrite(
  write: Extract<WalRecord, { kind: 'commit' }>['writes'][number],
  region: Region,
): ItemWrite {
  const table = tableOf(region, write.tableName, write.tableId);
  const key = extractKey(JSON.parse(write.keys) as AttributeMap, table.key);
  const previous = table.items.get(key.hashKey, key.rangeKey);
  // The log says what the item was: a different item means the history does not add up.
  if (previous?.json !== write.old?.json)
    throw new Error(`the item ${write.keys} of ${write.tableName} is not what the record says it was`);
  const next = write.next === undefined ? undefined : new StoredItem(write.next.json, write.next.size);
  return { key, previous, next };
}

function rememberTokens(region: Region, tokens: readonly TokenEntry[]): void {
  for (const { token, fingerprint, completedAt } of tokens)
    region.transactionTokens.set(token, { fingerprint, completedAt });
}

/** Index entries are derived data: each index is filled again from its table's items. */
export function rebuildIndexes(engine: Engine): void {
  for (const region of engine.allRegions()) {
    for (const table of region.tables.values()) {
      for (const index of table.secondaryIndexes()) {
        index.items.clear();
        for (const { item } of table.items.unordered()) putEntry(table, index, item.decode(), item);
      }
    }
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

function sizeOf(path: string): number {
  return statSync(path).size;
}
