import { type ConsumedCapacity, consumedCapacity, readUnits, writeUnits } from '../capacity.js';
import type { Engine, ItemWrite } from '../engine.js';
import {
  type CancellationReason,
  ConditionalCheckFailedException,
  IdempotentParameterMismatchException,
  TransactionCanceledException,
  ValidationException,
} from '../errors/index.js';
import { MAX_ITEM_SIZE } from '../model/itemSize.js';
import { itemKeyOf } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { Region } from '../store/region.js';
import { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import { checkIndexKeys, checkNoEmptyKeyValues, extractItemKey, extractKey } from '../validations/keys.js';
import {
  type PreparedAction,
  type PreparedTransactWrite,
  type TransactUpdate,
  type TransactWriteItemsInput,
  transactWriteItemsShape,
  validateTransactWriteItems,
} from '../validations/transactWriteItems.js';
import { writeCharge } from './shared/capacityCharge.js';
import { checkUpdateTargets } from './shared/keyPaths.js';
import { itemCollectionMetrics } from './shared/writeSupport.js';
import { planUpdate } from './updateItem.js';

/**
 * TransactWriteItems: all or nothing. Every action is checked against the stored items first;
 * a failed condition anywhere cancels the whole transaction (every failed condition reported, in
 * request order); only then are the writes committed, as one commit whose change events come out
 * together in action order.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
 */
export const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;

/** A PartiQL INSERT of a key that exists, in a transaction (docs/partiql.md §4.3). */
const DUPLICATE_ITEM = 'Duplicate primary key exists in table';

interface PlannedAction {
  table: Table;
  write: ItemWrite | undefined;
  /** Capacity units (already doubled for transactions). */
  units: number;
}

export const transactWriteItems = defineOperation({
  name: 'TransactWriteItems',
  shape: transactWriteItemsShape,
  validate: validateTransactWriteItems,
  execute(context, input: TransactWriteItemsInput, prepared: PreparedTransactWrite) {
    const { engine, region } = context;
    const tables = prepared.actions.map((action) =>
      engine.dataPlaneTable(region, action.request.TableName, 'TransactWriteItems'),
    );
    const token = input.ClientRequestToken;
    if (token !== undefined) {
      const previous = recentToken(region, token, engine.clock.now());
      if (previous !== undefined) {
        if (previous.fingerprint !== prepared.fingerprint) {
          throw new IdempotentParameterMismatchException(
            'One or more parameter values were invalid: The ClientRequestToken was used with different parameters within the idempotency window',
          );
        }
        // A repeat succeeds without effect; capacity reports the reads (docs/dynamodb.md §7.3.4).
        return output(
          input,
          prepared.actions.map((action, index) => repeatCapacity(action, tables[index]!)),
          [],
        );
      }
    }

    prepared.actions.forEach((action, index) => {
      checkNoEmptyKeyValues(action.request.Item ?? action.request.Key!, tables[index]!.key);
    });
    checkDistinctItems(prepared.actions, tables);
    const planned: PlannedAction[] = [];
    const reasons: CancellationReason[] = prepared.actions.map(() => ({ Code: 'None' }));
    let cancelled = false;
    for (let index = 0; index < prepared.actions.length; index++) {
      try {
        planned.push(planAction(prepared.actions[index]!, tables[index]!));
      } catch (caught) {
        const error =
          caught instanceof ConditionalCheckFailedException &&
          prepared.actions[index]!.duplicateOnConditionFailure
            ? new ValidationException(DUPLICATE_ITEM)
            : caught;
        if (error instanceof ConditionalCheckFailedException) {
          reasons[index] = { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' };
          if (error.item) reasons[index]!.Item = error.item;
          cancelled = true;
        } else if (error instanceof ValidationException) {
          // Only the first per-action validation problem is reported; every other action says
          // None, even one whose condition would fail (docs/dynamodb.md §7.3.6).
          const only: CancellationReason[] = prepared.actions.map(() => ({ Code: 'None' }));
          only[index] = { Code: 'ValidationError', Message: error.message };
          throw new TransactionCanceledException(only);
        } else {
          throw error;
        }
      }
    }
    if (cancelled) {
      if (engine.capacity.active) chargePrepare(engine, prepared.actions, tables, reasons);
      throw new TransactionCanceledException(reasons);
    }
    // Throttled as a whole, at double the units (docs/capacity.md §5).
    if (engine.capacity.active)
      engine.capacity.transaction(
        planned.map(({ table, write, units }) => ({
          table,
          charge: write
            ? { access: 'Write' as const, charge: writeCharge(engine, table, write, 2) }
            : { access: 'Read' as const, charge: { units } },
        })),
      );

    engine.commitAcross(
      region,
      planned
        .filter((action) => action.write !== undefined)
        .map((action) => ({ table: action.table, write: action.write! })),
    );
    if (token !== undefined) rememberToken(region, token, prepared.fingerprint, engine.clock.now());
    const metrics: Record<string, unknown[]> = {};
    for (const action of planned) {
      if (action.write === undefined) continue;
      const collection = itemCollectionMetrics(
        input.ReturnItemCollectionMetrics,
        action.table,
        action.write.key.hashKey,
        action.write.key.keys,
      );
      if (collection) (metrics[action.table.name] ??= []).push(collection);
    }
    return output(input, planned, Object.keys(metrics).length > 0 ? [metrics] : []);
  },
});

/** Each item at most once per transaction, ConditionCheck included (docs/dynamodb.md §7.3.2). */
function checkDistinctItems(actions: PreparedAction[], tables: Table[]): void {
  const seen = new Set<string>();
  actions.forEach((action, index) => {
    const table = tables[index]!;
    let key: { hashKey: string; rangeKey: string };
    try {
      key = action.request.Item
        ? extractItemKey(action.request.Item, table.key)
        : extractKey(action.request.Key!, table.key);
    } catch (error) {
      // A malformed key is that action's ValidationError, reported when the action is planned.
      if (error instanceof ValidationException) return;
      throw error;
    }
    const identity = `${table.name}\u0000${itemKeyOf(key.hashKey, key.rangeKey)}`;
    if (seen.has(identity))
      throw new ValidationException('Transaction request cannot include multiple operations on one item');
    seen.add(identity);
  });
}

/**
 * A transaction cancelled by a failed condition was prepared, not committed: DynamoDB "performs
 * two underlying reads or writes of every item in the transaction: one to prepare the transaction
 * and one to commit the transaction"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling),
 * so each action consumes its prepare: single units on the item as stored (1 when absent), as a
 * failed conditional write does (docs/capacity.md §5). The answer is already the cancellation,
 * so nothing is throttled here; the units are only drawn from the buckets.
 */
function chargePrepare(
  engine: Engine,
  actions: readonly PreparedAction[],
  tables: readonly Table[],
  reasons: readonly CancellationReason[],
): void {
  actions.forEach((action, index) => {
    if (reasons[index]!.Code === 'ValidationError') return;
    const table = tables[index]!;
    const { request } = action;
    const key =
      action.kind === 'Put'
        ? extractItemKey(request.Item!, table.key)
        : extractKey(request.Key!, table.key, false);
    const size = table.items.get(key.hashKey, key.rangeKey)?.size ?? 0;
    if (action.kind === 'ConditionCheck')
      engine.capacity.consume(table, 'Read', readUnits(size, true), key.hashKey);
    else engine.capacity.consume(table, 'Write', writeUnits(size), key.hashKey);
  });
}

function planAction(action: PreparedAction, table: Table): PlannedAction {
  const { request } = action;
  switch (action.kind) {
    case 'ConditionCheck': {
      const key = extractKey(request.Key!, table.key);
      const stored = table.items.get(key.hashKey, key.rangeKey);
      checkActionCondition(action, stored);
      return { table, write: undefined, units: 2 * readUnits(stored?.size ?? 0, true) };
    }
    case 'Put': {
      const item = request.Item!;
      const key = extractItemKey(item, table.key);
      checkIndexKeys(item, table);
      // Text and size from one walk (itemCodec.ts `encodeItemSized`).
      const next = StoredItem.fromItem(item);
      const size = next.size;
      if (size > MAX_ITEM_SIZE)
        throw new ValidationException('Item size has exceeded the maximum allowed size');
      const previous = table.items.get(key.hashKey, key.rangeKey);
      checkActionCondition(action, previous);
      return {
        table,
        write: { key, previous, next },
        units: 2 * writeUnits(Math.max(previous?.size ?? 0, size)),
      };
    }
    case 'Delete': {
      const key = extractKey(request.Key!, table.key);
      const previous = table.items.get(key.hashKey, key.rangeKey);
      checkActionCondition(action, previous);
      return { table, write: { key, previous, next: undefined }, units: 2 * writeUnits(previous?.size ?? 0) };
    }
    case 'Update': {
      checkUpdateTargets(action.update!.targets, table);
      const planned = planUpdate(table, request as TransactUpdate, {
        update: action.update,
        condition: action.condition,
      });
      const { previous, next } = planned.write;
      return {
        table,
        write: planned.write,
        units: 2 * writeUnits(Math.max(previous?.size ?? 0, next?.size ?? 0)),
      };
    }
  }
}

function checkActionCondition(action: PreparedAction, stored: StoredItem | undefined): void {
  if (action.condition === undefined) return;
  if (action.condition.evaluate(stored?.decode())) return;
  const returnOld = action.request.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
  throw new ConditionalCheckFailedException(returnOld && stored ? stored.decode() : undefined);
}

function repeatCapacity(action: PreparedAction, table: Table): PlannedAction {
  const key = action.request.Item
    ? extractItemKey(action.request.Item, table.key)
    : extractKey(action.request.Key!, table.key);
  const stored = table.items.get(key.hashKey, key.rangeKey);
  return { table, write: undefined, units: readUnits(stored?.size ?? 0, true) };
}

function output(
  input: TransactWriteItemsInput,
  planned: PlannedAction[],
  metrics: Record<string, unknown[]>[],
) {
  const result: Record<string, unknown> = {};
  if (input.ReturnConsumedCapacity !== undefined && input.ReturnConsumedCapacity !== 'NONE') {
    const byTable = new Map<Table, number>();
    for (const action of planned) byTable.set(action.table, (byTable.get(action.table) ?? 0) + action.units);
    const consumed: ConsumedCapacity[] = [];
    for (const [table, units] of byTable)
      consumed.push(consumedCapacity(input.ReturnConsumedCapacity, table.name, units)!);
    result.ConsumedCapacity = consumed;
  }
  if (metrics.length > 0) result.ItemCollectionMetrics = metrics[0];
  return result;
}

function recentToken(region: Region, token: string, now: number) {
  const entry = region.transactionTokens.get(token);
  if (entry === undefined) return undefined;
  if (now - entry.completedAt > IDEMPOTENCY_WINDOW_MS) {
    region.transactionTokens.delete(token);
    return undefined;
  }
  return entry;
}

function rememberToken(region: Region, token: string, fingerprint: string, now: number): void {
  // Forget expired tokens as new ones arrive: the map stays bounded by the 10-minute window.
  for (const [old, entry] of region.transactionTokens) {
    if (now - entry.completedAt <= IDEMPOTENCY_WINDOW_MS) break;
    region.transactionTokens.delete(old);
  }
  region.transactionTokens.set(token, { fingerprint, completedAt: now });
}
