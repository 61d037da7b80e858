import { planDelete } from '../actions/deleteItem.js';
import { planPut } from '../actions/putItem.js';
import { planUpdate } from '../actions/updateItem.js';
import type { ItemWrite } from '../engine.js';
import {
  ConditionalCheckFailedException,
  DuplicateItemException,
  ValidationException,
} from '../errors/index.js';
import type { ConditionExpression, UpdatePlan, UpdateResult } from '../expressions/index.js';
import type { Condition } from '../expressions/resolved.js';
import {
  type AttributeMap,
  type AttributeValue,
  getAttribute,
  type Item,
  typeOf,
} from '../model/attributeValue.js';
import { MAX_ITEM_SIZE } from '../model/itemSize.js';
import type { ActionContext } from '../operation.js';
import { encodeParsedItemSized } from '../store/itemCodec.js';
import type { StoredItem } from '../store/storedItem.js';
import type { KeyDefinition, Table } from '../store/table.js';
import { type ExtractedKey, extractItemKey, extractKey } from '../validations/keys.js';
import type { DeleteStatement, InsertStatement, UpdateStatement } from './ast.js';
import { PartiqlMessages } from './errors.js';
import { updatePlan } from './update.js';
import { itemValue, MISSING } from './values.js';
import { combine, combineOr, conjunctsOf, fullKey } from './where.js';

/**
 * INSERT, UPDATE and DELETE planned onto PutItem, UpdateItem and DeleteItem (docs/partiql.md §3.3):
 * INSERT is a put conditioned on `attribute_not_exists(<partition key>)` whose failure is
 * DuplicateItemException; UPDATE an update of the item the WHERE clause's key equalities name,
 * conditioned on `attribute_exists(<partition key>)` AND the rest of the clause; DELETE a delete
 * conditioned on the rest of the clause. The same shape DynamoDB Local translates them to, so
 * conditions, sizes, index keys and every message are the native operations'.
 */
export type WriteStatement = InsertStatement | UpdateStatement | DeleteStatement;

/** What a write statement becomes once bound to its table: one TransactWriteItems-like action. */
export interface BoundWrite {
  readonly table: Table;
  readonly kind: 'Put' | 'Update' | 'Delete';
  readonly item?: AttributeMap;
  readonly key?: AttributeMap;
  readonly condition: ConditionExpression | undefined;
  readonly update?: UpdatePlan;
  /** The stored text and size of an INSERT's item. */
  readonly encoded?: { json: string; size: number };
}

/** A write ready to commit, with what RETURNING may ask for. */
export interface PlannedWrite {
  readonly table: Table;
  readonly write: ItemWrite;
  readonly result: UpdateResult | undefined;
}

/**
 * Checks a write statement and binds it to its table, in the order DynamoDB Local's translators
 * take (values and WHERE clause, table, key): no stored item is read yet.
 */
export function bindWrite(
  context: ActionContext,
  statement: WriteStatement,
  parameters: readonly AttributeValue[],
): BoundWrite {
  if (statement.kind === 'insert') {
    const value = itemValue(statement.value, parameters);
    if (value === MISSING || typeOf(value) !== 'M')
      throw new ValidationException(PartiqlMessages.insertNotTuple);
    const item = (value as { M: AttributeMap }).M;
    const table = context.engine.dataPlaneTable(context.region, statement.table);
    for (const definition of keyDefinitions(table)) {
      const keyValue = getAttribute(item, definition.name);
      if (keyValue === undefined)
        throw new ValidationException(PartiqlMessages.keyMissingInItem(definition.name));
      if (typeOf(keyValue) !== definition.type)
        throw new ValidationException(PartiqlMessages.keyTypeMismatch(definition.name));
    }
    // Canonical by construction: tuples and bags are built sorted, parameters are parsed (values.ts).
    const { json, size } = encodeParsedItemSized(item);
    if (size > MAX_ITEM_SIZE)
      throw new ValidationException('Item size has exceeded the maximum allowed size');
    return {
      table,
      kind: 'Put',
      item,
      condition: combine([], partitionKeyTest(table, 'notExists')),
      encoded: { json, size },
    };
  }
  // Grammatical, then refused before the table is looked up (conformance indexQualifier.test.ts).
  if (statement.index !== undefined) throw new ValidationException(PartiqlMessages.writeOnIndex);
  const conjuncts = conjunctsOf(statement.where, parameters);
  const update = statement.kind === 'update' ? updatePlan(statement.actions, parameters) : undefined;
  const table = context.engine.dataPlaneTable(context.region, statement.table);
  const found = fullKey(conjuncts, keyDefinitions(table), parameters);
  if (found === undefined) throw new ValidationException(PartiqlMessages.keyEquality);
  if (statement.kind === 'delete') {
    if (statement.returning !== undefined && statement.returning !== 'ALL OLD')
      throw new ValidationException(PartiqlMessages.returningInDelete(statement.returning));
    // A missing item is deleted successfully; a present one must meet the rest of the clause
    // (ql-reference.delete.html, "Return value").
    const missingOr: Condition | undefined =
      found.rest.length === 0 ? undefined : partitionKeyTest(table, 'notExists');
    return { table, kind: 'Delete', key: found.key, condition: combineOr(missingOr, found.rest) };
  }
  return {
    table,
    kind: 'Update',
    key: found.key,
    update,
    condition: combine(found.rest, partitionKeyTest(table, 'exists')),
  };
}

export function keyDefinitions(table: Table): KeyDefinition[] {
  return table.key.range === undefined ? [table.key.hash] : [table.key.hash, table.key.range];
}

function partitionKeyTest(table: Table, kind: 'exists' | 'notExists'): Condition {
  return { kind, path: [table.key.hash.name] };
}

/** The key a bound write targets (the item's key for an INSERT). */
export function boundKey(bound: BoundWrite): ExtractedKey {
  return bound.kind === 'Put'
    ? extractItemKey(bound.item!, bound.table.key)
    : extractKey(bound.key!, bound.table.key, false);
}

/** Reads the stored item and checks the condition: everything but the commit (docs/partiql.md §3.3). */
export function planWrite(bound: BoundWrite, returnOnFailure: 'ALL_OLD' | 'NONE' | undefined): PlannedWrite {
  const { table } = bound;
  const options = { ReturnValuesOnConditionCheckFailure: returnOnFailure };
  switch (bound.kind) {
    case 'Put':
      try {
        const { write } = planPut(
          table,
          { Item: bound.item!, ...options },
          { condition: bound.condition, ...bound.encoded! },
        );
        return { table, write, result: undefined };
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) throw new DuplicateItemException();
        throw error;
      }
    case 'Update': {
      const planned = planUpdate(
        table,
        { Key: bound.key!, ...options },
        { update: bound.update, condition: bound.condition },
      );
      return { table, write: planned.write, result: planned.result };
    }
    case 'Delete':
      return {
        table,
        write: planDelete(table, { Key: bound.key!, ...options }, { condition: bound.condition }),
        result: undefined,
      };
  }
}

/** What RETURNING answers, as the Items of the response (docs/partiql.md §2.6). */
export function returnedItems(statement: WriteStatement, planned: PlannedWrite): (StoredItem | Item)[] {
  if (statement.kind === 'insert' || statement.returning === undefined) return [];
  const { write, result } = planned;
  let item: StoredItem | Item | undefined;
  switch (statement.returning) {
    case 'ALL OLD':
      item = write.previous;
      break;
    case 'ALL NEW':
      item = write.next;
      break;
    case 'MODIFIED OLD':
      item = nonEmpty(result?.updatedOld);
      break;
    case 'MODIFIED NEW':
      item = nonEmpty(result?.updatedNew);
      break;
  }
  return item === undefined ? [] : [item];
}

function nonEmpty(map: AttributeMap | undefined): AttributeMap | undefined {
  return map !== undefined && Object.keys(map).length > 0 ? map : undefined;
}
