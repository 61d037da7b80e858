import { type ConsumedCapacity, consumedCapacity, readUnits } from '../capacity.js';
import {
  type CancellationReason,
  TransactionCanceledException,
  ValidationException,
} from '../errors/index.js';
import { itemKeyOf } from '../model/keyCodec.js';
import { defineOperation } from '../operation.js';
import type { Table } from '../store/table.js';
import { checkNoEmptyKeyValues, encodeKey } from '../validations/keys.js';
import {
  type PreparedTransactGet,
  type TransactGetItemsInput,
  transactGetItemsShape,
  validateTransactGetItems,
} from '../validations/transactGetItems.js';
import { checkKeyPathsAreScalar } from './shared/keyPaths.js';

/**
 * TransactGetItems: a consistent read of up to 100 items; `Responses` align with the request and
 * a missing item is an entry without `Item` (docs/dynamodb.md §7.3.7). Transactional reads cost double.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactGetItems.html
 */
export const transactGetItems = defineOperation({
  name: 'TransactGetItems',
  shape: transactGetItemsShape,
  validate: validateTransactGetItems,
  execute(context, input: TransactGetItemsInput, prepared: PreparedTransactGet) {
    const { engine, region } = context;
    const tables = input.TransactItems.map(({ Get }) =>
      engine.dataPlaneTable(region, Get.TableName, 'TransactGetItems'),
    );
    // Empty key values refuse the whole request; any other key problem cancels the transaction
    // with a ValidationError on that Get, the first one only (2026, docs/dynamodb.md §7.3.6).
    input.TransactItems.forEach(({ Get }, index) => {
      checkNoEmptyKeyValues(Get.Key, tables[index]!.key);
    });
    const keys = input.TransactItems.map(({ Get }, index) => {
      try {
        return encodeKey(Get.Key, tables[index]!.key);
      } catch (error) {
        if (!(error instanceof ValidationException)) throw error;
        const reasons: CancellationReason[] = input.TransactItems.map(() => ({ Code: 'None' }));
        reasons[index] = { Code: 'ValidationError', Message: error.message };
        throw new TransactionCanceledException(reasons);
      }
    });
    const seen = new Set<string>();
    keys.forEach((key, index) => {
      const identity = `${tables[index]!.name}\u0000${itemKeyOf(key.hashKey, key.rangeKey)}`;
      if (seen.has(identity))
        throw new ValidationException('Transaction request cannot include multiple operations on one item');
      seen.add(identity);
    });
    const units = new Map<Table, number>();
    const charges: {
      table: Table;
      charge: { access: 'Read'; charge: { units: number; hashKey: string } };
    }[] = [];
    const responses = keys.map((key, index) => {
      const table = tables[index]!;
      const projection = prepared.projections[index];
      if (projection) checkKeyPathsAreScalar(projection.paths, table);
      const stored = table.items.get(key.hashKey, key.rangeKey);
      const itemUnits = 2 * readUnits(stored?.size ?? 0, true);
      units.set(table, (units.get(table) ?? 0) + itemUnits);
      charges.push({ table, charge: { access: 'Read', charge: { units: itemUnits, hashKey: key.hashKey } } });
      if (stored === undefined) return {};
      return { Item: projection ? projection.apply(stored.decode()) : stored };
    });
    // Throttled as a whole, at double the units (docs/capacity.md §5).
    if (engine.capacity.active) engine.capacity.transaction(charges);
    const output: Record<string, unknown> = { Responses: responses };
    if (input.ReturnConsumedCapacity !== undefined && input.ReturnConsumedCapacity !== 'NONE') {
      const consumed: ConsumedCapacity[] = [];
      for (const [table, total] of units)
        consumed.push(consumedCapacity(input.ReturnConsumedCapacity, table.name, total)!);
      output.ConsumedCapacity = consumed;
    }
    return output;
  },
});
