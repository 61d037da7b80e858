import { ValidationException } from '../errors/index.js';
import {
  attributeDefinitions,
  billingMode,
  dataPlaneTableName,
  indexName,
  keySchema,
  onDemandThroughput,
  projection,
  provisionedThroughput,
  sseSpecification,
  streamSpecification,
  warmThroughput,
} from './common.js';
import {
  planReplicaUpdates,
  ReplicaMessages,
  type ReplicaPlan,
  type ReplicationGroupUpdateInput,
  replicaUpdatesShape,
} from './replicaUpdates.js';
import type { Shape } from './shape.js';
import {
  type AttributeDefinitionInput,
  checkNoOnDemandOnProvisioned,
  checkOnDemandThroughput,
  checkSseSpecification,
  checkTableClass,
  checkThroughputBounds,
  type GlobalIndexInput,
  INVALID,
  type OnDemandThroughputInput,
  type SseSpecificationInput,
  type StreamSpecificationInput,
  TableMessages,
  type ThroughputInput,
  type WarmThroughputInput,
} from './tableSchema.js';

/**
 * UpdateTable: request shape and stateless checks, in the order of docs/dynamodb.md §8.4: TableName →
 * constraint list → nothing to update → billing → combinations → entry shape → repeated index.
 * The table-aware checks (table, index limits and lookups) are the action's.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html
 */
export interface UpdateGlobalIndexInput {
  IndexName: string;
  ProvisionedThroughput?: ThroughputInput;
  OnDemandThroughput?: OnDemandThroughputInput;
  WarmThroughput?: WarmThroughputInput;
}
export interface GlobalSecondaryIndexUpdateInput {
  Create?: GlobalIndexInput;
  Update?: UpdateGlobalIndexInput;
  Delete?: { IndexName: string };
}
export interface UpdateTableInput {
  TableName: string;
  AttributeDefinitions?: AttributeDefinitionInput[];
  BillingMode?: 'PROVISIONED' | 'PAY_PER_REQUEST';
  ProvisionedThroughput?: ThroughputInput;
  GlobalSecondaryIndexUpdates?: GlobalSecondaryIndexUpdateInput[];
  StreamSpecification?: StreamSpecificationInput;
  SSESpecification?: SseSpecificationInput;
  TableClass?: string;
  DeletionProtectionEnabled?: boolean;
  OnDemandThroughput?: OnDemandThroughputInput;
  WarmThroughput?: WarmThroughputInput;
  ReplicaUpdates?: ReplicationGroupUpdateInput[];
}

const requiredIndexName = { ...indexName, required: true };

const globalSecondaryIndexUpdate: Shape = {
  kind: 'structure',
  name: 'GlobalSecondaryIndexUpdate',
  members: {
    // Update.ProvisionedThroughput is optional since on-demand GSIs take OnDemandThroughput and
    // WarmThroughput updates instead (2026 recordings; dynalite's older ones required it).
    Update: {
      kind: 'structure',
      name: 'UpdateGlobalSecondaryIndexAction',
      members: {
        IndexName: requiredIndexName,
        ProvisionedThroughput: provisionedThroughput(),
        OnDemandThroughput: onDemandThroughput,
        WarmThroughput: warmThroughput,
      },
    },
    Create: {
      kind: 'structure',
      name: 'CreateGlobalSecondaryIndexAction',
      members: {
        IndexName: requiredIndexName,
        KeySchema: keySchema(undefined),
        Projection: projection,
        ProvisionedThroughput: provisionedThroughput(),
        OnDemandThroughput: onDemandThroughput,
        WarmThroughput: warmThroughput,
      },
    },
    Delete: {
      kind: 'structure',
      name: 'DeleteGlobalSecondaryIndexAction',
      members: { IndexName: requiredIndexName },
    },
  },
};

export const updateTableShape: Record<string, Shape> = {
  // The order the service walks them (dynalite's tests, docs/dynamodb.md §1.2.8).
  TableName: dataPlaneTableName,
  ProvisionedThroughput: provisionedThroughput(),
  BillingMode: billingMode,
  AttributeDefinitions: attributeDefinitions(false),
  GlobalSecondaryIndexUpdates: { kind: 'list', member: globalSecondaryIndexUpdate },
  StreamSpecification: streamSpecification,
  SSESpecification: sseSpecification,
  TableClass: { kind: 'string' },
  DeletionProtectionEnabled: { kind: 'boolean' },
  OnDemandThroughput: onDemandThroughput,
  WarmThroughput: warmThroughput,
  ReplicaUpdates: replicaUpdatesShape,
};

export const UpdateTableMessages = {
  // docs/dynamodb.md §3.3.1 / §9.5: dynalite's recorded text; newer AWS lists more members (unstable).
  nothingToUpdate:
    'At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required',
  throughputRequired: `${INVALID}ProvisionedThroughput must be specified when BillingMode is PROVISIONED`,
  onlyOperation: (member: string) => `${INVALID}${member} must be the only operation in the request`,
  streamWithIops: `${INVALID}You cannot modify stream status while updating table IOPS`,
  indexWithIops: `${INVALID}You cannot create or delete index while updating table IOPS`,
  indexWithStream: `${INVALID}You cannot create or delete index while changing stream status`,
  streamTypeRequired: `${INVALID}If stream is being enabled then UpdateViewType is required`,
  streamTypeForbidden: `${INVALID}If stream is being disabled, then UpdateViewType must not be specified`,
  noAction: `${INVALID}One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null`,
  severalActions: `${INVALID}Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object`,
  repeatedIndex: (index: string) =>
    `${INVALID}Only one global secondary index update per index is allowed simultaneously. Index: ${index}`,
} as const;

/** An empty WarmThroughput/OnDemandThroughput struct counts as absent (2026 recordings). */
function present(value: object | undefined): boolean {
  return value !== undefined && Object.keys(value).length > 0;
}

/** The index an entry names, whichever action it holds. */
export function entryIndexName(entry: GlobalSecondaryIndexUpdateInput): string {
  return (entry.Create ?? entry.Update ?? entry.Delete)!.IndexName;
}

/** Whether the request creates or deletes an index (an "online index" action, docs/dynamodb.md §3.3.3). */
export function createsOrDeletesIndex(input: UpdateTableInput): boolean {
  return (input.GlobalSecondaryIndexUpdates ?? []).some((entry) => entry.Create || entry.Delete);
}

export function validateUpdateTable(input: UpdateTableInput): ReplicaPlan | undefined {
  const indexUpdates = input.GlobalSecondaryIndexUpdates ?? [];
  // The members that change something (AttributeDefinitions alone does not, docs/dynamodb.md §3.3.1).
  const changes = {
    ProvisionedThroughput: input.ProvisionedThroughput !== undefined,
    BillingMode: input.BillingMode !== undefined,
    StreamSpecification: input.StreamSpecification !== undefined,
    GlobalSecondaryIndexUpdates: indexUpdates.length > 0,
    SSESpecification: input.SSESpecification !== undefined,
    TableClass: input.TableClass !== undefined,
    DeletionProtectionEnabled: input.DeletionProtectionEnabled !== undefined,
    OnDemandThroughput: present(input.OnDemandThroughput),
    WarmThroughput: present(input.WarmThroughput),
    ReplicaUpdates: input.ReplicaUpdates !== undefined,
  };
  const changed = Object.values(changes).filter(Boolean).length;
  if (changed === 0) throw new ValidationException(UpdateTableMessages.nothingToUpdate);

  // Billing (docs/dynamodb.md §3.3.5, §3.1.2).
  checkThroughputBounds(input.ProvisionedThroughput);
  if (input.BillingMode === 'PROVISIONED' && input.ProvisionedThroughput === undefined)
    throw new ValidationException(UpdateTableMessages.throughputRequired);
  if (input.BillingMode === 'PAY_PER_REQUEST' && input.ProvisionedThroughput !== undefined)
    throw new ValidationException(TableMessages.noUnitsOnDemand);
  if (input.BillingMode === 'PROVISIONED') checkNoOnDemandOnProvisioned(input.OnDemandThroughput);
  checkOnDemandThroughput(input.OnDemandThroughput);

  // Settings that must travel alone (2026 recordings). ReplicaUpdates "must be the only
  // operation in the call (validated before any state check)" (docs/global-tables.md §2.3).
  if (changed > 1) {
    if (changes.ReplicaUpdates) throw new ValidationException(ReplicaMessages.onlyOperation);
    if (changes.SSESpecification)
      throw new ValidationException(UpdateTableMessages.onlyOperation('Server-Side Encryption modification'));
    if (changes.TableClass)
      throw new ValidationException(UpdateTableMessages.onlyOperation('TableClass modification'));
    if (changes.DeletionProtectionEnabled)
      throw new ValidationException(UpdateTableMessages.onlyOperation('DeletionProtection modification'));
    if (changes.WarmThroughput)
      throw new ValidationException(UpdateTableMessages.onlyOperation('WarmThroughput'));
  }
  const onlineIndexAction = createsOrDeletesIndex(input);
  if (changes.ProvisionedThroughput && changes.StreamSpecification)
    throw new ValidationException(UpdateTableMessages.streamWithIops);
  if (changes.ProvisionedThroughput && onlineIndexAction)
    throw new ValidationException(UpdateTableMessages.indexWithIops);
  if (changes.StreamSpecification && onlineIndexAction)
    throw new ValidationException(UpdateTableMessages.indexWithStream);

  // Streams (docs/streams-and-lambda.md §1.6).
  const stream = input.StreamSpecification;
  if (stream?.StreamEnabled === true && stream.StreamViewType === undefined)
    throw new ValidationException(UpdateTableMessages.streamTypeRequired);
  if (stream?.StreamEnabled === false && stream.StreamViewType !== undefined)
    throw new ValidationException(UpdateTableMessages.streamTypeForbidden);
  checkSseSpecification(input.SSESpecification);
  checkTableClass(input.TableClass);

  // Entry shape, then one update per index (docs/dynamodb.md §3.3.2).
  const names = new Set<string>();
  for (const entry of indexUpdates) {
    const actions = [entry.Create, entry.Update, entry.Delete].filter(
      (action) => action !== undefined,
    ).length;
    if (actions === 0) throw new ValidationException(UpdateTableMessages.noAction);
    if (actions > 1) throw new ValidationException(UpdateTableMessages.severalActions);
    const name = entryIndexName(entry);
    if (names.has(name)) throw new ValidationException(UpdateTableMessages.repeatedIndex(name));
    names.add(name);
  }
  return input.ReplicaUpdates === undefined ? undefined : planReplicaUpdates(input.ReplicaUpdates);
}
