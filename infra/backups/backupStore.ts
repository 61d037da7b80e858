import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type {
  BackupRecord,
  DataProtection,
  DataProtectionStore,
  TransferRecord,
} from '../../core/backups/dataProtection.js';
import { type HistoryEntries, TableHistory } from '../../core/backups/tableHistory.js';
import type { TableSchema } from '../../core/backups/tableSchema.js';
import type { Engine } from '../../core/engine.js';
import { StoredItem } from '../../core/store/storedItem.js';
import type { PersistenceLogger } from '../persistence/persistenceLog.js';
import { itemLines, readItems, readLines, writeFileDurably, writeLinesDurably } from './backupFiles.js';

/**
 * Keeps backups, point-in-time recovery and the export and import records in the data directory
 * (`<data dir>/backups/`, docs/backups.md §8):
 *
 * - `state.json`: the catalog (backups without their items, each table's PITR setting, export
 *   and import records), rewritten a turn after anything changes.
 * - `items/<backup id>`: a backup's items, written in the background after CreateBackup (the
 *   backup is CREATING until they are durable, then AVAILABLE).
 * - `history/<LSN>`: the PITR histories as they were at the snapshot of that LSN. A start loads
 *   the snapshot's, and the replay of the log after the snapshot adds the later changes through
 *   the commit point, so the history comes back whole. Without it (a crash between the snapshot
 *   and its history), a table's window starts again at its first replayed change.
 */
export class BackupStore implements DataProtectionStore {
  private readonly protection: DataProtection;
  private readonly engine: Engine;
  private stateQueued = false;
  private readonly writes = new Set<Promise<void>>();
  private closed = false;

  private constructor(
    engine: Engine,
    private readonly directory: string,
    private readonly logger: PersistenceLogger,
  ) {
    this.engine = engine;
    this.protection = engine.dataProtection;
  }

  /**
   * Loads the catalog before the data directory's log is replayed: the PITR histories must be in
   * place to record the replayed changes. Call `recovered` once the log is replayed.
   */
  static open(engine: Engine, directory: string, logger: PersistenceLogger): BackupStore {
    const store = new BackupStore(engine, directory, logger);
    mkdirSync(join(directory, 'items'), { recursive: true });
    mkdirSync(join(directory, 'history'), { recursive: true });
    store.load();
    engine.dataProtection.store = store;
    return store;
  }

  private get statePath(): string {
    return join(this.directory, 'state.json');
  }

  private itemsPath(backup: { arn: string }): string {
    return join(this.directory, 'items', backup.arn.slice(backup.arn.lastIndexOf('/') + 1));
  }

  private load(): void {
    if (!existsSync(this.statePath)) return;
    const state = JSON.parse(readFileSync(this.statePath, 'utf8')) as SavedState;
    if (state?.version !== 1) throw new Error(`${this.statePath} is not a backups state file eddy can read`);
    const protection = this.protection;
    for (const saved of state.pitr)
      protection.histories.set(saved.tableId, new TableHistory(saved.enabledAt, saved.periodDays));
    for (const saved of state.backups) {
      const path = this.itemsPath(saved);
      if (!existsSync(path)) {
        // Created, but the process stopped before its items were durable: it never was.
        this.logger.warn(
          { backupArn: saved.arn },
          'backup dropped: its items were not saved before eddy stopped',
        );
        continue;
      }
      protection.backups.set(saved.arn, {
        ...saved,
        status: 'AVAILABLE',
        items: () => readItems(path),
        restoring: 0,
      });
    }
    const interrupted = (record: TransferRecord, status: 'ExportStatus' | 'ImportStatus') => {
      if (record.description[status] !== 'IN_PROGRESS') return record;
      return {
        ...record,
        description: {
          ...record.description,
          [status]: 'FAILED',
          FailureCode: 'UNKNOWN',
          FailureMessage: 'eddy stopped before this finished',
        },
      };
    };
    for (const record of state.exports)
      protection.exports.set(record.arn, interrupted(record, 'ExportStatus'));
    for (const record of state.imports)
      protection.imports.set(record.arn, interrupted(record, 'ImportStatus'));
  }

  /**
   * The log is replayed up to the data directory's state: each history gets its changes up to
   * the snapshot (from `history/<snapshotLsn>`) in front of the replayed ones.
   */
  recovered(snapshotLsn: number): void {
    const path = join(this.directory, 'history', String(snapshotLsn));
    const saved = new Map<string, HistoryEntries & { times: number[] }>();
    const whole = snapshotLsn === 0 || existsSync(path);
    if (snapshotLsn !== 0 && whole)
      for (const line of readLines(path)) {
        if (line === '') continue;
        const [tableId, at, key, oldJson, oldSize, newJson, newSize] = JSON.parse(line) as SavedChange;
        let entries = saved.get(tableId);
        if (entries === undefined)
          saved.set(tableId, (entries = { times: [], keys: [], olds: [], news: [] }));
        entries.times.push(at);
        (entries.keys as string[]).push(key);
        (entries.olds as (StoredItem | null)[]).push(
          oldJson === null ? null : new StoredItem(oldJson, oldSize),
        );
        (entries.news as (StoredItem | null)[]).push(
          newJson === null ? null : new StoredItem(newJson, newSize),
        );
      }
    const now = this.engine.clock.now();
    for (const [tableId, replayed] of this.protection.histories) {
      const later = replayed.copy();
      let enabledAt = replayed.enabledAt;
      if (!whole) {
        // Changes up to the snapshot are unknown: only times from the first replayed change on
        // have every later change (times never decrease along the log).
        const floor = later.times[0] ?? now;
        if (floor > enabledAt) {
          this.logger.warn(
            { tableId, restorableFrom: new Date(floor).toISOString() },
            'point-in-time history before the last snapshot was not saved; the window starts later',
          );
          enabledAt = floor;
        }
      }
      const history = new TableHistory(enabledAt, replayed.periodDays);
      for (const entries of [saved.get(tableId), later])
        if (entries !== undefined)
          for (let at = 0; at < entries.times.length; at++)
            history.append(entries.times[at]!, entries.keys[at]!, entries.olds[at]!, entries.news[at]!);
      this.protection.histories.set(tableId, history);
    }
    this.changed();
  }

  /** A snapshot of `lsn` is being taken: the histories now are the ones that go with it. */
  snapshotTaken(lsn: number): void {
    const histories = [...this.protection.histories].map(([tableId, history]) => ({
      tableId,
      entries: history.copy(),
    }));
    const folder = join(this.directory, 'history');
    this.track(
      writeLinesDurably(join(folder, String(lsn)), historyLines(histories)).then(() => {
        for (const name of readdirSync(folder))
          if (name !== String(lsn) && !name.endsWith('.tmp') && Number(name) < lsn)
            rmSync(join(folder, name), { force: true });
      }),
    );
  }

  changed(): void {
    if (this.stateQueued || this.closed) return;
    this.stateQueued = true;
    setImmediate(() => {
      this.stateQueued = false;
      this.saveState();
    });
  }

  saveBackup(backup: BackupRecord): Promise<void> {
    const job = writeLinesDurably(this.itemsPath(backup), itemLines(backup.items())).then(() => {
      const path = this.itemsPath(backup);
      // Read back from the file from now on: the frozen copy is let go.
      backup.items = () => readItems(path);
    });
    this.track(job);
    return job;
  }

  deleteBackup(backup: BackupRecord): void {
    rmSync(this.itemsPath(backup), { force: true });
  }

  /** Waits for the files being written and saves the catalog a last time. */
  async close(): Promise<void> {
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
    this.saveState();
    this.closed = true;
  }

  private track(job: Promise<void>): void {
    const tracked = job
      .catch((error: unknown) => this.logger.error({ err: error }, 'backups: a file could not be written'))
      .finally(() => this.writes.delete(tracked));
    this.writes.add(tracked);
  }

  private saveState(): void {
    const protection = this.protection;
    const state: SavedState = {
      version: 1,
      pitr: [...protection.histories].map(([tableId, history]) => ({
        tableId,
        enabledAt: history.enabledAt,
        periodDays: history.periodDays,
      })),
      backups: [...protection.backups.values()].map(
        ({ items: _, restoring: __, status: ___, ...saved }) => saved,
      ),
      exports: [...protection.exports.values()],
      imports: [...protection.imports.values()],
    };
    try {
      writeFileDurably(this.statePath, JSON.stringify(state));
    } catch (error) {
      this.logger.error({ err: error }, 'backups: state.json could not be written');
    }
  }
}

interface SavedState {
  readonly version: 1;
  readonly pitr: readonly { tableId: string; enabledAt: number; periodDays: number }[];
  readonly backups: readonly (Omit<BackupRecord, 'items' | 'restoring' | 'status'> & {
    schema: TableSchema;
  })[];
  readonly exports: readonly TransferRecord[];
  readonly imports: readonly TransferRecord[];
}

/** `[tableId, at, itemKey, old json, old size, new json, new size]`, one change a line. */
type SavedChange = [string, number, string, string | null, number, string | null, number];

function* historyLines(
  histories: readonly { tableId: string; entries: HistoryEntries }[],
): Generator<string> {
  for (const { tableId, entries } of histories)
    for (let at = 0; at < entries.times.length; at++) {
      const old = entries.olds[at]!;
      const next = entries.news[at]!;
      yield JSON.stringify([
        tableId,
        entries.times[at]!,
        entries.keys[at]!,
        old?.json ?? null,
        old?.size ?? 0,
        next?.json ?? null,
        next?.size ?? 0,
      ] satisfies SavedChange);
    }
}
