import { type ConsumedCapacity, consumedCapacity, writeUnits } from '../capacity.js';
import type { ItemWrite } from '../engine.js';
import { ValidationException } from '../errors/index.js';
import { itemKeyOf } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import {
  type BatchWriteItemInput,
  batchWriteItemShape,
  type PreparedBatchWrite,
  validateBatchWriteItem,
  type WriteRequest,
} from '../validations/batchWriteItem.js';
import { checkIndexKeys, extractItemKey, extractKey } from '../validations/keys.js';
import { BatchThrottling } from './shared/batchThrottling.js';
import { itemCollectionMetrics } from './shared/writeSupport.js';

/**
 * BatchWriteItem: up to 25 puts and deletes over several tables, no conditions. Every request is
 * checked before any is applied; each item is then its own commit (one change event each).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html
 */
export const batchWriteItem = defineOperation({
  name: 'BatchWriteItem',
  shape: batchWriteItemShape,
  validate: validateBatchWriteItem,
  execute(context, input: BatchWriteItemInput, prepared: PreparedBatchWrite) {
    const { engine, region } = context;
    const planned: { table: Table; write: ItemWrite; request: WriteRequest }[] = [];
    // Answers name each table as the request did: by name or by ARN (docs/table-arns.md).
    const sentNames = new Map<Table, string>();
    for (const [name, requests] of Object.entries(input.RequestItems)) {
      const table = engine.dataPlaneTable(region, name, 'BatchWriteItem');
      sentNames.set(table, name);
      const seen = new Set<string>();
      for (const request of requests) {
        const key = request.PutRequest
          ? extractItemKey(request.PutRequest.Item, table.key, 'schema')
          : extractKey(request.DeleteRequest!.Key, table.key);
        const identity = itemKeyOf(key.hashKey, key.rangeKey);
        if (seen.has(identity))
          throw new ValidationException('Provided list of item keys contains duplicates');
        seen.add(identity);
        let next: StoredItem | undefined;
        if (request.PutRequest) {
          checkIndexKeys(request.PutRequest.Item, table);
          next = prepared.stored.get(request);
        }
        planned.push({
          table,
          write: { key, previous: undefined, next, nextItem: request.PutRequest?.Item },
          request,
        });
      }
    }
    const capacity = new Map<Table, number>();
    const metrics: Record<string, unknown[]> = {};
    const unprocessed: Record<string, WriteRequest[]> = {};
    const throttling = new BatchThrottling(engine.capacity);
    for (const { table, write: plannedWrite, request } of planned) {
      const previous = table.items.get(plannedWrite.key.hashKey, plannedWrite.key.rangeKey);
      const write = { ...plannedWrite, previous };
      if (throttling.throttlesWrite(engine, table, write)) {
        (unprocessed[sentNames.get(table)!] ??= []).push(request);
        continue;
      }
      engine.commit(region, table, [write]);
      capacity.set(
        table,
        (capacity.get(table) ?? 0) + writeUnits(Math.max(previous?.size ?? 0, write.next?.size ?? 0)),
      );
      const collection = itemCollectionMetrics(
        input.ReturnItemCollectionMetrics,
        table,
        write.key.hashKey,
        write.key.keys,
      );
      if (collection) (metrics[sentNames.get(table)!] ??= []).push(collection);
    }
    throttling.throwIfNothingProcessed();
    const output: Record<string, unknown> = { UnprocessedItems: unprocessed };
    if (input.ReturnConsumedCapacity !== undefined && input.ReturnConsumedCapacity !== 'NONE') {
      const consumed: ConsumedCapacity[] = [];
      for (const [table, units] of capacity)
        consumed.push(consumedCapacity(input.ReturnConsumedCapacity, sentNames.get(table)!, units)!);
      output.ConsumedCapacity = consumed;
    }
    if (Object.keys(metrics).length > 0) output.ItemCollectionMetrics = metrics;
    return output;
  },
});
