import { ResourceNotFoundException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import type { Table } from '../store/table.js';
import {
  describeTableReplicaAutoScalingShape,
  type UpdateTableReplicaAutoScalingInput,
} from '../validations/tableReplicaAutoScaling.js';
import { TableMessages } from '../validations/tableSchema.js';

/**
 * DescribeTableReplicaAutoScaling (docs/global-tables.md §2.5): each replica with its status and
 * its indexes. eddy runs no Application Auto Scaling and its global tables are on demand (a
 * provisioned table cannot get replicas without write auto scaling), so no replica carries
 * auto scaling settings: the members are absent, as the service leaves them for on-demand tables.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTableReplicaAutoScaling.html
 */
export function tableAutoScalingDescription(table: Table): Record<string, unknown> {
  const members = table.replication === undefined ? [] : [...table.replication.members.values()];
  return {
    TableName: table.name,
    TableStatus: table.status,
    Replicas: members.map((member) => ({
      RegionName: member.region.name,
      GlobalSecondaryIndexes: [...member.table.globalSecondaryIndexes.values()].map((index) => ({
        IndexName: index.name,
        IndexStatus: index.status,
      })),
      ReplicaStatus: member.settings.status,
    })),
  };
}

export const describeTableReplicaAutoScaling = defineOperation<
  Pick<UpdateTableReplicaAutoScalingInput, 'TableName'>,
  Record<string, unknown>
>({
  name: 'DescribeTableReplicaAutoScaling',
  shape: describeTableReplicaAutoScalingShape,
  controlPlaneTableName: true,
  execute({ region }, input) {
    const table = region.tables.get(input.TableName);
    if (table === undefined)
      throw new ResourceNotFoundException(TableMessages.tableNotFound(input.TableName));
    return { TableAutoScalingDescription: tableAutoScalingDescription(table) };
  },
});
