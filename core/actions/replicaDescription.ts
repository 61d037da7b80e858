import type { ReplicaGroup, ReplicaMember } from '../replication/replicaGroup.js';
import type { Table } from '../store/table.js';

/**
 * DescribeTable's `GlobalTableVersion` and `Replicas` for a replica of a global table
 * (docs/global-tables.md §2.1): every member, the local one too, in the order they joined.
 * Overrides appear only when set: "absent when inherited" (recorded 2026).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ReplicaDescription.html
 */
export const GLOBAL_TABLE_VERSION = '2019.11.21';

export function replicaMembers(table: Table, description: Record<string, unknown>): void {
  const group = table.replication;
  if (group === undefined) return;
  description.GlobalTableVersion = GLOBAL_TABLE_VERSION;
  description.Replicas = replicaDescriptions(group, table);
}

export function replicaDescriptions(group: ReplicaGroup, table: Table): Record<string, unknown>[] {
  return [...group.members.values()].map((member) => replicaDescription(member, table));
}

function replicaDescription(member: ReplicaMember, table: Table): Record<string, unknown> {
  const { settings } = member;
  const description: Record<string, unknown> = {
    RegionName: member.region.name,
    ReplicaStatus: settings.status,
  };
  if (settings.kmsMasterKeyId !== undefined) description.KMSMasterKeyId = settings.kmsMasterKeyId;
  if (settings.readCapacityOverride !== undefined)
    description.ProvisionedThroughputOverride = { ReadCapacityUnits: settings.readCapacityOverride };
  if (settings.maxReadRequestUnitsOverride !== undefined)
    description.OnDemandThroughputOverride = { MaxReadRequestUnits: settings.maxReadRequestUnitsOverride };
  if (table.globalSecondaryIndexes.size > 0)
    description.GlobalSecondaryIndexes = [...table.globalSecondaryIndexes.keys()].map((name) => {
      const override = settings.indexOverrides.get(name);
      const index: Record<string, unknown> = { IndexName: name };
      if (override?.readCapacityOverride !== undefined)
        index.ProvisionedThroughputOverride = { ReadCapacityUnits: override.readCapacityOverride };
      if (override?.maxReadRequestUnitsOverride !== undefined)
        index.OnDemandThroughputOverride = { MaxReadRequestUnits: override.maxReadRequestUnitsOverride };
      return index;
    });
  if (settings.tableClassOverride !== undefined)
    description.ReplicaTableClassSummary = { TableClass: settings.tableClassOverride };
  return description;
}
