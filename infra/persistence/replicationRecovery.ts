import type { Engine } from '../../core/engine.js';
import type { AttributeMap } from '../../core/model/attributeValue.js';
import { itemKeyOf } from '../../core/model/keyCodec.js';
import type { ReplicaGroup } from '../../core/replication/replicaGroup.js';
import type { Table } from '../../core/store/table.js';
import { type ExtractedKey, extractKey } from '../../core/validations/keys.js';
import { rememberedAsReplica } from './replicaCodec.js';

/**
 * Replicated writes still waiting for the lag when eddy was killed (docs/global-tables.md §7).
 * They are not in the log as such, but the writes they carry are: recovery notes, per member
 * table, the LSN of the last logged write of each item replayed after the snapshot
 * (`noteReplayedWrite`); once the groups are linked, each such item of a global table is sent
 * from the member whose write of it is the latest in the log (one log orders every region's
 * commits) to every member that holds something else (`redeliverAfterRecovery`). A member that
 * already holds the same item gets nothing: a delivery applied before the kill is not applied
 * twice, and one refused by last-writer-wins stays refused.
 */
interface Written {
  readonly key: ExtractedKey;
  readonly lsn: number;
}

const written = new WeakMap<Table, Map<string, Written>>();

/**
 * For a snapshot's table definition: the keys of the table's writes still waiting for the lag
 * (they are older than the log the next start replays), none for a regional table.
 */
export function pendingReplicationOf(
  engine: Engine,
  regionName: string,
  table: Table,
): { replicationPending?: string[] } {
  const group = table.replication;
  if (group === undefined) return {};
  const keys = engine.replication.pendingFrom(group, regionName);
  return keys.length === 0 ? {} : { replicationPending: keys.map((key) => JSON.stringify(key.keys)) };
}

/**
 * Keys a snapshot says were waiting: noted as written before any write the log replays (LSN 0),
 * so a later write of the item, in any replica, wins over them.
 */
export function rememberPendingReplication(table: Table, keys: readonly string[] | undefined): void {
  if (keys === undefined || keys.length === 0) return;
  let map = written.get(table);
  if (map === undefined) written.set(table, (map = new Map()));
  for (const text of keys) {
    const key = extractKey(JSON.parse(text) as AttributeMap, table.key);
    const itemKey = itemKeyOf(key.hashKey, key.rangeKey);
    if (!map.has(itemKey)) map.set(itemKey, { key, lsn: 0 });
  }
}

/** Called by log replay for every write of a commit record (cheap for regional tables: one lookup). */
export function noteReplayedWrite(table: Table, key: ExtractedKey, lsn: number): void {
  if (!rememberedAsReplica(table)) return;
  let map = written.get(table);
  if (map === undefined) written.set(table, (map = new Map()));
  map.set(itemKeyOf(key.hashKey, key.rangeKey), { key, lsn });
}

/** Queues the deliveries a kill cut short; answers how many. Run once the engine logs commits. */
export function redeliverAfterRecovery(engine: Engine): number {
  const groups = new Set<ReplicaGroup>();
  for (const region of engine.allRegions())
    for (const table of region.tables.values())
      if (table.replication !== undefined) groups.add(table.replication);
  let queued = 0;
  for (const group of groups) {
    const members = [...group.members.values()];
    const keys = new Map<string, ExtractedKey>();
    for (const member of members)
      for (const [itemKey, entry] of written.get(member.table) ?? []) keys.set(itemKey, entry.key);
    for (const [itemKey, key] of keys) {
      let winner = members[0]!;
      let latest = -1;
      for (const member of members) {
        const lsn = written.get(member.table)?.get(itemKey)?.lsn ?? -1;
        if (lsn > latest) {
          latest = lsn;
          winner = member;
        }
      }
      const held = winner.table.items.get(key.hashKey, key.rangeKey);
      for (const member of members) {
        if (member === winner) continue;
        if (member.table.items.get(key.hashKey, key.rangeKey)?.json === held?.json) continue;
        engine.replication.redeliver(group, winner.region.name, member.region.name, key, itemKey, held);
        queued++;
      }
    }
  }
  for (const member of [...groups].flatMap((group) => [...group.members.values()]))
    written.delete(member.table);
  return queued;
}
