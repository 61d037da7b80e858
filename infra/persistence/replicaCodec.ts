import type { Engine } from '../../core/engine.js';
import {
  newReplicaSettings,
  type ReplicaSettings,
  type ReplicaStatus,
} from '../../core/replication/replicaGroup.js';
import type { Table } from '../../core/store/table.js';

/**
 * A global table's members as each member table's definition keeps them
 * (docs/global-tables.md §7): every member of the group in the order they joined, this table
 * included, with its settings. Groups are linked again only after recovery has replayed the log
 * (`linkReplicas`): a replayed commit must not be replicated a second time.
 */
export interface ReplicaDefinition {
  readonly regionName: string;
  readonly status: ReplicaStatus;
  readonly kmsMasterKeyId?: string;
  readonly readCapacityOverride?: number;
  readonly maxReadRequestUnitsOverride?: number;
  readonly indexOverrides: [
    string,
    { readCapacityOverride?: number; maxReadRequestUnitsOverride?: number },
  ][];
  readonly tableClassOverride?: string;
  readonly sourcedAt: [string, number][];
}

export function replicaDefinitions(table: Table): ReplicaDefinition[] | undefined {
  const group = table.replication;
  if (group === undefined) return undefined;
  return [...group.members.values()].map(({ region, settings }) => ({
    regionName: region.name,
    status: settings.status,
    kmsMasterKeyId: settings.kmsMasterKeyId,
    readCapacityOverride: settings.readCapacityOverride,
    maxReadRequestUnitsOverride: settings.maxReadRequestUnitsOverride,
    indexOverrides: [...settings.indexOverrides].map(([name, override]) => [name, { ...override }]),
    tableClassOverride: settings.tableClassOverride,
    sourcedAt: [...settings.sourcedAt],
  }));
}

/** Replica lists read back, waiting for `linkReplicas`. */
const pending = new WeakMap<Table, readonly ReplicaDefinition[] | undefined>();

export function rememberReplicas(table: Table, definitions: readonly ReplicaDefinition[] | undefined): void {
  pending.set(table, definitions);
}

/** Whether a table read back was a member of a global table (its group is linked later). */
export function rememberedAsReplica(table: Table): boolean {
  return (pending.get(table)?.length ?? 0) > 1;
}

function settingsOf(definition: ReplicaDefinition): ReplicaSettings {
  const settings = newReplicaSettings(definition.status);
  settings.kmsMasterKeyId = definition.kmsMasterKeyId;
  settings.readCapacityOverride = definition.readCapacityOverride;
  settings.maxReadRequestUnitsOverride = definition.maxReadRequestUnitsOverride;
  for (const [name, override] of definition.indexOverrides)
    settings.indexOverrides.set(name, {
      readCapacityOverride: override.readCapacityOverride,
      maxReadRequestUnitsOverride: override.maxReadRequestUnitsOverride,
    });
  settings.tableClassOverride = definition.tableClassOverride;
  for (const [region, at] of definition.sourcedAt) settings.sourcedAt.set(region, at);
  return settings;
}

/**
 * Links every recovered global table: a group per replica list, joined by the member tables
 * that exist (a replica whose table is gone is left out; a group of one is a regional table).
 */
export function linkReplicas(engine: Engine): void {
  for (const region of engine.allRegions()) {
    for (const table of region.tables.values()) {
      const definitions = pending.get(table);
      pending.delete(table);
      if (definitions === undefined || table.replication !== undefined) continue;
      const members = definitions.flatMap((definition) => {
        const memberRegion = engine.region(region.accountId, definition.regionName);
        const memberTable = memberRegion.tables.get(table.name);
        return memberTable === undefined || memberTable.replication !== undefined
          ? []
          : [{ region: memberRegion, table: memberTable, definition }];
      });
      if (members.length < 2) continue;
      const group = engine.replication.newGroup();
      for (const member of members) {
        group.join(member.region, member.table, settingsOf(member.definition));
        pending.delete(member.table);
      }
    }
  }
}
