import { ResourceInUseException, ResourceNotFoundException, ValidationException } from '../errors/index.js';
import { defineOperation } from '../operation.js';
import { DELETION_PROTECTED, type DeleteTableInput, deleteTableShape } from '../validations/deleteTable.js';
import { TableMessages } from '../validations/tableSchema.js';
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
    if (table.status === 'DELETING') return { TableDescription: describeDeletedTable(table) };
    if (table.status === 'CREATING')
      throw new ResourceInUseException(TableMessages.inUse(`Table is being created: ${table.name}`));
    if (table.status === 'UPDATING')
      throw new ResourceInUseException(TableMessages.inUse(`Table is being updated: ${table.name}`));
    if (tagsUpdating(table))
      throw new ResourceInUseException(TableMessages.inUse('Table tags are being updated'));
    if (table.deletionProtectionEnabled) throw new ValidationException(DELETION_PROTECTED);

    table.status = 'DELETING';
    cancelTransitions(engine, table);
    const response = { TableDescription: describeDeletedTable(table) };
    afterTransientDelay(engine, table, () => finishDeletion(region, table), region);
    return response;
  },
});
