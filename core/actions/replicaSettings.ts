import type { Engine } from '../engine.js';
import type { ReplicaMember } from '../replication/replicaGroup.js';
import { groupPartOf, otherMembers, propagate } from '../replication/settingsPropagation.js';
import type { Region } from '../store/region.js';
import type { Table } from '../store/table.js';
import type { UpdateTableInput } from '../validations/updateTable.js';
import {
  applyGlobalIndexUpdates,
  type GlobalIndexPlan,
  planGlobalIndexUpdates,
} from './globalIndexUpdates.js';
import { afterTransientDelay, markTableActive } from './tableLifecycle.js';
import { onDemandOf, warmOf } from './tableSettings.js';

/**
 * The other replicas' side of an UpdateTable of a global table (docs/global-tables.md §2.6):
 * the group's part of the change (indexes, on-demand maximum, warm throughput) is checked
 * against every other member, then applied to each as to the table named: UPDATING, new indexes
 * backfilled from the replica's own items, ACTIVE after the transient delay.
 *
 * Returns what to run once the call's own checks have passed, or undefined when the call changes
 * only the named replica.
 */
export function planReplicaSettings(
  engine: Engine,
  region: Region,
  table: Table,
  input: UpdateTableInput,
): (() => void) | undefined {
  const part = groupPartOf(input);
  const members = otherMembers(region, table);
  if (part === undefined || members.length === 0) return undefined;
  // Every member is checked now, before the named table changes: a refused call changes nothing.
  const plans = new Map<ReplicaMember, GlobalIndexPlan>();
  for (const member of members)
    plans.set(member, planGlobalIndexUpdates(member.table, part, true, undefined));
  return () =>
    propagate(engine, members, (member) => applyGroupPart(engine, member, part, plans.get(member)!));
}

function applyGroupPart(
  engine: Engine,
  member: ReplicaMember,
  part: UpdateTableInput,
  plan: GlobalIndexPlan,
): void {
  const replica = member.table;
  const now = () => engine.clock.now();
  const completions: (() => void)[] = [];
  applyGlobalIndexUpdates(replica, part, plan, undefined, now, completions, (index) =>
    engine.indexes.backfill(replica, index),
  );
  const onDemand = onDemandOf(part.OnDemandThroughput);
  if (onDemand !== undefined) replica.onDemandThroughput = onDemand;
  const warm = warmOf(part.WarmThroughput);
  if (warm !== undefined) replica.warmThroughput = warm;
  replica.status = 'UPDATING';
  afterTransientDelay(
    engine,
    replica,
    () => {
      for (const complete of completions) complete();
      markTableActive(replica);
    },
    member.region,
  );
}
