import type { ItemWrite } from '../engine.js';
import { ValidationException } from '../errors/index.js';
import type { UpdateResult } from '../expressions/index.js';
import { type AttributeMap, copyAttributeMap, getAttribute, type Item } from '../model/attributeValue.js';
import { MAX_ITEM_SIZE } from '../model/itemSize.js';
import { defineOperation } from '../operation.js';
import { encodeItemSized } from '../store/itemCodec.js';
import { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import { checkIndexKeys, extractKey } from '../validations/keys.js';
import {
  type PreparedUpdate,
  type UpdateItemInput,
  updateItemShape,
  validateUpdateItem,
} from '../validations/updateItem.js';
import { chargeWrite, planCharged } from './shared/capacityCharge.js';
import { checkUpdateTargets } from './shared/keyPaths.js';
import { checkCondition, singleWriteOutput } from './shared/writeSupport.js';

/**
 * UpdateItem: upserts (docs/dynamodb.md §4.2.2). The update runs on a copy; all checks (key attributes,
 * conditions, runtime errors, index key types, size) pass before anything is committed.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html
 */
export interface PlannedUpdate {
  write: ItemWrite;
  result: UpdateResult | undefined;
  /** The item after the update (undefined when nothing was created). */
  newItem: Item | undefined;
}

export function planUpdate(
  table: Table,
  input: Pick<UpdateItemInput, 'Key' | 'ReturnValuesOnConditionCheckFailure'>,
  prepared: PreparedUpdate,
): PlannedUpdate {
  const key = extractKey(input.Key, table.key);
  if (prepared.update) checkUpdateTargets(prepared.update.targets, table);
  const previous = table.items.get(key.hashKey, key.rangeKey);
  const decoded = previous?.decode();
  checkCondition(prepared.condition, previous, decoded, input.ReturnValuesOnConditionCheckFailure);

  // Only REMOVE/DELETE actions on a missing item create nothing (docs/dynamodb.md §4.2.2).
  if (decoded === undefined && prepared.update?.removesOnly) {
    return { write: { key, previous, next: undefined }, result: undefined, newItem: undefined };
  }
  // Without any update (no UpdateExpression, no or empty AttributeUpdates) a missing item is
  // created holding just its key (docs/dynamodb.md §4.2.2, docs/streams-and-lambda.md §1.3.4); an existing
  // one is unchanged.
  if (prepared.update === undefined) {
    if (decoded !== undefined)
      return { write: { key, previous, next: previous }, result: undefined, newItem: decoded };
    const keyOnly = copyAttributeMap(key.keys);
    return {
      write: { key, previous, next: StoredItem.fromItem(keyOnly), nextItem: keyOnly },
      result: undefined,
      newItem: keyOnly,
    };
  }
  // A new item starts as its key: expressions may read the key attributes.
  const base = decoded ?? copyAttributeMap(key.keys);
  const result = prepared.update.apply(base);
  checkUpdatedIndexKeys(
    result.item,
    decoded,
    table,
    prepared.update.targets.map((path) => path[0]),
  );
  // The stored text and the size in one walk (`encodeItemSized`); encoding cannot fail, so making
  // the text before the size check changes nothing observable.
  const encoded = encodeItemSized(result.item);
  if (encoded.size > MAX_ITEM_SIZE)
    throw new ValidationException('Item size to update has exceeded the maximum allowed size');
  return {
    write: {
      key,
      previous,
      next: new StoredItem(encoded.json, encoded.size),
      nextItem: result.item,
    },
    result,
    newItem: result.item,
  };
}

/**
 * Index key types after an update (docs/dynamodb.md §4.1.4): a value this update wrote gets the Index Key
 * type-mismatch message; a bad value the item already had (an index added later) makes any update
 * that leaves it in place fail with the "unsupported type" message.
 */
function checkUpdatedIndexKeys(
  item: Item,
  previous: Item | undefined,
  table: Table,
  written: readonly string[],
) {
  try {
    checkIndexKeys(item, table);
  } catch (error) {
    if (!(error instanceof ValidationException) || previous === undefined) throw error;
    for (const index of table.secondaryIndexes()) {
      for (const definition of [index.key.hash, index.key.range]) {
        if (definition === undefined || written.includes(definition.name)) continue;
        const value = getAttribute(item, definition.name);
        if (value !== undefined && !(definition.type in value)) {
          throw new ValidationException(
            'The update expression attempted to update the secondary index key to unsupported type',
          );
        }
      }
    }
    throw error;
  }
}

function nonEmpty(map: AttributeMap | undefined): AttributeMap | undefined {
  return map !== undefined && Object.keys(map).length > 0 ? map : undefined;
}

/** The `Attributes` ReturnValues asks for (docs/dynamodb.md §4.2.4). */
function returnedAttributes(input: UpdateItemInput, planned: PlannedUpdate): unknown {
  const { write, result } = planned;
  switch (input.ReturnValues) {
    case 'ALL_OLD':
      return write.previous;
    case 'ALL_NEW':
      return write.next;
    case 'UPDATED_OLD':
      return nonEmpty(result?.updatedOld);
    case 'UPDATED_NEW':
      return nonEmpty(result?.updatedNew);
    default:
      return undefined;
  }
}

export const updateItem = defineOperation({
  name: 'UpdateItem',
  shape: updateItemShape,
  prefixStatelessErrors: true,
  validate: validateUpdateItem,
  execute(context, input: UpdateItemInput, prepared: PreparedUpdate) {
    const table = context.engine.dataPlaneTable(context.region, input.TableName);
    const planned = planCharged(
      context.engine,
      table,
      () => extractKey(input.Key, table.key, false),
      () => planUpdate(table, input, prepared),
    );
    const { write } = planned;
    chargeWrite(context.engine, table, write);
    context.engine.commit(context.region, table, [write]);
    return singleWriteOutput(context.engine, table, write, input, returnedAttributes(input, planned));
  },
});
