import { ResourceInUseException, ResourceNotFoundException, ValidationException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { GlobalTableBusyMessages } from '../replication/settingsPropagation.js';
import { DELETION_PROTECTED, type DeleteTableInput, deleteTableShape } from '../validations/deleteTable.js';
import { ReplicaMessages } from '../validations/replicaUpdates.js';
import { TableMessages } from '../validations/tableSchema.js';
import { actedAsSource, announceMembers } from './replicaUpdates.js';
import { describeDeletedTable } from './tableDescription.js';
import { afterTransientDelay, cancelTransitions, finishDeletion, tagsUpdating } from './tableLifecycle.js';

/**
 * DeleteTable: the table turns DELETING and leaves its region after the engine's transient delay
 * (at once when it is 0); the response shows DELETING either way (docs/dynamodb.md §3.4.1). A table still
 * being created, updated or re-tagged is in use; a table already DELETING answers again without
 * error, as the API reference says.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteTable.html
 */
export const deleteTable = defineOperation<DeleteTableInput, Record<string, unknown>>({
  name: 'DeleteTable',
  changesTables: true,
  shape: deleteTableShape,
  controlPlaneTableName: true,
  execute({ engine, region }, input) {
    const table = region.tables.get(input.TableName);
    if (table === undefined)
      throw new ResourceNotFoundException(TableMessages.tableNotFound(input.TableName));
    // A member of a global table that is not ACTIVE (being deleted included) answers the
    // detail-free text (recorded 2026, DDB-TABLE-444; docs/global-tables.md §2.3).
    if (table.replication !== undefined && table.status !== 'ACTIVE')
      throw new ResourceInUseException(GlobalTableBusyMessages.inUse);
    if (table.status === 'DELETING')
      return { TableDescription: describeDeletedTable(table, engine.clock.now()) };
    if (table.status === 'CREATING')
      throw new ResourceInUseException(TableMessages.inUse(`Table is being created: ${table.name}`));
    if (table.status === 'UPDATING')
      throw new ResourceInUseException(TableMessages.inUse(`Table is being updated: ${table.name}`));
    if (tagsUpdating(table))
      throw new ResourceInUseException(TableMessages.inUse('Table tags are being updated'));
    if (table.deletionProtectionEnabled) throw new ValidationException(DELETION_PROTECTED);
    // A replica that sourced another one less than 24 hours ago stays until that one is gone;
    // any other replica may be deleted like a regional table, leaving the group
    // (docs/global-tables.md §2.4).
    const group = table.replication;
    if (group !== undefined && actedAsSource(group, region.name, engine.clock.now()))
      throw new ValidationException(ReplicaMessages.sourceRegion);

    table.status = 'DELETING';
    const member = group?.member(region.name);
    if (member !== undefined) member.settings.status = 'DELETING';
    cancelTransitions(engine, table);
    const response = { TableDescription: describeDeletedTable(table, engine.clock.now()) };
    afterTransientDelay(
      engine,
      table,
      () => {
        const group = table.replication;
        const members = group === undefined ? [] : [...group.members.values()];
        group?.leave(region.name);
        finishDeletion(region, table);
        announceMembers(engine, members);
      },
      region,
    );
    return response;
  },
});
