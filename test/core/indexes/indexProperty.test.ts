import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine.js';

/**
 * After any sequence of puts, updates and deletes, each index holds exactly the entries
 * recomputed from the table: the items with the index keys, with the projected attributes.
 */
const keys = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const smallString = fc.constantFrom('x', 'y', 'z', '');
const operation = fc.oneof(
  fc.record({
    kind: fc.constant('put' as const),
    pk: keys,
    g: fc.option(smallString, { nil: undefined }),
    s: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    v: fc.option(smallString, { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('setG' as const), pk: keys, g: smallString }),
  fc.record({ kind: fc.constant('removeS' as const), pk: keys }),
  fc.record({ kind: fc.constant('setV' as const), pk: keys, v: smallString }),
  fc.record({ kind: fc.constant('delete' as const), pk: keys }),
);

function apply(engine: Engine, op: Record<string, unknown>) {
  const Key = { pk: { S: op.pk as string } };
  try {
    switch (op.kind) {
      case 'put': {
        const Item: Record<string, unknown> = { ...Key };
        if (op.g !== undefined) Item.g = { S: op.g };
        if (op.s !== undefined) Item.s = { N: String(op.s) };
        if (op.v !== undefined) Item.v = { S: op.v };
        engine.execute('PutItem', { TableName: 'T_prop', Item });
        break;
      }
      case 'setG':
        engine.execute('UpdateItem', {
          TableName: 'T_prop',
          Key,
          UpdateExpression: 'SET g = :g',
          ExpressionAttributeValues: { ':g': { S: op.g } },
        });
        break;
      case 'removeS':
        engine.execute('UpdateItem', { TableName: 'T_prop', Key, UpdateExpression: 'REMOVE s' });
        break;
      case 'setV':
        engine.execute('UpdateItem', {
          TableName: 'T_prop',
          Key,
          UpdateExpression: 'SET v = :v',
          ExpressionAttributeValues: { ':v': { S: op.v } },
        });
        break;
      case 'delete':
        engine.execute('DeleteItem', { TableName: 'T_prop', Key });
        break;
    }
  } catch (error) {
    // Empty index key strings are refused, as the service refuses them (docs/dynamodb.md §2.3.3).
    if (!String((error as Error).message).includes('empty string')) throw error;
  }
}

describe('index contents (property)', () => {
  it('equal the index recomputed from the table, for GSI projections ALL and INCLUDE', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        const engine = new Engine();
        engine.execute('CreateTable', {
          TableName: 'T_prop',
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'g', AttributeType: 'S' },
            { AttributeName: 's', AttributeType: 'N' },
          ],
          GlobalSecondaryIndexes: [
            {
              IndexName: 'all',
              KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }],
              Projection: { ProjectionType: 'ALL' },
            },
            {
              IndexName: 'include',
              KeySchema: [
                { AttributeName: 'g', KeyType: 'HASH' },
                { AttributeName: 's', KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['v'] },
            },
          ],
        });
        for (const op of operations) apply(engine, op as Record<string, unknown>);
        const table = (engine.execute('Scan', { TableName: 'T_prop' }).Items ?? []) as Record<
          string,
          Record<string, string>
        >[];
        const sortItems = (items: unknown[]) =>
          items.map((item) => JSON.stringify(item, Object.keys(item as object).sort())).sort();
        const expectedAll = table.filter((item) => item.g !== undefined);
        const actualAll = engine.execute('Scan', { TableName: 'T_prop', IndexName: 'all' })
          .Items as unknown[];
        expect(sortItems(actualAll)).toEqual(sortItems(expectedAll));
        const expectedInclude = table
          .filter((item) => item.g !== undefined && item.s !== undefined)
          .map((item) =>
            Object.fromEntries(Object.entries(item).filter(([name]) => ['pk', 'g', 's', 'v'].includes(name))),
          );
        const actualInclude = engine.execute('Scan', { TableName: 'T_prop', IndexName: 'include' })
          .Items as unknown[];
        expect(sortItems(actualInclude)).toEqual(sortItems(expectedInclude));
      }),
      { numRuns: 200 },
    );
  });
});
