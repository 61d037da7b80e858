import type { KinesisDestination } from '../kinesis/destinations.js';
import type { ScalarKeyType } from '../model/attributeValue.js';
import { partitionScanKey } from '../model/keyCodec.js';
import type { ReplicaGroup } from '../replication/replicaGroup.js';
import type { ExpiryIndex } from '../ttl/expiryIndex.js';
import type { IndexEntry } from './indexEntry.js';
import { ItemStore } from './itemStore.js';

/** Table metadata and items, as the control plane describes them (docs/dynamodb.md §3). */
export type TableStatus = 'CREATING' | 'ACTIVE' | 'UPDATING' | 'DELETING' | 'ARCHIVING' | 'ARCHIVED';
export type IndexStatus = 'CREATING' | 'ACTIVE' | 'UPDATING' | 'DELETING';
export type BillingMode = 'PROVISIONED' | 'PAY_PER_REQUEST';
export type KeyType = 'HASH' | 'RANGE';
export type ProjectionType = 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
export type StreamViewType = 'KEYS_ONLY' | 'NEW_IMAGE' | 'OLD_IMAGE' | 'NEW_AND_OLD_IMAGES';

export interface AttributeDefinition {
  AttributeName: string;
  AttributeType: ScalarKeyType;
}

export interface KeySchemaElement {
  AttributeName: string;
  KeyType: KeyType;
}

export interface Projection {
  ProjectionType: ProjectionType;
  NonKeyAttributes?: string[];
}

/** A key attribute with its declared type. */
export interface KeyDefinition {
  name: string;
  type: ScalarKeyType;
}

/** The key of a table or index: one hash attribute and an optional range attribute. */
export interface KeyShape {
  hash: KeyDefinition;
  range: KeyDefinition | undefined;
}

export interface ThroughputState {
  readCapacityUnits: number;
  writeCapacityUnits: number;
  /** Decreases counted on the UTC day `decreasesDay`; read it with `decreasesToday(state, now)`. */
  numberOfDecreasesToday: number;
  /** The UTC day (days since the epoch) the count belongs to. */
  decreasesDay?: number;
  lastIncreaseDateTime?: number;
  lastDecreaseDateTime?: number;
}

export interface SecondaryIndex {
  readonly name: string;
  readonly kind: 'GSI' | 'LSI';
  readonly arn: string;
  readonly keySchema: KeySchemaElement[];
  readonly key: KeyShape;
  readonly projection: Projection;
  status: IndexStatus;
  backfilling: boolean;
  throughput: ThroughputState | undefined;
  /** Index entries (maintained by the gsi-maintainer; LSIs synchronously). */
  readonly items: ItemStore<IndexEntry>;
  /** GSI on-demand maximums, when set (CreateTable/UpdateTable `OnDemandThroughput`). */
  onDemandThroughput?: OnDemandThroughputState | undefined;
  /** GSI warm throughput, when set (`WarmThroughput`). */
  warmThroughput?: WarmThroughputState | undefined;
}

/** `OnDemandThroughput`: maximum request units (-1 = no maximum). */
export interface OnDemandThroughputState {
  maxReadRequestUnits: number | undefined;
  maxWriteRequestUnits: number | undefined;
}

/** `WarmThroughput` as requested. */
export interface WarmThroughputState {
  readUnitsPerSecond: number | undefined;
  writeUnitsPerSecond: number | undefined;
}

/** Server-side encryption with a KMS key (absent: encryption with an AWS owned key, the default). */
export interface SseState {
  sseType: 'KMS';
  kmsMasterKeyArn: string;
}

export interface StreamState {
  enabled: boolean;
  viewType: StreamViewType;
  arn: string;
  label: string;
}

export interface TimeToLiveState {
  status: 'ENABLED' | 'DISABLED' | 'ENABLING' | 'DISABLING';
  attributeName: string | undefined;
  /** When the setting last changed (epoch ms): a second change within the lock-out window fails. */
  lastChangedAt: number | undefined;
}

export interface TableInit {
  name: string;
  tableId: string;
  arn: string;
  createdAt: number;
  status: TableStatus;
  attributeDefinitions: AttributeDefinition[];
  keySchema: KeySchemaElement[];
  billingMode: BillingMode;
  throughput: ThroughputState;
  tableClass?: string;
  deletionProtectionEnabled?: boolean;
}

export function keyShapeOf(keySchema: KeySchemaElement[], definitions: AttributeDefinition[]): KeyShape {
  const typeOf = (name: string): ScalarKeyType => {
    const definition = definitions.find((candidate) => candidate.AttributeName === name);
    if (!definition) throw new Error(`keyShapeOf: no definition for ${name}`);
    return definition.AttributeType;
  };
  const hash = keySchema.find((element) => element.KeyType === 'HASH');
  const range = keySchema.find((element) => element.KeyType === 'RANGE');
  if (!hash) throw new Error('keyShapeOf: no HASH key');
  return {
    hash: { name: hash.AttributeName, type: typeOf(hash.AttributeName) },
    range: range ? { name: range.AttributeName, type: typeOf(range.AttributeName) } : undefined,
  };
}

export class Table {
  readonly name: string;
  readonly tableId: string;
  readonly arn: string;
  readonly createdAt: number;
  status: TableStatus;
  attributeDefinitions: AttributeDefinition[];
  readonly keySchema: KeySchemaElement[];
  readonly key: KeyShape;
  billingMode: BillingMode;
  throughput: ThroughputState;
  /** When the table last switched to (or was created with) on-demand billing. */
  lastUpdateToPayPerRequestAt: number | undefined;
  tableClass: string | undefined;
  deletionProtectionEnabled: boolean;
  readonly globalSecondaryIndexes = new Map<string, SecondaryIndex>();
  readonly localSecondaryIndexes = new Map<string, SecondaryIndex>();
  stream: StreamState | undefined;
  readonly timeToLive: TimeToLiveState = {
    status: 'DISABLED',
    attributeName: undefined,
    lastChangedAt: undefined,
  };
  readonly tags = new Map<string, string>();
  readonly items: ItemStore;
  /** Items by TTL value while TTL is enabled (`core/ttl`), else undefined: kept by the commit. */
  expiryIndex: ExpiryIndex | undefined;
  /** KMS encryption settings (SSESpecification), when the table uses a KMS key. */
  sse: SseState | undefined;
  /** Table on-demand maximums, when set. */
  onDemandThroughput: OnDemandThroughputState | undefined;
  /** Table warm throughput, when set. */
  warmThroughput: WarmThroughputState | undefined;
  /** Kinesis Data Streams destinations, newest first (docs/kinesis-destinations.md). */
  kinesisDestinations: KinesisDestination[] = [];
  /** The global table this table is a replica of (docs/global-tables.md), else undefined. */
  replication: ReplicaGroup | undefined;

  constructor(init: TableInit) {
    this.name = init.name;
    this.tableId = init.tableId;
    this.arn = init.arn;
    this.createdAt = init.createdAt;
    this.status = init.status;
    this.attributeDefinitions = init.attributeDefinitions;
    this.keySchema = init.keySchema;
    this.key = keyShapeOf(init.keySchema, init.attributeDefinitions);
    this.billingMode = init.billingMode;
    this.throughput = init.throughput;
    this.lastUpdateToPayPerRequestAt = init.billingMode === 'PAY_PER_REQUEST' ? init.createdAt : undefined;
    this.tableClass = init.tableClass;
    this.deletionProtectionEnabled = init.deletionProtectionEnabled ?? false;
    const hashType = this.key.hash.type;
    this.items = new ItemStore(this.key.range !== undefined, (hashKey) =>
      partitionScanKey(hashType, hashKey),
    );
  }

  private reference:
    | { accountId: string; region: string; tableName: string; tableId: string; tableArn: string }
    | undefined;

  /** Which table this is, for change events (built once). */
  ref(accountId: string, region: string) {
    this.reference ??= { accountId, region, tableName: this.name, tableId: this.tableId, tableArn: this.arn };
    return this.reference;
  }

  /**
   * Every secondary index, GSIs first (the order the service checks index keys in, docs/dynamodb.md §4.1.3).
   */
  *secondaryIndexes(): Generator<SecondaryIndex> {
    yield* this.globalSecondaryIndexes.values();
    yield* this.localSecondaryIndexes.values();
  }

  /** Data-plane calls see CREATING tables as missing (docs/dynamodb.md §3.1.10). */
  get readable(): boolean {
    return this.status !== 'CREATING' && this.status !== 'DELETING';
  }
}
