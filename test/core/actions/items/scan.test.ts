import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../../core/engine.js';
import { validation, wireError } from '../../../helpers/errors.js';
import { RECORDED_N_SCAN_ORDER, RECORDED_S_SCAN_ORDER } from '../../../helpers/scanOrder.js';
import { addTable } from '../../../helpers/tables.js';

let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  addTable(engine, 'Keys', ['k', 'S']);
  addTable(engine, 'NumberKeys', ['k', 'N']);
  addTable(engine, 'Composite', ['pk', 'S'], ['sk', 'N']);
});

type Page = {
  Items?: Record<string, { S?: string; N?: string }>[];
  Count: number;
  ScannedCount: number;
  LastEvaluatedKey?: unknown;
};
const scan = (input: Record<string, unknown>) => engine.execute('Scan', input) as unknown as Page;

function scanAll(input: Record<string, unknown>): { keys: string[]; pages: number } {
  const keys: string[] = [];
  let pages = 0;
  let start: unknown;
  do {
    const page = scan({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) });
    pages++;
    for (const item of page.Items ?? [])
      keys.push(`${item.pk?.S ?? item.k?.S ?? item.k?.N}${item.sk ? `/${item.sk.N}` : ''}`);
    start = page.LastEvaluatedKey;
  } while (start);
  return { keys, pages };
}

describe('Scan', () => {
  it('visits S partitions in the recorded hash order, whatever the insertion order (docs/dynamodb.md §6.4.2)', () => {
    for (const k of [...RECORDED_S_SCAN_ORDER].sort())
      engine.execute('PutItem', { TableName: 'Keys', Item: { k: { S: k } } });
    expect(scan({ TableName: 'Keys' }).Items!.map((item) => item.k!.S)).toEqual(RECORDED_S_SCAN_ORDER);
  });

  it('visits N partitions in the recorded hash order', () => {
    for (const k of RECORDED_N_SCAN_ORDER)
      engine.execute('PutItem', { TableName: 'NumberKeys', Item: { k: { N: k } } });
    expect(scan({ TableName: 'NumberKeys' }).Items!.map((item) => item.k!.N)).toEqual(RECORDED_N_SCAN_ORDER);
  });

  it('orders sort keys numerically inside a partition', () => {
    for (const sk of ['10', '-1', '2', '1.5']) {
      engine.execute('PutItem', { TableName: 'Composite', Item: { pk: { S: 'p' }, sk: { N: sk } } });
    }
    expect(scan({ TableName: 'Composite' }).Items!.map((item) => item.sk!.N)).toEqual([
      '-1',
      '1.5',
      '2',
      '10',
    ]);
  });

  it('pages with Limit, answering LastEvaluatedKey on a full page even when nothing remains (docs/dynamodb.md §6.2.2)', () => {
    for (let i = 0; i < 5; i++)
      engine.execute('PutItem', { TableName: 'Keys', Item: { k: { S: `key${i}` } } });
    const first = scan({ TableName: 'Keys', Limit: 5 });
    expect(first.Count).toBe(5);
    expect(first.LastEvaluatedKey).toBeDefined();
    const second = scan({ TableName: 'Keys', Limit: 5, ExclusiveStartKey: first.LastEvaluatedKey });
    expect(second).toEqual({ Items: [], Count: 0, ScannedCount: 0 });
  });

  it('never skips or repeats an item while items are written and deleted between pages', () => {
    for (let i = 0; i < 300; i++)
      engine.execute('PutItem', { TableName: 'Keys', Item: { k: { S: `a${i}` } } });
    const seen: string[] = [];
    let start: unknown;
    let round = 0;
    do {
      const page = scan({ TableName: 'Keys', Limit: 17, ...(start ? { ExclusiveStartKey: start } : {}) });
      seen.push(...page.Items!.map((item) => item.k!.S!));
      start = page.LastEvaluatedKey;
      // Churn between pages: new keys, and deletions of keys other than the original 300.
      engine.execute('PutItem', { TableName: 'Keys', Item: { k: { S: `new${round}` } } });
      if (round > 2)
        engine.execute('DeleteItem', { TableName: 'Keys', Key: { k: { S: `new${round - 2}` } } });
      round++;
    } while (start);
    expect(new Set(seen).size).toBe(seen.length);
    for (let i = 0; i < 300; i++) expect(seen).toContain(`a${i}`);
  });

  it('splits the table into 4 disjoint segments whose union is the table', () => {
    for (let i = 0; i < 1000; i++) {
      engine.execute('PutItem', {
        TableName: 'Composite',
        Item: { pk: { S: `p${i % 97}` }, sk: { N: String(i) } },
      });
    }
    const all = scanAll({ TableName: 'Composite', Limit: 100 }).keys;
    const segments = [0, 1, 2, 3].map(
      (Segment) => scanAll({ TableName: 'Composite', Limit: 64, Segment, TotalSegments: 4 }).keys,
    );
    const union = segments.flat();
    expect(union.length).toBe(1000);
    expect(new Set(union)).toEqual(new Set(all));
    for (const segment of segments) expect(segment.length).toBeGreaterThan(0);
  });

  it('stops a page at 1 MB of evaluated data, the crossing item included (docs/dynamodb.md §6.2.3)', () => {
    const big = 'x'.repeat(100_000);
    for (let i = 0; i < 25; i++)
      engine.execute('PutItem', { TableName: 'Keys', Item: { k: { S: `big${i}` }, v: { S: big } } });
    const first = scan({ TableName: 'Keys', Select: 'COUNT' });
    // Each item is ~100,008 bytes: the 11th crosses 1,048,576 bytes and ends the page.
    expect(first.ScannedCount).toBe(11);
    expect(first.LastEvaluatedKey).toBeDefined();
    expect(first).not.toHaveProperty('Items');
    const { keys, pages } = scanAll({ TableName: 'Keys' });
    expect(keys.length).toBe(25);
    expect(pages).toBe(3);
  });

  it('rejects segment parameters with the service texts (docs/dynamodb.md §6.4.1)', () => {
    expect(wireError(() => engine.execute('Scan', { TableName: 'Keys', Segment: 1 }))).toEqual(
      validation(
        'The TotalSegments parameter is required but was not present in the request when Segment parameter is present',
      ),
    );
    expect(wireError(() => engine.execute('Scan', { TableName: 'Keys', TotalSegments: 2 }))).toEqual(
      validation(
        'The Segment parameter is required but was not present in the request when parameter TotalSegments is present',
      ),
    );
    expect(
      wireError(() => engine.execute('Scan', { TableName: 'Keys', Segment: 2, TotalSegments: 2 })),
    ).toEqual(
      // The newer framework dropped `: Segment: 2 is not less than TotalSegments: 2` (2026,
      // nubo-db/dynamodb-conformance tests/tier3/error-messages/scan.test.ts).
      validation('The Segment parameter is zero-based and must be less than parameter TotalSegments'),
    );
  });

  it('rejects a start key from another segment', () => {
    for (let i = 0; i < 50; i++)
      engine.execute('PutItem', { TableName: 'Keys', Item: { k: { S: `s${i}` } } });
    const page = scan({ TableName: 'Keys', Segment: 0, TotalSegments: 2, Limit: 1 });
    expect(
      wireError(() =>
        scan({ TableName: 'Keys', Segment: 1, TotalSegments: 2, ExclusiveStartKey: page.LastEvaluatedKey }),
      ),
    ).toEqual(
      validation(
        'The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: 1',
      ),
    );
  });

  it('rejects malformed start keys with the short text of the newer framework (2026, docs/dynamodb.md §6.4.1)', () => {
    // nubo-db/dynamodb-conformance tests/tier3/error-messages/scan.test.ts: "The new cohort
    // answers Scan with the same short form as Query".
    expect(wireError(() => scan({ TableName: 'Keys', ExclusiveStartKey: { other: { S: 'x' } } }))).toEqual(
      validation('The provided starting key is invalid'),
    );
    expect(wireError(() => scan({ TableName: 'Keys', ExclusiveStartKey: { k: { N: '1' } } }))).toEqual(
      validation('The provided key element does not match the schema'),
    );
    expect(wireError(() => scan({ TableName: 'Keys', ExclusiveStartKey: { k: {} } }))).toEqual(
      validation(
        'The provided starting key is invalid: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes',
      ),
    );
  });

  it('charges the page bytes rounded up to 4 KB once, halved when eventual (docs/dynamodb.md §4.3.3)', () => {
    for (let i = 0; i < 3; i++)
      engine.execute('PutItem', {
        TableName: 'Keys',
        Item: { k: { S: `c${i}` }, v: { S: 'x'.repeat(3000) } },
      });
    const consistent = engine.execute('Scan', {
      TableName: 'Keys',
      ConsistentRead: true,
      ReturnConsumedCapacity: 'TOTAL',
    });
    expect(consistent.ConsumedCapacity).toEqual({ TableName: 'Keys', CapacityUnits: 3 });
    const eventual = engine.execute('Scan', { TableName: 'Keys', ReturnConsumedCapacity: 'TOTAL' });
    expect(eventual.ConsumedCapacity).toEqual({ TableName: 'Keys', CapacityUnits: 1.5 });
  });
});
