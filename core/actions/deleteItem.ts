import type { ItemWrite } from '../engine.js';
import { defineOperation } from '../operation.js';
import type { Table } from '../store/table.js';
import {
  type DeleteItemInput,
  deleteItemShape,
  type PreparedDelete,
  validateDeleteItem,
} from '../validations/deleteItem.js';
import { extractKey } from '../validations/keys.js';
import { checkCondition, itemCollectionMetrics, withOptional, writeCapacity } from './shared/writeSupport.js';

/**
 * DeleteItem: deleting a missing item succeeds and changes nothing (spec §4.2.1).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html
 */
export function planDelete(
  table: Table,
  input: Pick<DeleteItemInput, 'Key' | 'ReturnValuesOnConditionCheckFailure'>,
  prepared: PreparedDelete,
): ItemWrite {
  const key = extractKey(input.Key, table.key);
  const previous = table.items.get(key.hashKey, key.rangeKey);
  if (prepared.condition) {
    checkCondition(
      prepared.condition,
      previous,
      previous?.decode(),
      input.ReturnValuesOnConditionCheckFailure,
    );
  }
  return { key, previous, next: undefined };
}

export const deleteItem = defineOperation({
  name: 'DeleteItem',
  shape: deleteItemShape,
  prefixStatelessErrors: true,
  validate: validateDeleteItem,
  execute(context, input: DeleteItemInput, prepared: PreparedDelete) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const write = planDelete(table, input, prepared);
    context.engine.commit(context.region, table, [write]);
    const output: Record<string, unknown> = {};
    if (input.ReturnValues === 'ALL_OLD') withOptional(output, 'Attributes', write.previous);
    withOptional(
      output,
      'ConsumedCapacity',
      writeCapacity(input.ReturnConsumedCapacity, context.engine, table, write.previous, undefined),
    );
    withOptional(
      output,
      'ItemCollectionMetrics',
      itemCollectionMetrics(input.ReturnItemCollectionMetrics, table, write.key.hashKey, write.key.keys),
    );
    return output;
  },
});
