import { writeUnits } from '../../capacity.js';
import type { Engine, ItemWrite } from '../../engine.js';
import type { Table } from '../../store/table.js';
import type { WriteCharge } from '../../throttling/capacityGovernor.js';

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
