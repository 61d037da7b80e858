import { describe, expect, it } from 'vitest';
import { Engine } from '../../../../core/engine.js';
import { addTable } from '../../../helpers/tables.js';

/**
 * The 1 MB page of Scan and Query at its boundary (docs/dynamodb.md §6.2.3). The scenarios are
 * the ones recorded against DynamoDB in dynalite's tests/scan.js ("should return all if just under
 * limit …", "should return one less than all if just over limit …"): 25 items visited in scan
 * order, 23 of ~43 KB, the 24th tuned by one byte, the 25th small. Just under 1 MiB of page size
 * after the 24th item, the page goes on and reads all 25; at 1 MiB it ends with the 24th.
 */
type Page = { Count: number; ScannedCount: number; LastEvaluatedKey?: unknown; ConsumedCapacity?: unknown };

function scanOrder(
  engine: Engine,
  table: string,
  keys: Record<string, unknown>[],
): Record<string, unknown>[] {
  for (const key of keys) engine.execute('PutItem', { TableName: table, Item: key });
  return (engine.execute('Scan', { TableName: table }) as { Items: Record<string, unknown>[] }).Items;
}

const countPage = (engine: Engine, table: string) =>
  engine.execute('Scan', { TableName: table, Select: 'COUNT', ReturnConsumedCapacity: 'TOTAL' }) as Page;

describe('The 1 MB page, measured as the service measures it', () => {
  /** Hash table `a` (S); the 24th item's `b` holds `bLength` characters beside five small attributes. */
  function hashTableScan(bLength: number): Page {
    const engine = new Engine();
    addTable(engine, 'Hash', ['a', 'S']);
    const keys = Array.from({ length: 25 }, (_, i) => ({ a: { S: String(i).padStart(2, '0') } }));
    const ordered = scanOrder(engine, 'Hash', keys);
    const b = 'b'.repeat(43_411);
    ordered.forEach((key, i) => {
      const item: Record<string, unknown> = { ...key };
      if (i === 23) {
        item.b = { S: b.slice(0, bLength) };
        item.c = { N: '12.3456' };
        item.d = { B: 'AQI=' };
        item.e = { SS: ['a', 'bc'] };
        item.f = { NS: ['1.23', '12.3'] };
        item.g = { BS: ['AQI=', 'Ag==', 'AQ=='] };
      } else {
        item.b = { S: i === 24 ? 'b' : b };
      }
      engine.execute('PutItem', { TableName: 'Hash', Item: item });
    });
    return countPage(engine, 'Hash');
  }

  it('reads all 25 items one byte under 1 MiB (dynalite tests/scan.js, hash table)', () => {
    const page = hashTableScan(43_412 - 46);
    expect(page.ScannedCount).toBe(25);
    // Capacity still counts item sizes, not page sizes (recorded: 127.5 units).
    expect(page.ConsumedCapacity).toEqual({ TableName: 'Hash', CapacityUnits: 127.5 });
  });

  it('ends the page with the 24th item at exactly 1 MiB (dynalite tests/scan.js, hash table)', () => {
    const page = hashTableScan(43_412 - 45);
    expect(page.ScannedCount).toBe(24);
    expect(page.LastEvaluatedKey).toBeDefined();
    expect(page.ConsumedCapacity).toEqual({ TableName: 'Hash', CapacityUnits: 127.5 });
  });

  it('ends the page with the 24th item one byte over 1 MiB', () => {
    expect(hashTableScan(43_412 - 44).ScannedCount).toBe(24);
  });

  /** Range table `a`, `b` (S, S): the sort key's bytes count in each item's overhead. */
  function rangeTableScan(zLength: number): Page {
    const engine = new Engine();
    addTable(engine, 'Range', ['a', 'S'], ['b', 'S']);
    const keys = Array.from({ length: 25 }, (_, i) => ({
      a: { S: String(i).padStart(2, '0') },
      b: { S: String(i).padStart(2, '0') },
    }));
    const ordered = scanOrder(engine, 'Range', keys);
    const text = 'b'.repeat(43_380);
    ordered.forEach((key, i) => {
      const item: Record<string, unknown> = { ...key };
      if (i === 23) {
        item.z = { S: text.slice(0, zLength) };
        item.y = { N: '12.3456' };
        item.x = { B: 'AQI=' };
        item.w = { SS: ['a', 'bc'] };
        item.v = { NS: ['1.23', '12.3'] };
        item.u = { BS: ['AQI=', 'Ag==', 'AQ=='] };
      } else if (i === 24) {
        item.z = { S: 'b' };
      } else {
        // A 255-character attribute name counts one byte in a page.
        item['b'.repeat(255)] = { S: text };
      }
      engine.execute('PutItem', { TableName: 'Range', Item: item });
    });
    return countPage(engine, 'Range');
  }

  it('reads all 25 items one byte under 1 MiB (dynalite tests/scan.js, range table)', () => {
    expect(rangeTableScan(43_381 - 22).ScannedCount).toBe(25);
  });

  it('ends the page with the 24th item at 1 MiB (dynalite tests/scan.js, range table)', () => {
    expect(rangeTableScan(43_381 - 21).ScannedCount).toBe(24);
  });
});
