import type { Shape } from './shape.js';

/**
 * The legacy global tables operations (version 2017.11.29): request shapes only, so a malformed
 * call gets the constraint list as any other (docs/global-tables.md §6).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateGlobalTable.html
 */
export interface GlobalTableNameInput {
  GlobalTableName: string;
}

const globalTableName: Shape = {
  kind: 'string',
  required: true,
  minLength: 3,
  maxLength: 255,
  pattern: '[a-zA-Z0-9_.-]+',
};

const replica: Shape = { kind: 'structure', name: 'Replica', members: { RegionName: { kind: 'string' } } };

export const createGlobalTableShape: Record<string, Shape> = {
  GlobalTableName: globalTableName,
  ReplicationGroup: { kind: 'list', required: true, member: replica },
};

export const globalTableNameShape: Record<string, Shape> = { GlobalTableName: globalTableName };

export const updateGlobalTableShape: Record<string, Shape> = {
  GlobalTableName: globalTableName,
  ReplicaUpdates: {
    kind: 'list',
    required: true,
    member: {
      kind: 'structure',
      name: 'ReplicaUpdate',
      members: {
        Create: {
          kind: 'structure',
          name: 'CreateReplicaAction',
          members: { RegionName: { kind: 'string', required: true } },
        },
        Delete: {
          kind: 'structure',
          name: 'DeleteReplicaAction',
          members: { RegionName: { kind: 'string', required: true } },
        },
      },
    },
  },
};

export const updateGlobalTableSettingsShape: Record<string, Shape> = {
  GlobalTableName: globalTableName,
  GlobalTableBillingMode: { kind: 'string', enum: ['PROVISIONED', 'PAY_PER_REQUEST'] },
  GlobalTableProvisionedWriteCapacityUnits: { kind: 'integer', javaType: 'Long', min: 1 },
};

export const listGlobalTablesShape: Record<string, Shape> = {
  ExclusiveStartGlobalTableName: { kind: 'string', minLength: 3, maxLength: 255, pattern: '[a-zA-Z0-9_.-]+' },
  Limit: { kind: 'integer', min: 1 },
  RegionName: { kind: 'string' },
};
