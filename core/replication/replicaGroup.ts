import type { ChangeEvent } from '../changeEvent.js';
import type { Region } from '../store/region.js';
import type { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import type { ExtractedKey } from '../validations/keys.js';

/**
 * A global table, version 2019.11.21 (docs/global-tables.md): the tables of one name in several
 * regions of one account, each a replica of the others. Every member table points at its group
 * (`Table.replication`); a regional table has none, so the commit point pays one field check.
 */

export type ReplicaStatus = 'CREATING' | 'UPDATING' | 'DELETING' | 'ACTIVE';

/** What one replica overrides of the table's settings (API_ReplicaDescription). */
export interface ReplicaSettings {
  status: ReplicaStatus;
  /** The replica's KMS key, as a full ARN of its region, when the group uses a customer key. */
  kmsMasterKeyId: string | undefined;
  /** ProvisionedThroughputOverride: read capacity only (API_ProvisionedThroughputOverride). */
  readCapacityOverride: number | undefined;
  /** OnDemandThroughputOverride: read maximum only (API_OnDemandThroughputOverride). */
  maxReadRequestUnitsOverride: number | undefined;
  /** Per-index overrides by index name (API_ReplicaGlobalSecondaryIndexDescription). */
  readonly indexOverrides: Map<string, IndexOverride>;
  tableClassOverride: string | undefined;
  /** When this replica last acted as the source of a new replica (the 24-hour rule). */
  sourcedAt: Map<string, number>;
}

export interface IndexOverride {
  readCapacityOverride: number | undefined;
  maxReadRequestUnitsOverride: number | undefined;
}

export interface ReplicaMember {
  readonly region: Region;
  readonly table: Table;
  readonly settings: ReplicaSettings;
}

/**
 * Which write of an item wins: later commit time, then a counter for writes of one millisecond,
 * then the region name, so every replica picks the same winner whatever the arrival order
 * ("last writer wins", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html).
 */
export interface WriteStamp {
  readonly at: number;
  readonly counter: number;
  readonly region: string;
}

export function laterThan(a: WriteStamp, b: WriteStamp): boolean {
  if (a.at !== b.at) return a.at > b.at;
  if (a.counter !== b.counter) return a.counter > b.counter;
  return a.region > b.region;
}

/** A replicated write on its way to one replica. */
export interface Delivery {
  readonly group: ReplicaGroup;
  readonly to: string;
  readonly key: ExtractedKey;
  readonly itemKey: string;
  readonly next: StoredItem | undefined;
  readonly stamp: WriteStamp;
  readonly dueAt: number;
}

/** Where a group sends what its members commit (the engine's `Replication`). */
export interface DeliverySink {
  send(group: ReplicaGroup, from: string, key: ExtractedKey, event: ChangeEvent, stamp: WriteStamp): void;
}

export function newReplicaSettings(status: ReplicaStatus): ReplicaSettings {
  return {
    status,
    kmsMasterKeyId: undefined,
    readCapacityOverride: undefined,
    maxReadRequestUnitsOverride: undefined,
    indexOverrides: new Map(),
    tableClassOverride: undefined,
    sourcedAt: new Map(),
  };
}

export class ReplicaGroup {
  /** Members by region name, in the order they joined (the order `Replicas` lists them). */
  readonly members = new Map<string, ReplicaMember>();
  /**
   * The stamp of the last write each replica applied, per item: kept only for global tables
   * (tombstones included, so a late write cannot bring a deleted item back).
   */
  private readonly stamps = new Map<string, Map<string, WriteStamp>>();
  /** True while a replicated write is being committed: its change event is not sent on. */
  private applying = false;

  constructor(private readonly sink: DeliverySink) {}

  join(region: Region, table: Table, settings: ReplicaSettings): void {
    this.members.set(region.name, { region, table, settings });
    table.replication = this;
    if (!this.stamps.has(region.name)) this.stamps.set(region.name, new Map());
  }

  /** The replica leaves; a group left with one member dissolves (the table is regional again). */
  leave(regionName: string): void {
    const member = this.members.get(regionName);
    if (member === undefined) return;
    this.members.delete(regionName);
    this.stamps.delete(regionName);
    if (member.table.replication === this) member.table.replication = undefined;
    if (this.members.size === 1) {
      for (const last of this.members.values()) {
        last.table.replication = undefined;
        this.stamps.delete(last.region.name);
      }
      this.members.clear();
    }
  }

  /**
   * Whether this replica runs TTL deletions for the group: the first member does (the one the
   * others were made from), so one item is deleted once and replicated, never twice.
   */
  deletesExpiredItems(table: Table): boolean {
    for (const member of this.members.values()) return member.table === table;
    return false;
  }

  member(regionName: string): ReplicaMember | undefined {
    return this.members.get(regionName);
  }

  /**
   * Called by the commit point for every change of a member table. A local write is stamped and
   * sent to every other replica; a replicated write (being applied) goes no further, so writes
   * never travel back to where they came from.
   */
  onCommit(region: Region, key: ExtractedKey, event: ChangeEvent): void {
    if (this.applying) return;
    const stamps = this.stamps.get(region.name);
    if (stamps === undefined) return;
    const previous = stamps.get(event.itemKey);
    const at = Math.max(event.at, previous?.at ?? 0);
    const stamp: WriteStamp = {
      at,
      counter: previous !== undefined && previous.at === at ? previous.counter + 1 : 0,
      region: region.name,
    };
    stamps.set(event.itemKey, stamp);
    this.sink.send(this, region.name, key, event, stamp);
  }

  /**
   * Applies a replicated write to one replica if it is later than what that replica holds
   * (last writer wins). `commit` is the engine's commit point.
   */
  apply(
    delivery: Delivery,
    commit: (region: Region, table: Table, key: ExtractedKey, next: StoredItem | undefined) => void,
  ): void {
    const member = this.members.get(delivery.to);
    const stamps = this.stamps.get(delivery.to);
    if (member === undefined || stamps === undefined) return;
    const held = stamps.get(delivery.itemKey);
    if (held !== undefined && !laterThan(delivery.stamp, held)) return;
    stamps.set(delivery.itemKey, delivery.stamp);
    this.applying = true;
    try {
      commit(member.region, member.table, delivery.key, delivery.next);
    } finally {
      this.applying = false;
    }
  }

  /** Copies a stamp map when a new replica is filled from its source. */
  copyStamps(from: string, to: string): void {
    this.stamps.set(to, new Map(this.stamps.get(from)));
  }

  /** Runs `work` with replication muted (a new replica's backfill is not sent back). */
  muted(work: () => void): void {
    const was = this.applying;
    this.applying = true;
    try {
      work();
    } finally {
      this.applying = was;
    }
  }
}
