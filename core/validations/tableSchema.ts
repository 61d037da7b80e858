import { ValidationException } from '../errors/index.js';

/**
 * Key-schema, index and throughput rules shared by CreateTable and UpdateTable (docs/dynamodb.md §3.1–§3.3),
 * with the service's messages. Each check throws the first failure, in the order of docs/dynamodb.md §8.4.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
 */

export interface KeySchemaElementInput {
  AttributeName: string;
  KeyType: string;
}
export interface AttributeDefinitionInput {
  AttributeName: string;
  AttributeType: string;
}
export interface ProjectionInput {
  ProjectionType?: string;
  NonKeyAttributes?: string[];
}
export interface ThroughputInput {
  ReadCapacityUnits: number;
  WriteCapacityUnits: number;
}
export interface OnDemandThroughputInput {
  MaxReadRequestUnits?: number;
  MaxWriteRequestUnits?: number;
}
export interface WarmThroughputInput {
  ReadUnitsPerSecond?: number;
  WriteUnitsPerSecond?: number;
}
export interface LocalIndexInput {
  IndexName: string;
  KeySchema: KeySchemaElementInput[];
  Projection: ProjectionInput;
}
export interface GlobalIndexInput extends LocalIndexInput {
  ProvisionedThroughput?: ThroughputInput;
  OnDemandThroughput?: OnDemandThroughputInput;
  WarmThroughput?: WarmThroughputInput;
}
export interface StreamSpecificationInput {
  StreamEnabled: boolean;
  StreamViewType?: string;
}
export interface SseSpecificationInput {
  Enabled?: boolean;
  SSEType?: string;
  KMSMasterKeyId?: string;
}
export interface TagInput {
  Key: string;
  Value: string;
}

export const INVALID = 'One or more parameter values were invalid: ';

/** A ValidationException with the service's `One or more parameter values were invalid: ` prefix. */
export function invalid(text: string): ValidationException {
  return new ValidationException(INVALID + text);
}

/** Provisioned units above 10¹² are out of bounds, read checked first (docs/dynamodb.md §3.1.2). */
export const MAX_CAPACITY_UNITS = 1_000_000_000_000;
/** Per-table index limits (docs/dynamodb.md §3.1.4, §3.1.5, §3.1.7). */
export const MAX_LOCAL_INDEXES = 5;
export const MAX_GLOBAL_INDEXES = 20;
export const MAX_PROJECTED_ATTRIBUTES = 100;
/** Multi-attribute GSI keys: up to 4 HASH and 4 RANGE attributes (docs/dynamodb.md §3.1.6). */
export const MAX_GSI_KEY_ATTRIBUTES_PER_TYPE = 4;

export const TableMessages = {
  outOfBounds: (units: number, member: string) => `Given value ${units} for ${member} is out of bounds`,
  bothUnitsRequired: `${INVALID}ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED`,
  noUnitsOnDemand: `${INVALID}Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST`,
  indexThroughputOnDemand: (index: string) =>
    `${INVALID}ProvisionedThroughput should not be specified for index: ${index} when BillingMode is PAY_PER_REQUEST`,
  indexThroughputMissing: (index: string) =>
    `${INVALID}ProvisionedThroughput is not specified for index: ${index}`,
  keysWithoutDefinition: 'Invalid KeySchema: Some index key attribute have no definition',
  keysNotDefined: (keys: string[], definitions: string[]) =>
    `${INVALID}Some index key attributes are not defined in AttributeDefinitions. Keys: [${keys.join(', ')}], AttributeDefinitions: [${definitions.join(', ')}]`,
  hashAndRangeSameName: 'Both the Hash Key and the Range Key element in the KeySchema have the same name',
  firstNotHash: 'Invalid KeySchema: The first KeySchemaElement is not a HASH key type',
  secondNotRange: 'Invalid KeySchema: The second KeySchemaElement is not a RANGE key type',
  keyCountMismatch: `${INVALID}Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions`,
  definitionsNotUsed: (definitions: string[], used: string[]) =>
    `${INVALID}Some AttributeDefinitions are not used. AttributeDefinitions: [${definitions.join(', ')}], keys used: [${used.join(', ')}]`,
  duplicateDefinition: (name: string) => `Attribute Name is duplicated: ${name}`,
  emptyLocalIndexes: `${INVALID}List of LocalSecondaryIndexes is empty`,
  emptyGlobalIndexes: `${INVALID}List of GlobalSecondaryIndexes is empty`,
  tableWithoutRange: `${INVALID}Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex`,
  indexWithoutRange: (index: string) =>
    `${INVALID}Index KeySchema does not have a range key for index: ${index}`,
  otherLeadingHash: (index: string, indexHash: string, tableHash: string) =>
    `${INVALID}Index KeySchema does not have the same leading hash key as table KeySchema for index: ${index}. index hash key: ${indexHash}, table hash key: ${tableHash}`,
  unknownProjectionType: `${INVALID}Unknown ProjectionType: null`,
  nonKeyAttributesSpecified: (type: string) =>
    `${INVALID}ProjectionType is ${type}, but NonKeyAttributes is specified`,
  nonKeyAttributesMissing: `${INVALID}ProjectionType is INCLUDE, but NonKeyAttributes is not specified`,
  duplicateNonKeyAttribute: (name: string) => `${INVALID}Duplicate element in NonKeyAttributes: ${name}`,
  tooManyProjectedAttributes: `${INVALID}Number of projected attributes in all indexes exceeds limit of ${MAX_PROJECTED_ATTRIBUTES}`,
  duplicateIndexName: (index: string) => `${INVALID}Duplicate index name: ${index}`,
  tooManyLocalIndexes: `${INVALID}Number of LocalSecondaryIndexes exceeds per-table limit of ${MAX_LOCAL_INDEXES}`,
  tooManyGlobalIndexes: `${INVALID}GlobalSecondaryIndex count exceeds the per-table limit of ${MAX_GLOBAL_INDEXES}`,
  // Multi-attribute GSI keys (docs/dynamodb.md §3.1.6): texts from 2026 recordings of the service.
  repeatedKeyAttribute: 'The KeySchema contains multiple key attributes with the same name',
  hashAfterRange: `${INVALID}All HASH key attributes must precede RANGE key attributes in the KeySchema`,
  tooManyKeyAttributes: (keyType: string) =>
    `${INVALID}The KeySchema exceeds the maximum allowed number of ${keyType} key attributes`,
  tableExists: (table: string) => `Table already exists: ${table}`,
  tableNotFound: (table: string) => `Requested resource not found: Table: ${table} not found`,
  inUse: (what: string) => `Attempt to change a resource which is still in use: ${what}`,
  streamEnabledOnCreateNeedsType: `${INVALID}Table is being created with a stream enabled, UpdateViewType is required`,
  streamDisabledOnCreateWithType: `${INVALID}Table is being created with a stream disabled, UpdateViewType should not be specified`,
  invalidTableClass:
    'Invalid table-class parameter provided. Please try again with a valid table-class value: [STANDARD, STANDARD_INFREQUENT_ACCESS].',
  sseTypeWhenDisabled: `${INVALID}SSEType can not be specified if Enabled is false`,
  kmsKeyWhenDisabled: `${INVALID}KMSMasterKeyId can not be specified if Enabled is false`,
  kmsKeyNeedsKmsType: `${INVALID}SSEType KMS is required if KMSMasterKeyId is specified`,
  aes256Unsupported: `${INVALID}SSEType AES256 is not supported`,
  onDemandOnProvisioned: (member: string, index?: string) =>
    `${INVALID}${member} for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED${index === undefined ? '' : ` for index : ${index}`}`,
  onDemandOutOfRange: (member: string, index?: string) =>
    `${INVALID}Requested ${member} for OnDemandThroughput for ${index === undefined ? 'table' : `index : ${index}`} is outside of valid range`,
} as const;

/** Throughput bounds: read first, then write (docs/dynamodb.md §3.1.2). */
export function checkThroughputBounds(throughput: ThroughputInput | undefined): void {
  if (throughput === undefined) return;
  if (throughput.ReadCapacityUnits > MAX_CAPACITY_UNITS)
    throw new ValidationException(
      TableMessages.outOfBounds(throughput.ReadCapacityUnits, 'ReadCapacityUnits'),
    );
  if (throughput.WriteCapacityUnits > MAX_CAPACITY_UNITS)
    throw new ValidationException(
      TableMessages.outOfBounds(throughput.WriteCapacityUnits, 'WriteCapacityUnits'),
    );
}

/** A provisioned table or index takes no OnDemandThroughput maximums: read first, then write. */
export function checkNoOnDemandOnProvisioned(
  value: OnDemandThroughputInput | undefined,
  index?: string,
): void {
  if (value?.MaxReadRequestUnits !== undefined)
    throw new ValidationException(TableMessages.onDemandOnProvisioned('MaxReadRequestUnits', index));
  if (value?.MaxWriteRequestUnits !== undefined)
    throw new ValidationException(TableMessages.onDemandOnProvisioned('MaxWriteRequestUnits', index));
}

/** OnDemandThroughput values: -1 (no maximum) or ≥ 1. */
export function checkOnDemandThroughput(value: OnDemandThroughputInput | undefined, index?: string): void {
  if (value === undefined) return;
  for (const member of ['MaxReadRequestUnits', 'MaxWriteRequestUnits'] as const) {
    const units = value[member];
    if (units !== undefined && units !== -1 && units < 1)
      throw new ValidationException(TableMessages.onDemandOutOfRange(member, index));
  }
}

/** The attribute names of a key schema, in order. */
function names(elements: { AttributeName: string }[]): string[] {
  return elements.map((element) => element.AttributeName);
}

/** An attribute defined twice is rejected naming it (docs/dynamodb.md §3.1.3). */
export function checkDuplicateDefinitions(definitions: AttributeDefinitionInput[]): void {
  const seen = new Set<string>();
  for (const definition of definitions) {
    if (seen.has(definition.AttributeName))
      throw new ValidationException(TableMessages.duplicateDefinition(definition.AttributeName));
    seen.add(definition.AttributeName);
  }
}

/** Undefined index keys: `Keys` lists the schema's names, `AttributeDefinitions` the request's. */
export function checkKeysDefined(keySchema: KeySchemaElementInput[], definitions: string[]): void {
  const defined = new Set(definitions);
  if (keySchema.some((element) => !defined.has(element.AttributeName)))
    throw new ValidationException(TableMessages.keysNotDefined(names(keySchema), definitions));
}

/** The same-name / HASH / RANGE checks of a one-or-two-element schema (docs/dynamodb.md §3.1.3 c–e). */
function checkClassicKeyOrder(keySchema: KeySchemaElementInput[]): void {
  const [first, second] = keySchema;
  if (second !== undefined && first!.AttributeName === second.AttributeName)
    throw new ValidationException(TableMessages.hashAndRangeSameName);
  if (first!.KeyType !== 'HASH') throw new ValidationException(TableMessages.firstNotHash);
  if (second !== undefined && second.KeyType !== 'RANGE')
    throw new ValidationException(TableMessages.secondNotRange);
}

/** The table's KeySchema against the request's definitions (docs/dynamodb.md §3.1.3 a–f). */
export function checkTableKeySchema(
  keySchema: KeySchemaElementInput[],
  definitions: string[],
  hasIndexes: boolean,
): void {
  if (keySchema.length > definitions.length)
    throw new ValidationException(TableMessages.keysWithoutDefinition);
  checkKeysDefined(keySchema, definitions);
  checkClassicKeyOrder(keySchema);
  if (!hasIndexes && keySchema.length !== definitions.length)
    throw new ValidationException(TableMessages.keyCountMismatch);
}

/** An LSI's KeySchema: same leading hash as the table, and a range key (docs/dynamodb.md §3.1.4). */
export function checkLocalIndexKeySchema(
  index: LocalIndexInput,
  definitions: string[],
  tableHash: string,
): void {
  checkKeysDefined(index.KeySchema, definitions);
  checkClassicKeyOrder(index.KeySchema);
  if (index.KeySchema.length !== 2)
    throw new ValidationException(TableMessages.indexWithoutRange(index.IndexName));
  const indexHash = index.KeySchema[0]!.AttributeName;
  if (indexHash !== tableHash)
    throw new ValidationException(TableMessages.otherLeadingHash(index.IndexName, indexHash, tableHash));
}

/**
 * A GSI's KeySchema. One or two elements keep the classic messages; longer schemas are the
 * multi-attribute keys of Nov 2025: up to 4 HASH then up to 4 RANGE attributes, no repeats
 * (docs/dynamodb.md §3.1.6).
 */
export function checkGlobalIndexKeySchema(index: LocalIndexInput, definitions: string[]): void {
  checkKeysDefined(index.KeySchema, definitions);
  const keySchema = index.KeySchema;
  if (keySchema.length === 2 && keySchema[0]!.AttributeName === keySchema[1]!.AttributeName)
    throw new ValidationException(TableMessages.hashAndRangeSameName);
  if (new Set(names(keySchema)).size !== keySchema.length)
    throw new ValidationException(TableMessages.repeatedKeyAttribute);
  if (keySchema[0]!.KeyType !== 'HASH') throw new ValidationException(TableMessages.firstNotHash);
  let seenRange = false;
  let hashCount = 0;
  let rangeCount = 0;
  for (const element of keySchema) {
    if (element.KeyType === 'RANGE') {
      seenRange = true;
      rangeCount++;
    } else {
      if (seenRange) throw new ValidationException(TableMessages.hashAfterRange);
      hashCount++;
    }
  }
  if (hashCount > MAX_GSI_KEY_ATTRIBUTES_PER_TYPE)
    throw new ValidationException(TableMessages.tooManyKeyAttributes('HASH'));
  if (rangeCount > MAX_GSI_KEY_ATTRIBUTES_PER_TYPE)
    throw new ValidationException(TableMessages.tooManyKeyAttributes('RANGE'));
}

/** ProjectionType and NonKeyAttributes (docs/dynamodb.md §3.1.4, §3.1.7). */
export function checkProjection(projection: ProjectionInput): void {
  const type = projection.ProjectionType;
  if (type === undefined) throw new ValidationException(TableMessages.unknownProjectionType);
  const nonKey = projection.NonKeyAttributes;
  if (nonKey !== undefined && type !== 'INCLUDE')
    throw new ValidationException(TableMessages.nonKeyAttributesSpecified(type));
  if (type === 'INCLUDE' && nonKey === undefined)
    throw new ValidationException(TableMessages.nonKeyAttributesMissing);
  if (nonKey !== undefined) {
    const seen = new Set<string>();
    for (const name of nonKey) {
      if (seen.has(name)) throw new ValidationException(TableMessages.duplicateNonKeyAttribute(name));
      seen.add(name);
    }
  }
}

/** Number of NonKeyAttributes an index projects (each index counts its own, docs/dynamodb.md §3.1.7). */
export function projectedAttributeCount(projection: { NonKeyAttributes?: string[] | undefined }): number {
  return projection.NonKeyAttributes?.length ?? 0;
}

/** StreamSpecification on CreateTable (docs/streams-and-lambda.md §1.6). */
export function checkCreateStreamSpecification(spec: StreamSpecificationInput | undefined): void {
  if (spec === undefined) return;
  if (spec.StreamEnabled && spec.StreamViewType === undefined)
    throw new ValidationException(TableMessages.streamEnabledOnCreateNeedsType);
  if (!spec.StreamEnabled && spec.StreamViewType !== undefined)
    throw new ValidationException(TableMessages.streamDisabledOnCreateWithType);
}

/** SSESpecification: only KMS keys are configurable; AES256 is the retired name of the default. */
export function checkSseSpecification(spec: SseSpecificationInput | undefined): void {
  if (spec === undefined) return;
  if (spec.Enabled === false) {
    if (spec.SSEType !== undefined) throw new ValidationException(TableMessages.sseTypeWhenDisabled);
    if (spec.KMSMasterKeyId !== undefined) throw new ValidationException(TableMessages.kmsKeyWhenDisabled);
    return;
  }
  if (spec.SSEType === 'AES256') throw new ValidationException(TableMessages.aes256Unsupported);
  if (spec.KMSMasterKeyId !== undefined && spec.SSEType !== 'KMS')
    throw new ValidationException(TableMessages.kmsKeyNeedsKmsType);
}

export const TABLE_CLASSES = ['STANDARD', 'STANDARD_INFREQUENT_ACCESS'] as const;

export function checkTableClass(tableClass: string | undefined): void {
  if (tableClass !== undefined && !(TABLE_CLASSES as readonly string[]).includes(tableClass))
    throw new ValidationException(TableMessages.invalidTableClass);
}

/**
 * WarmThroughput may not ask for less than the throughput the table or index starts with: its
 * provisioned units, or on demand 12,000 reads and 4,000 writes a second (moto 5.2.1's
 * CreateTable checks, which name these texts; no recording seen, docs/dynamodb.md §3.1.12).
 */
export const ON_DEMAND_WARM_READS = 12_000;
export const ON_DEMAND_WARM_WRITES = 4_000;

export function checkWarmThroughput(
  warm: WarmThroughputInput | undefined,
  throughput: { ReadCapacityUnits: number; WriteCapacityUnits: number } | undefined,
  indexName?: string,
): void {
  if (warm === undefined) return;
  const target = indexName === undefined ? 'table' : `index ${indexName}`;
  const reads = throughput?.ReadCapacityUnits ?? ON_DEMAND_WARM_READS;
  const writes = throughput?.WriteCapacityUnits ?? ON_DEMAND_WARM_WRITES;
  const floor = (units: string) =>
    throughput === undefined ? 'initial throughput for OnDemand' : `${units} of ProvisionedThroughput`;
  if (warm.ReadUnitsPerSecond !== undefined && warm.ReadUnitsPerSecond < reads) {
    throw new ValidationException(
      `${INVALID}Requested ReadUnitsPerSecond for WarmThroughput for ${target} is lower than ${floor('ReadCapacityUnits')}`,
    );
  }
  if (warm.WriteUnitsPerSecond !== undefined && warm.WriteUnitsPerSecond < writes) {
    throw new ValidationException(
      `${INVALID}Requested WriteUnitsPerSecond for WarmThroughput for ${target} is lower than ${floor('WriteCapacityUnits')}`,
    );
  }
}
