import { dataPlaneTableName } from './common.js';
import type { Shape, StructureShape } from './shape.js';

/**
 * DescribeTableReplicaAutoScaling and UpdateTableReplicaAutoScaling: request shapes
 * (docs/global-tables.md §2.5).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTableReplicaAutoScaling.html
 */
export interface AutoScalingSettingsUpdateInput {
  MinimumUnits?: number;
  MaximumUnits?: number;
  AutoScalingDisabled?: boolean;
  AutoScalingRoleArn?: string;
  ScalingPolicyUpdate?: Record<string, unknown>;
}

export interface UpdateTableReplicaAutoScalingInput {
  TableName: string;
  GlobalSecondaryIndexUpdates?: {
    IndexName?: string;
    ProvisionedWriteCapacityAutoScalingUpdate?: AutoScalingSettingsUpdateInput;
  }[];
  ProvisionedWriteCapacityAutoScalingUpdate?: AutoScalingSettingsUpdateInput;
  ReplicaUpdates?: {
    RegionName: string;
    ReplicaGlobalSecondaryIndexUpdates?: {
      IndexName?: string;
      ProvisionedReadCapacityAutoScalingUpdate?: AutoScalingSettingsUpdateInput;
    }[];
    ReplicaProvisionedReadCapacityAutoScalingUpdate?: AutoScalingSettingsUpdateInput;
  }[];
}

const indexName: Shape = { kind: 'string', minLength: 3, maxLength: 255, pattern: '[a-zA-Z0-9_.-]+' };

const settingsUpdate: StructureShape = {
  kind: 'structure',
  name: 'AutoScalingSettingsUpdate',
  members: {
    MinimumUnits: { kind: 'integer', javaType: 'Long', min: 1 },
    MaximumUnits: { kind: 'integer', javaType: 'Long', min: 1 },
    AutoScalingDisabled: { kind: 'boolean' },
    AutoScalingRoleArn: { kind: 'string', minLength: 1, maxLength: 1600 },
    ScalingPolicyUpdate: {
      kind: 'structure',
      name: 'AutoScalingPolicyUpdate',
      members: {
        PolicyName: { kind: 'string', minLength: 1, maxLength: 256 },
        TargetTrackingScalingPolicyConfiguration: {
          kind: 'structure',
          name: 'AutoScalingTargetTrackingScalingPolicyConfigurationUpdate',
          required: true,
          members: {
            DisableScaleIn: { kind: 'boolean' },
            ScaleInCooldown: { kind: 'integer' },
            ScaleOutCooldown: { kind: 'integer' },
          },
        },
      },
    },
  },
};

export const describeTableReplicaAutoScalingShape: Record<string, Shape> = { TableName: dataPlaneTableName };

export const updateTableReplicaAutoScalingShape: Record<string, Shape> = {
  TableName: dataPlaneTableName,
  GlobalSecondaryIndexUpdates: {
    kind: 'list',
    minLength: 1,
    member: {
      kind: 'structure',
      name: 'GlobalSecondaryIndexAutoScalingUpdate',
      members: { IndexName: indexName, ProvisionedWriteCapacityAutoScalingUpdate: settingsUpdate },
    },
  },
  ProvisionedWriteCapacityAutoScalingUpdate: settingsUpdate,
  ReplicaUpdates: {
    kind: 'list',
    minLength: 1,
    member: {
      kind: 'structure',
      name: 'ReplicaAutoScalingUpdate',
      members: {
        RegionName: { kind: 'string', required: true },
        ReplicaGlobalSecondaryIndexUpdates: {
          kind: 'list',
          member: {
            kind: 'structure',
            name: 'ReplicaGlobalSecondaryIndexAutoScalingUpdate',
            members: { IndexName: indexName, ProvisionedReadCapacityAutoScalingUpdate: settingsUpdate },
          },
        },
        ReplicaProvisionedReadCapacityAutoScalingUpdate: settingsUpdate,
      },
    },
  },
};
