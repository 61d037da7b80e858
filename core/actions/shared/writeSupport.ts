import {
  consumedCapacity,
  type IndexCapacity,
  type ReturnConsumedCapacity,
  writeUnits,
} from '../../capacity.js';
import type { Engine, ItemWrite } from '../../engine.js';
import { ConditionalCheckFailedException } from '../../errors/index.js';
import type { ConditionExpression } from '../../expressions/index.js';
import type { Item } from '../../model/attributeValue.js';
import type { StoredItem } from '../../store/storedItem.js';
import type { Table } from '../../store/table.js';

/**
 * Checks a write's condition against the item as stored. A failed check answers
 * ConditionalCheckFailedException, with the old item when ReturnValuesOnConditionCheckFailure is
 * ALL_OLD and the item exists (docs/dynamodb.md §4.2.5).
 */
export function checkCondition(
  condition: ConditionExpression | undefined,
  stored: StoredItem | undefined,
  decoded: Item | undefined,
  returnOnFailure: string | undefined,
): void {
  if (condition === undefined) return;
  if (condition.evaluate(decoded)) return;
  throw new ConditionalCheckFailedException(
    returnOnFailure === 'ALL_OLD' && stored ? stored.decode() : undefined,
  );
}

/** checkCondition for a write that has not decoded the stored item: decodes it only for a condition. */
export function checkConditionOnStored(
  condition: ConditionExpression | undefined,
  stored: StoredItem | undefined,
  returnOnFailure: string | undefined,
): void {
  if (condition !== undefined) checkCondition(condition, stored, stored?.decode(), returnOnFailure);
}

/**
 * Write capacity: ⌈larger of old and new item / 1 KB⌉, minimum 1 (docs/dynamodb.md §4.3.2), plus the index
 * writes the change causes (docs/dynamodb.md §4.3.4). Images are decoded only when capacity is asked for and
 * the table has indexes.
 */
export function writeCapacity(
  mode: ReturnConsumedCapacity | undefined,
  engine: Engine,
  table: Table,
  previous: StoredItem | undefined,
  next: StoredItem | undefined,
) {
  if (mode === undefined || mode === 'NONE') return undefined;
  const size = Math.max(previous?.size ?? 0, next?.size ?? 0);
  let indexes: IndexCapacity = {};
  if (table.globalSecondaryIndexes.size + table.localSecondaryIndexes.size > 0) {
    indexes = engine.indexes.writeCapacity(table, previous?.decode(), next?.decode());
  }
  return consumedCapacity(mode, table.name, writeUnits(size), indexes);
}

/** Adds a member only when it has a value (the service omits absent members). */
export function withOptional<T extends Record<string, unknown>>(output: T, name: string, value: unknown): T {
  if (value !== undefined) (output as Record<string, unknown>)[name] = value;
  return output;
}

/**
 * ItemCollectionMetrics for ReturnItemCollectionMetrics SIZE: only tables with local secondary
 * indexes have item collections (docs/dynamodb.md §4.3.5). The estimate is a range in GB around the
 * collection's size.
 */
export function itemCollectionMetrics(
  mode: string | undefined,
  table: Table,
  hashKey: string,
  keys: Item,
): { ItemCollectionKey: Item; SizeEstimateRangeGB: [number, number] } | undefined {
  if (mode !== 'SIZE' || table.localSecondaryIndexes.size === 0) return undefined;
  const hashName = table.key.hash.name;
  const bytes = table.items.partition(hashKey)?.bytes ?? 0;
  const gigabytes = bytes / 1024 ** 3;
  const lower = Math.floor(gigabytes);
  return { ItemCollectionKey: { [hashName]: keys[hashName]! }, SizeEstimateRangeGB: [lower, lower + 1] };
}

/**
 * The answer of PutItem, DeleteItem or UpdateItem: the `Attributes` the operation chose to return,
 * then ConsumedCapacity and ItemCollectionMetrics when the request asked for them.
 */
export function singleWriteOutput(
  engine: Engine,
  table: Table,
  write: ItemWrite,
  input: { ReturnConsumedCapacity?: ReturnConsumedCapacity; ReturnItemCollectionMetrics?: string },
  attributes: unknown,
): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  withOptional(output, 'Attributes', attributes);
  withOptional(
    output,
    'ConsumedCapacity',
    writeCapacity(input.ReturnConsumedCapacity, engine, table, write.previous, write.next),
  );
  withOptional(
    output,
    'ItemCollectionMetrics',
    itemCollectionMetrics(input.ReturnItemCollectionMetrics, table, write.key.hashKey, write.key.keys),
  );
  return output;
}
