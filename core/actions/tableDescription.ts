import { restoreSummaryOf } from '../backups/restoreSummary.js';
import { indexSizeBytes } from '../indexes/projection.js';
import type {
  OnDemandThroughputState,
  Projection,
  SecondaryIndex,
  Table,
  ThroughputState,
  WarmThroughputState,
} from '../store/table.js';
import { replicaMembers } from './replicaDescription.js';
import { decreasesToday } from './throughputDecreases.js';

/**
 * The `TableDescription` of CreateTable, DescribeTable, UpdateTable and DeleteTable
 * (docs/dynamodb.md §3.1.9, §3.2.1, §3.4.1).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html
 *
 * Every value is a fresh copy: callers may keep or change what they get. Members appear only
 * when the table has them: no stream members without a stream, no SSEDescription with the
 * default (AWS owned) key, no index lists without indexes. ItemCount and sizes are exact
 * (docs/dynamodb.md §3.2.2 allows that).
 */

/** Epoch milliseconds → the epoch seconds (fractional) of the wire. */
export function epochSeconds(ms: number): number {
  return ms / 1000;
}

/** `now` dates NumberOfDecreasesToday, which goes back to 0 at 00:00 UTC (docs/capacity.md §2.3). */
function throughputDescription(throughput: ThroughputState, now: number): Record<string, unknown> {
  const description: Record<string, unknown> = {};
  if (throughput.lastIncreaseDateTime !== undefined)
    description.LastIncreaseDateTime = epochSeconds(throughput.lastIncreaseDateTime);
  if (throughput.lastDecreaseDateTime !== undefined)
    description.LastDecreaseDateTime = epochSeconds(throughput.lastDecreaseDateTime);
  description.NumberOfDecreasesToday = decreasesToday(throughput, now);
  description.ReadCapacityUnits = throughput.readCapacityUnits;
  description.WriteCapacityUnits = throughput.writeCapacityUnits;
  return description;
}

const ON_DEMAND_ZERO: ThroughputState = {
  readCapacityUnits: 0,
  writeCapacityUnits: 0,
  numberOfDecreasesToday: 0,
};

function projectionDescription(projection: Projection): Record<string, unknown> {
  const description: Record<string, unknown> = { ProjectionType: projection.ProjectionType };
  if (projection.NonKeyAttributes !== undefined)
    description.NonKeyAttributes = [...projection.NonKeyAttributes];
  return description;
}

function onDemandDescription(value: OnDemandThroughputState): Record<string, unknown> {
  const description: Record<string, unknown> = {};
  if (value.maxReadRequestUnits !== undefined) description.MaxReadRequestUnits = value.maxReadRequestUnits;
  if (value.maxWriteRequestUnits !== undefined) description.MaxWriteRequestUnits = value.maxWriteRequestUnits;
  return description;
}

/** Warm throughput as requested; eddy has no warming, so it is ACTIVE at once. */
function warmDescription(value: WarmThroughputState): Record<string, unknown> {
  const description: Record<string, unknown> = {};
  if (value.readUnitsPerSecond !== undefined) description.ReadUnitsPerSecond = value.readUnitsPerSecond;
  if (value.writeUnitsPerSecond !== undefined) description.WriteUnitsPerSecond = value.writeUnitsPerSecond;
  description.Status = 'ACTIVE';
  return description;
}

function keySchemaCopy(index: { keySchema: { AttributeName: string; KeyType: string }[] }) {
  return index.keySchema.map((element) => ({
    AttributeName: element.AttributeName,
    KeyType: element.KeyType,
  }));
}

function localIndexDescription(index: SecondaryIndex): Record<string, unknown> {
  return {
    IndexName: index.name,
    KeySchema: keySchemaCopy(index),
    Projection: projectionDescription(index.projection),
    IndexSizeBytes: indexSizeBytes(index),
    ItemCount: index.items.size,
    IndexArn: index.arn,
  };
}

function globalIndexDescription(index: SecondaryIndex, now: number): Record<string, unknown> {
  const description: Record<string, unknown> = {
    IndexName: index.name,
    KeySchema: keySchemaCopy(index),
    Projection: projectionDescription(index.projection),
    IndexStatus: index.status,
  };
  // Backfilling appears only while an index added by UpdateTable is being filled (docs/dynamodb.md §3.2.3).
  if (index.backfilling) description.Backfilling = true;
  description.ProvisionedThroughput = throughputDescription(index.throughput ?? ON_DEMAND_ZERO, now);
  description.IndexSizeBytes = indexSizeBytes(index);
  description.ItemCount = index.items.size;
  description.IndexArn = index.arn;
  if (index.onDemandThroughput !== undefined)
    description.OnDemandThroughput = onDemandDescription(index.onDemandThroughput);
  if (index.warmThroughput !== undefined) description.WarmThroughput = warmDescription(index.warmThroughput);
  return description;
}

/**
 * BillingModeSummary (and its twin TableThroughputModeSummary) appear for on-demand tables and
 * for tables that were ever on demand. LastUpdateToPayPerRequestDateTime is set once the switch
 * (or the creation) completes, so the CreateTable response has none (docs/dynamodb.md §3.1.9, §3.2.1).
 */
function billingSummaries(table: Table, description: Record<string, unknown>): void {
  if (table.billingMode !== 'PAY_PER_REQUEST' && table.lastUpdateToPayPerRequestAt === undefined) return;
  const since =
    table.status === 'CREATING' || table.lastUpdateToPayPerRequestAt === undefined
      ? undefined
      : epochSeconds(table.lastUpdateToPayPerRequestAt);
  description.BillingModeSummary = {
    BillingMode: table.billingMode,
    ...(since === undefined ? {} : { LastUpdateToPayPerRequestDateTime: since }),
  };
  description.TableThroughputModeSummary = {
    TableThroughputMode: table.billingMode,
    ...(since === undefined ? {} : { LastUpdateToPayPerRequestDateTime: since }),
  };
}

/** StreamSpecification, LatestStreamLabel and LatestStreamArn, for a table that has had a stream. */
function streamMembers(table: Table, description: Record<string, unknown>): void {
  const stream = table.stream;
  if (stream === undefined) return;
  description.StreamSpecification = stream.enabled
    ? { StreamEnabled: true, StreamViewType: stream.viewType }
    : { StreamEnabled: false };
  description.LatestStreamLabel = stream.label;
  description.LatestStreamArn = stream.arn;
}

/** The full TableDescription (CreateTable, DescribeTable, UpdateTable). */
export function describeTable(table: Table, now: number): Record<string, unknown> {
  const description: Record<string, unknown> = {
    AttributeDefinitions: table.attributeDefinitions.map((definition) => ({
      AttributeName: definition.AttributeName,
      AttributeType: definition.AttributeType,
    })),
    TableName: table.name,
    KeySchema: keySchemaCopy(table),
    TableStatus: table.status,
    CreationDateTime: epochSeconds(table.createdAt),
    ProvisionedThroughput: throughputDescription(table.throughput, now),
    TableSizeBytes: table.items.bytes,
    ItemCount: table.items.size,
    TableArn: table.arn,
    TableId: table.tableId,
  };
  billingSummaries(table, description);
  if (table.localSecondaryIndexes.size > 0)
    description.LocalSecondaryIndexes = [...table.localSecondaryIndexes.values()].map(localIndexDescription);
  if (table.globalSecondaryIndexes.size > 0)
    description.GlobalSecondaryIndexes = [...table.globalSecondaryIndexes.values()].map((index) =>
      globalIndexDescription(index, now),
    );
  streamMembers(table, description);
  const restoreSummary = restoreSummaryOf(table);
  if (restoreSummary !== undefined) description.RestoreSummary = restoreSummary;
  if (table.sse !== undefined) {
    description.SSEDescription = {
      Status: 'ENABLED',
      SSEType: table.sse.sseType,
      KMSMasterKeyArn: table.sse.kmsMasterKeyArn,
    };
  }
  if (table.tableClass !== undefined) description.TableClassSummary = { TableClass: table.tableClass };
  description.DeletionProtectionEnabled = table.deletionProtectionEnabled;
  if (table.onDemandThroughput !== undefined)
    description.OnDemandThroughput = onDemandDescription(table.onDemandThroughput);
  if (table.warmThroughput !== undefined) description.WarmThroughput = warmDescription(table.warmThroughput);
  replicaMembers(table, description);
  return description;
}

/**
 * DeleteTable's TableDescription: status and counters, no schema, creation time or index lists,
 * and the stream members of a table with a stream (docs/dynamodb.md §3.4.1).
 */
export function describeDeletedTable(table: Table, now: number): Record<string, unknown> {
  const description: Record<string, unknown> = {
    TableName: table.name,
    TableStatus: table.status,
    TableId: table.tableId,
    TableArn: table.arn,
    ItemCount: table.items.size,
    TableSizeBytes: table.items.bytes,
    ProvisionedThroughput: throughputDescription(table.throughput, now),
  };
  billingSummaries(table, description);
  delete description.TableThroughputModeSummary;
  streamMembers(table, description);
  return description;
}
