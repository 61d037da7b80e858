import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../core/engine.js';
import { engineWith, failure, MUSIC, run } from './helpers.js';

/**
 * INSERT, UPDATE and DELETE: every example of ql-reference.insert.html, ql-reference.update.html,
 * ql-reference.delete.html and ql-reference.data-types.html, and what the conformance suite
 * (paritysuite/dynamodb-conformance tests/tier2/partiql/{writeResponses,setFunctions,
 * fromFirstUpdate,whereFunctions}.test.ts, pinned against DynamoDB in October 2026) shows.
 */
const TYPES_TABLE = {
  TableName: 'TypesTable',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'primarykey', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'primarykey', KeyType: 'HASH' }],
};

let engine: Engine;
beforeEach(() => {
  engine = engineWith([MUSIC, TYPES_TABLE]);
});

const song = (title = 'PartiQL Rocks') => ({ Artist: { S: 'Acme Band' }, SongTitle: { S: title } });
const stored = (title = 'PartiQL Rocks') =>
  (engine.execute('GetItem', { TableName: 'Music', Key: song(title) }) as { Item?: Record<string, unknown> })
    .Item;

describe('INSERT (ql-reference.insert.html)', () => {
  it('inserts the example item and answers an empty Items list', () => {
    expect(
      run(engine, `INSERT INTO "Music" value {'Artist' : 'Acme Band','SongTitle' : 'PartiQL Rocks'}`),
    ).toEqual({ Items: [] });
    expect(stored()).toEqual(song());
  });

  it('answers DuplicateItemException when the key exists, leaving the item', () => {
    engine.execute('PutItem', { TableName: 'Music', Item: { ...song(), Awards: { N: '1' } } });
    expect(
      failure(engine, `INSERT INTO "Music" value {'Artist' : 'Acme Band','SongTitle' : 'PartiQL Rocks'}`),
    ).toEqual({
      name: 'DuplicateItemException',
      message: 'Duplicate primary key exists in table',
    });
    expect(stored()).toEqual({ ...song(), Awards: { N: '1' } });
  });

  it('inserts every data type of ql-reference.data-types.html, parameters included', () => {
    run(
      engine,
      `INSERT INTO TypesTable value {'primarykey':'1', 'NumberType':1, 'MapType' : {'entryname1': 'value', 'entryname2': 4},
       'ListType': [1,'stringval'], 'NumberSetType':<<1,34,32,4.5>>, 'StringSetType':<<'stringval','stringval2'>>,
       'Flag': true, 'Nothing': null, 'Bytes': ?}`,
      { Parameters: [{ B: 'AQI=' }] },
    );
    const item = engine.execute('GetItem', { TableName: 'TypesTable', Key: { primarykey: { S: '1' } } })
      .Item as Record<string, unknown>;
    expect(item).toEqual({
      primarykey: { S: '1' },
      NumberType: { N: '1' },
      MapType: { M: { entryname1: { S: 'value' }, entryname2: { N: '4' } } },
      ListType: { L: [{ N: '1' }, { S: 'stringval' }] },
      NumberSetType: { NS: expect.arrayContaining(['1', '34', '32', '4.5']) },
      StringSetType: { SS: expect.arrayContaining(['stringval', 'stringval2']) },
      Flag: { BOOL: true },
      Nothing: { NULL: true },
      Bytes: { B: 'AQI=' },
    });
  });

  // DynamoDB Local's InsertStatementTranslator messages (unverified against the service).
  it('refuses an item without its key, with a key of the wrong type, or that is not a tuple', () => {
    expect(failure(engine, `INSERT INTO Music VALUE {'Artist': 'A'}`).message).toBe(
      'Key attribute should be present in the item: Key SongTitle',
    );
    expect(failure(engine, `INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 1}`).message).toBe(
      "Key attribute's data type should match its data type in table's schema: Key SongTitle",
    );
    expect(failure(engine, `INSERT INTO Music VALUE ['a']`).message).toBe(
      'Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.',
    );
    expect(
      failure(engine, `INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'B'} RETURNING ALL OLD *`)
        .message,
    ).toBe('RETURNING is not supported in INSERT');
  });

  it('answers ResourceNotFoundException for a missing table and writes nothing', () => {
    expect(failure(engine, `INSERT INTO "Nope" VALUE {'a': 'b'}`).name).toBe('ResourceNotFoundException');
  });

  it('refuses an item over 400 KB with the PutItem message', () => {
    expect(
      failure(engine, `INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'B', 'Big': ?}`, {
        Parameters: [{ S: 'x'.repeat(410_000) }],
      }),
    ).toEqual({ name: 'ValidationException', message: 'Item size has exceeded the maximum allowed size' });
  });
});

describe('UPDATE (ql-reference.update.html)', () => {
  beforeEach(() => {
    engine.execute('PutItem', { TableName: 'Music', Item: song() });
  });

  it('adds a number and a map, then answers RETURNING ALL OLD * and ALL NEW *', () => {
    const old = run(
      engine,
      `UPDATE "Music" SET AwardsWon=1 SET AwardDetail={'Grammys':[2020, 2018]} WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' RETURNING ALL OLD *`,
    );
    expect(old).toEqual({ Items: [song()] });
    const after = run(
      engine,
      `UPDATE "Music" SET AwardsWon=1 SET AwardDetail={'Grammys':[2020, 2018]} WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' RETURNING ALL NEW *`,
    );
    expect(after.Items).toEqual([
      {
        ...song(),
        AwardsWon: { N: '1' },
        AwardDetail: { M: { Grammys: { L: [{ N: '2020' }, { N: '2018' }] } } },
      },
    ]);
  });

  it('runs the list, map and set examples in order', () => {
    const where = `WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'`;
    run(engine, `UPDATE "Music" SET AwardDetail={'Grammys':[2020, 2018]} ${where}`);
    run(engine, `UPDATE "Music" SET AwardDetail.Grammys =list_append(AwardDetail.Grammys,[2016]) ${where}`);
    expect(stored()!.AwardDetail).toEqual({
      M: { Grammys: { L: [{ N: '2020' }, { N: '2018' }, { N: '2016' }] } },
    });
    run(engine, `UPDATE "Music" REMOVE AwardDetail.Grammys[2] ${where}`);
    run(engine, `UPDATE "Music" SET AwardDetail.BillBoard=[2020] ${where}`);
    expect(stored()!.AwardDetail).toEqual({
      M: { Grammys: { L: [{ N: '2020' }, { N: '2018' }] }, BillBoard: { L: [{ N: '2020' }] } },
    });
    run(engine, `UPDATE "Music" SET BandMembers =<<'member1', 'member2'>> ${where}`);
    run(engine, `UPDATE "Music" SET BandMembers =set_add(BandMembers, <<'newbandmember'>>) ${where}`);
    expect([...(stored()!.BandMembers as { SS: string[] }).SS].sort()).toEqual([
      'member1',
      'member2',
      'newbandmember',
    ]);
  });

  it('runs the data-types page updates: arithmetic, LIST_APPEND, SET_ADD, SET_DELETE, REMOVE', () => {
    run(
      engine,
      `INSERT INTO TypesTable value {'primarykey':'1', 'NumberType':1, 'MapType' : {'entryname1': 'value'}, 'ListType': [1,'stringval'], 'NumberSetType':<<1,34>>, 'StringSetType':<<'stringval'>>}`,
    );
    run(
      engine,
      `UPDATE TypesTable SET NumberType=NumberType + 100 SET MapType.NewMapEntry=[2020, 'stringvalue', 2.4]
       SET ListType = LIST_APPEND(ListType, [4, <<'string1', 'string2'>>]) SET NumberSetType= SET_ADD(NumberSetType, <<345, 48.4>>)
       SET StringSetType = SET_ADD(StringSetType, <<'stringsetvalue1', 'stringsetvalue2'>>) WHERE primarykey='1'`,
    );
    run(
      engine,
      `UPDATE TypesTable SET NumberType=NumberType - 1 REMOVE ListType[1] REMOVE MapType.NewMapEntry
       SET NumberSetType = SET_DELETE( NumberSetType, <<345>>) SET StringSetType = SET_DELETE( StringSetType, <<'stringsetvalue1'>>)
       WHERE primarykey='1'`,
    );
    const item = engine.execute('GetItem', { TableName: 'TypesTable', Key: { primarykey: { S: '1' } } })
      .Item as Record<string, unknown>;
    expect(item.NumberType).toEqual({ N: '100' });
    expect(item.MapType).toEqual({ M: { entryname1: { S: 'value' } } });
    expect(item.ListType).toEqual({ L: [{ N: '1' }, { N: '4' }, { SS: ['string1', 'string2'] }] });
    expect([...(item.NumberSetType as { NS: string[] }).NS].sort()).toEqual(['1', '34', '48.4']);
    expect([...(item.StringSetType as { SS: string[] }).SS].sort()).toEqual(['stringsetvalue2', 'stringval']);
  });

  it('fails with ConditionalCheckFailedException when the key names no item, creating nothing', () => {
    expect(failure(engine, `UPDATE "Music" SET a = 1 WHERE Artist='Nobody' AND SongTitle='x'`).name).toBe(
      'ConditionalCheckFailedException',
    );
    expect(
      engine.execute('GetItem', {
        TableName: 'Music',
        Key: { Artist: { S: 'Nobody' }, SongTitle: { S: 'x' } },
      }),
    ).toEqual({});
  });

  it('takes the rest of the WHERE clause as the condition, and answers the old item when asked', () => {
    expect(
      failure(
        engine,
        `UPDATE Music SET z = 2 WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND attribute_exists(nope)`,
      ).name,
    ).toBe('ConditionalCheckFailedException');
    run(
      engine,
      `UPDATE Music SET y = 1 WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND attribute_not_exists(y)`,
    );
    let thrown: unknown;
    try {
      engine.execute('ExecuteStatement', {
        Statement: `UPDATE Music SET y = 2 WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND attribute_not_exists(y)`,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      });
    } catch (error) {
      thrown = (error as { toWire(): unknown }).toWire();
    }
    expect(thrown).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
      message: 'The conditional request failed',
      Item: { ...song(), y: { N: '1' } },
    });
  });

  it('answers MODIFIED OLD * and MODIFIED NEW * with the touched attributes only', () => {
    const where = `WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'`;
    run(engine, `UPDATE Music SET a = 1, b = 2 ${where}`);
    expect(run(engine, `UPDATE Music SET a = a + 1 ${where} RETURNING MODIFIED OLD *`).Items).toEqual([
      { a: { N: '1' } },
    ]);
    expect(run(engine, `UPDATE Music SET a = a - 5 ${where} RETURNING MODIFIED NEW *`).Items).toEqual([
      { a: { N: '-3' } },
    ]);
  });

  it('refuses a WHERE clause without the full key', () => {
    expect(failure(engine, `UPDATE Music SET a = 1 WHERE Artist='Acme Band'`)).toEqual({
      name: 'ValidationException',
      message: 'Where clause does not contain a mandatory equality on all key attributes',
    });
    expect(
      failure(engine, `UPDATE Music SET a = 1 WHERE Artist='Acme Band' OR SongTitle = 'x'`).message,
    ).toBe('Where clause does not contain a mandatory equality on all key attributes');
  });

  it('refuses updating a key attribute with the UpdateItem message', () => {
    expect(
      failure(engine, `UPDATE Music SET Artist = 'x' WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'`)
        .message,
    ).toBe(
      'One or more parameter values were invalid: Cannot update attribute Artist. This attribute is part of the key',
    );
  });

  it('runs the FROM-first form with parameters and RETURNING', () => {
    const output = run(
      engine,
      `FROM "Music" WHERE Artist = ? AND SongTitle = ? SET c = ? REMOVE d RETURNING ALL NEW *`,
      {
        Parameters: [{ S: 'Acme Band' }, { S: 'PartiQL Rocks' }, { N: '7' }],
      },
    );
    expect(output.Items).toEqual([{ ...song(), c: { N: '7' } }]);
    expect(failure(engine, `FROM "Music" SET c = 1`).message).toBe(
      'Where clause does not contain a mandatory equality on all key attributes',
    );
    expect(failure(engine, `FROM "Nope" WHERE pk = 'x' SET c = 1`).name).toBe('ResourceNotFoundException');
  });
});

describe('set_add and set_delete (conformance setFunctions, partiqlFunctions)', () => {
  const where = `WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks'`;
  beforeEach(() => {
    engine.execute('PutItem', {
      TableName: 'Music',
      Item: { ...song(), ss: { SS: ['a', 'b', 'c'] }, ns: { NS: ['1', '2', '3'] }, s: { S: 'str' } },
    });
  });

  it('adds to a missing attribute, removes the attribute with its last member and ignores absent members', () => {
    run(engine, `UPDATE Music SET nss = set_add(nss, <<'x'>>) ${where}`);
    expect(stored()!.nss).toEqual({ SS: ['x'] });
    run(engine, `UPDATE Music SET ss = set_delete(ss, <<'a', 'b', 'c'>>) ${where}`);
    expect(stored()!.ss).toBeUndefined();
    run(
      engine,
      `UPDATE Music SET ns = set_delete(ns, <<9>>) SET ns = set_add(ns, <<4>>) ${where}`.replace(
        'SET ns = set_add(ns, <<4>>) ',
        '',
      ),
    );
    expect(stored()!.ns).toEqual({ NS: ['1', '2', '3'] });
  });

  it('answers the service messages with the token place', () => {
    const at = (statement: string, token: string, from = 0) => `1:${statement.indexOf(token, from) + 1}`;
    let statement = `UPDATE Music SET t = set_add(ss, <<'x'>>) ${where}`;
    expect(failure(engine, statement).message).toBe(
      `The first argument to SET_ADD must equal the assignment value at ${at(statement, 'set_add')}:7`,
    );
    statement = `UPDATE Music SET ss = set_add(ss, 'x') ${where}`;
    expect(failure(engine, statement).message).toBe(
      `The second argument to SET_ADD must be a value with type SET at ${at(statement, 'ss', statement.indexOf('set_add('))}:2`,
    );
    statement = `UPDATE Music SET ss = set_add(ss) ${where}`;
    expect(failure(engine, statement).message).toBe(
      `SET_ADD must have exactly two arguments at ${at(statement, 'set_add')}:7`,
    );
    statement = `UPDATE Music SET t = set_delete(ss, <<'a'>>) ${where}`;
    expect(failure(engine, statement).message).toBe(
      `The first argument to SET_DELETE must equal the assignment value at ${at(statement, 'set_delete')}:10`,
    );
    statement = `INSERT INTO "Music" VALUE {'Artist': 'A', 'SongTitle': 'B', 'ss': set_add(<<'a'>>, <<'b'>>)}`;
    expect(failure(engine, statement).message).toBe(
      `Unsupported data type: set_add under key root at ${at(statement, 'set_add')}:7`,
    );
  });

  it.each([
    [`ss = set_add(ss, <<1>>)`, 'An operand in the update expression has an incorrect data type'],
    [`s = set_add(s, <<'x'>>)`, 'An operand in the update expression has an incorrect data type'],
    [`ss = set_delete(ss, <<1>>)`, 'An operand in the update expression has an incorrect data type'],
    [
      `ss = set_add(ss, <<'x', 'x'>>)`,
      'One or more parameter values were invalid: Input collection [x, x] contains duplicates.',
    ],
    [`ss = set_add(ss, <<>>)`, 'Empty bags are not supported'],
  ])('refuses %s', (set, message) => {
    expect(failure(engine, `UPDATE Music SET ${set} ${where}`)).toEqual({
      name: 'ValidationException',
      message,
    });
  });
});

describe('DELETE (ql-reference.delete.html)', () => {
  beforeEach(() => {
    engine.execute('PutItem', { TableName: 'Music', Item: { ...song(), a: { N: '5' } } });
  });

  it('deletes the example item and answers RETURNING ALL OLD *', () => {
    expect(
      run(
        engine,
        `DELETE FROM "Music" WHERE "Artist" = 'Acme Band' AND "SongTitle" = 'PartiQL Rocks' RETURNING ALL OLD *`,
      ),
    ).toEqual({
      Items: [{ ...song(), a: { N: '5' } }],
    });
    expect(stored()).toBeUndefined();
    expect(
      run(engine, `DELETE FROM "Music" WHERE "Artist" = 'Acme Band' AND "SongTitle" = 'PartiQL Rocks'`),
    ).toEqual({ Items: [] });
  });

  it('succeeds for a missing item even with a condition, and fails a false condition on a present one', () => {
    expect(run(engine, `DELETE FROM Music WHERE Artist = 'Nobody' AND SongTitle = 'x' AND a = 1`)).toEqual({
      Items: [],
    });
    expect(
      failure(
        engine,
        `DELETE FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND attribute_exists(nope)`,
      ).name,
    ).toBe('ConditionalCheckFailedException');
    expect(stored()).toBeDefined();
    run(
      engine,
      `DELETE FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' AND attribute_not_exists(nope)`,
    );
    expect(stored()).toBeUndefined();
  });

  // DynamoDB Local's StatementTranslator (unverified against the service).
  it('refuses RETURNING other than ALL OLD *, and a WHERE clause without the full key', () => {
    expect(
      failure(
        engine,
        `DELETE FROM Music WHERE Artist='Acme Band' AND SongTitle='PartiQL Rocks' RETURNING ALL NEW *`,
      ).message,
    ).toBe(
      'Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements.',
    );
    expect(failure(engine, `DELETE FROM Music WHERE Artist='Acme Band'`).message).toBe(
      'Where clause does not contain a mandatory equality on all key attributes',
    );
    expect(stored()).toBeDefined();
  });
});

describe('parameters', () => {
  it('binds ? in textual order and refuses too few', () => {
    run(engine, `INSERT INTO Music VALUE {'Artist': ?, 'SongTitle': ?, 'n': ?}`, {
      Parameters: [{ S: 'P' }, { S: 'Q' }, { N: '1' }],
    });
    expect(
      run(engine, 'SELECT n FROM Music WHERE Artist = ? AND SongTitle = ?', {
        Parameters: [{ S: 'P' }, { S: 'Q' }],
      }).Items,
    ).toEqual([{ n: { N: '1' } }]);
    expect(failure(engine, 'SELECT * FROM Music WHERE Artist = ?').message).toBe(
      "Number of parameters in request and statement don't match.",
    );
  });

  // Conformance partiqlParameterNumbers.test.ts.
  it('answers the AttributeValue messages of invalid parameters', () => {
    for (const value of [
      '1e99999999999',
      '-1e99999999999',
      '1e-99999999999',
      '1e2147483648',
      '1e-2147483648',
    ]) {
      expect(
        failure(engine, 'SELECT * FROM Music WHERE Artist = ?', { Parameters: [{ N: value }] }).message,
      ).toBe(`The parameter cannot be converted to a numeric value: ${value}`);
    }
    expect(
      failure(engine, 'SELECT * FROM Music WHERE Artist = ?', { Parameters: [{ N: '1e2147483647' }] })
        .message,
    ).toBe('Number underflow. Attempting to store a number with magnitude smaller than supported range');
    expect(
      failure(engine, 'SELECT * FROM Music WHERE Artist = ? AND x = ?', {
        Parameters: [{ L: [{ N: '1' }, { N: '1e99999999999' }] }, { S: 'a' }],
      }).message,
    ).toBe('The parameter cannot be converted to a numeric value: 1e99999999999');
    expect(
      failure(engine, 'SELECT * FROM Music WHERE Artist = ?', { Parameters: [{ N: 'abc' }] }).message,
    ).toBe('The parameter cannot be converted to a numeric value: abc');
  });
});

describe('stored form', () => {
  it('stores an INSERT item exactly as PutItem stores the same item', () => {
    run(
      engine,
      `INSERT INTO Music VALUE {'SongTitle': 'T', 'Artist': 'A', 'z': <<'b', 'a'>>, 'm': {'y': 1, 'x': <<3, 20>>}, '10': 1, '9': 2}`,
    );
    engine.execute('PutItem', {
      TableName: 'Music',
      Item: {
        Artist: { S: 'B' },
        SongTitle: { S: 'T' },
        z: { SS: ['b', 'a'] },
        m: { M: { y: { N: '1' }, x: { NS: ['3', '20'] } } },
        '10': { N: '1' },
        '9': { N: '2' },
      },
    });
    const table = engine.region().tables.get('Music')!;
    const text = (artist: string): string => {
      const stored = [...table.items.scan()].find(
        (entry) => (entry.item.decode().Artist as { S?: string } | undefined)?.S === artist,
      )!.item;
      return JSON.stringify(stored.decode()).replace(`"${artist}"`, '"?"');
    };
    expect(text('A')).toBe(text('B'));
  });
});
