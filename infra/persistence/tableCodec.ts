import { type SavedInsights, savedInsights } from '../../core/insights/contributorInsights.js';
import type { KinesisDestination } from '../../core/kinesis/destinations.js';
import { partitionScanKey } from '../../core/model/keyCodec.js';
import { policyOf, type ResourcePolicy, restorePolicy } from '../../core/policies/resourcePolicies.js';
import type { IndexEntry } from '../../core/store/indexEntry.js';
import { ItemStore } from '../../core/store/itemStore.js';
import type { Region } from '../../core/store/region.js';
import {
  type AttributeDefinition,
  type BillingMode,
  type IndexStatus,
  type KeySchemaElement,
  keyShapeOf,
  type OnDemandThroughputState,
  type Projection,
  type SecondaryIndex,
  type SseState,
  type StreamState,
  Table,
  type TableStatus,
  type ThroughputState,
  type TimeToLiveState,
  type WarmThroughputState,
} from '../../core/store/table.js';
import { ExpiryIndex } from '../../core/ttl/expiryIndex.js';
import { rememberInsights } from './insightsCodec.js';
import { type ReplicaDefinition, rememberReplicas, replicaDefinitions } from './replicaCodec.js';
import { rememberPendingReplication } from './replicationRecovery.js';

/**
 * A table's definition as the log and snapshots keep it: every field of `Table` except its items
 * and what derives from them (index entries, the TTL expiry index), as plain JSON.
 * `test/persistence/tableCodec.test.ts` fails when `Table` gains a field this does not know.
 */
export interface TableDefinition {
  readonly name: string;
  readonly tableId: string;
  readonly arn: string;
  readonly createdAt: number;
  readonly status: TableStatus;
  readonly attributeDefinitions: AttributeDefinition[];
  readonly keySchema: KeySchemaElement[];
  readonly billingMode: BillingMode;
  readonly throughput: ThroughputState;
  readonly lastUpdateToPayPerRequestAt?: number;
  readonly tableClass?: string;
  readonly deletionProtectionEnabled: boolean;
  readonly indexes: IndexDefinition[];
  readonly stream?: StreamState;
  readonly timeToLive: TimeToLiveState;
  readonly tags: [string, string][];
  readonly sse?: SseState;
  readonly onDemandThroughput?: OnDemandThroughputState;
  readonly warmThroughput?: WarmThroughputState;
  /** Absent in logs written before eddy had Kinesis destinations. */
  readonly kinesisDestinations?: KinesisDestination[];
  /** The members of its global table (`replicaCodec.ts`), when it is a replica of one. */
  readonly replicas?: ReplicaDefinition[];
  /** Its resource-based policy, if any (absent in logs written before eddy kept it). */
  readonly resourcePolicy?: ResourcePolicy;
  /** Its Contributor Insights settings, table and GSIs (absent: none, or an older log). */
  readonly contributorInsights?: SavedInsights[];
  /**
   * In snapshots only: the keys (as JSON attribute maps) of its writes still waiting to reach
   * the other replicas when the snapshot was taken (`replicationRecovery.ts`).
   */
  readonly replicationPending?: string[];
}

export interface IndexDefinition {
  readonly name: string;
  readonly kind: 'GSI' | 'LSI';
  readonly arn: string;
  readonly keySchema: KeySchemaElement[];
  readonly projection: Projection;
  readonly status: IndexStatus;
  readonly backfilling: boolean;
  readonly throughput?: ThroughputState;
  readonly onDemandThroughput?: OnDemandThroughputState;
  readonly warmThroughput?: WarmThroughputState;
}

/** Fields of `Table` this codec handles, or leaves out on purpose (the test checks the list). */
export const TABLE_FIELDS = [
  'name',
  'tableId',
  'arn',
  'createdAt',
  'status',
  'attributeDefinitions',
  'keySchema',
  'key',
  'billingMode',
  'throughput',
  'lastUpdateToPayPerRequestAt',
  'tableClass',
  'deletionProtectionEnabled',
  'globalSecondaryIndexes',
  'localSecondaryIndexes',
  'stream',
  'timeToLive',
  'tags',
  'items',
  'expiryIndex',
  'sse',
  'onDemandThroughput',
  'warmThroughput',
  'kinesisDestinations',
  'replication',
  'reference',
] as const;

/** Deep copy through JSON: definitions never share objects with live tables. */
function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function indexDefinition(index: SecondaryIndex): IndexDefinition {
  return copy({
    name: index.name,
    kind: index.kind,
    arn: index.arn,
    keySchema: index.keySchema,
    projection: index.projection,
    status: index.status,
    backfilling: index.backfilling,
    throughput: index.throughput,
    onDemandThroughput: index.onDemandThroughput,
    warmThroughput: index.warmThroughput,
  });
}

export function tableDefinition(table: Table): TableDefinition {
  return copy({
    name: table.name,
    tableId: table.tableId,
    arn: table.arn,
    createdAt: table.createdAt,
    status: table.status,
    attributeDefinitions: table.attributeDefinitions,
    keySchema: table.keySchema,
    billingMode: table.billingMode,
    throughput: table.throughput,
    lastUpdateToPayPerRequestAt: table.lastUpdateToPayPerRequestAt,
    tableClass: table.tableClass,
    deletionProtectionEnabled: table.deletionProtectionEnabled,
    indexes: [...table.secondaryIndexes()].map(indexDefinition),
    stream: table.stream,
    timeToLive: table.timeToLive,
    tags: [...table.tags],
    sse: table.sse,
    onDemandThroughput: table.onDemandThroughput,
    warmThroughput: table.warmThroughput,
    kinesisDestinations: table.kinesisDestinations,
    replicas: replicaDefinitions(table),
    resourcePolicy: policyOf(table),
    contributorInsights: savedInsights(table),
  });
}

/** An index with no entries yet (recovery fills every index from the table's items). */
function newIndex(definition: IndexDefinition, attributeDefinitions: AttributeDefinition[]): SecondaryIndex {
  const key = keyShapeOf(definition.keySchema, attributeDefinitions);
  const hashType = key.hash.type;
  return {
    name: definition.name,
    kind: definition.kind,
    arn: definition.arn,
    keySchema: definition.keySchema,
    key,
    projection: definition.projection,
    status: definition.status,
    backfilling: definition.backfilling,
    throughput: definition.throughput,
    items: new ItemStore<IndexEntry>(true, (hashKey) => partitionScanKey(hashType, hashKey)),
    onDemandThroughput: definition.onDemandThroughput,
    warmThroughput: definition.warmThroughput,
  };
}

/**
 * Makes the region hold the table as defined: an upsert by name and table id. A table of the
 * same name with another id (an older incarnation) is replaced. Returns the table.
 *
 * `withItems`: the table's items are in place, so the TTL expiry index is built now (log
 * replay); a snapshot loads items afterwards and builds it then (`buildExpiryIndex`).
 */
export function applyTableDefinition(region: Region, source: TableDefinition, withItems = true): Table {
  const definition = copy(source);
  let table = region.tables.get(definition.name);
  if (table === undefined || table.tableId !== definition.tableId) {
    table = new Table({
      name: definition.name,
      tableId: definition.tableId,
      arn: definition.arn,
      createdAt: definition.createdAt,
      status: definition.status,
      attributeDefinitions: definition.attributeDefinitions,
      keySchema: definition.keySchema,
      billingMode: definition.billingMode,
      throughput: definition.throughput,
    });
    region.tables.set(table.name, table);
  }
  table.status = definition.status;
  table.attributeDefinitions = definition.attributeDefinitions;
  table.billingMode = definition.billingMode;
  table.throughput = definition.throughput;
  table.lastUpdateToPayPerRequestAt = definition.lastUpdateToPayPerRequestAt;
  table.tableClass = definition.tableClass;
  table.deletionProtectionEnabled = definition.deletionProtectionEnabled;
  applyIndexes(table, definition.indexes);
  applyStream(table, definition.stream);
  applyTimeToLive(table, definition.timeToLive, withItems);
  table.tags.clear();
  for (const [key, value] of definition.tags) table.tags.set(key, value);
  table.sse = definition.sse;
  table.onDemandThroughput = definition.onDemandThroughput;
  table.warmThroughput = definition.warmThroughput;
  table.kinesisDestinations = definition.kinesisDestinations ?? [];
  // Linked once recovery is over (`linkReplicas`): replayed commits are not replicated again.
  rememberReplicas(table, definition.replicas);
  restorePolicy(table, definition.resourcePolicy);
  rememberInsights(table, definition.contributorInsights);
  rememberPendingReplication(table, definition.replicationPending);
  return table;
}

/** Keeps existing index objects (and their entries), updates their states, adds and removes. */
function applyIndexes(table: Table, definitions: readonly IndexDefinition[]): void {
  for (const kind of ['GSI', 'LSI'] as const) {
    const map = kind === 'GSI' ? table.globalSecondaryIndexes : table.localSecondaryIndexes;
    const wanted = definitions.filter((definition) => definition.kind === kind);
    for (const name of [...map.keys()])
      if (!wanted.some((definition) => definition.name === name)) map.delete(name);
    for (const definition of wanted) {
      const index = map.get(definition.name);
      if (index === undefined || index.arn !== definition.arn) {
        map.set(definition.name, newIndex(definition, table.attributeDefinitions));
        continue;
      }
      index.status = definition.status;
      index.backfilling = definition.backfilling;
      index.throughput = definition.throughput;
      index.onDemandThroughput = definition.onDemandThroughput;
      index.warmThroughput = definition.warmThroughput;
    }
  }
}

/**
 * The stream setting: the same stream (same ARN) is updated in place, so the change log sees it
 * as the stream it already knows (disabled or not), a new ARN as a new stream.
 */
function applyStream(table: Table, stream: StreamState | undefined): void {
  if (stream === undefined) table.stream = undefined;
  else if (table.stream !== undefined && table.stream.arn === stream.arn)
    table.stream.enabled = stream.enabled;
  else table.stream = stream;
}

/** TTL setting; the expiry index follows it as UpdateTimeToLive keeps it (built from the items). */
function applyTimeToLive(table: Table, timeToLive: TimeToLiveState, withItems: boolean): void {
  const setting = table.timeToLive;
  setting.status = timeToLive.status;
  setting.attributeName = timeToLive.attributeName;
  setting.lastChangedAt = timeToLive.lastChangedAt;
  if (withItems) buildExpiryIndex(table);
}

/** Builds (or drops) the table's TTL expiry index per its TTL setting, from its items. */
export function buildExpiryIndex(table: Table): void {
  const setting = table.timeToLive;
  const active = setting.status === 'ENABLED' || setting.status === 'ENABLING';
  if (!active || setting.attributeName === undefined) table.expiryIndex = undefined;
  else if (table.expiryIndex?.attributeName !== setting.attributeName)
    table.expiryIndex = ExpiryIndex.build(table, setting.attributeName);
}
