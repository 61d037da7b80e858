import type { Engine } from '../engine.js';
import { ResourceInUseException, ValidationException } from '../errors/index.js';
import type { Region } from '../store/region.js';
import type { Table } from '../store/table.js';
import type { UpdateTableInput } from '../validations/updateTable.js';
import type { ReplicaGroup, ReplicaMember } from './replicaGroup.js';

/**
 * Which settings of a global table are the group's and which are each replica's
 * (docs/global-tables.md §2.6). "Changes to the following settings are synchronized to all
 * replicas: … global secondary indexes, on-demand maximum throughput, warm throughput, TTL …";
 * table class, encryption key, deletion protection, tags, resource policy, Contributor Insights,
 * Kinesis destinations and point-in-time recovery stay per replica
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html,
 * "Settings synchronization").
 */

/**
 * The service's texts for a global table busy with a change (the ack-api-quirks lab, 2026-10-09):
 * members of a global table answer UpdateTable and DeleteTable with a detail-free
 * ResourceInUseException (DDB-TABLE-444: "27 records, all in replica probes"), and a replica
 * action or TTL change while a replica is being added with a ValidationException (DDB-TABLE-442).
 */
export const GlobalTableBusyMessages = {
  inUse: 'The resource which you are attempting to change is in use.',
  replicaBeingAdded: (table: string, region: string) =>
    `Create/Update/Delete of replica is not allowed while the replica is being added to table with name: ‘${table}’ in region: ‘${region}’.`,
} as const;

/** The member a replica is being added as, if any (its status CREATING). */
function creatingMember(group: ReplicaGroup): ReplicaMember | undefined {
  for (const member of group.members.values()) if (member.settings.status === 'CREATING') return member;
  return undefined;
}

/** Refuses a replica action or a TTL change while a replica is being added (DDB-TABLE-442). */
export function checkNoReplicaBeingAdded(table: Table): void {
  const group = table.replication;
  if (group === undefined) return;
  const creating = creatingMember(group);
  if (creating !== undefined)
    throw new ValidationException(
      GlobalTableBusyMessages.replicaBeingAdded(table.name, creating.region.name),
    );
}

/**
 * A member of a global table changes only when it and every other member are ACTIVE: a change
 * of the group's settings reaches them all (DDB-TABLE-444's text, detail-free).
 */
export function checkGroupIdle(table: Table): void {
  const group = table.replication;
  if (group === undefined) return;
  for (const member of group.members.values())
    if (member.table.status !== 'ACTIVE' || member.settings.status !== 'ACTIVE')
      throw new ResourceInUseException(GlobalTableBusyMessages.inUse);
}

/**
 * The part of an UpdateTable the other replicas take: index creations, deletions and their
 * on-demand and warm throughput, the table's on-demand maximum and warm throughput. Undefined
 * when the call changes only this replica's own settings.
 */
export function groupPartOf(input: UpdateTableInput): UpdateTableInput | undefined {
  const indexUpdates = (input.GlobalSecondaryIndexUpdates ?? [])
    .map((entry) => {
      if (entry.Update === undefined) return entry;
      // A GSI's provisioned read capacity may differ per replica (its override); on demand
      // and warm throughput are the group's.
      const { ProvisionedThroughput: _own, ...shared } = entry.Update;
      return { Update: shared };
    })
    .filter((entry) => entry.Update === undefined || Object.keys(entry.Update).length > 1);
  const part: UpdateTableInput = { TableName: input.TableName };
  if (indexUpdates.length > 0) {
    part.GlobalSecondaryIndexUpdates = indexUpdates;
    if (input.AttributeDefinitions !== undefined) part.AttributeDefinitions = input.AttributeDefinitions;
  }
  if (input.OnDemandThroughput !== undefined) part.OnDemandThroughput = input.OnDemandThroughput;
  if (input.WarmThroughput !== undefined) part.WarmThroughput = input.WarmThroughput;
  return Object.keys(part).length > 1 ? part : undefined;
}

/** The other members of a table's global table, in the order they joined. */
export function otherMembers(region: Region, table: Table): ReplicaMember[] {
  const group = table.replication;
  if (group === undefined) return [];
  return [...group.members.values()].filter((member) => member.region.name !== region.name);
}

/**
 * Applies the group's part of a change to every other member and announces each, so a data
 * directory logs every member's new definition. The callers check every member before the named
 * table changes (a refused call changes nothing), so nothing here throws on a member's account.
 */
export function propagate(
  engine: Engine,
  members: readonly ReplicaMember[],
  apply: (member: ReplicaMember) => void,
): void {
  for (const member of members) {
    apply(member);
    engine.tableChanged(member.region, member.table, 'updated');
  }
}
