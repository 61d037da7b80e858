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
import { chargeWrite, planCharged } from './shared/capacityCharge.js';
import { checkConditionOnStored, singleWriteOutput } from './shared/writeSupport.js';

/**
 * DeleteItem: deleting a missing item succeeds and changes nothing (docs/dynamodb.md §4.2.1).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html
 */
export function planDelete(
  table: Table,
  input: Pick<DeleteItemInput, 'Key' | 'ReturnValuesOnConditionCheckFailure'>,
  prepared: PreparedDelete,
): ItemWrite {
  const key = extractKey(input.Key, table.key);
  const previous = table.items.get(key.hashKey, key.rangeKey);
  checkConditionOnStored(prepared.condition, previous, input.ReturnValuesOnConditionCheckFailure);
  return { key, previous, next: undefined };
}

export const deleteItem = defineOperation({
  name: 'DeleteItem',
  shape: deleteItemShape,
  prefixStatelessErrors: true,
  validate: validateDeleteItem,
  execute(context, input: DeleteItemInput, prepared: PreparedDelete) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const write = planCharged(
      context.engine,
      table,
      () => extractKey(input.Key, table.key, false),
      () => planDelete(table, input, prepared),
    );
    chargeWrite(context.engine, table, write);
    context.engine.commit(context.region, table, [write]);
    const attributes = input.ReturnValues === 'ALL_OLD' ? write.previous : undefined;
    return singleWriteOutput(context.engine, table, write, input, attributes);
  },
});
