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
import { checkCondition, itemCollectionMetrics, withOptional, writeCapacity } from './shared/writeSupport.js';

/**
 * PutItem: creates or replaces a whole item (spec §4.2.1).
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
  if (prepared.condition) {
    checkCondition(
      prepared.condition,
      previous,
      previous?.decode(),
      input.ReturnValuesOnConditionCheckFailure,
    );
  }
  return {
    table,
    write: { key, previous, next: StoredItem.fromItem(input.Item, prepared.size), nextItem: input.Item },
  };
}

export const putItem = defineOperation({
  name: 'PutItem',
  shape: putItemShape,
  prefixStatelessErrors: true,
  validate: validatePutItem,
  execute(context, input: PutItemInput, prepared: PreparedPut) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const { write } = planPut(table, input, prepared);
    context.engine.commit(context.region, table, [write]);
    const output: Record<string, unknown> = {};
    if (input.ReturnValues === 'ALL_OLD') withOptional(output, 'Attributes', write.previous);
    withOptional(
      output,
      'ConsumedCapacity',
      writeCapacity(input.ReturnConsumedCapacity, context.engine, table, write.previous, write.next),
    );
    withOptional(
      output,
      'ItemCollectionMetrics',
      itemCollectionMetrics(input.ReturnItemCollectionMetrics, table, write.key.hashKey, write.key.keys),
    );
    return output;
  },
});
