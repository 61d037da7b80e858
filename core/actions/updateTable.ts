import {
  LimitExceededException,
  ResourceInUseException,
  ResourceNotFoundException,
  ValidationException,
} from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { checkGroupIdle, checkNoReplicaBeingAdded } from '../replication/settingsPropagation.js';
import type { Region } from '../store/region.js';
import type { StreamViewType, Table } from '../store/table.js';
import { ReplicaMessages, type ReplicaPlan } from '../validations/replicaUpdates.js';
import { checkNoOnDemandOnProvisioned, INVALID, TableMessages } from '../validations/tableSchema.js';
import {
  createsOrDeletesIndex,
  type UpdateTableInput,
  updateTableShape,
  validateUpdateTable,
} from '../validations/updateTable.js';
import {
  applyGlobalIndexUpdates,
  type BillingSwitch,
  beginThroughputChange,
  IndexMessages,
  ONLINE_INDEX_LIMIT,
  planGlobalIndexUpdates,
  sameThroughput,
} from './globalIndexUpdates.js';
import { planReplicaSettings } from './replicaSettings.js';
import { applyReplicaUpdates } from './replicaUpdates.js';
import { describeTable } from './tableDescription.js';
import { afterTransientDelay, markTableActive } from './tableLifecycle.js';
import { onDemandOf, sseOf, startStream, warmOf, zeroThroughput } from './tableSettings.js';
import { carriedDecreases, checkDecreaseAllowed, isDecrease } from './throughputDecreases.js';

/**
 * UpdateTable (docs/dynamodb.md §3.3): billing mode, throughput, stream, encryption, table class, deletion
 * protection and GSI changes. Every check runs before anything changes, so a rejected call
 * changes nothing.
 *
 * The response shows TableStatus UPDATING with the old throughput (docs/dynamodb.md §3.3.5), new GSIs
 * CREATING and backfilling, deleted ones DELETING; after the engine's transient delay (at once
 * when it is 0) the table is ACTIVE again with the new values. Turning deletion protection on or
 * off alone leaves the table ACTIVE: there is nothing to wait for.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html
 */

export const UpdateTableStateMessages = {
  streamAlreadyEnabled: (table: string) => `Table already has an enabled stream: TableName: ${table}`,
  noStreamToDisable: (table: string) => `Table has no stream to disable: TableName: ${table}`,
  encryptedByDefault: `${INVALID}Table is already encrypted by default`,
  sameKmsKey: `${INVALID}Table is already encrypted with given KMSMasterKeyId. Use KMSMasterKeyId parameter if you want to change Master Key`,
} as const;

/**
 * The table an UpdateTable names, when it may change (ACTIVE). A member of a global table waits
 * for the whole group: a replica action while a replica is being added is refused first
 * (DDB-TABLE-442), any other change with the detail-free text (DDB-TABLE-444).
 */
function updatableTable(region: Region, name: string, replicaAction: boolean): Table {
  const table = region.tables.get(name);
  if (table === undefined) throw new ResourceNotFoundException(TableMessages.tableNotFound(name));
  if (replicaAction) checkNoReplicaBeingAdded(table);
  checkGroupIdle(table);
  if (table.status === 'CREATING')
    throw new ResourceInUseException(TableMessages.inUse(`Table is being created: ${name}`));
  if (table.status === 'UPDATING')
    throw new ResourceInUseException(TableMessages.inUse(`Table is being updated: ${name}`));
  if (table.status === 'DELETING')
    throw new ResourceInUseException(TableMessages.inUse(`Table is being deleted: ${name}`));
  return table;
}

/**
 * The daily decrease limit, for the table and each GSI apart; one refused decrease refuses the
 * whole call (docs/capacity.md §2.3).
 */
function checkDecreases(table: Table, input: UpdateTableInput, billing: BillingSwitch, now: number): void {
  if (table.billingMode !== 'PROVISIONED' || billing !== undefined) return;
  const requested = input.ProvisionedThroughput;
  if (requested !== undefined && isDecrease(table.throughput, requested))
    checkDecreaseAllowed(table.throughput, now);
  for (const entry of input.GlobalSecondaryIndexUpdates ?? []) {
    const update = entry.Update;
    if (update?.ProvisionedThroughput === undefined) continue;
    const throughput = table.globalSecondaryIndexes.get(update.IndexName)?.throughput;
    if (throughput !== undefined && isDecrease(throughput, update.ProvisionedThroughput))
      checkDecreaseAllowed(throughput, now);
  }
}

function billingSwitchOf(table: Table, input: UpdateTableInput): BillingSwitch {
  if (input.BillingMode === undefined || input.BillingMode === table.billingMode) return undefined;
  return input.BillingMode === 'PAY_PER_REQUEST' ? 'toOnDemand' : 'toProvisioned';
}

function checkStream(table: Table, input: UpdateTableInput): void {
  const spec = input.StreamSpecification;
  if (spec === undefined) return;
  // Changing the view type needs a disable first: enabling an enabled stream fails
  // (docs/streams-and-lambda.md §1.6.2).
  if (spec.StreamEnabled && table.stream?.enabled)
    throw new ValidationException(UpdateTableStateMessages.streamAlreadyEnabled(table.name));
  // A global table's stream stays while it has replicas (recorded 2026, docs/global-tables.md §2.2).
  if (!spec.StreamEnabled && table.replication !== undefined && table.stream?.enabled)
    throw new ValidationException(ReplicaMessages.streamDisable);
  if (!spec.StreamEnabled && !table.stream?.enabled)
    throw new ValidationException(UpdateTableStateMessages.noStreamToDisable(table.name));
}

function checkEncryption(table: Table, input: UpdateTableInput, region: string, accountId: string): void {
  const spec = input.SSESpecification;
  if (spec === undefined) return;
  if (spec.Enabled !== true) {
    if (table.sse === undefined) throw new ValidationException(UpdateTableStateMessages.encryptedByDefault);
    return;
  }
  if (
    table.sse !== undefined &&
    (spec.KMSMasterKeyId === undefined ||
      sseOf(spec, region, accountId).kmsMasterKeyArn === table.sse.kmsMasterKeyArn)
  )
    throw new ValidationException(UpdateTableStateMessages.sameKmsKey);
}

export const updateTable = defineOperation<
  UpdateTableInput,
  Record<string, unknown>,
  ReplicaPlan | undefined
>({
  name: 'UpdateTable',
  changesTables: true,
  shape: updateTableShape,
  controlPlaneTableName: true,
  validate: validateUpdateTable,
  execute({ engine, region, request }, input, replicaPlan) {
    const table = updatableTable(region, input.TableName, replicaPlan !== undefined);
    if (replicaPlan !== undefined) return applyReplicaUpdates(engine, region, table, replicaPlan);
    const indexUpdates = input.GlobalSecondaryIndexUpdates ?? [];
    if (indexUpdates.filter((entry) => entry.Create || entry.Delete).length > 1)
      throw new LimitExceededException(ONLINE_INDEX_LIMIT);
    if (
      createsOrDeletesIndex(input) &&
      [...table.globalSecondaryIndexes.values()].some((index) => index.status !== 'ACTIVE')
    )
      throw new LimitExceededException(ONLINE_INDEX_LIMIT);

    const billing = billingSwitchOf(table, input);
    // A global table's write capacity must be on demand or auto scaled, and eddy runs no auto
    // scaling (docs/global-tables.md §2.2, §2.6).
    if (billing === 'toProvisioned' && table.replication !== undefined)
      throw new ValidationException(ReplicaMessages.writeNotAutoScaled);
    const onDemand = (input.BillingMode ?? table.billingMode) === 'PAY_PER_REQUEST';
    if (onDemand && input.ProvisionedThroughput !== undefined)
      throw new ValidationException(TableMessages.noUnitsOnDemand);
    if (!onDemand) checkNoOnDemandOnProvisioned(input.OnDemandThroughput);
    checkStream(table, input);
    checkEncryption(table, input, request.region, request.accountId);
    const plan = planGlobalIndexUpdates(table, input, onDemand, billing);
    const requested = input.ProvisionedThroughput;
    if (
      requested !== undefined &&
      table.billingMode === 'PROVISIONED' &&
      billing === undefined &&
      sameThroughput(table.throughput, requested)
    )
      throw new ValidationException(IndexMessages.unchanged('the table', 'table', table.throughput));

    checkDecreases(table, input, billing, engine.clock.now());
    // The other replicas take the group's part of the change (checked now, applied below).
    const propagateToReplicas = planReplicaSettings(engine, region, table, input);

    // Everything is checked: apply.
    const now = () => engine.clock.now();
    const completions: (() => void)[] = [];
    if (billing === 'toOnDemand') {
      table.billingMode = 'PAY_PER_REQUEST';
      table.throughput = zeroThroughput(table.throughput);
      completions.push(() => {
        table.lastUpdateToPayPerRequestAt = now();
      });
    } else if (billing === 'toProvisioned') {
      table.billingMode = 'PROVISIONED';
      table.throughput = {
        readCapacityUnits: requested!.ReadCapacityUnits,
        writeCapacityUnits: requested!.WriteCapacityUnits,
        ...carriedDecreases(table.throughput),
      };
    } else if (requested !== undefined) {
      completions.push(beginThroughputChange(table.throughput, requested, now));
    }
    applyGlobalIndexUpdates(table, input, plan, billing, now, completions, (index) =>
      engine.indexes.backfill(table, index),
    );
    const stream = input.StreamSpecification;
    if (stream?.StreamEnabled) startStream(region, table, stream.StreamViewType as StreamViewType, now());
    else if (stream !== undefined) table.stream!.enabled = false;
    if (input.SSESpecification !== undefined)
      table.sse =
        input.SSESpecification.Enabled === true
          ? sseOf(input.SSESpecification, request.region, request.accountId)
          : undefined;
    if (input.TableClass !== undefined) table.tableClass = input.TableClass;
    if (input.DeletionProtectionEnabled !== undefined)
      table.deletionProtectionEnabled = input.DeletionProtectionEnabled;
    const onDemandThroughput = onDemandOf(input.OnDemandThroughput);
    if (onDemandThroughput !== undefined) table.onDemandThroughput = onDemandThroughput;
    const warm = warmOf(input.WarmThroughput);
    if (warm !== undefined) table.warmThroughput = warm;

    propagateToReplicas?.();

    // DeletionProtectionEnabled travels alone (validation), and changes nothing to wait for.
    const protectionOnly = input.DeletionProtectionEnabled !== undefined;
    if (!protectionOnly) table.status = 'UPDATING';
    const response = { TableDescription: describeTable(table, engine.clock.now()) };
    if (!protectionOnly)
      afterTransientDelay(
        engine,
        table,
        () => {
          for (const complete of completions) complete();
          markTableActive(table);
        },
        region,
      );
    return response;
  },
});
