import { randomUUID } from 'node:crypto';
import { ResourceInUseException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { putPolicy } from '../policies/resourcePolicies.js';
import { type AttributeDefinition, type StreamViewType, Table } from '../store/table.js';
import { type CreateTableInput, createTableShape, validateCreateTable } from '../validations/createTable.js';
import { TableMessages } from '../validations/tableSchema.js';
import { describeTable } from './tableDescription.js';
import { afterTransientDelay, markIndexActive, markTableActive } from './tableLifecycle.js';
import {
  keySchemaOf,
  newGlobalIndex,
  newLocalIndex,
  onDemandOf,
  sseOf,
  startStream,
  throughputOf,
  warmOf,
} from './tableSettings.js';

/**
 * CreateTable: builds the table in CREATING state and answers its description; the table (and
 * the GSIs created with it) turn ACTIVE after the engine's transient delay (docs/dynamodb.md §3.1).
 * Everything is checked before anything is stored, so a failed call leaves nothing behind
 * (docs/dynamodb.md §3.1.8).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
 */
export const createTable = defineOperation<CreateTableInput, Record<string, unknown>>({
  name: 'CreateTable',
  changesTables: true,
  shape: createTableShape,
  // Since 2026 a name of the wrong length is a constraint-list entry, `Value 'ab' at 'tableName'
  // … length greater than or equal to 3` (docs/dynamodb.md §2.5.2).
  controlPlaneTableName: 'presence',
  validate: validateCreateTable,
  execute({ engine, region, request }, input) {
    if (region.tables.has(input.TableName))
      throw new ResourceInUseException(TableMessages.tableExists(input.TableName));
    const onDemand = input.BillingMode === 'PAY_PER_REQUEST';
    const definitions: AttributeDefinition[] = input.AttributeDefinitions.map((definition) => ({
      AttributeName: definition.AttributeName,
      AttributeType: definition.AttributeType as AttributeDefinition['AttributeType'],
    }));
    const table = new Table({
      name: input.TableName,
      tableId: randomUUID(),
      arn: region.tableArn(input.TableName),
      createdAt: engine.clock.now(),
      status: 'CREATING',
      attributeDefinitions: definitions,
      keySchema: keySchemaOf(input.KeySchema),
      billingMode: onDemand ? 'PAY_PER_REQUEST' : 'PROVISIONED',
      throughput: throughputOf(onDemand ? undefined : input.ProvisionedThroughput),
      tableClass: input.TableClass,
      deletionProtectionEnabled: input.DeletionProtectionEnabled ?? false,
    });
    for (const index of input.LocalSecondaryIndexes ?? [])
      table.localSecondaryIndexes.set(index.IndexName, newLocalIndex(table, index, definitions));
    for (const index of input.GlobalSecondaryIndexes ?? [])
      table.globalSecondaryIndexes.set(index.IndexName, newGlobalIndex(table, index, definitions, false));
    const stream = input.StreamSpecification;
    if (stream?.StreamEnabled)
      startStream(region, table, stream.StreamViewType as StreamViewType, table.createdAt);
    if (input.SSESpecification?.Enabled === true)
      table.sse = sseOf(input.SSESpecification, request.region, request.accountId);
    table.onDemandThroughput = onDemandOf(input.OnDemandThroughput);
    table.warmThroughput = warmOf(input.WarmThroughput);
    for (const tag of input.Tags ?? []) table.tags.set(tag.Key, tag.Value);

    if (input.ResourcePolicy !== undefined) putPolicy(table, input.ResourcePolicy, table.createdAt);
    region.tables.set(table.name, table);
    const response = { TableDescription: describeTable(table, engine.clock.now()) };
    afterTransientDelay(
      engine,
      table,
      () => {
        markTableActive(table);
        for (const index of table.globalSecondaryIndexes.values()) markIndexActive(table, index);
      },
      region,
    );
    return response;
  },
});
