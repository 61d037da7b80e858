import { ResourceNotFoundException, ValidationException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import {
  type AutoScalingSettingsUpdateInput,
  type UpdateTableReplicaAutoScalingInput,
  updateTableReplicaAutoScalingShape,
} from '../validations/tableReplicaAutoScaling.js';
import { TableMessages } from '../validations/tableSchema.js';
import { tableAutoScalingDescription } from './describeTableReplicaAutoScaling.js';

/**
 * UpdateTableReplicaAutoScaling (docs/global-tables.md §2.5). The service rejects it on a
 * regional table ("Global table ... does not exist") and rejects auto scaling parameters on
 * on-demand replicas, except turning auto scaling off (recorded 2026). eddy's global tables are
 * on demand, so a call that only disables auto scaling answers the description and any other
 * setting is refused with the service's text.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTableReplicaAutoScaling.html
 */
export const ReplicaAutoScalingMessages = {
  notGlobal: (table: string) => `Global table with name: ‘${table}’ does not exist.`,
  onDemand: (table: string, regions: string[], parameters: string[]) =>
    `Failed to update global table with name ‘${table}‘. Replicas ${regions.map((region) => `'${region}'`).join(', ')} BillingMode is PayPerRequest. You must convert table's BillingMode to PROVISIONED to set parameters: ${parameters.map((name) => `'${name}'`).join(', ')}.`,
} as const;

/** An update that sets something: anything but `AutoScalingDisabled: true` alone. */
function sets(update: AutoScalingSettingsUpdateInput | undefined): boolean {
  if (update === undefined) return false;
  const { AutoScalingDisabled, ...rest } = update;
  return AutoScalingDisabled !== true || Object.keys(rest).length > 0;
}

export const updateTableReplicaAutoScaling = defineOperation<
  UpdateTableReplicaAutoScalingInput,
  Record<string, unknown>
>({
  name: 'UpdateTableReplicaAutoScaling',
  shape: updateTableReplicaAutoScalingShape,
  controlPlaneTableName: true,
  execute({ region }, input) {
    const table = region.tables.get(input.TableName);
    if (table === undefined)
      throw new ResourceNotFoundException(TableMessages.tableNotFound(input.TableName));
    const group = table.replication;
    if (group === undefined)
      throw new ResourceNotFoundException(ReplicaAutoScalingMessages.notGlobal(table.name));
    const parameters: string[] = [];
    if (sets(input.ProvisionedWriteCapacityAutoScalingUpdate))
      parameters.push('ProvisionedWriteCapacityAutoScalingUpdate');
    if (
      (input.GlobalSecondaryIndexUpdates ?? []).some((entry) =>
        sets(entry.ProvisionedWriteCapacityAutoScalingUpdate),
      )
    )
      parameters.push('GlobalSecondaryIndexUpdates');
    if (
      (input.ReplicaUpdates ?? []).some(
        (entry) =>
          sets(entry.ReplicaProvisionedReadCapacityAutoScalingUpdate) ||
          (entry.ReplicaGlobalSecondaryIndexUpdates ?? []).some((index) =>
            sets(index.ProvisionedReadCapacityAutoScalingUpdate),
          ),
      )
    )
      parameters.push('ReplicaUpdates');
    if (parameters.length > 0 && table.billingMode === 'PAY_PER_REQUEST')
      throw new ValidationException(
        ReplicaAutoScalingMessages.onDemand(table.name, [...group.members.keys()], parameters),
      );
    return { TableAutoScalingDescription: tableAutoScalingDescription(table) };
  },
});
