import { ValidationException } from '../errors/index.js';
import {
  attributeDefinitions,
  billingMode,
  indexName,
  keySchema,
  onDemandThroughput,
  projection,
  provisionedThroughput,
  sseSpecification,
  streamSpecification,
  tableName,
  tagList,
  warmThroughput,
} from './common.js';
import type { Shape } from './shape.js';
import {
  type AttributeDefinitionInput,
  checkCreateStreamSpecification,
  checkDuplicateDefinitions,
  checkGlobalIndexKeySchema,
  checkLocalIndexKeySchema,
  checkNoOnDemandOnProvisioned,
  checkOnDemandThroughput,
  checkProjection,
  checkSseSpecification,
  checkTableClass,
  checkTableKeySchema,
  checkThroughputBounds,
  checkWarmThroughput,
  type GlobalIndexInput,
  type KeySchemaElementInput,
  type LocalIndexInput,
  MAX_GLOBAL_INDEXES,
  MAX_LOCAL_INDEXES,
  MAX_PROJECTED_ATTRIBUTES,
  type OnDemandThroughputInput,
  projectedAttributeCount,
  type SseSpecificationInput,
  type StreamSpecificationInput,
  TableMessages,
  type TagInput,
  type ThroughputInput,
  type WarmThroughputInput,
} from './tableSchema.js';
import { checkTags, MAX_TAGS, TagMessages } from './tags.js';

/**
 * CreateTable: request shape and stateless checks, in the order of docs/dynamodb.md §8.4: TableName →
 * constraint list → billing/throughput → table keys → LSIs → GSIs (existence is the action's).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
 */
export interface CreateTableInput {
  TableName: string;
  AttributeDefinitions: AttributeDefinitionInput[];
  KeySchema: KeySchemaElementInput[];
  LocalSecondaryIndexes?: LocalIndexInput[];
  GlobalSecondaryIndexes?: GlobalIndexInput[];
  BillingMode?: 'PROVISIONED' | 'PAY_PER_REQUEST';
  ProvisionedThroughput?: ThroughputInput;
  StreamSpecification?: StreamSpecificationInput;
  SSESpecification?: SseSpecificationInput;
  Tags?: TagInput[];
  TableClass?: string;
  DeletionProtectionEnabled?: boolean;
  OnDemandThroughput?: OnDemandThroughputInput;
  WarmThroughput?: WarmThroughputInput;
  ResourcePolicy?: string;
}

const localSecondaryIndex: Shape = {
  kind: 'structure',
  name: 'LocalSecondaryIndex',
  members: {
    IndexName: { ...indexName, required: true },
    KeySchema: keySchema(2),
    Projection: projection,
  },
};

const globalSecondaryIndex: Shape = {
  kind: 'structure',
  name: 'GlobalSecondaryIndex',
  members: {
    IndexName: { ...indexName, required: true },
    ProvisionedThroughput: provisionedThroughput(),
    KeySchema: keySchema(undefined),
    Projection: projection,
    OnDemandThroughput: onDemandThroughput,
    WarmThroughput: warmThroughput,
  },
};

// Member order is the order the constraint list reports in (dynalite's recordings).
export const createTableShape: Record<string, Shape> = {
  // The order the service walks them (dynalite's tests, docs/dynamodb.md §1.2.8).
  AttributeDefinitions: attributeDefinitions(true),
  TableName: tableName,
  BillingMode: billingMode,
  ProvisionedThroughput: provisionedThroughput(),
  KeySchema: keySchema(2),
  LocalSecondaryIndexes: { kind: 'list', member: localSecondaryIndex },
  GlobalSecondaryIndexes: { kind: 'list', member: globalSecondaryIndex },
  StreamSpecification: streamSpecification,
  SSESpecification: sseSpecification,
  Tags: tagList(false),
  TableClass: { kind: 'string' },
  DeletionProtectionEnabled: { kind: 'boolean' },
  OnDemandThroughput: onDemandThroughput,
  WarmThroughput: warmThroughput,
  ResourcePolicy: { kind: 'string' },
};

/** Billing mode and throughput (docs/dynamodb.md §3.1.2). */
function checkBilling(input: CreateTableInput): void {
  if (input.BillingMode === 'PAY_PER_REQUEST') {
    if (input.ProvisionedThroughput !== undefined)
      throw new ValidationException(TableMessages.noUnitsOnDemand);
  } else {
    if (input.ProvisionedThroughput === undefined)
      throw new ValidationException(TableMessages.bothUnitsRequired);
    checkThroughputBounds(input.ProvisionedThroughput);
    checkNoOnDemandOnProvisioned(input.OnDemandThroughput);
  }
  checkOnDemandThroughput(input.OnDemandThroughput);
}

/** LSIs, after the table keys (docs/dynamodb.md §3.1.4). Index names go into `seen`. */
function checkLocalIndexes(input: CreateTableInput, definitions: string[], seen: Set<string>): void {
  const indexes = input.LocalSecondaryIndexes;
  if (indexes === undefined) return;
  if (indexes.length === 0) throw new ValidationException(TableMessages.emptyLocalIndexes);
  if (input.KeySchema.length !== 2) throw new ValidationException(TableMessages.tableWithoutRange);
  const tableHash = input.KeySchema[0]!.AttributeName;
  for (const index of indexes) {
    checkLocalIndexKeySchema(index, definitions, tableHash);
    checkProjection(index.Projection);
    if (seen.has(index.IndexName))
      throw new ValidationException(TableMessages.duplicateIndexName(index.IndexName));
    seen.add(index.IndexName);
  }
  if (indexes.length > MAX_LOCAL_INDEXES) throw new ValidationException(TableMessages.tooManyLocalIndexes);
}

/** GSIs, after the LSIs (docs/dynamodb.md §3.1.5, §3.1.6); names must differ from the LSIs' too. */
function checkGlobalIndexes(input: CreateTableInput, definitions: string[], seen: Set<string>): void {
  const indexes = input.GlobalSecondaryIndexes;
  if (indexes === undefined) return;
  if (indexes.length === 0) throw new ValidationException(TableMessages.emptyGlobalIndexes);
  const onDemand = input.BillingMode === 'PAY_PER_REQUEST';
  for (const index of indexes) {
    checkGlobalIndexKeySchema(index, definitions);
    checkProjection(index.Projection);
    if (onDemand && index.ProvisionedThroughput !== undefined)
      throw new ValidationException(TableMessages.indexThroughputOnDemand(index.IndexName));
    if (!onDemand && index.ProvisionedThroughput === undefined)
      throw new ValidationException(TableMessages.indexThroughputMissing(index.IndexName));
    checkThroughputBounds(index.ProvisionedThroughput);
    checkOnDemandThroughput(index.OnDemandThroughput, index.IndexName);
    if (seen.has(index.IndexName))
      throw new ValidationException(TableMessages.duplicateIndexName(index.IndexName));
    seen.add(index.IndexName);
  }
  if (indexes.length > MAX_GLOBAL_INDEXES) throw new ValidationException(TableMessages.tooManyGlobalIndexes);
}

/** With indexes, every definition must key the table or an index (docs/dynamodb.md §3.1.3). */
function checkDefinitionsUsed(input: CreateTableInput, definitions: string[]): void {
  const used: string[] = [];
  const add = (elements: KeySchemaElementInput[]) => {
    for (const element of elements)
      if (!used.includes(element.AttributeName)) used.push(element.AttributeName);
  };
  add(input.KeySchema);
  for (const index of input.LocalSecondaryIndexes ?? []) add(index.KeySchema);
  for (const index of input.GlobalSecondaryIndexes ?? []) add(index.KeySchema);
  if (definitions.some((name) => !used.includes(name)))
    throw new ValidationException(TableMessages.definitionsNotUsed(definitions, used));
}

/** Tags given at creation: at most 50, same rules as TagResource (docs/dynamodb.md §3.1.8). */
export function checkCreationTags(tags: TagInput[] | undefined): void {
  if (tags === undefined) return;
  checkTags(tags);
  if (tags.length > MAX_TAGS) throw new ValidationException(TagMessages.tooManyTags);
}

export function validateCreateTable(input: CreateTableInput): void {
  checkBilling(input);
  checkDuplicateDefinitions(input.AttributeDefinitions);
  const definitions = input.AttributeDefinitions.map((definition) => definition.AttributeName);
  const hasIndexes = input.LocalSecondaryIndexes !== undefined || input.GlobalSecondaryIndexes !== undefined;
  checkTableKeySchema(input.KeySchema, definitions, hasIndexes);
  const seen = new Set<string>();
  checkLocalIndexes(input, definitions, seen);
  checkGlobalIndexes(input, definitions, seen);
  if (hasIndexes) checkDefinitionsUsed(input, definitions);
  for (const index of input.GlobalSecondaryIndexes ?? [])
    checkWarmThroughput(index.WarmThroughput, index.ProvisionedThroughput, index.IndexName);
  checkWarmThroughput(input.WarmThroughput, input.ProvisionedThroughput);
  let projected = 0;
  for (const index of [...(input.LocalSecondaryIndexes ?? []), ...(input.GlobalSecondaryIndexes ?? [])])
    projected += projectedAttributeCount(index.Projection);
  if (projected > MAX_PROJECTED_ATTRIBUTES)
    throw new ValidationException(TableMessages.tooManyProjectedAttributes);
  checkCreateStreamSpecification(input.StreamSpecification);
  checkSseSpecification(input.SSESpecification);
  checkTableClass(input.TableClass);
  checkCreationTags(input.Tags);
}
