import { LimitExceededException, ResourceNotFoundException, ValidationException } from '../errors/index.js';
import type { AttributeDefinition, SecondaryIndex, Table, ThroughputState } from '../store/table.js';
import {
  checkDuplicateDefinitions,
  checkGlobalIndexKeySchema,
  checkNoOnDemandOnProvisioned,
  checkOnDemandThroughput,
  checkProjection,
  checkThroughputBounds,
  type GlobalIndexInput,
  INVALID,
  MAX_CAPACITY_UNITS,
  MAX_GLOBAL_INDEXES,
  MAX_PROJECTED_ATTRIBUTES,
  projectedAttributeCount,
  TableMessages,
  type ThroughputInput,
} from '../validations/tableSchema.js';
import type { UpdateGlobalIndexInput, UpdateTableInput } from '../validations/updateTable.js';
import { markIndexActive, removeIndex } from './tableLifecycle.js';
import { newGlobalIndex, onDemandOf, throughputOf, warmOf, zeroThroughput } from './tableSettings.js';
import { carriedDecreases, countDecrease } from './throughputDecreases.js';

/**
 * UpdateTable's GlobalSecondaryIndexUpdates against the table (docs/dynamodb.md §3.3.2–§3.3.5): every entry
 * is checked before anything changes, then applied. Create adds a CREATING, backfilling index;
 * Delete marks the index DELETING; Update changes throughput (or on-demand/warm settings).
 */

export type BillingSwitch = 'toOnDemand' | 'toProvisioned' | undefined;

export interface GlobalIndexPlan {
  create: GlobalIndexInput | undefined;
  delete: SecondaryIndex | undefined;
  updates: { index: SecondaryIndex; input: UpdateGlobalIndexInput }[];
}

export const IndexMessages = {
  alreadyExists: 'Attempting to create an index which already exists',
  definitionsMissing: (index: string) =>
    `${INVALID}AttributeDefinitions is not specified for index: ${index}`,
  redefined: (name: string, existing: string, existingKey: string, next: string, nextKey: string) =>
    `${INVALID}Attributes cannot be redefined. Please check that your attribute has the same type as previously defined. Existing schema: Schema:[SchemaElement: key{${name}:${existing}:${existingKey}}] New schema: Schema:[SchemaElement: key{${name}:${next}:${nextKey}}]`,
  notGlobal: (verb: string, index: string) =>
    `Cannot ${verb} an index that is not a GlobalSecondaryIndex: ${index}`,
  notFound: (index: string, table: string) =>
    `Requested resource not found: Index ${index} for table ${table}`,
  actionBlocked:
    'This operation cannot be performed with given input values. Please contact DynamoDB service team for more info: Action Blocked: IndexUpdate',
  unitsOnDemand: (index: string) =>
    `${INVALID}Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: ${index} when BillingMode is PAY_PER_REQUEST`,
  onDemandOnly: (index: string) =>
    `${INVALID}The only Updates for index: ${index} when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput`,
  unitsRequired: (index: string) =>
    `${INVALID}Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: ${index}`,
  throughputForIndexes: (indexes: string[]) =>
    `${INVALID}ProvisionedThroughput must be specified for index: ${indexes.join(',')}`,
  /**
   * docs/dynamodb.md §3.3.5 records the table's text; the index variant ("for the index <i>") is recorded
   * only up to "current value", the rest follows the table's text with "the index".
   */
  unchanged: (subject: string, noun: 'table' | 'index', current: ThroughputState) =>
    `The provisioned throughput for ${subject} will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the ${noun}: ${current.readCapacityUnits}. Requested ReadCapacityUnits: ${current.readCapacityUnits}. Current WriteCapacityUnits provisioned for the ${noun}: ${current.writeCapacityUnits}. Requested WriteCapacityUnits: ${current.writeCapacityUnits}. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.`,
} as const;

export const ONLINE_INDEX_LIMIT =
  'Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table';

export function sameThroughput(current: ThroughputState, requested: ThroughputInput): boolean {
  return (
    current.readCapacityUnits === requested.ReadCapacityUnits &&
    current.writeCapacityUnits === requested.WriteCapacityUnits
  );
}

function present(value: object | undefined): boolean {
  return value !== undefined && Object.keys(value).length > 0;
}

/** Where an attribute keys the table or an index, as the redefinition message names it. */
function existingKeyType(table: Table, name: string): string {
  for (const element of table.keySchema) if (element.AttributeName === name) return element.KeyType;
  for (const index of table.secondaryIndexes())
    for (const element of index.keySchema) if (element.AttributeName === name) return element.KeyType;
  return 'HASH';
}

function checkCreate(
  table: Table,
  input: UpdateTableInput,
  create: GlobalIndexInput,
  onDemand: boolean,
): void {
  const name = create.IndexName;
  if (table.globalSecondaryIndexes.has(name) || table.localSecondaryIndexes.has(name))
    throw new ValidationException(IndexMessages.alreadyExists);
  // Every key attribute must be in this request's definitions, even if the table defines it.
  const requestDefinitions = input.AttributeDefinitions;
  if (requestDefinitions === undefined) throw new ValidationException(IndexMessages.definitionsMissing(name));
  checkDuplicateDefinitions(requestDefinitions);
  checkGlobalIndexKeySchema(
    create,
    requestDefinitions.map((definition) => definition.AttributeName),
  );
  checkProjection(create.Projection);
  for (const element of create.KeySchema) {
    const requested = requestDefinitions.find(
      (definition) => definition.AttributeName === element.AttributeName,
    )!;
    const existing = table.attributeDefinitions.find(
      (definition) => definition.AttributeName === element.AttributeName,
    );
    if (existing !== undefined && existing.AttributeType !== requested.AttributeType) {
      const keyType = existingKeyType(table, element.AttributeName);
      throw new ValidationException(
        IndexMessages.redefined(
          element.AttributeName,
          existing.AttributeType,
          keyType,
          requested.AttributeType,
          element.KeyType,
        ),
      );
    }
  }
  if (onDemand && create.ProvisionedThroughput !== undefined)
    throw new ValidationException(TableMessages.indexThroughputOnDemand(name));
  if (!onDemand && create.ProvisionedThroughput === undefined)
    throw new ValidationException(TableMessages.indexThroughputMissing(name));
  checkThroughputBounds(create.ProvisionedThroughput);
  if (!onDemand) checkNoOnDemandOnProvisioned(create.OnDemandThroughput, name);
  checkOnDemandThroughput(create.OnDemandThroughput, name);
  if (table.globalSecondaryIndexes.size + 1 > MAX_GLOBAL_INDEXES)
    throw new LimitExceededException(TableMessages.tooManyGlobalIndexes);
  let projected = projectedAttributeCount(create.Projection);
  for (const index of table.secondaryIndexes()) projected += projectedAttributeCount(index.projection);
  if (projected > MAX_PROJECTED_ATTRIBUTES)
    throw new ValidationException(TableMessages.tooManyProjectedAttributes);
}

/** The GSI an Update or Delete names: LSIs cannot be changed, unknown indexes are not found. */
function existingGlobalIndex(table: Table, name: string, verb: 'update' | 'delete'): SecondaryIndex {
  if (table.localSecondaryIndexes.has(name))
    throw new ValidationException(IndexMessages.notGlobal(verb, name));
  const index = table.globalSecondaryIndexes.get(name);
  if (index === undefined || index.status === 'DELETING')
    throw new ResourceNotFoundException(IndexMessages.notFound(name, table.name));
  return index;
}

function checkUpdate(
  table: Table,
  update: UpdateGlobalIndexInput,
  onDemand: boolean,
  billing: BillingSwitch,
) {
  const name = update.IndexName;
  const throughput = update.ProvisionedThroughput;
  if (
    throughput !== undefined &&
    (throughput.ReadCapacityUnits > MAX_CAPACITY_UNITS || throughput.WriteCapacityUnits > MAX_CAPACITY_UNITS)
  )
    throw new ValidationException(IndexMessages.actionBlocked);
  const index = existingGlobalIndex(table, name, 'update');
  if (onDemand) {
    if (throughput !== undefined) throw new ValidationException(IndexMessages.unitsOnDemand(name));
    if (!present(update.OnDemandThroughput) && !present(update.WarmThroughput))
      throw new ValidationException(IndexMessages.onDemandOnly(name));
    checkOnDemandThroughput(update.OnDemandThroughput, name);
  } else {
    checkNoOnDemandOnProvisioned(update.OnDemandThroughput, name);
    if (throughput === undefined && !present(update.WarmThroughput))
      throw new ValidationException(IndexMessages.unitsRequired(name));
    if (
      throughput !== undefined &&
      billing !== 'toProvisioned' &&
      sameThroughput(index.throughput!, throughput)
    )
      throw new ValidationException(IndexMessages.unchanged(`the index ${name}`, 'index', index.throughput!));
  }
  return index;
}

/** Checks every entry (in request order) and returns what to apply. */
export function planGlobalIndexUpdates(
  table: Table,
  input: UpdateTableInput,
  onDemand: boolean,
  billing: BillingSwitch,
): GlobalIndexPlan {
  const plan: GlobalIndexPlan = { create: undefined, delete: undefined, updates: [] };
  for (const entry of input.GlobalSecondaryIndexUpdates ?? []) {
    if (entry.Create !== undefined) {
      checkCreate(table, input, entry.Create, onDemand);
      plan.create = entry.Create;
    } else if (entry.Update !== undefined) {
      plan.updates.push({ index: checkUpdate(table, entry.Update, onDemand, billing), input: entry.Update });
    } else if (entry.Delete !== undefined) {
      plan.delete = existingGlobalIndex(table, entry.Delete.IndexName, 'delete');
    }
  }
  // Back to provisioned billing: every remaining GSI needs its own throughput (dynalite).
  if (billing === 'toProvisioned') {
    const missing: string[] = [];
    for (const index of table.globalSecondaryIndexes.values()) {
      if (index === plan.delete || index.status === 'DELETING') continue;
      if (!plan.updates.some((update) => update.index === index && update.input.ProvisionedThroughput))
        missing.push(index.name);
    }
    if (missing.length > 0) throw new ValidationException(IndexMessages.throughputForIndexes(missing));
  }
  return plan;
}

/**
 * A throughput change: dates now, values when the change completes (the response shows the old
 * values, docs/dynamodb.md §3.3.5). Returns the completion.
 */
export function beginThroughputChange(
  state: ThroughputState,
  requested: ThroughputInput,
  now: () => number,
): () => void {
  const increase =
    requested.ReadCapacityUnits > state.readCapacityUnits ||
    requested.WriteCapacityUnits > state.writeCapacityUnits;
  const decrease =
    requested.ReadCapacityUnits < state.readCapacityUnits ||
    requested.WriteCapacityUnits < state.writeCapacityUnits;
  const at = now();
  if (increase) state.lastIncreaseDateTime = at;
  if (decrease) state.lastDecreaseDateTime = at;
  return () => {
    const done = now();
    state.readCapacityUnits = requested.ReadCapacityUnits;
    state.writeCapacityUnits = requested.WriteCapacityUnits;
    if (increase) state.lastIncreaseDateTime = done;
    if (decrease) {
      state.lastDecreaseDateTime = done;
      countDecrease(state, done);
    }
  };
}

function settle(index: SecondaryIndex): void {
  if (index.status === 'UPDATING') index.status = 'ACTIVE';
}

/** Applies a checked plan; completions run when the update finishes. */
export function applyGlobalIndexUpdates(
  table: Table,
  input: UpdateTableInput,
  plan: GlobalIndexPlan,
  billing: BillingSwitch,
  now: () => number,
  completions: (() => void)[],
  startBackfill: (index: SecondaryIndex) => Promise<void> | 'done',
): void {
  if (plan.create !== undefined) {
    const create = plan.create;
    // Merge the definitions the new index needs; extra ones are ignored (docs/dynamodb.md §3.3.4).
    for (const element of create.KeySchema) {
      if (table.attributeDefinitions.some((definition) => definition.AttributeName === element.AttributeName))
        continue;
      const requested = input.AttributeDefinitions!.find(
        (definition) => definition.AttributeName === element.AttributeName,
      )!;
      table.attributeDefinitions.push({
        AttributeName: requested.AttributeName,
        AttributeType: requested.AttributeType as AttributeDefinition['AttributeType'],
      });
    }
    const index = newGlobalIndex(table, create, table.attributeDefinitions, true);
    table.globalSecondaryIndexes.set(index.name, index);
    // The backfill starts now; the index turns ACTIVE once it is done and the transient delay
    // has passed (docs/dynamodb.md §3.2.3).
    const backfill = startBackfill(index);
    completions.push(() => {
      if (backfill === 'done') markIndexActive(table, index);
      else void backfill.then(() => markIndexActive(table, index));
    });
  }
  if (plan.delete !== undefined) {
    const index = plan.delete;
    index.status = 'DELETING';
    completions.push(() => removeIndex(table, index));
  }
  for (const { index, input: update } of plan.updates) {
    const throughput = update.ProvisionedThroughput;
    if (throughput !== undefined) {
      index.status = 'UPDATING';
      if (billing === 'toProvisioned') {
        index.throughput = {
          ...throughputOf(throughput),
          ...carriedDecreases(index.throughput),
        };
      } else {
        completions.push(beginThroughputChange(index.throughput!, throughput, now));
      }
      completions.push(() => settle(index));
    }
    const onDemand = onDemandOf(update.OnDemandThroughput);
    if (onDemand !== undefined) index.onDemandThroughput = onDemand;
    const warm = warmOf(update.WarmThroughput);
    if (warm !== undefined) index.warmThroughput = warm;
  }
  if (billing === 'toOnDemand') {
    for (const index of table.globalSecondaryIndexes.values()) {
      if (index.status !== 'ACTIVE') continue;
      index.status = 'UPDATING';
      index.throughput = zeroThroughput(index.throughput);
      completions.push(() => settle(index));
    }
  }
}
