import { TTL_PRINCIPAL } from '../../core/changeEvent.js';
import type { Engine, ItemWrite } from '../../core/engine.js';
import { putEntry } from '../../core/indexes/maintenance.js';
import type { AttributeMap } from '../../core/model/attributeValue.js';
import { applyCheckpoint, type CheckpointMap } from '../../core/persistence/checkpointStore.js';
import type { Region } from '../../core/store/region.js';
import { StoredItem } from '../../core/store/storedItem.js';
import type { Table } from '../../core/store/table.js';
import { extractKey } from '../../core/validations/keys.js';
import type { ReplayableClock } from './replayableClock.js';
import { noteReplayedWrite } from './replicationRecovery.js';
import { applyTableDefinition } from './tableCodec.js';
import type { TokenEntry, WalRecord } from './walRecords.js';

/** What a log record is replayed into. */
export interface ReplayTarget {
  readonly engine: Engine;
  readonly clock: ReplayableClock;
  readonly checkpoints: CheckpointMap;
}

/**
 * Replays one log record through the engine's own commit point, with the clock held at the
 * record's time, so the change log rebuilds stream records exactly (same ordinals, eventIDs and
 * shards).
 * @throws Error when the record does not fit the state before it (the history does not add up).
 */
export function replayRecord(target: ReplayTarget, record: WalRecord): void {
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
      for (const { table, write } of entries) noteReplayedWrite(table, write.key, record.lsn);
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
