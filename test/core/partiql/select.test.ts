import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../core/clock.js';
import type { Engine } from '../../../core/engine.js';
import { engineWith, failure, MUSIC, ORDERS, run, selectAll, WATCH_LIST } from './helpers.js';

/**
 * SELECT: every example of the reference pages (ql-reference.select.html and the function pages
 * ql-functions.*.html) on their tables, how statements are planned (one item, partitions, or the
 * whole table), paging, indexes. Behaviour marked "conformance" is pinned against DynamoDB
 * (eu-west-2, October 2026) by paritysuite/dynamodb-conformance tests/tier2/partiql/*.test.ts.
 */
let engine: Engine;
let clock: VirtualClock;

/** 3 KB of padding: a whole-table read costs visibly more than one partition's. */
const PADDING = { S: 'x'.repeat(3000) };

function order(id: number, total: number, address: string, extra: Record<string, unknown> = {}) {
  engine.execute('PutItem', {
    TableName: 'Orders',
    Item: {
      OrderID: { N: String(id) },
      Total: { N: String(total) },
      Address: { S: address },
      Padding: PADDING,
      ...extra,
    },
  });
}

beforeEach(() => {
  clock = new VirtualClock(Date.UTC(2026, 0, 1));
  engine = engineWith([ORDERS, WATCH_LIST, MUSIC], { clock });
  order(1, 450, '7834 24th Ave, Kirkland', { Image: { B: Buffer.alloc(400).toString('base64') } });
  order(2, 500, '1 Main St, Seattle');
  order(3, 600, '2 Pike St, Seattle');
  order(4, 900, '3 Elm St, Kirkland');
  order(5, 20, '4 Oak St, Redmond');
});

const ids = (items: Record<string, unknown>[] | undefined) =>
  (items ?? []).map((item) => Number((item.OrderID as { N: string }).N));
const capacity = (output: Record<string, unknown>) =>
  (output.ConsumedCapacity as { CapacityUnits: number }).CapacityUnits;

describe('SELECT, the reference page examples (ql-reference.select.html)', () => {
  it('returns one item by its partition key, projected', () => {
    const output = run(engine, 'SELECT OrderID, Total FROM "Orders" WHERE OrderID = 1');
    expect(output).toEqual({ Items: [{ OrderID: { N: '1' }, Total: { N: '450' } }] });
  });

  it('returns the items of several partition keys joined by OR', () => {
    const output = run(engine, 'SELECT OrderID, Total FROM "Orders" WHERE OrderID = 1 OR OrderID = 2');
    expect(ids(output.Items)).toEqual([1, 2]);
  });

  it('returns the partitions of an IN list in descending key order with ORDER BY … DESC', () => {
    const output = run(
      engine,
      'SELECT OrderID, Total FROM "Orders" WHERE OrderID IN [1, 2, 3] ORDER BY OrderID DESC',
    );
    expect(ids(output.Items)).toEqual([3, 2, 1]);
  });

  it('scans the table for a condition on a non-key attribute', () => {
    expect(ids(selectAll(engine, 'SELECT OrderID, Total FROM "Orders" WHERE Total > 500')).sort()).toEqual([
      3, 4,
    ]);
  });

  it('scans with IN and BETWEEN on a non-key attribute', () => {
    expect(
      ids(selectAll(engine, 'SELECT OrderID, Total FROM "Orders" WHERE Total IN [500, 600]')).sort(),
    ).toEqual([2, 3]);
    expect(
      ids(selectAll(engine, 'SELECT OrderID, Total FROM "Orders" WHERE Total BETWEEN 500 AND 600')).sort(),
    ).toEqual([2, 3]);
  });

  it('reads document paths in the projection and in the WHERE clause', () => {
    const devices = {
      M: { FireStick: { M: { DateWatched: { L: [{ S: '12/15/19' }, { S: '01/01/20' }] } } } },
    };
    engine.execute('PutItem', {
      TableName: 'WatchList',
      Item: { CustomerID: { S: 'C1' }, MovieID: { S: 'M1' }, Devices: devices },
    });
    engine.execute('PutItem', {
      TableName: 'WatchList',
      Item: {
        CustomerID: { S: 'C2' },
        MovieID: { S: 'M1' },
        Devices: { M: { FireStick: { M: { DateWatched: { L: [{ S: '01/01/19' }] } } } } },
      },
    });
    // A selected path comes back named by its last element and the indexes after it.
    expect(
      run(
        engine,
        `SELECT Devices.FireStick.DateWatched[0] FROM WatchList WHERE CustomerID= 'C1' AND MovieID= 'M1'`,
      ).Items,
    ).toEqual([{ 'DateWatched[0]': { S: '12/15/19' } }]);
    expect(
      selectAll(engine, `SELECT Devices FROM WatchList WHERE Devices.FireStick.DateWatched[0] >= '12/12/19'`),
    ).toEqual([{ Devices: devices }]);
  });

  it('reads an index named after the table', () => {
    engine.execute('UpdateTable', {
      TableName: 'Orders',
      AttributeDefinitions: [{ AttributeName: 'Address', AttributeType: 'S' }],
      GlobalSecondaryIndexUpdates: [
        {
          Create: {
            IndexName: 'ByAddress',
            KeySchema: [{ AttributeName: 'Address', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'ALL' },
          },
        },
      ],
    });
    expect(
      ids(run(engine, `SELECT * FROM "Orders"."ByAddress" WHERE Address = '2 Pike St, Seattle'`).Items),
    ).toEqual([3]);
  });
});

describe('SELECT with the functions of ql-functions.html', () => {
  it('size() compares the size of a binary', () => {
    expect(ids(run(engine, `SELECT * FROM "Orders" WHERE "OrderID"=1 AND size("Image") >300`).Items)).toEqual(
      [1],
    );
    expect(ids(run(engine, `SELECT * FROM "Orders" WHERE "OrderID"=1 AND size("Image") >400`).Items)).toEqual(
      [],
    );
  });

  it('contains() and begins_with() test strings', () => {
    expect(
      ids(run(engine, `SELECT * FROM Orders WHERE OrderID=1 AND contains("Address", 'Kirkland')`).Items),
    ).toEqual([1]);
    expect(
      ids(
        run(engine, `SELECT * FROM "Orders" WHERE "OrderID"=1 AND begins_with("Address", '7834 24th')`).Items,
      ),
    ).toEqual([1]);
    expect(
      ids(
        run(engine, `SELECT * FROM "Orders" WHERE "OrderID"=2 AND begins_with("Address", '7834 24th')`).Items,
      ),
    ).toEqual([]);
  });

  it('attribute_type() and IS MISSING test attributes', () => {
    engine.execute('PutItem', { TableName: 'Music', Item: { Artist: { S: 'A' }, SongTitle: { S: 'One' } } });
    engine.execute('PutItem', {
      TableName: 'Music',
      Item: { Artist: { S: 'B' }, SongTitle: { S: 'Two' }, Awards: { N: '1' } },
    });
    expect(selectAll(engine, `SELECT * FROM "Music" WHERE attribute_type("Artist", 'S')`)).toHaveLength(2);
    expect(selectAll(engine, 'SELECT * FROM Music WHERE "Awards" IS MISSING')).toEqual([
      { Artist: { S: 'A' }, SongTitle: { S: 'One' } },
    ]);
    expect(selectAll(engine, 'SELECT SongTitle FROM Music WHERE "Awards" IS NOT MISSING')).toEqual([
      { SongTitle: { S: 'Two' } },
    ]);
  });
});

describe('SELECT conditions (conformance: whereFunctions, comparison)', () => {
  beforeEach(() => {
    engine.execute('PutItem', {
      TableName: 'Music',
      Item: {
        Artist: { S: 'fn' },
        SongTitle: { S: 'item' },
        ss: { SS: ['a', 'b', 'c'] },
        s: { S: 'str' },
        m: { M: { sub: { S: 'x' } } },
        nul: { NULL: true },
        flag: { BOOL: true },
        val: { M: { x: { N: '1' }, y: { N: '2' } } },
      },
    });
  });
  const matches = (condition: string, Parameters?: unknown[]) =>
    run(
      engine,
      `SELECT * FROM "Music" WHERE Artist = 'fn' AND SongTitle = 'item' AND ${condition}`,
      Parameters ? { Parameters } : {},
    ).Items!.length === 1;

  it.each([
    ['attribute_exists(ss)', true],
    ['attribute_exists(nope)', false],
    ['attribute_not_exists(nope)', true],
    ['NOT attribute_exists(nope)', true],
    ['ATTRIBUTE_EXISTS(ss)', true],
    ['(attribute_exists(nope) OR attribute_exists(ss))', true],
    ['attribute_exists(ss) = true', true],
    ['attribute_exists("ss")', true],
    ['attribute_exists(m.sub)', true],
    ['attribute_exists(m.nope)', false],
    ['size(s) = 3', true],
    ['size(s) = 4', false],
    [`attribute_type(ss, 'SS')`, true],
    [`attribute_type(ss, 'S')`, false],
    ['nul IS NULL', true],
    ['s IS NULL', false],
    ['s IS NOT NULL', true],
    ['nul IS NOT NULL', false],
    ['flag IS BOOL', true],
    ['s IS STRING', true],
    ['s IS BOOL', false],
  ])('evaluates %s as %s', (condition, expected) => {
    expect(matches(condition)).toBe(expected);
  });

  it('compares maps by content and sets regardless of order, through parameters', () => {
    expect(matches('val = ?', [{ M: { y: { N: '2' }, x: { N: '1' } } }])).toBe(true);
    expect(matches('ss = ?', [{ SS: ['c', 'a', 'b'] }])).toBe(true);
    expect(matches('ss <> ?', [{ SS: ['c', 'a', 'b'] }])).toBe(false);
    expect(matches('val = ?', [{ M: { x: { N: '1' } } }])).toBe(false);
  });

  it.each(['<', '<=', '>', '>='])('refuses an ordering comparison with a BOOL operand: %s', (operator) => {
    expect(
      failure(engine, `SELECT * FROM "Music" WHERE Artist = 'fn' AND s ${operator} ?`, {
        Parameters: [{ BOOL: true }],
      }),
    ).toEqual({
      name: 'ValidationException',
      message: `Incorrect operand type for operator or function; operator or function: ${operator}, operand type: BOOL`,
    });
  });

  it('names BETWEEN in the operand type message', () => {
    const { message } = failure(engine, `SELECT * FROM "Music" WHERE Artist = 'fn' AND s BETWEEN ? AND ?`, {
      Parameters: [{ BOOL: true }, { BOOL: false }],
    });
    expect(message).toContain('operator or function: BETWEEN');
  });

  it('answers the function messages of the conformance suite', () => {
    const where = (condition: string) => `SELECT * FROM "Music" WHERE Artist = 'fn' AND ${condition}`;
    expect(failure(engine, where(`attribute_exists('ss')`)).message).toBe(
      'Operator or function requires a document path; operator or function: attribute_exists',
    );
    expect(failure(engine, where('attribute_exists()')).message).toBe(
      'Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 0',
    );
    const statement = where('EXISTS(ss)');
    expect(failure(engine, statement).message).toBe(
      `Unrecognized function: exists at 1:${statement.indexOf('EXISTS') + 1}:6`,
    );
    const projection = `SELECT attribute_exists(ss) FROM "Music" WHERE Artist = 'fn'`;
    expect(failure(engine, projection).message).toBe('Unexpected path component at 1:8:16');
    const setAdd = where(`set_add(ss, <<'x'>>) = ss`);
    expect(failure(engine, setAdd).message).toBe(
      `Unrecognized function: set_add at 1:${setAdd.indexOf('set_add') + 1}:7`,
    );
  });
});

describe('SELECT planning', () => {
  it('reads one partition for a partition-key equality, the whole table otherwise', () => {
    const options = { ReturnConsumedCapacity: 'TOTAL' };
    // One 3 KB item: 1 unit, halved (eventually consistent).
    expect(capacity(run(engine, 'SELECT * FROM "Orders" WHERE OrderID = 1 AND Total > 0', options))).toBe(
      0.5,
    );
    expect(capacity(run(engine, 'SELECT * FROM "Orders" WHERE OrderID IN [1, 2]', options))).toBe(1);
    // Five items, about 16 KB: 4 units, halved.
    expect(capacity(run(engine, 'SELECT * FROM "Orders" WHERE Total > 0', options))).toBe(2);
    expect(capacity(run(engine, 'SELECT * FROM "Orders" WHERE OrderID = 1 OR Total = 20', options))).toBe(2);
    expect(
      capacity(run(engine, 'SELECT * FROM "Orders" WHERE OrderID > 1', { ...options, ConsistentRead: true })),
    ).toBe(4);
  });

  it('reads a sort-key range within the partition, in order or reversed', () => {
    for (const title of ['a', 'b', 'c', 'd']) {
      engine.execute('PutItem', {
        TableName: 'Music',
        Item: { Artist: { S: 'X' }, SongTitle: { S: title } },
      });
    }
    const titles = (statement: string) =>
      run(engine, statement).Items!.map((item) => (item.SongTitle as { S: string }).S);
    expect(titles(`SELECT * FROM Music WHERE Artist = 'X' AND SongTitle BETWEEN 'b' AND 'c'`)).toEqual([
      'b',
      'c',
    ]);
    expect(
      titles(`SELECT * FROM Music WHERE Artist = 'X' AND SongTitle > 'b' ORDER BY SongTitle DESC`),
    ).toEqual(['d', 'c']);
    expect(titles(`SELECT * FROM Music WHERE Artist = 'X' AND begins_with(SongTitle, 'a')`)).toEqual(['a']);
    expect(
      titles(`SELECT * FROM Music WHERE Artist = 'X' AND SongTitle <> 'a' AND 'c' >= SongTitle`),
    ).toEqual(['b', 'c']);
  });

  // Conformance: whereOverlap.test.ts and partiqlGrammar.test.ts.
  it('runs OR branches with negated sort-key conditions and refuses overlapping ones', () => {
    for (const title of ['1', '2', '3']) {
      engine.execute('PutItem', {
        TableName: 'Music',
        Item: { Artist: { S: 'P' }, SongTitle: { S: title } },
      });
    }
    const titles = (where: string) =>
      selectAll(engine, `SELECT * FROM "Music" WHERE ${where}`)
        .map((item) => (item.SongTitle as { S: string }).S)
        .sort();
    expect(
      titles(`Artist = 'P' AND NOT SongTitle IN ['1', '3'] OR Artist = 'P' AND SongTitle = '2'`),
    ).toEqual(['2']);
    expect(titles(`Artist = 'P' AND SongTitle <> '1' OR Artist = 'P' AND SongTitle = '2'`)).toEqual([
      '2',
      '3',
    ]);
    expect(titles(`Artist = 'P' OR Artist = 'P' AND NOT SongTitle = '1'`)).toEqual(['1', '2', '3']);
    expect(
      failure(
        engine,
        `SELECT * FROM "Music" WHERE Artist = 'P' AND x = '1' OR Artist = 'P' AND SongTitle = '2'`,
      ),
    ).toEqual({
      name: 'ValidationException',
      message: 'Overlapping conditions with range keys are not supported in where clause',
    });
  });

  // moto's aws_verified test_execute_statement_select_attr.
  it('answers an empty item for items lacking every selected attribute', () => {
    engine.execute('PutItem', {
      TableName: 'Music',
      Item: { Artist: { S: 'U' }, SongTitle: { S: 'u' }, unique_key: { S: 'key' } },
    });
    engine.execute('PutItem', { TableName: 'Music', Item: { Artist: { S: 'V' }, SongTitle: { S: 'v' } } });
    expect(selectAll(engine, 'select unique_key from Music')).toEqual(
      expect.arrayContaining([{}, { unique_key: { S: 'key' } }]),
    );
  });

  // DynamoDB Local's SelectStatementTranslator (unverified against the service).
  it('refuses ORDER BY without a WHERE clause or without a partition-key condition', () => {
    expect(failure(engine, 'SELECT * FROM "Orders" ORDER BY OrderID').message).toBe(
      'Must have WHERE clause in the statement when using ORDER BY clause.',
    );
    expect(failure(engine, 'SELECT * FROM "Orders" WHERE Total > 1 ORDER BY OrderID').message).toBe(
      'Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.',
    );
  });

  it('answers ResourceNotFoundException for a missing table and the index message for a missing index', () => {
    expect(failure(engine, 'SELECT * FROM "Nope" WHERE a = 1')).toEqual({
      name: 'ResourceNotFoundException',
      message: 'Requested resource not found',
    });
    expect(failure(engine, 'SELECT * FROM "Orders"."Nope"')).toEqual({
      name: 'ValidationException',
      // No name after it, unlike Query's (nubo-db/dynamodb-conformance partiqlIndexQualifier.test.ts).
      message: 'The table does not have the specified index',
    });
  });
});

describe('SELECT paging', () => {
  it('evaluates Limit items per page and continues from NextToken', () => {
    const first = run(engine, 'SELECT OrderID FROM "Orders" WHERE Total > 100', { Limit: 2 });
    expect(first.NextToken).toEqual(expect.any(String));
    expect(
      ids(selectAll(engine, 'SELECT OrderID FROM "Orders" WHERE Total > 100', { Limit: 2 })).sort(),
    ).toEqual([1, 2, 3, 4]);
  });

  it('ends a page once 1 MB has been read, the item that crosses it included', () => {
    for (let i = 0; i < 12; i++) {
      engine.execute('PutItem', {
        TableName: 'Music',
        Item: {
          Artist: { S: 'Big' },
          SongTitle: { S: `song${String(i).padStart(2, '0')}` },
          Blob: { S: 'y'.repeat(100_000) },
        },
      });
    }
    const first = run(engine, `SELECT SongTitle FROM Music WHERE Artist = 'Big'`);
    expect(first.Items).toHaveLength(11);
    const second = run(engine, `SELECT SongTitle FROM Music WHERE Artist = 'Big'`, {
      NextToken: first.NextToken,
    });
    expect(second.Items).toEqual([{ SongTitle: { S: 'song11' } }]);
    expect(second.NextToken).toBeUndefined();
  });

  // DynamoDB Local's ContinuationTokenSerializer messages (unverified against the service).
  it('refuses a NextToken of another statement, a foreign one and an expired one', () => {
    const { NextToken } = run(engine, 'SELECT * FROM "Orders"', { Limit: 1 });
    expect(failure(engine, 'SELECT * FROM "Orders" WHERE Total > 0', { NextToken }).message).toBe(
      'NextToken does not match request',
    );
    expect(failure(engine, 'SELECT * FROM "Orders"', { NextToken: 'bm90IGEgdG9rZW4=' }).message).toBe(
      'Invalid NextToken',
    );
    clock.set(clock.now() + 60 * 60 * 1000);
    expect(failure(engine, 'SELECT * FROM "Orders"', { NextToken }).message).toBe(
      'Given NextToken has already expired',
    );
  });
});
