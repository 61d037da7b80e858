import { randomBytes } from 'node:crypto';
import type { ChangeEvent } from '../changeEvent.js';
import type { Engine, TableChange } from '../engine.js';
import { BackupMessages, TableNotFoundException } from '../errors/index.js';
import type { Region } from '../store/region.js';
import type { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import { itemsOf } from './pointInTime.js';
import type { ExportTarget, ImportSource } from './ports.js';
import { DAY_MS, type TableHistory } from './tableHistory.js';
import { schemaOf, type TableSchema } from './tableSchema.js';

/**
 * Backups, point-in-time recovery, exports and imports of one engine (docs/backups.md): the
 * catalog of backups, each table's PITR history, the export and import records, and the
 * background jobs that fill restored tables and write exports. `Engine.settled()` waits for
 * those jobs. Items are never copied: a backup keeps a frozen view of the table's items
 * (`ItemStore.freeze`), which later writes do not change.
 */

export type BackupStatus = 'CREATING' | 'AVAILABLE' | 'DELETED';
export type BackupType = 'USER' | 'SYSTEM' | 'AWS_BACKUP';

export interface BackupRecord {
  readonly arn: string;
  readonly name: string;
  readonly accountId: string;
  readonly regionName: string;
  readonly schema: TableSchema;
  readonly createdAt: number;
  status: BackupStatus;
  readonly type: BackupType;
  readonly itemCount: number;
  readonly sizeBytes: number;
  /** SYSTEM backups of deleted tables expire with the recovery period. */
  readonly expiresAt?: number;
  /** The items (frozen at the commit point, or read back from the data directory). */
  items: () => Iterable<StoredItem>;
  /** Restores reading it now. */
  restoring: number;
}

/** An export or import, as DescribeExport / DescribeImport answer it (wire members). */
export interface TransferRecord {
  readonly arn: string;
  readonly accountId: string;
  readonly regionName: string;
  readonly tableArn: string;
  readonly description: Record<string, unknown>;
  /** The request as sent, without its ClientToken (`requestFingerprint`): what a retry must match. */
  readonly request?: string;
}

/** What the data directory needs to hear to keep these records across restarts. */
export interface DataProtectionStore {
  /** Something changed: records, PITR settings or backups. */
  changed(protection: DataProtection): void;
  /** A backup was created: its items should be saved (resolve when durable). */
  saveBackup?(backup: BackupRecord): Promise<void>;
  deleteBackup?(backup: BackupRecord): void;
}

export class DataProtection {
  readonly backups = new Map<string, BackupRecord>();
  /** PITR histories of live tables, by table id. */
  readonly histories = new Map<string, TableHistory>();
  readonly exports = new Map<string, TransferRecord>();
  readonly imports = new Map<string, TransferRecord>();
  exportTarget: ExportTarget | undefined;
  importSource: ImportSource | undefined;
  store: DataProtectionStore | undefined;
  /** Where import errors are logged (eddy's log in place of CloudWatch Logs). */
  log: (line: string) => void = () => {};
  private readonly jobs = new Set<Promise<unknown>>();

  constructor(private readonly engine: Engine) {
    engine.onCommit((event) => this.onCommit(event));
    engine.onTableChange((change) => this.onTableChange(change));
    engine.addSettler(() => this.settled());
  }

  /** Resolves when no restore, export or import is running. */
  async settled(): Promise<void> {
    while (this.jobs.size > 0) await Promise.allSettled([...this.jobs]);
  }

  /** Runs background work; `settled()` waits for it. Errors are the job's to report. */
  track(job: Promise<unknown>): void {
    const tracked = job.catch(() => {}).finally(() => this.jobs.delete(tracked));
    this.jobs.add(tracked);
  }

  /** Forgets everything (the test kit's reset). */
  reset(): void {
    this.backups.clear();
    this.histories.clear();
    this.exports.clear();
    this.imports.clear();
  }

  changed(): void {
    this.store?.changed(this);
  }

  private onCommit(event: ChangeEvent): void {
    if (this.histories.size === 0) return;
    this.histories.get(event.table.tableId)?.record(event);
  }

  /**
   * A table with PITR on that is deleted leaves a SYSTEM backup, `<table>$DeletedTableBackup`, of
   * its items just before the deletion: "System backups allow you to restore the deleted table to
   * the state it was in just before the point of deletion", with RestoreTableFromBackup; "This
   * SYSTEM on-demand backup expires automatically 35 days after its creation"
   * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BackupDetails.html). The
   * deleted table cannot be restored to any other point in time ("You do not have the capability
   * to restore a deleted table to any other point in time in the past 35 days",
   * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/PointInTimeRecovery_Howitworks.html),
   * so its history goes. The backup is a backup like any other: the data directory keeps it.
   */
  private onTableChange({ region, table, kind }: TableChange): void {
    if (kind !== 'deleted') return;
    if (!this.histories.delete(table.tableId)) return;
    const now = this.engine.clock.now();
    // A start replaying the log meets deletions the data directory already recorded.
    for (const known of this.backups.values())
      if (known.type === 'SYSTEM' && known.schema.tableId === table.tableId && known.createdAt === now)
        return;
    const frozen = table.items.freeze();
    const backup: BackupRecord = {
      arn: `${table.arn}/backup/${newId(now)}`,
      name: `${table.name}$DeletedTableBackup`,
      accountId: region.accountId,
      regionName: region.name,
      schema: schemaOf(table),
      createdAt: now,
      status: 'AVAILABLE',
      type: 'SYSTEM',
      itemCount: frozen.count,
      sizeBytes: frozen.bytes,
      expiresAt: now + SYSTEM_BACKUP_DAYS * DAY_MS,
      items: () => itemsOf(frozen),
      restoring: 0,
    };
    this.backups.set(backup.arn, backup);
    void this.store?.saveBackup?.(backup);
    this.changed();
  }

  /** Drops the SYSTEM backups whose 35 days have passed. */
  expire(now: number): void {
    for (const [arn, backup] of this.backups)
      if (backup.expiresAt !== undefined && backup.expiresAt <= now) {
        this.backups.delete(arn);
        this.store?.deleteBackup?.(backup);
      }
  }
}

/** How long a deleted table's SYSTEM backup is kept (API_BackupDetails.html, above). */
export const SYSTEM_BACKUP_DAYS = 35;

/** `<14-digit epoch ms>-<8 hex>`: the shape of backup, export and import ids. */
export function newId(now: number): string {
  return `${String(Math.trunc(now)).padStart(14, '0')}-${randomBytes(4).toString('hex')}`;
}

/**
 * A table named by name or ARN (the `TableName` of backup operations accepts both). Missing
 * tables answer TableNotFoundException `Table not found: <what was given>`.
 */
export function findTable(region: Region, nameOrArn: string): Table {
  const table = tableByNameOrArn(region, nameOrArn);
  if (table === undefined) throw new TableNotFoundException(BackupMessages.tableNotFound(nameOrArn));
  return table;
}

export function tableByNameOrArn(region: Region, nameOrArn: string): Table | undefined {
  if (!nameOrArn.startsWith('arn:')) return region.tables.get(nameOrArn);
  const match = /^arn:[^:]+:dynamodb:([^:]*):([^:]*):table\/([^/]+)$/.exec(nameOrArn);
  if (match === null || match[1] !== region.name || match[2] !== region.accountId) return undefined;
  return region.tables.get(match[3]!);
}

/** The ARN prefix of a region's resources: listings show only the caller's region. */
export function regionPrefix(region: Region): string {
  return `arn:aws:dynamodb:${region.name}:${region.accountId}:`;
}
