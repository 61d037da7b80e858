import { writeUnits } from '../../capacity.js';
import type { Engine, ItemWrite } from '../../engine.js';
import { ConditionalCheckFailedException, DuplicateItemException } from '../../errors/index.js';
import type { Table } from '../../store/table.js';
import type { WriteCharge } from '../../throttling/capacityGovernor.js';
import type { ExtractedKey } from '../../validations/keys.js';

/**
 * What a write costs the capacity model: the same units ConsumedCapacity reports
 * (docs/dynamodb.md §4.3.2, §4.3.4), the table's with its LSIs' (they share its throughput) and
 * each GSI's apart. Images are decoded only for tables with secondary indexes. `factor` is 2 for
 * transactions (docs/dynamodb.md §4.3).
 */
export function writeCharge(engine: Engine, table: Table, write: ItemWrite, factor = 1): WriteCharge {
  const { previous, next } = write;
  let units = writeUnits(Math.max(previous?.size ?? 0, next?.size ?? 0));
  let globalIndexes: Record<string, number> | undefined;
  if (table.globalSecondaryIndexes.size + table.localSecondaryIndexes.size > 0) {
    const indexes = engine.indexes.writeCapacity(table, previous?.decode(), next?.decode());
    for (const local of Object.values(indexes.local)) units += local;
    globalIndexes = indexes.global;
    if (factor !== 1) for (const name of Object.keys(globalIndexes)) globalIndexes[name]! *= factor;
  }
  return { units: units * factor, hashKey: write.key.hashKey, globalIndexes };
}

/** Charges a single-item write (PutItem, UpdateItem, DeleteItem) before its commit; throws when throttled. */
export function chargeWrite(engine: Engine, table: Table, write: ItemWrite): void {
  if (engine.capacity.active) engine.capacity.write(table, writeCharge(engine, table, write));
}

/**
 * A write whose condition failed still consumes write capacity from the table: ⌈stored item /
 * 1 KB⌉, or 1 when the item does not exist ("If a ConditionExpression evaluates to false during a
 * conditional write, DynamoDB will still consume write capacity units from the table",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html#WorkingWithItems.ConditionalUpdate,
 * docs/dynamodb.md §4.3.2). Nothing reaches an index, so GSIs are not charged. Admitted like any
 * write: a table with no capacity left answers the throttling exception instead of the failed
 * condition, as its request router does before the condition is evaluated.
 */
export function chargeFailedCondition(
  engine: Engine,
  table: Table,
  key: Pick<ExtractedKey, 'hashKey' | 'rangeKey'>,
): void {
  const stored = table.items.get(key.hashKey, key.rangeKey);
  engine.capacity.write(table, { units: writeUnits(stored?.size ?? 0), hashKey: key.hashKey });
}

/**
 * Runs a single write's plan; when its condition fails and capacity is enforced, charges the
 * failed condition (chargeFailedCondition) before answering ConditionalCheckFailedException (or
 * a PartiQL INSERT's DuplicateItemException, its condition being that the key is absent).
 */
export function planCharged<T>(
  engine: Engine,
  table: Table,
  key: () => Pick<ExtractedKey, 'hashKey' | 'rangeKey'>,
  plan: () => T,
): T {
  try {
    return plan();
  } catch (error) {
    if (
      (error instanceof ConditionalCheckFailedException || error instanceof DuplicateItemException) &&
      engine.capacity.active
    )
      chargeFailedCondition(engine, table, key());
    throw error;
  }
}
