import { consumedCapacity, readUnits } from '../capacity.js';
import { defineOperation } from '../operation.js';
import {
  type GetItemInput,
  getItemShape,
  type PreparedRead,
  validateGetItem,
} from '../validations/getItem.js';
import { encodeKey } from '../validations/keys.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';
import { withOptional } from './shared/writeSupport.js';

/**
 * GetItem: one item by its full key. A missing item answers `{}`; an item lacking every projected
 * attribute answers `{"Item":{}}` (docs/dynamodb.md §4.2.1). Reads cost ⌈size/4 KB⌉, half when eventually
 * consistent, and a missing item still costs one unit (docs/dynamodb.md §4.3.2).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html
 */
export const getItem = defineOperation({
  name: 'GetItem',
  shape: getItemShape,
  validate: validateGetItem,
  execute(context, input: GetItemInput, prepared: PreparedRead) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const key = encodeKey(input.Key, table.key);
    if (prepared.projection) checkKeyPathsAreScalar(prepared.projection.paths, table);
    const stored = table.items.get(key.hashKey, key.rangeKey);
    const output: Record<string, unknown> = {};
    if (stored !== undefined)
      output.Item = prepared.projection ? prepared.projection.apply(stored.decode()) : stored;
    const units = readUnits(stored?.size ?? 0, input.ConsistentRead === true);
    if (context.engine.capacity.active) context.engine.capacity.readItem(table, units, key.hashKey);
    return withOptional(
      output,
      'ConsumedCapacity',
      consumedCapacity(input.ReturnConsumedCapacity, table.name, units),
    );
  },
});
