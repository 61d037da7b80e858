import type { ItemWrite } from '../engine.js';
import { defineOperation } from '../operation.js';
import { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import { checkIndexKeys, extractItemKey } from '../validations/keys.js';
import {
  type PreparedPut,
  type PutItemInput,
  putItemShape,
  validatePutItem,
} from '../validations/putItem.js';
import { chargeWrite, planCharged } from './shared/capacityCharge.js';
import { checkConditionOnStored, singleWriteOutput } from './shared/writeSupport.js';

/**
 * PutItem: creates or replaces a whole item (docs/dynamodb.md §4.2.1).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html
 */
export interface PlannedPut {
  table: Table;
  write: ItemWrite;
}

/** Schema checks, condition and the new stored item: everything but the commit (reused by transactions). */
export function planPut(
  table: Table,
  input: Pick<PutItemInput, 'Item' | 'ReturnValuesOnConditionCheckFailure'>,
  prepared: PreparedPut,
): PlannedPut {
  const key = extractItemKey(input.Item, table.key);
  checkIndexKeys(input.Item, table);
  const previous = table.items.get(key.hashKey, key.rangeKey);
  checkConditionOnStored(prepared.condition, previous, input.ReturnValuesOnConditionCheckFailure);
  return {
    table,
    write: { key, previous, next: new StoredItem(prepared.json, prepared.size), nextItem: input.Item },
  };
}

export const putItem = defineOperation({
  name: 'PutItem',
  shape: putItemShape,
  prefixStatelessErrors: true,
  validate: validatePutItem,
  execute(context, input: PutItemInput, prepared: PreparedPut) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const { write } = planCharged(
      context.engine,
      table,
      () => extractItemKey(input.Item, table.key),
      () => planPut(table, input, prepared),
    );
    chargeWrite(context.engine, table, write);
    context.engine.commit(context.region, table, [write]);
    const attributes = input.ReturnValues === 'ALL_OLD' ? write.previous : undefined;
    return singleWriteOutput(context.engine, table, write, input, attributes);
  },
});
