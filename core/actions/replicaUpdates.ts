import { randomUUID } from 'node:crypto';
import type { Engine, ItemWrite } from '../engine.js';
import { ValidationException } from '../errors/index.js';
import { partitionScanKey } from '../model/keyCodec.js';
import {
  newReplicaSettings,
  type ReplicaGroup,
  type ReplicaMember,
  type ReplicaSettings,
} from '../replication/replicaGroup.js';
import type { IndexEntry } from '../store/indexEntry.js';
import { ItemStore } from '../store/itemStore.js';
import type { Region } from '../store/region.js';
import { type SecondaryIndex, Table } from '../store/table.js';
import { ExpiryIndex } from '../ttl/expiryIndex.js';
import { extractItemKey } from '../validations/keys.js';
import { type ReplicaMemberInput, ReplicaMessages, type ReplicaPlan } from '../validations/replicaUpdates.js';
import { describeTable } from './tableDescription.js';
import { afterTransientDelay, finishDeletion, markIndexActive, markTableActive } from './tableLifecycle.js';
import { sseOf, startStream } from './tableSettings.js';

/**
 * UpdateTable `ReplicaUpdates` (docs/global-tables.md §2): add a replica in another region of the
 * same account (a table of the same name, filled from this one), change a replica's overrides,
 * remove a replica. A call holds one kind of action; the checks that need the table come first,
 * then the change, so a rejected call changes nothing.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html
 */

/** "You must wait 24 hours from the time you add a read replica to successfully delete a source table" (docs/global-tables.md §2.4). */
export const SOURCE_HOLD_MS = 24 * 3_600_000;

export function applyReplicaUpdates(
  engine: Engine,
  region: Region,
  table: Table,
  plan: ReplicaPlan,
): Record<string, unknown> {
  if (plan.create !== undefined) return createReplica(engine, region, table, plan.create);
  if (plan.delete !== undefined) return deleteReplica(engine, region, table, plan.delete);
  return updateReplicas(engine, region, table, plan.updates);
}

/**
 * Announces a change of the group to every member table it concerned (`Engine.onTableChange`):
 * each member's definition lists the group, so a data directory logs them all.
 */
export function announceMembers(engine: Engine, members: readonly ReplicaMember[]): void {
  for (const member of members)
    if (member.region.tables.get(member.table.name) === member.table)
      engine.tableChanged(member.region, member.table, 'updated');
}

function checkNotLocal(region: Region, regionName: string): void {
  if (regionName === region.name) throw new ValidationException(ReplicaMessages.localRegion);
}

function memberOrFail(table: Table, regionNames: string[]): ReplicaGroup {
  const group = table.replication;
  const missing = regionNames.filter((name) => group?.member(name) === undefined);
  if (group === undefined || missing.length > 0)
    throw new ValidationException(ReplicaMessages.notMembers(missing));
  return group;
}

/** Whether a replica sourced another one, still in the group, less than 24 hours ago. */
export function actedAsSource(group: ReplicaGroup, regionName: string, now: number): boolean {
  const settings = group.member(regionName)?.settings;
  if (settings === undefined) return false;
  for (const [target, at] of settings.sourcedAt)
    if (group.member(target) !== undefined && now - at < SOURCE_HOLD_MS) return true;
  return false;
}

function createReplica(
  engine: Engine,
  region: Region,
  table: Table,
  input: ReplicaMemberInput,
): Record<string, unknown> {
  const target = input.RegionName;
  checkNotLocal(region, target);
  // Provisioned tables need write auto scaling (Application Auto Scaling), which eddy does not
  // run (docs/global-tables.md §2.2).
  if (table.billingMode === 'PROVISIONED') throw new ValidationException(ReplicaMessages.writeNotAutoScaled);
  const targetRegion = engine.region(region.accountId, target);
  if (targetRegion.tables.has(table.name) || table.replication?.member(target) !== undefined)
    throw new ValidationException(ReplicaMessages.alreadyExists(table.name));
  // The answer shows the table UPDATING without the new entry: it appears while the replica is
  // made (recorded 2026, docs/global-tables.md §2.1).
  table.status = 'UPDATING';
  const response = { TableDescription: describeTable(table, engine.clock.now()) };
  const replica = addReplica(engine, region, table, targetRegion, input, 'CREATING');
  const member = table.replication!.member(target)!;
  afterTransientDelay(
    engine,
    table,
    () => {
      if (table.replication?.member(target) !== member) return;
      member.settings.status = 'ACTIVE';
      markTableActive(replica);
      for (const index of replica.globalSecondaryIndexes.values()) markIndexActive(replica, index);
      markTableActive(table);
      announceMembers(engine, [...table.replication.members.values()]);
    },
    region,
  );
  return response;
}

/**
 * Makes `targetRegion`'s replica of `table` and fills it: the table of the same name with the
 * same keys, indexes, billing, encryption type, TTL and stream view type, then every item as the
 * source holds it now. Later writes reach it by replication. Used by UpdateTable and by
 * templates' `AWS::DynamoDB::GlobalTable`.
 */
export function addReplica(
  engine: Engine,
  region: Region,
  table: Table,
  targetRegion: Region,
  input: ReplicaMemberInput,
  status: 'CREATING' | 'ACTIVE',
): Table {
  const now = engine.clock.now();
  let group = table.replication;
  if (group === undefined) {
    group = engine.replication.newGroup();
    group.join(region, table, newReplicaSettings('ACTIVE'));
  }
  // A global table always has a stream; one without gets NEW_AND_OLD_IMAGES (recorded 2026,
  // docs/global-tables.md §2.2), a disabled one a new stream.
  if (table.stream?.enabled !== true) {
    startStream(region, table, 'NEW_AND_OLD_IMAGES', now);
    engine.tableChanged(region, table, 'updated');
  }
  const replica = replicaTableOf(table, targetRegion, input, now, status);
  targetRegion.tables.set(replica.name, replica);
  const settings = settingsOf(input, status, table, targetRegion);
  group.join(targetRegion, replica, settings);
  group.member(region.name)!.settings.sourcedAt.set(targetRegion.name, now);
  group.copyStamps(region.name, targetRegion.name);
  engine.tableChanged(targetRegion, replica, 'created');
  // The backfill: what the source holds now, committed in the replica before its stream starts
  // (the replica's stream carries only later changes) and never sent back.
  const writes: ItemWrite[] = [];
  for (const { item } of table.items.unordered())
    writes.push({ key: extractItemKey(item.decode(), table.key), previous: undefined, next: item });
  if (writes.length > 0) group.muted(() => engine.commit(targetRegion, replica, writes));
  startStream(targetRegion, replica, table.stream!.viewType, now);
  engine.tableChanged(targetRegion, replica, 'updated');
  return replica;
}

function replicaTableOf(
  table: Table,
  targetRegion: Region,
  input: ReplicaMemberInput,
  now: number,
  status: 'CREATING' | 'ACTIVE',
): Table {
  const replica = new Table({
    name: table.name,
    tableId: randomUUID(),
    arn: targetRegion.tableArn(table.name),
    createdAt: now,
    status,
    attributeDefinitions: table.attributeDefinitions.map((definition) => ({ ...definition })),
    keySchema: table.keySchema.map((element) => ({ ...element })),
    billingMode: table.billingMode,
    throughput: { ...table.throughput, numberOfDecreasesToday: 0 },
    tableClass: input.TableClassOverride ?? table.tableClass,
  });
  replica.lastUpdateToPayPerRequestAt = table.billingMode === 'PAY_PER_REQUEST' ? now : undefined;
  const readOverride = input.ProvisionedThroughputOverride?.ReadCapacityUnits;
  if (readOverride !== undefined && table.billingMode === 'PROVISIONED')
    replica.throughput.readCapacityUnits = readOverride;
  for (const index of table.localSecondaryIndexes.values())
    replica.localSecondaryIndexes.set(index.name, indexCopy(replica, index, 'ACTIVE'));
  for (const index of table.globalSecondaryIndexes.values())
    replica.globalSecondaryIndexes.set(index.name, indexCopy(replica, index, status));
  if (table.sse !== undefined)
    replica.sse = sseOf(
      { Enabled: true, SSEType: 'KMS', KMSMasterKeyId: input.KMSMasterKeyId },
      targetRegion.name,
      targetRegion.accountId,
    );
  // TTL is a setting of the whole global table (docs/global-tables.md §4).
  replica.timeToLive.status = table.timeToLive.status;
  replica.timeToLive.attributeName = table.timeToLive.attributeName;
  replica.timeToLive.lastChangedAt = table.timeToLive.lastChangedAt;
  const ttlActive = table.timeToLive.status === 'ENABLED' || table.timeToLive.status === 'ENABLING';
  if (ttlActive && table.timeToLive.attributeName !== undefined)
    replica.expiryIndex = ExpiryIndex.build(replica, table.timeToLive.attributeName);
  replica.onDemandThroughput =
    table.onDemandThroughput === undefined ? undefined : { ...table.onDemandThroughput };
  return replica;
}

function indexCopy(replica: Table, index: SecondaryIndex, status: 'CREATING' | 'ACTIVE'): SecondaryIndex {
  const hashType = index.key.hash.type;
  return {
    name: index.name,
    kind: index.kind,
    arn: `${replica.arn}/index/${index.name}`,
    keySchema: index.keySchema.map((element) => ({ ...element })),
    key: index.key,
    projection: JSON.parse(JSON.stringify(index.projection)),
    status,
    backfilling: false,
    throughput:
      index.throughput === undefined ? undefined : { ...index.throughput, numberOfDecreasesToday: 0 },
    items: new ItemStore<IndexEntry>(true, (hashKey) => partitionScanKey(hashType, hashKey)),
    onDemandThroughput: index.onDemandThroughput === undefined ? undefined : { ...index.onDemandThroughput },
  };
}

function settingsOf(
  input: ReplicaMemberInput,
  status: 'CREATING' | 'ACTIVE',
  table: Table,
  targetRegion: Region,
): ReplicaSettings {
  const settings = newReplicaSettings(status);
  applyOverrides(settings, input);
  if (table.sse !== undefined && input.KMSMasterKeyId !== undefined)
    settings.kmsMasterKeyId = sseOf(
      { Enabled: true, KMSMasterKeyId: input.KMSMasterKeyId },
      targetRegion.name,
      targetRegion.accountId,
    ).kmsMasterKeyArn;
  return settings;
}

function applyOverrides(settings: ReplicaSettings, input: ReplicaMemberInput): void {
  if (input.ProvisionedThroughputOverride?.ReadCapacityUnits !== undefined)
    settings.readCapacityOverride = input.ProvisionedThroughputOverride.ReadCapacityUnits;
  if (input.OnDemandThroughputOverride?.MaxReadRequestUnits !== undefined)
    settings.maxReadRequestUnitsOverride = input.OnDemandThroughputOverride.MaxReadRequestUnits;
  if (input.TableClassOverride !== undefined) settings.tableClassOverride = input.TableClassOverride;
  // Replica GSI overrides merge per index: indexes not named keep theirs (recorded 2026). An
  // unknown index name is accepted silently, as the service does.
  for (const index of input.GlobalSecondaryIndexes ?? []) {
    const override = settings.indexOverrides.get(index.IndexName) ?? {
      readCapacityOverride: undefined,
      maxReadRequestUnitsOverride: undefined,
    };
    if (index.ProvisionedThroughputOverride?.ReadCapacityUnits !== undefined)
      override.readCapacityOverride = index.ProvisionedThroughputOverride.ReadCapacityUnits;
    if (index.OnDemandThroughputOverride?.MaxReadRequestUnits !== undefined)
      override.maxReadRequestUnitsOverride = index.OnDemandThroughputOverride.MaxReadRequestUnits;
    settings.indexOverrides.set(index.IndexName, override);
  }
}

function deleteReplica(
  engine: Engine,
  region: Region,
  table: Table,
  regionName: string,
): Record<string, unknown> {
  checkNotLocal(region, regionName);
  const group = memberOrFail(table, [regionName]);
  if (actedAsSource(group, regionName, engine.clock.now()))
    throw new ValidationException(ReplicaMessages.sourceRegion);
  const member = group.member(regionName)!;
  table.status = 'UPDATING';
  member.settings.status = 'DELETING';
  member.table.status = 'DELETING';
  const response = { TableDescription: describeTable(table, engine.clock.now()) };
  afterTransientDelay(
    engine,
    table,
    () => {
      const members = [...group.members.values()];
      leaveAndDelete(engine, group, regionName);
      markTableActive(table);
      announceMembers(engine, members);
    },
    region,
  );
  return response;
}

/** A replica leaves its group and its table leaves its region. */
export function leaveAndDelete(engine: Engine, group: ReplicaGroup, regionName: string): void {
  const member = group.member(regionName);
  if (member === undefined) return;
  group.leave(regionName);
  if (member.region.tables.get(member.table.name) === member.table) {
    member.table.status = 'DELETING';
    finishDeletion(member.region, member.table);
    engine.tableChanged(member.region, member.table, 'deleted');
  }
}

function updateReplicas(
  engine: Engine,
  region: Region,
  table: Table,
  updates: ReplicaMemberInput[],
): Record<string, unknown> {
  const group = memberOrFail(
    table,
    updates.map((update) => update.RegionName),
  );
  for (const update of updates)
    if (table.billingMode === 'PAY_PER_REQUEST' && update.ProvisionedThroughputOverride !== undefined)
      throw new ValidationException(ReplicaMessages.noUnitsOnDemand);
  table.status = 'UPDATING';
  for (const update of updates) {
    const member = group.member(update.RegionName)!;
    member.settings.status = 'UPDATING';
    applyOverrides(member.settings, update);
  }
  const response = { TableDescription: describeTable(table, engine.clock.now()) };
  afterTransientDelay(
    engine,
    table,
    () => {
      for (const update of updates) {
        const member = group.member(update.RegionName);
        if (member === undefined) continue;
        member.settings.status = 'ACTIVE';
        if (update.TableClassOverride !== undefined) member.table.tableClass = update.TableClassOverride;
      }
      markTableActive(table);
      announceMembers(engine, [...group.members.values()]);
    },
    region,
  );
  return response;
}
