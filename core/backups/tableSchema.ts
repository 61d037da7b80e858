import type {
  AttributeDefinition,
  KeySchemaElement,
  OnDemandThroughputState,
  Projection,
  SseState,
  StreamViewType,
  Table,
} from '../store/table.js';

/**
 * What a backup (or a PITR restore) keeps of a table besides its items: the schema a restore
 * creates again, and what DescribeBackup reports (`SourceTableDetails`,
 * `SourceTableFeatureDetails`). Plain JSON, so the data directory stores it as is.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SourceTableDetails.html
 */
export interface TableSchema {
  readonly tableName: string;
  readonly tableId: string;
  readonly tableArn: string;
  readonly createdAt: number;
  readonly attributeDefinitions: AttributeDefinition[];
  readonly keySchema: KeySchemaElement[];
  readonly billingMode: 'PROVISIONED' | 'PAY_PER_REQUEST';
  readonly readCapacityUnits: number;
  readonly writeCapacityUnits: number;
  readonly onDemand?: OnDemandThroughputState | undefined;
  readonly localIndexes: { name: string; keySchema: KeySchemaElement[]; projection: Projection }[];
  readonly globalIndexes: {
    name: string;
    keySchema: KeySchemaElement[];
    projection: Projection;
    readCapacityUnits: number;
    writeCapacityUnits: number;
  }[];
  readonly stream?: { enabled: boolean; viewType: StreamViewType } | undefined;
  readonly timeToLive: { status: string; attributeName: string | undefined };
  readonly sse?: SseState | undefined;
}

const copy = <T>(value: T): T => structuredClone(value);

/** The schema of a table as it is now. */
export function schemaOf(table: Table): TableSchema {
  return {
    tableName: table.name,
    tableId: table.tableId,
    tableArn: table.arn,
    createdAt: table.createdAt,
    attributeDefinitions: copy(table.attributeDefinitions),
    keySchema: copy(table.keySchema),
    billingMode: table.billingMode,
    readCapacityUnits: table.throughput.readCapacityUnits,
    writeCapacityUnits: table.throughput.writeCapacityUnits,
    onDemand: table.onDemandThroughput === undefined ? undefined : copy(table.onDemandThroughput),
    localIndexes: [...table.localSecondaryIndexes.values()].map((index) => ({
      name: index.name,
      keySchema: copy(index.keySchema),
      projection: copy(index.projection),
    })),
    globalIndexes: [...table.globalSecondaryIndexes.values()].map((index) => ({
      name: index.name,
      keySchema: copy(index.keySchema),
      projection: copy(index.projection),
      readCapacityUnits: index.throughput?.readCapacityUnits ?? 0,
      writeCapacityUnits: index.throughput?.writeCapacityUnits ?? 0,
    })),
    stream:
      table.stream === undefined
        ? undefined
        : { enabled: table.stream.enabled, viewType: table.stream.viewType },
    timeToLive: { status: table.timeToLive.status, attributeName: table.timeToLive.attributeName },
    sse: table.sse === undefined ? undefined : copy(table.sse),
  };
}

function throughput(read: number, write: number) {
  return { ReadCapacityUnits: read, WriteCapacityUnits: write };
}

/** `SourceTableDetails` of DescribeBackup. */
export function sourceTableDetails(schema: TableSchema, itemCount: number, bytes: number) {
  const details: Record<string, unknown> = {
    TableName: schema.tableName,
    TableId: schema.tableId,
    TableArn: schema.tableArn,
    TableSizeBytes: bytes,
    KeySchema: copy(schema.keySchema),
    TableCreationDateTime: schema.createdAt / 1000,
    ProvisionedThroughput: throughput(schema.readCapacityUnits, schema.writeCapacityUnits),
    ItemCount: itemCount,
    BillingMode: schema.billingMode,
  };
  if (schema.onDemand !== undefined) {
    details.OnDemandThroughput = {
      ...(schema.onDemand.maxReadRequestUnits === undefined
        ? {}
        : { MaxReadRequestUnits: schema.onDemand.maxReadRequestUnits }),
      ...(schema.onDemand.maxWriteRequestUnits === undefined
        ? {}
        : { MaxWriteRequestUnits: schema.onDemand.maxWriteRequestUnits }),
    };
  }
  return details;
}

/** `SourceTableFeatureDetails` of DescribeBackup: indexes, stream, TTL and SSE at backup time. */
export function sourceTableFeatureDetails(schema: TableSchema) {
  const details: Record<string, unknown> = {};
  if (schema.localIndexes.length > 0)
    details.LocalSecondaryIndexes = schema.localIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: copy(index.keySchema),
      Projection: copy(index.projection),
    }));
  if (schema.globalIndexes.length > 0)
    details.GlobalSecondaryIndexes = schema.globalIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: copy(index.keySchema),
      Projection: copy(index.projection),
      ProvisionedThroughput: throughput(index.readCapacityUnits, index.writeCapacityUnits),
    }));
  if (schema.stream !== undefined)
    details.StreamDescription = schema.stream.enabled
      ? { StreamEnabled: true, StreamViewType: schema.stream.viewType }
      : { StreamEnabled: false };
  details.TimeToLiveDescription = {
    TimeToLiveStatus: schema.timeToLive.status,
    ...(schema.timeToLive.attributeName === undefined
      ? {}
      : { AttributeName: schema.timeToLive.attributeName }),
  };
  if (schema.sse !== undefined)
    details.SSEDescription = {
      Status: 'ENABLED',
      SSEType: schema.sse.sseType,
      KMSMasterKeyArn: schema.sse.kmsMasterKeyArn,
    };
  return details;
}

/** The overrides RestoreTableFromBackup and RestoreTableToPointInTime accept. */
export interface RestoreOverrides {
  BillingModeOverride?: string;
  GlobalSecondaryIndexOverride?: Record<string, unknown>[];
  LocalSecondaryIndexOverride?: Record<string, unknown>[];
  ProvisionedThroughputOverride?: { ReadCapacityUnits: number; WriteCapacityUnits: number };
  OnDemandThroughputOverride?: Record<string, unknown>;
  SSESpecificationOverride?: Record<string, unknown>;
}

/**
 * The CreateTable input that makes the restored table: the source's keys and indexes (or the
 * index lists given as overrides), billing and throughput (or their overrides), and SSE (or its
 * override). Streams, TTL, tags and PITR settings are not restored: "you must manually set up
 * the following on the restored table: auto scaling policies, IAM policies, CloudWatch metrics
 * and alarms, tags, stream settings, TTL settings, point-in-time recovery settings"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Restore.Tutorial.html).
 * CreateTable's own validation then checks the result, overrides included.
 */
export function restoreInput(schema: TableSchema, targetTableName: string, overrides: RestoreOverrides) {
  const billing = overrides.BillingModeOverride ?? schema.billingMode;
  const onDemand = billing === 'PAY_PER_REQUEST';
  const sourceThroughput =
    schema.billingMode === 'PROVISIONED'
      ? throughput(schema.readCapacityUnits, schema.writeCapacityUnits)
      : undefined;
  const globalIndexes =
    overrides.GlobalSecondaryIndexOverride ??
    schema.globalIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: copy(index.keySchema),
      Projection: copy(index.projection),
      ...(onDemand
        ? {}
        : {
            ProvisionedThroughput:
              schema.billingMode === 'PROVISIONED'
                ? throughput(index.readCapacityUnits, index.writeCapacityUnits)
                : (overrides.ProvisionedThroughputOverride ?? undefined),
          }),
    }));
  const localIndexes =
    overrides.LocalSecondaryIndexOverride ??
    schema.localIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: copy(index.keySchema),
      Projection: copy(index.projection),
    }));
  // Only the definitions the restored keys use: CreateTable refuses unused ones.
  const used = new Set(schema.keySchema.map((element) => element.AttributeName));
  for (const index of [...globalIndexes, ...localIndexes])
    for (const element of (index.KeySchema as KeySchemaElement[] | undefined) ?? [])
      used.add(element.AttributeName);
  const input: Record<string, unknown> = {
    TableName: targetTableName,
    AttributeDefinitions: schema.attributeDefinitions.filter((definition) =>
      used.has(definition.AttributeName),
    ),
    KeySchema: copy(schema.keySchema),
    BillingMode: billing,
  };
  if (!onDemand) {
    const provisioned = overrides.ProvisionedThroughputOverride ?? sourceThroughput;
    if (provisioned !== undefined) input.ProvisionedThroughput = provisioned;
  }
  if (globalIndexes.length > 0) input.GlobalSecondaryIndexes = globalIndexes;
  if (localIndexes.length > 0) input.LocalSecondaryIndexes = localIndexes;
  const onDemandThroughput =
    overrides.OnDemandThroughputOverride ??
    (onDemand && schema.onDemand !== undefined
      ? {
          ...(schema.onDemand.maxReadRequestUnits === undefined
            ? {}
            : { MaxReadRequestUnits: schema.onDemand.maxReadRequestUnits }),
          ...(schema.onDemand.maxWriteRequestUnits === undefined
            ? {}
            : { MaxWriteRequestUnits: schema.onDemand.maxWriteRequestUnits }),
        }
      : undefined);
  if (onDemandThroughput !== undefined) input.OnDemandThroughput = onDemandThroughput;
  const sse =
    overrides.SSESpecificationOverride ??
    (schema.sse === undefined
      ? undefined
      : { Enabled: true, SSEType: 'KMS', KMSMasterKeyId: schema.sse.kmsMasterKeyArn });
  if (sse !== undefined) input.SSESpecification = sse;
  return input;
}
