import { ValidationException } from '../errors/index.js';
import type { ListShape, Shape, StructureShape } from './shape.js';
import { INVALID, TableMessages } from './tableSchema.js';

/**
 * UpdateTable's `ReplicaUpdates` (global tables version 2019.11.21, docs/global-tables.md §2):
 * shape and the checks that need no table.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ReplicationGroupUpdate.html
 */

export interface ReplicaIndexInput {
  IndexName: string;
  ProvisionedThroughputOverride?: { ReadCapacityUnits?: number };
  OnDemandThroughputOverride?: { MaxReadRequestUnits?: number };
}

export interface ReplicaMemberInput {
  RegionName: string;
  KMSMasterKeyId?: string;
  ProvisionedThroughputOverride?: { ReadCapacityUnits?: number };
  OnDemandThroughputOverride?: { MaxReadRequestUnits?: number };
  GlobalSecondaryIndexes?: ReplicaIndexInput[];
  TableClassOverride?: string;
}

export interface ReplicationGroupUpdateInput {
  Create?: ReplicaMemberInput;
  Update?: ReplicaMemberInput;
  Delete?: { RegionName: string };
}

const regionName = { kind: 'string', required: true } as const;

const provisionedOverride: StructureShape = {
  kind: 'structure',
  name: 'ProvisionedThroughputOverride',
  members: { ReadCapacityUnits: { kind: 'integer', javaType: 'Long', min: 1 } },
};

const onDemandOverride: StructureShape = {
  kind: 'structure',
  name: 'OnDemandThroughputOverride',
  members: { MaxReadRequestUnits: { kind: 'integer', javaType: 'Long' } },
};

const replicaIndexes: ListShape = {
  kind: 'list',
  minLength: 1,
  member: {
    kind: 'structure',
    name: 'ReplicaGlobalSecondaryIndex',
    members: {
      IndexName: { kind: 'string', required: true, minLength: 3, maxLength: 255, pattern: '[a-zA-Z0-9_.-]+' },
      ProvisionedThroughputOverride: provisionedOverride,
      OnDemandThroughputOverride: onDemandOverride,
    },
  },
};

const memberAction = (name: string): StructureShape => ({
  kind: 'structure',
  name,
  members: {
    RegionName: regionName,
    KMSMasterKeyId: { kind: 'string' },
    ProvisionedThroughputOverride: provisionedOverride,
    OnDemandThroughputOverride: onDemandOverride,
    GlobalSecondaryIndexes: replicaIndexes,
    TableClassOverride: { kind: 'string', enum: ['STANDARD', 'STANDARD_INFREQUENT_ACCESS'] },
  },
});

export const replicaUpdatesShape: Shape = {
  kind: 'list',
  minLength: 1,
  member: {
    kind: 'structure',
    name: 'ReplicationGroupUpdate',
    members: {
      Create: memberAction('CreateReplicationGroupMemberAction'),
      Update: memberAction('UpdateReplicationGroupMemberAction'),
      Delete: {
        kind: 'structure',
        name: 'DeleteReplicationGroupMemberAction',
        members: { RegionName: regionName },
      },
    },
  },
};

/**
 * The regions a replica may be made in: AWS's commercial regions that serve global tables
 * version 2019.11.21 (https://docs.aws.amazon.com/general/latest/gr/ddb.html, 2026). The
 * recording listed 36 names without quoting them; this is eddy's list, in the service's
 * order of region codes. eddy itself serves any region name, but a replica in a region AWS does
 * not have would be a program that cannot run on AWS.
 */
export const GLOBAL_TABLE_REGIONS: readonly string[] = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'af-south-1',
  'ap-east-1',
  'ap-east-2',
  'ap-south-1',
  'ap-south-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-southeast-5',
  'ap-southeast-6',
  'ap-southeast-7',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ca-central-1',
  'ca-west-1',
  'eu-central-1',
  'eu-central-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-south-1',
  'eu-south-2',
  'eu-north-1',
  'il-central-1',
  'me-central-1',
  'me-south-1',
  'mx-central-1',
  'sa-east-1',
];

const SERVED_REGIONS = new Set(GLOBAL_TABLE_REGIONS);

/** The service's texts (2026 recordings, docs/global-tables.md §2.3). */
export const ReplicaMessages = {
  // DDB-TABLE-442's catalogue: "Replica modification must be the only operation in the request".
  onlyOperation: `${INVALID}Replica modification must be the only operation in the request`,
  // DDB-TABLE-457 (a Delete of RegionName '' listed 36 regions) and DDB-TABLE-442.
  regionNotSupported: (region: string) =>
    `Region ${region} is not supported. The latest version of global tables are only supported in the following regions: [${GLOBAL_TABLE_REGIONS.join(', ')}].`,
  noActions: 'There are no actions specified in the Replica Update Action of the request.',
  mixedActions: 'Update table operation with more than one type of replica actions not allowed.',
  severalCreateOrDelete:
    'Update table operation with more than one create or delete replica actions not allowed',
  localRegion:
    'Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required.',
  alreadyExists: (table: string) =>
    `Failed to create a the new replica of table with name: ‘${table}’ because one or more replicas already existed as tables.`,
  notMembers: (regions: string[]) =>
    `Update global table operation failed because one or more replicas were not part of the global table. Please retry the request without these replicas: [${regions.join(', ')}].`,
  writeNotAutoScaled: 'Table write capacity should either be Pay-Per-Request or AutoScaled.',
  streamDisable: `${INVALID}Disabling Stream is not allowed for a Global Table replica.`,
  sourceRegion:
    'Replica cannot be deleted because it has acted as a source region for new replica(s) being added to the table in the last 24 hours.',
  noUnitsOnDemand: TableMessages.noUnitsOnDemand,
} as const;

/** What one call asks: at most one Create or Delete (two equal Creates count once), or Updates. */
export interface ReplicaPlan {
  readonly create: ReplicaMemberInput | undefined;
  readonly delete: string | undefined;
  readonly updates: ReplicaMemberInput[];
}

/**
 * The stateless checks, in the service's order: each element holds exactly one action; a call
 * creates or deletes one replica at most ("EVENTUAL groups take exactly one Create or Delete per
 * call; two identical Creates for one region are de-duplicated").
 */
export function planReplicaUpdates(updates: ReplicationGroupUpdateInput[]): ReplicaPlan {
  const creates: ReplicaMemberInput[] = [];
  const deletes = new Set<string>();
  const updatesOut: ReplicaMemberInput[] = [];
  for (const element of updates) {
    const actions = [element.Create, element.Update, element.Delete].filter((action) => action !== undefined);
    if (actions.length === 0) throw new ValidationException(ReplicaMessages.noActions);
    if (actions.length > 1) throw new ValidationException(ReplicaMessages.mixedActions);
    const target = actions[0]!.RegionName;
    if (!SERVED_REGIONS.has(target))
      throw new ValidationException(ReplicaMessages.regionNotSupported(target));
    if (element.Create !== undefined) {
      const text = JSON.stringify(element.Create);
      if (!creates.some((create) => JSON.stringify(create) === text)) creates.push(element.Create);
    } else if (element.Delete !== undefined) deletes.add(element.Delete.RegionName);
    else {
      const update = element.Update!;
      const { RegionName: _region, ...changes } = update;
      if (Object.keys(changes).length === 0) throw new ValidationException(ReplicaMessages.noActions);
      updatesOut.push(update);
    }
  }
  const kinds = [creates.length > 0, deletes.size > 0, updatesOut.length > 0].filter(Boolean).length;
  if (kinds > 1) throw new ValidationException(ReplicaMessages.mixedActions);
  if (creates.length > 1 || deletes.size > 1)
    throw new ValidationException(ReplicaMessages.severalCreateOrDelete);
  return {
    create: creates[0],
    delete: deletes.values().next().value,
    updates: updatesOut,
  };
}
