import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../../core/engine.js';
import { pageSize } from '../../../../core/model/pageSize.js';
import { validation, wireError } from '../../../helpers/errors.js';
import { addTable } from '../../../helpers/tables.js';

let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  addTable(engine, 'Events', ['pk', 'S'], ['sk', 'N']);
  addTable(engine, 'Strings', ['pk', 'S'], ['sk', 'S']);
  addTable(engine, 'HashOnly', ['pk', 'S']);
});

type Page = {
  Items?: Record<string, { S?: string; N?: string }>[];
  Count: number;
  ScannedCount: number;
  LastEvaluatedKey?: unknown;
};
const query = (input: Record<string, unknown>) =>
  engine.execute('Query', { TableName: 'Events', ...input }) as unknown as Page;
const values = (pk: string, extra: Record<string, unknown> = {}) => ({ ':pk': { S: pk }, ...extra });

function fill(pk: string, count: number, item: (i: number) => Record<string, unknown> = () => ({})) {
  for (let i = 0; i < count; i++) {
    engine.execute('PutItem', {
      TableName: 'Events',
      Item: { pk: { S: pk }, sk: { N: String(i) }, ...item(i) },
    });
  }
}

describe('Query key conditions', () => {
  beforeEach(() => {
    fill('p', 20);
    fill('q', 3);
  });
  const sks = (page: Page) => page.Items!.map((item) => Number(item.sk!.N));

  it('reads one partition in sort key order, reversed with ScanIndexForward false', () => {
    expect(
      sks(query({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: values('q') })),
    ).toEqual([0, 1, 2]);
    expect(
      sks(
        query({
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: values('q'),
          ScanIndexForward: false,
        }),
      ),
    ).toEqual([2, 1, 0]);
  });

  it.each([
    ['sk = :a', { ':a': { N: '5' } }, [5]],
    ['sk < :a', { ':a': { N: '3' } }, [0, 1, 2]],
    ['sk <= :a', { ':a': { N: '2' } }, [0, 1, 2]],
    ['sk > :a', { ':a': { N: '17' } }, [18, 19]],
    ['sk >= :a', { ':a': { N: '18' } }, [18, 19]],
    ['sk BETWEEN :a AND :b', { ':a': { N: '4' }, ':b': { N: '6' } }, [4, 5, 6]],
    [':a < sk', { ':a': { N: '17' } }, [18, 19]],
  ])('applies %s to the sort key, in both directions', (condition, extra, expected) => {
    const ExpressionAttributeValues = values('p', extra);
    const KeyConditionExpression = `pk = :pk AND ${condition}`;
    expect(sks(query({ KeyConditionExpression, ExpressionAttributeValues }))).toEqual(expected);
    expect(
      sks(query({ KeyConditionExpression, ExpressionAttributeValues, ScanIndexForward: false })),
    ).toEqual([...expected].reverse());
  });

  it('applies begins_with to string sort keys (UTF-8 order), both directions', () => {
    for (const sk of ['a', 'ab', 'abc', 'abd', 'ac', 'b', 'ab\uffff', 'ab😀']) {
      engine.execute('PutItem', { TableName: 'Strings', Item: { pk: { S: 'x' }, sk: { S: sk } } });
    }
    const input = {
      TableName: 'Strings',
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': { S: 'x' }, ':p': { S: 'ab' } },
    };
    const forward = (engine.execute('Query', input).Items as { sk: { S: string } }[]).map(
      (item) => item.sk.S,
    );
    expect(forward).toEqual(['ab', 'abc', 'abd', 'ab\uffff', 'ab😀']);
    const backward = (
      engine.execute('Query', { ...input, ScanIndexForward: false }).Items as { sk: { S: string } }[]
    ).map((item) => item.sk.S);
    expect(backward).toEqual([...forward].reverse());
  });

  it('answers the legacy KeyConditions form like the expression form', () => {
    const page = query({
      KeyConditions: {
        pk: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'p' }] },
        sk: { ComparisonOperator: 'BETWEEN', AttributeValueList: [{ N: '1' }, { N: '3' }] },
      },
    });
    expect(sks(page)).toEqual([1, 2, 3]);
  });

  it('checks the key condition against the schema (docs/dynamodb.md §6.1.3)', () => {
    const fail = (input: Record<string, unknown>) => wireError(() => query(input));
    expect(
      fail({ KeyConditionExpression: 'sk = :a', ExpressionAttributeValues: { ':a': { N: '1' } } }),
    ).toEqual(validation('Query condition missed key schema element: pk'));
    expect(
      fail({
        KeyConditionExpression: 'pk = :pk AND otherattr = :a',
        ExpressionAttributeValues: values('p', { ':a': { N: '1' } }),
      }),
    ).toEqual(validation('Query condition missed key schema element: sk'));
    expect(
      fail({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { N: '1' } } }),
    ).toEqual(
      validation(
        'One or more parameter values were invalid: Condition parameter type does not match schema type',
      ),
    );
    expect(
      fail({
        KeyConditions: {
          pk: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'p' }] },
          sk: { ComparisonOperator: 'NE', AttributeValueList: [{ N: '1' }] },
        },
      }),
    ).toEqual(validation('Attempted conditional constraint is not an indexable operation'));
    expect(fail({})).toEqual(
      validation(
        'Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.',
      ),
    );
  });

  it('refuses filters on key attributes (docs/dynamodb.md §6.1.4)', () => {
    expect(
      wireError(() =>
        query({
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: 'sk > :a',
          ExpressionAttributeValues: values('p', { ':a': { N: '1' } }),
        }),
      ),
    ).toEqual(
      validation('Filter Expression can only contain non-primary key attributes: Primary key attribute: sk'),
    );
  });

  it('validates start keys and their position (docs/dynamodb.md §6.2.5)', () => {
    const base = {
      KeyConditionExpression: 'pk = :pk AND sk > :a',
      ExpressionAttributeValues: values('p', { ':a': { N: '5' } }),
    };
    expect(wireError(() => query({ ...base, ExclusiveStartKey: { pk: { S: 'p' } } }))).toEqual(
      validation('The provided starting key is invalid'),
    );
    expect(
      wireError(() => query({ ...base, ExclusiveStartKey: { pk: { S: 'p' }, sk: { S: '1' } } })),
    ).toEqual(validation('The provided key element does not match the schema'));
    // Another partition, no sort-key condition: outside the boundaries; with a sort-key
    // condition the predicate is checked first, then the partition (recorded in dynalite's
    // tests/query.js, docs/dynamodb.md §6.2.5).
    expect(
      wireError(() =>
        query({
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: values('p'),
          ExclusiveStartKey: { pk: { S: 'q' }, sk: { N: '9' } },
        }),
      ),
    ).toEqual(
      validation('The provided starting key is outside query boundaries based on provided conditions'),
    );
    expect(
      wireError(() => query({ ...base, ExclusiveStartKey: { pk: { S: 'p' }, sk: { N: '2' } } })),
    ).toEqual(validation('The provided starting key does not match the range key predicate'));
    expect(
      wireError(() => query({ ...base, ExclusiveStartKey: { pk: { S: 'q' }, sk: { N: '9' } } })),
    ).toEqual(validation('The query can return at most one row and cannot be restarted'));
    // A start key in the queried partition that satisfies an equality is no error: the page
    // resumes after it (nothing is left).
    expect(
      query({
        KeyConditionExpression: 'pk = :pk AND sk = :a',
        ExpressionAttributeValues: values('p', { ':a': { N: '5' } }),
        ExclusiveStartKey: { pk: { S: 'p' }, sk: { N: '5' } },
      }),
    ).toMatchObject({ Count: 0, ScannedCount: 0 });
  });

  it('applies the Select rules, prefixed in Query (docs/dynamodb.md §6.3.1)', () => {
    const base = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: values('p') };
    expect(wireError(() => query({ ...base, Select: 'SPECIFIC_ATTRIBUTES' }))).toEqual(
      validation(
        '1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES',
      ),
    );
    expect(wireError(() => query({ ...base, Select: 'ALL_PROJECTED_ATTRIBUTES' }))).toEqual(
      validation(
        '1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName',
      ),
    );
    const count = query({ ...base, Select: 'COUNT' });
    expect(count).toEqual({ Count: 20, ScannedCount: 20 });
  });

  it('reads hash-only tables by their key', () => {
    engine.execute('PutItem', { TableName: 'HashOnly', Item: { pk: { S: 'k' }, v: { N: '1' } } });
    const page = engine.execute('Query', {
      TableName: 'HashOnly',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: 'k' } },
    });
    expect(page).toEqual({ Items: [{ pk: { S: 'k' }, v: { N: '1' } }], Count: 1, ScannedCount: 1 });
  });
});

describe('Query paging', () => {
  it('pages a 5,000-item partition through a filter that discards most items: nothing lost or repeated, pages ≤ 1 MB', () => {
    const payload = 'x'.repeat(2_000);
    fill('big', 5_000, (i) => ({ keep: { BOOL: i % 97 === 0 }, payload: { S: payload } }));
    const kept: number[] = [];
    let scanned = 0;
    let pages = 0;
    let start: unknown;
    // Page sizes, not item sizes (core/model/pageSize.ts, docs/dynamodb.md §6.2.3).
    const sizeOf = (i: number) =>
      pageSize(
        {
          pk: { S: 'big' },
          sk: { N: String(i) },
          keep: { BOOL: i % 97 === 0 },
          payload: { S: payload },
        },
        'sk',
      );
    do {
      const page = query({
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'keep = :yes',
        ExpressionAttributeValues: { ':pk': { S: 'big' }, ':yes': { BOOL: true } },
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      pages++;
      // A page stops at the item whose size crosses 1 MB, that item included (docs/dynamodb.md §6.2.3).
      let bytes = 0;
      for (let i = scanned; i < scanned + page.ScannedCount; i++) bytes += sizeOf(i);
      const last = sizeOf(scanned + page.ScannedCount - 1);
      if (page.LastEvaluatedKey) expect(bytes).toBeGreaterThanOrEqual(1024 * 1024);
      expect(bytes - last).toBeLessThan(1024 * 1024);
      scanned += page.ScannedCount;
      kept.push(...page.Items!.map((item) => Number(item.sk!.N)));
      start = page.LastEvaluatedKey;
    } while (start);
    expect(scanned).toBe(5_000);
    expect(pages).toBeGreaterThan(5);
    expect(kept).toEqual(Array.from({ length: 52 }, (_, i) => i * 97));
  });

  it('counts Limit before the filter, and a page may be empty with a LastEvaluatedKey (docs/dynamodb.md §6.2.2)', () => {
    fill('p', 10, (i) => ({ even: { BOOL: i % 2 === 0 } }));
    const page = query({
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'even = :no',
      ExpressionAttributeValues: values('p', { ':no': { BOOL: false } }),
      Limit: 1,
    });
    expect(page).toMatchObject({ Count: 0, ScannedCount: 1, Items: [] });
    expect(page.LastEvaluatedKey).toEqual({ pk: { S: 'p' }, sk: { N: '0' } });
  });
});
