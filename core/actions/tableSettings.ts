import { randomUUID } from 'node:crypto';
import type { ScalarKeyType } from '../model/attributeValue.js';
import { partitionScanKey } from '../model/keyCodec.js';
import type { IndexEntry } from '../store/indexEntry.js';
import { ItemStore } from '../store/itemStore.js';
import type { Region } from '../store/region.js';
import {
  type AttributeDefinition,
  type KeySchemaElement,
  keyShapeOf,
  type OnDemandThroughputState,
  type Projection,
  type ProjectionType,
  type SecondaryIndex,
  type SseState,
  type StreamViewType,
  type Table,
  type ThroughputState,
  type WarmThroughputState,
} from '../store/table.js';
import type {
  GlobalIndexInput,
  KeySchemaElementInput,
  LocalIndexInput,
  OnDemandThroughputInput,
  ProjectionInput,
  SseSpecificationInput,
  ThroughputInput,
  WarmThroughputInput,
} from '../validations/tableSchema.js';
import { carriedDecreases } from './throughputDecreases.js';

/** Builders from validated request members to table state, shared by CreateTable and UpdateTable. */

export function keySchemaOf(elements: KeySchemaElementInput[]): KeySchemaElement[] {
  return elements.map((element) => ({
    AttributeName: element.AttributeName,
    KeyType: element.KeyType as KeySchemaElement['KeyType'],
  }));
}

export function projectionOf(projection: ProjectionInput): Projection {
  const copy: Projection = { ProjectionType: projection.ProjectionType as ProjectionType };
  if (projection.NonKeyAttributes !== undefined) copy.NonKeyAttributes = [...projection.NonKeyAttributes];
  return copy;
}

/** On-demand tables and their GSIs describe 0/0 throughput (docs/dynamodb.md §3.1.9). */
export function zeroThroughput(previous?: ThroughputState): ThroughputState {
  return { readCapacityUnits: 0, writeCapacityUnits: 0, ...carriedDecreases(previous) };
}

export function throughputOf(throughput: ThroughputInput | undefined): ThroughputState {
  if (throughput === undefined) return zeroThroughput();
  return {
    readCapacityUnits: throughput.ReadCapacityUnits,
    writeCapacityUnits: throughput.WriteCapacityUnits,
    numberOfDecreasesToday: 0,
  };
}

export function onDemandOf(value: OnDemandThroughputInput | undefined): OnDemandThroughputState | undefined {
  if (
    value === undefined ||
    (value.MaxReadRequestUnits === undefined && value.MaxWriteRequestUnits === undefined)
  )
    return undefined;
  return { maxReadRequestUnits: value.MaxReadRequestUnits, maxWriteRequestUnits: value.MaxWriteRequestUnits };
}

export function warmOf(value: WarmThroughputInput | undefined): WarmThroughputState | undefined {
  if (
    value === undefined ||
    (value.ReadUnitsPerSecond === undefined && value.WriteUnitsPerSecond === undefined)
  )
    return undefined;
  return { readUnitsPerSecond: value.ReadUnitsPerSecond, writeUnitsPerSecond: value.WriteUnitsPerSecond };
}

/**
 * Index entries: partitions by index hash key, in the service's hash order for Scan; every entry
 * has a sort key (index sort value ‖ table-key tie-breaker, core/indexes/entryKey.ts).
 */
function indexItemStore(hashType: ScalarKeyType): ItemStore<IndexEntry> {
  return new ItemStore<IndexEntry>(true, (hashKey) => partitionScanKey(hashType, hashKey));
}

/** An LSI: keyed like the table's partition, ACTIVE with the table (LSIs show no IndexStatus). */
export function newLocalIndex(
  table: Table,
  index: LocalIndexInput,
  definitions: AttributeDefinition[],
): SecondaryIndex {
  const keySchema = keySchemaOf(index.KeySchema);
  return {
    name: index.IndexName,
    kind: 'LSI',
    arn: `${table.arn}/index/${index.IndexName}`,
    keySchema,
    key: keyShapeOf(keySchema, definitions),
    projection: projectionOf(index.Projection),
    status: 'ACTIVE',
    backfilling: false,
    throughput: undefined,
    items: indexItemStore(keyShapeOf(keySchema, definitions).hash.type),
  };
}

/**
 * A GSI in CREATING state. `backfilling` is true for an index added to an existing table
 * (UpdateTable), false for one created with its table. Multi-attribute keys keep their full
 * KeySchema; `key` holds the first HASH and first RANGE attribute.
 */
export function newGlobalIndex(
  table: Table,
  index: GlobalIndexInput,
  definitions: AttributeDefinition[],
  backfilling: boolean,
): SecondaryIndex {
  const keySchema = keySchemaOf(index.KeySchema);
  const key = keyShapeOf(keySchema, definitions);
  return {
    name: index.IndexName,
    kind: 'GSI',
    arn: `${table.arn}/index/${index.IndexName}`,
    keySchema,
    key,
    projection: projectionOf(index.Projection),
    status: 'CREATING',
    backfilling,
    throughput: throughputOf(index.ProvisionedThroughput),
    items: indexItemStore(key.hash.type),
    onDemandThroughput: onDemandOf(index.OnDemandThroughput),
    warmThroughput: warmOf(index.WarmThroughput),
  };
}

/**
 * Starts a new stream: label = ISO-8601 with milliseconds and no zone, ARN = table ARN +
 * `/stream/<label>` (docs/streams-and-lambda.md §1.1.7). A re-enabled stream is a new stream with a new label
 * (docs/streams-and-lambda.md §1.1.8): if the clock has not moved since the last one, the label moves on a
 * millisecond.
 */
export function startStream(region: Region, table: Table, viewType: StreamViewType, now: number): void {
  let at = now;
  let label = streamLabel(at);
  // Labels only move forward for a table name, across re-creations of the table too.
  const last = region.lastStreamLabels.get(table.name);
  while (last !== undefined && label <= last) label = streamLabel(++at);
  region.lastStreamLabels.set(table.name, label);
  table.stream = { enabled: true, viewType, arn: `${table.arn}/stream/${label}`, label };
}

function streamLabel(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1);
}

/**
 * KMS encryption from an SSESpecification with Enabled: true. Without KMSMasterKeyId the table
 * uses the AWS managed key (alias/aws/dynamodb), described by a key ARN in the caller's account.
 */
export function sseOf(spec: SseSpecificationInput, region: string, accountId: string): SseState {
  const keyId = spec.KMSMasterKeyId;
  let arn: string;
  if (keyId === undefined) arn = `arn:aws:kms:${region}:${accountId}:key/${randomUUID()}`;
  else if (keyId.startsWith('arn:')) arn = keyId;
  else if (keyId.startsWith('alias/')) arn = `arn:aws:kms:${region}:${accountId}:${keyId}`;
  else arn = `arn:aws:kms:${region}:${accountId}:key/${keyId}`;
  return { sseType: 'KMS', kmsMasterKeyArn: arn };
}
