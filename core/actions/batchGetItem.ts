import { type ConsumedCapacity, consumedCapacity, readUnits } from '../capacity.js';
import { defineOperation } from '../operation.js';
import type { StoredItem } from '../store/storedItem.js';
import {
  type BatchGetItemInput,
  batchGetItemShape,
  type KeysAndAttributes,
  type PreparedBatchGet,
  validateBatchGetItem,
} from '../validations/batchGetItem.js';
import { encodeKey } from '../validations/keys.js';
import { BatchThrottling } from './shared/batchThrottling.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';

/**
 * BatchGetItem: up to 100 keys over several tables. A response holds at most 16 MB: the read stops
 * before the item that would take it past 16 MB, and that key and every later one come back in
 * UnprocessedKeys with their table's parameters (docs/dynamodb.md §7.1.3). Everything is keyed by
 * the table as the request named it: a table sent as its ARN is answered under its ARN
 * (API_ConsumedCapacity.html, docs/table-arns.md).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html
 */
export const RESPONSE_LIMIT_BYTES = 16 * 1024 * 1024;

export const batchGetItem = defineOperation({
  name: 'BatchGetItem',
  shape: batchGetItemShape,
  validate: validateBatchGetItem,
  execute(context, input: BatchGetItemInput, prepared: PreparedBatchGet) {
    const requests = Object.entries(input.RequestItems);
    // Every table must exist before anything is read.
    const tables = requests.map(([name]) =>
      context.engine.dataPlaneTable(context.region, name, 'BatchGetItem'),
    );
    const responses: Record<string, unknown[]> = {};
    const unprocessed: Record<string, KeysAndAttributes> = {};
    const capacity: ConsumedCapacity[] = [];
    let responseBytes = 0;
    let full = false;
    const throttling = new BatchThrottling(context.engine.capacity);
    requests.forEach(([name, request], tableIndex) => {
      const table = tables[tableIndex]!;
      const projection = prepared.projections.get(name);
      if (projection) checkKeyPathsAreScalar(projection.paths, table);
      const items: unknown[] = [];
      responses[name] = items;
      let units = 0;
      for (let i = 0; i < request.Keys.length; i++) {
        const keyInput = request.Keys[i]!;
        const key = encodeKey(keyInput, table.key);
        const stored: StoredItem | undefined = full ? undefined : table.items.get(key.hashKey, key.rangeKey);
        // "The response size limit is 16 MB": an item that does not fit is not returned, and the
        // read stops there (API_BatchGetItem.html).
        if (full || (stored !== undefined && responseBytes + stored.size > RESPONSE_LIMIT_BYTES)) {
          full = true;
          unprocessed[name] ??= { ...request, Keys: [] };
          unprocessed[name].Keys.push(keyInput);
          continue;
        }
        const keyUnits = readUnits(stored?.size ?? 0, request.ConsistentRead === true);
        if (throttling.throttlesRead(table, keyUnits, key.hashKey)) {
          unprocessed[name] ??= { ...request, Keys: [] };
          unprocessed[name].Keys.push(keyInput);
          continue;
        }
        units += keyUnits;
        if (stored === undefined) continue;
        responseBytes += stored.size;
        items.push(projection ? projection.apply(stored.decode()) : stored);
      }
      const consumed = consumedCapacity(input.ReturnConsumedCapacity, name, units);
      if (consumed) capacity.push(consumed);
    });
    throttling.throwIfNothingProcessed();
    const output: Record<string, unknown> = { Responses: responses, UnprocessedKeys: unprocessed };
    if (input.ReturnConsumedCapacity !== undefined && input.ReturnConsumedCapacity !== 'NONE') {
      output.ConsumedCapacity = capacity;
    }
    return output;
  },
});
