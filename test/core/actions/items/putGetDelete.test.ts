import { beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../../core/changeEvent.js';
import { Engine } from '../../../../core/engine.js';
import { serialization, validation, wireError } from '../../../helpers/errors.js';
import { addTable } from '../../../helpers/tables.js';

let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  addTable(engine, 'GameScores', ['UserId', 'S'], ['GameTitle', 'S']);
  addTable(engine, 'Numbers', ['id', 'N']);
});

const gameScore = {
  UserId: { S: '101' },
  GameTitle: { S: 'Galaxy Invaders' },
  TopScore: { N: '5842' },
  Wins: { N: '21' },
  Losses: { N: '72' },
};

describe('PutItem and GetItem', () => {
  it('stores an item and reads it back whole (the GameScores item of the GSI guide)', () => {
    expect(engine.execute('PutItem', { TableName: 'GameScores', Item: gameScore })).toEqual({});
    const got = engine.execute('GetItem', {
      TableName: 'GameScores',
      Key: { UserId: { S: '101' }, GameTitle: { S: 'Galaxy Invaders' } },
    });
    expect(got).toEqual({ Item: gameScore });
  });

  it('answers {} for a missing item', () => {
    expect(
      engine.execute('GetItem', {
        TableName: 'GameScores',
        Key: { UserId: { S: 'x' }, GameTitle: { S: 'y' } },
      }),
    ).toEqual({});
  });

  it('replaces the whole item on a second put (docs/dynamodb.md §4.2.1)', () => {
    engine.execute('PutItem', { TableName: 'GameScores', Item: gameScore });
    const replacement = { UserId: { S: '101' }, GameTitle: { S: 'Galaxy Invaders' }, Wins: { N: '22' } };
    engine.execute('PutItem', { TableName: 'GameScores', Item: replacement });
    const got = engine.execute('GetItem', {
      TableName: 'GameScores',
      Key: { UserId: { S: '101' }, GameTitle: { S: 'Galaxy Invaders' } },
    });
    expect(got).toEqual({ Item: replacement });
  });

  it('returns the old item with ReturnValues ALL_OLD, nothing for a new item', () => {
    expect(
      engine.execute('PutItem', { TableName: 'GameScores', Item: gameScore, ReturnValues: 'ALL_OLD' }),
    ).toEqual({});
    const second = engine.execute('PutItem', {
      TableName: 'GameScores',
      Item: { ...gameScore, Wins: { N: '22' } },
      ReturnValues: 'ALL_OLD',
    });
    expect(second).toEqual({ Attributes: gameScore });
  });

  it('names numbers by value: 1000, 1e3 and +1000.0 are one item, returned as 1000 (docs/dynamodb.md §2.2.4)', () => {
    engine.execute('PutItem', { TableName: 'Numbers', Item: { id: { N: '1e3' }, v: { N: '0.50' } } });
    engine.execute('PutItem', { TableName: 'Numbers', Item: { id: { N: '+1000.0' }, v: { N: '.5' } } });
    expect(engine.region().tables.get('Numbers')!.items.size).toBe(1);
    expect(engine.execute('GetItem', { TableName: 'Numbers', Key: { id: { N: '1000' } } })).toEqual({
      Item: { id: { N: '1000' }, v: { N: '0.5' } },
    });
  });

  it('round-trips attribute names such as __proto__ and constructor as data', () => {
    const item = JSON.parse(
      '{"id":{"N":"1"},"__proto__":{"M":{"__proto__":{"S":"inner"},"constructor":{"S":"c"}}},"constructor":{"L":[{"S":"x"}]},"toString":{"BOOL":true}}',
    );
    engine.execute('PutItem', { TableName: 'Numbers', Item: item });
    const got = engine.execute('GetItem', { TableName: 'Numbers', Key: { id: { N: '1' } } }) as {
      Item: Record<string, unknown>;
    };
    expect(JSON.parse(JSON.stringify(got.Item))).toEqual(JSON.parse(JSON.stringify(item)));
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(Object.hasOwn(got.Item, '__proto__')).toBe(true);
  });

  it('keeps every data type exactly (B canonical, sets, nested lists and maps, empty strings)', () => {
    const item = {
      id: { N: '7' },
      s: { S: '' },
      b: { B: 'AAEC/w==' },
      bool: { BOOL: false },
      nul: { NULL: true },
      ss: { SS: ['b', 'a'] },
      ns: { NS: ['10', '9.5'] },
      bs: { BS: ['AQ==', 'AA=='] },
      l: { L: [{ S: '' }, { L: [] }, { M: {} }] },
      m: { M: { deep: { M: { deeper: { NS: ['1'] } } } } },
    };
    engine.execute('PutItem', { TableName: 'Numbers', Item: item });
    const { Item } = engine.execute('GetItem', { TableName: 'Numbers', Key: { id: { N: '7' } } }) as {
      Item: Record<string, { SS?: string[]; NS?: string[]; BS?: string[] }>;
    };
    expect(Item.s).toEqual({ S: '' });
    expect(Item.b).toEqual({ B: 'AAEC/w==' });
    expect(new Set(Item.ss!.SS)).toEqual(new Set(['a', 'b']));
    expect(new Set(Item.ns!.NS)).toEqual(new Set(['10', '9.5']));
    expect(new Set(Item.bs!.BS)).toEqual(new Set(['AQ==', 'AA==']));
    expect(Item.l).toEqual(item.l);
    expect(Item.m).toEqual(item.m);
  });
});

describe('PutItem validation', () => {
  const put = (Item: unknown, extra: Record<string, unknown> = {}) =>
    wireError(() => engine.execute('PutItem', { TableName: 'GameScores', Item, ...extra }));
  const key = { UserId: { S: 'u' }, GameTitle: { S: 'g' } };

  it('reports a missing key attribute (docs/dynamodb.md §4.1.3)', () => {
    expect(put({ UserId: { S: 'u' } })).toEqual(
      validation('One or more parameter values were invalid: Missing the key GameTitle in the item'),
    );
  });

  it('reports a key of the wrong type as recorded by rory.horse: Type mismatch for key pk expected: S actual: N', () => {
    addTable(engine, 'schema-demo', ['pk', 'S']);
    const error = wireError(() =>
      engine.execute('PutItem', { TableName: 'schema-demo', Item: { pk: { N: '123' } } }),
    );
    expect(error).toEqual(
      validation('One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N'),
    );
  });

  it('rejects empty key strings with the Item wording (docs/dynamodb.md §2.3.3)', () => {
    expect(put({ UserId: { S: '' }, GameTitle: { S: 'g' } })).toEqual(
      validation(
        'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: UserId',
      ),
    );
  });

  it('accepts a 2048-byte partition key and rejects 2049 (verbatim "of2048")', () => {
    expect(
      engine.execute('PutItem', {
        TableName: 'GameScores',
        Item: { ...key, UserId: { S: 'x'.repeat(2048) } },
      }),
    ).toEqual({});
    expect(put({ ...key, UserId: { S: 'x'.repeat(2049) } })).toEqual(
      validation(
        'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes',
      ),
    );
  });

  it('accepts a 1024-byte sort key and rejects 1025, counting UTF-8 bytes', () => {
    expect(
      engine.execute('PutItem', {
        TableName: 'GameScores',
        Item: { ...key, GameTitle: { S: 'é'.repeat(512) } },
      }),
    ).toEqual({});
    expect(put({ ...key, GameTitle: { S: `${'é'.repeat(512)}x` } })).toEqual(
      validation(
        'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes',
      ),
    );
  });

  it('accepts an item of exactly 409600 bytes and rejects one byte more (docs/dynamodb.md §2.4.1)', () => {
    // Names "UserId"(6)+"u"(1) + "GameTitle"(9)+"g"(1) + "d"(1) = 18 bytes besides the payload.
    const exact = { ...key, d: { S: 'x'.repeat(409_600 - 18) } };
    expect(engine.execute('PutItem', { TableName: 'GameScores', Item: exact })).toEqual({});
    expect(put({ ...key, d: { S: 'x'.repeat(409_600 - 17) } })).toEqual(
      validation('1 validation error detected: Item size has exceeded the maximum allowed size'),
    );
  });

  it('refuses an empty attribute name or one over 65,535 UTF-8 bytes (docs/dynamodb.md §2.5.4)', () => {
    // Texts: AWS's DynamoDB Local (ErrorFactory EMPTY_ATTRIBUTE_NAME, ATTRIBUTE_NAME_TOO_LARGE);
    // ScyllaDB's test_limits.py (run against DynamoDB) expects `ValidationException.*6553[56]`.
    const prefix = '1 validation error detected: ';
    expect(put({ ...key, '': { S: 'x' } })).toEqual(validation(`${prefix}Empty attribute name`));
    // 32,768 two-byte characters: 65,536 bytes, though only 32,768 UTF-16 units.
    expect(put({ ...key, ['é'.repeat(32_768)]: { S: 'x' } })).toEqual(
      validation(`${prefix}Attribute name is too large, must be less than 65536 bytes`),
    );
    expect(put({ ...key, ['a'.repeat(65_536)]: { N: '1' } })).toEqual(
      validation(`${prefix}Attribute name is too large, must be less than 65536 bytes`),
    );
    // The value of an attribute is checked before its name (DynamoDB Local's InputConverter).
    expect(put({ ...key, '': {} })).toEqual(
      validation(
        `${prefix}Supplied AttributeValue is empty, must contain exactly one of the supported datatypes`,
      ),
    );
    // Before the table is looked up, like every AttributeValue problem (docs/dynamodb.md §8.2).
    expect(
      wireError(() =>
        engine.execute('PutItem', { TableName: 'NoSuchTable', Item: { ...key, '': { S: 'x' } } }),
      ),
    ).toEqual(validation(`${prefix}Empty attribute name`));
    // 65,535 bytes is the largest name.
    const longest = `${'é'.repeat(32_767)}a`;
    expect(
      engine.execute('PutItem', { TableName: 'GameScores', Item: { ...key, [longest]: { S: 'x' } } }),
    ).toEqual({});
    expect(engine.execute('GetItem', { TableName: 'GameScores', Key: key })).toEqual({
      Item: { ...key, [longest]: { S: 'x' } },
    });
  });

  it('refuses an empty name given by ExpressionAttributeNames or AttributeUpdates in UpdateItem', () => {
    const update = (extra: Record<string, unknown>) =>
      wireError(() => engine.execute('UpdateItem', { TableName: 'GameScores', Key: key, ...extra }));
    expect(
      update({
        UpdateExpression: 'SET #a = :v',
        ExpressionAttributeNames: { '#a': '' },
        ExpressionAttributeValues: { ':v': { S: 'x' } },
      }),
    ).toEqual(
      validation(
        '1 validation error detected: ExpressionAttributeNames contains invalid value: Empty attribute name for key #a',
      ),
    );
    expect(update({ AttributeUpdates: { '': { Action: 'PUT', Value: { S: 'x' } } } })).toEqual(
      validation('1 validation error detected: Empty attribute name'),
    );
    expect(engine.execute('GetItem', { TableName: 'GameScores', Key: key })).toEqual({});
  });

  it('refuses an empty attribute name in a Key, without the prefix in GetItem', () => {
    expect(
      wireError(() =>
        engine.execute('GetItem', { TableName: 'GameScores', Key: { ...key, '': { S: 'x' } } }),
      ),
    ).toEqual(validation('Empty attribute name'));
    expect(
      wireError(() =>
        engine.execute('DeleteItem', { TableName: 'GameScores', Key: { ...key, '': { S: 'x' } } }),
      ),
    ).toEqual(validation('1 validation error detected: Empty attribute name'));
  });

  it('checks item size before the table exists (docs/dynamodb.md §8.2)', () => {
    const error = wireError(() =>
      engine.execute('PutItem', {
        TableName: 'NoSuchTable',
        Item: { ...key, d: { S: 'x'.repeat(409_600) } },
      }),
    );
    expect(error).toEqual(
      validation('1 validation error detected: Item size has exceeded the maximum allowed size'),
    );
  });

  it('answers ResourceNotFoundException for a missing table', () => {
    expect(wireError(() => engine.execute('PutItem', { TableName: 'NoSuchTable', Item: key }))).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
      message: 'Requested resource not found',
    });
  });

  it('reports AttributeValue problems with the service texts and the 9.2 prefix', () => {
    const prefix = '1 validation error detected: ';
    expect(put({ ...key, a: {} })).toEqual(
      validation(
        `${prefix}Supplied AttributeValue is empty, must contain exactly one of the supported datatypes`,
      ),
    );
    expect(put({ ...key, a: { S: 'x', N: '1' } })).toEqual(
      validation(
        `${prefix}Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes`,
      ),
    );
    expect(put({ ...key, a: { SS: [] } })).toEqual(
      validation(`${prefix}One or more parameter values were invalid: An string set  may not be empty`),
    );
    expect(put({ ...key, a: { NS: [] } })).toEqual(
      validation(`${prefix}One or more parameter values were invalid: An number set  may not be empty`),
    );
    expect(put({ ...key, a: { BS: [] } })).toEqual(
      validation(`${prefix}One or more parameter values were invalid: Binary sets should not be empty`),
    );
    expect(put({ ...key, a: { SS: ['a', 'a'] } })).toEqual(
      validation(
        // nubo-db/dynamodb-conformance captures/2026-06-09-validation-rewording.json, b_put_dup_ss
        // (eu-west-2, eu-central-1; us-east-1 then printed `[a, a]` without the prefix).
        `${prefix}One or more parameter values were invalid: Input collection ["a", "a"] contains duplicates.`,
      ),
    );
    expect(put({ ...key, a: { BS: ['Yg==', 'Yg=='] } })).toEqual(
      validation(
        `${prefix}One or more parameter values were invalid: Input collection [Yg==, Yg==]of type BS contains duplicates.`,
      ),
    );
    expect(put({ ...key, a: { NS: ['1', '1.0'] } })).toEqual(
      validation(`${prefix}Input collection contains duplicates`),
    );
    expect(put({ ...key, a: { N: 'abc' } })).toEqual(
      validation(`${prefix}The parameter cannot be converted to a numeric value: abc`),
    );
    expect(put({ ...key, a: { N: '1e126' } })).toEqual(
      validation(
        `${prefix}Number overflow. Attempting to store a number with magnitude larger than supported range`,
      ),
    );
  });

  it('allows 32 nesting levels and rejects 33 (docs/dynamodb.md §2.1.5)', () => {
    let deep: unknown = { S: 'leaf' };
    for (let level = 1; level < 32; level++) deep = { L: [deep] };
    expect(engine.execute('PutItem', { TableName: 'GameScores', Item: { ...key, deep } })).toEqual({});
    const error = put({ ...key, deep: { M: { x: deep } } });
    expect(String(error.message)).toContain('nest');
  });

  it('answers SerializationException for JSON of the wrong type, before any validation (docs/dynamodb.md §1.2.7)', () => {
    expect(put({ ...key, a: { S: 5 } })).toEqual(serialization('NUMBER_VALUE cannot be converted to String'));
    expect(put({ ...key, a: { N: 3 } })).toEqual(serialization('NUMBER_VALUE cannot be converted to String'));
    expect(put({ ...key, a: { S: true } })).toEqual(
      serialization('TRUE_VALUE cannot be converted to String'),
    );
    // The parser reads `true`/`false`/`yes`/`no`/`1`/`0` as booleans; other strings are refused
    // (dynalite's validations/index.js, docs/dynamodb.md §1.2.7).
    expect(put({ ...key, a: { BOOL: 'maybe' } })).toEqual(
      serialization('Unexpected token received from parser'),
    );
    expect(put({ ...key, a: { SS: 'a' } })).toEqual(serialization('Unexpected field type'));
    expect(put({ ...key, a: { B: 'abcde' } })).toEqual(
      serialization('Base64 encoded length is expected a multiple of 4 bytes but found: 5'),
    );
    expect(put({ ...key, a: 'x' })).toEqual(serialization('Unexpected value type in payload'));
    expect(put([])).toEqual(
      serialization(
        'Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>',
      ),
    );
    // A type error later in the request still wins over an earlier validation problem.
    expect(put({ ...key, a: {}, b: { S: 1.5 } })).toEqual(
      serialization('DECIMAL_VALUE cannot be converted to String'),
    );
  });

  it('reads BOOL and NULL from the strings the parser takes; NULL must then be true (docs/dynamodb.md §1.2.7, §2.1.1)', () => {
    // BOOL: dynalite's recorded tests (true/1/yes, false/0/no in any case). NULL false (and "no",
    // read as false): refused in every region again since the 2026-07-17 sweep of
    // nubo-db/dynamodb-conformance (tests/tier3/error-messages/putItem.test.ts, "rejects a
    // { NULL: false } attribute value"), after eu-west-2 and eu-central-1 took it in June 2026.
    const item = { ...key, t: { BOOL: 'Yes' }, f: { BOOL: '0' }, n: { NULL: 'YES' } };
    expect(engine.execute('PutItem', { TableName: 'GameScores', Item: item })).toEqual({});
    expect(engine.execute('GetItem', { TableName: 'GameScores', Key: key })).toEqual({
      Item: { ...key, t: { BOOL: true }, f: { BOOL: false }, n: { NULL: true } },
    });
    for (const flag of [false, 'no', '0'])
      expect(put({ ...key, n: { NULL: flag } })).toEqual(
        validation(
          '1 validation error detected: One or more parameter values were invalid: Null attribute value types must have the value of true',
        ),
      );
    expect(put({ ...key, n: { NULL: 'maybe' } })).toEqual(
      serialization('Unexpected token received from parser'),
    );
    expect(put({ ...key, n: { NULL: 0 } })).toEqual(
      serialization('NUMBER_VALUE cannot be converted to Boolean'),
    );
  });

  it('lists constraint violations, null members included (docs/dynamodb.md §1.2.8)', () => {
    const error = wireError(() => engine.execute('PutItem', { TableName: 'a;', ReturnValues: 'BOGUS' }));
    expect(error.__type).toBe('com.amazon.coral.validate#ValidationException');
    const message = String(error.message);
    expect(message).toMatch(/^4 validation errors detected: /);
    expect(message).toContain(
      "Value 'a;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
    );
    expect(message).toContain(
      "Value 'a;' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
    );
    expect(message).toContain("Value null at 'item' failed to satisfy constraint: Member must not be null");
    // The newer framework's ReturnValues entry (docs/dynamodb.md §1.2.10).
    expect(message).toContain(
      'Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]',
    );
  });

  it('words ReturnValues and ReturnItemCollectionMetrics as the newer framework does (docs/dynamodb.md §1.2.10)', () => {
    // nubo-db/dynamodb-conformance captures/2026-06-09-validation-rewording.json (eu-west-2:
    // o_put_three_bad_enums, o_del_two_bad_enums, o_upd_two_bad_enums) and registry/splits.json
    // (update-item-validation-error-aggregation: eu-west-2, eu-central-1, us-east-1, 2026-08-12).
    const bad = { ReturnValues: 'INVALID', ReturnConsumedCapacity: 'INVALID' };
    const consumed =
      "Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]";
    const values =
      'Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]';
    expect(put(key, { ...bad, ReturnItemCollectionMetrics: 'INVALID' })).toEqual(
      validation(
        `3 validation errors detected: ${consumed}; ${values}; ReturnItemCollectionMetrics can only be SIZE or NONE`,
      ),
    );
    expect(
      wireError(() => engine.execute('DeleteItem', { TableName: 'GameScores', Key: key, ...bad })),
    ).toEqual(validation(`2 validation errors detected: ${consumed}; ${values}`));
    // UpdateItem stops at ReturnValues.
    expect(
      wireError(() => engine.execute('UpdateItem', { TableName: 'GameScores', Key: key, ...bad })),
    ).toEqual(validation(`1 validation error detected: ${values}`));
    // Alone, ReturnConsumedCapacity keeps the older entry.
    expect(put(key, { ReturnConsumedCapacity: 'INVALID' })).toEqual(
      validation(`1 validation error detected: ${consumed}`),
    );
  });

  it('allows only NONE and ALL_OLD as ReturnValues', () => {
    expect(put(key, { ReturnValues: 'ALL_NEW' })).toEqual(
      validation('1 validation error detected: ReturnValues can only be ALL_OLD or NONE'),
    );
  });
});

describe('GetItem and DeleteItem keys', () => {
  it('answers "The provided key element does not match the schema" for a wrong key (docs/dynamodb.md §4.1.2)', () => {
    const mismatch = validation('The provided key element does not match the schema');
    const get = (Key: unknown) =>
      wireError(() => engine.execute('GetItem', { TableName: 'GameScores', Key }));
    expect(get({ UserId: { S: 'u' } })).toEqual(mismatch);
    expect(get({ UserId: { S: 'u' }, GameTitle: { N: '1' } })).toEqual(mismatch);
    expect(get({ UserId: { S: 'u' }, GameTitle: { S: 'g' }, extra: { S: 'x' } })).toEqual(mismatch);
    expect(get({ UserId: { S: 'u' }, Other: { S: 'g' } })).toEqual(mismatch);
  });

  // The Key wording joined the Item wording in 2026 (nubo-db/dynamodb-conformance
  // tests/tier3/error-messages/getItem.test.ts: `… are not valid. … empty binary value. Key: pk`).
  it('uses the 2026 wording for empty key strings (docs/dynamodb.md §2.3.3)', () => {
    const error = wireError(() =>
      engine.execute('GetItem', {
        TableName: 'GameScores',
        Key: { UserId: { S: '' }, GameTitle: { S: 'g' } },
      }),
    );
    expect(error).toEqual(
      validation(
        'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: UserId',
      ),
    );
  });

  it('deletes an item, returns it with ALL_OLD, and deleting a missing item succeeds', () => {
    engine.execute('PutItem', { TableName: 'GameScores', Item: gameScore });
    const Key = { UserId: { S: '101' }, GameTitle: { S: 'Galaxy Invaders' } };
    expect(engine.execute('DeleteItem', { TableName: 'GameScores', Key, ReturnValues: 'ALL_OLD' })).toEqual({
      Attributes: gameScore,
    });
    expect(engine.execute('GetItem', { TableName: 'GameScores', Key })).toEqual({});
    expect(engine.execute('DeleteItem', { TableName: 'GameScores', Key, ReturnValues: 'ALL_OLD' })).toEqual(
      {},
    );
  });
});

describe('consumed capacity (docs/dynamodb.md §4.3)', () => {
  it('charges 1 KB write units on the larger of old and new, and 4 KB read units halved when eventual', () => {
    // The recorded vector of docs/dynamodb.md §2.4.4: this item is exactly 1024 bytes → 1 WCU; a byte more →
    // 2.
    addTable(engine, 'cap', ['a', 'S']);
    const item = {
      a: { S: 'x'.repeat(10) },
      b: { S: 'y'.repeat(999) },
      c: { N: '12.3456' },
      d: { B: 'AAA=' },
      e: { BS: ['AAA=', 'AA==', 'AQ=='] },
    };
    const put = (Item: unknown) =>
      engine.execute('PutItem', { TableName: 'cap', Item, ReturnConsumedCapacity: 'TOTAL' }).ConsumedCapacity;
    expect(put(item)).toEqual({ TableName: 'cap', CapacityUnits: 1 });
    expect(put({ ...item, b: { S: 'y'.repeat(1000) } })).toEqual({ TableName: 'cap', CapacityUnits: 2 });
    const read = (ConsistentRead: boolean) =>
      engine.execute('GetItem', {
        TableName: 'cap',
        Key: { a: { S: 'x'.repeat(10) } },
        ConsistentRead,
        ReturnConsumedCapacity: 'TOTAL',
      }).ConsumedCapacity;
    expect(read(true)).toEqual({ TableName: 'cap', CapacityUnits: 1 });
    expect(read(false)).toEqual({ TableName: 'cap', CapacityUnits: 0.5 });
    const missing = engine.execute('GetItem', {
      TableName: 'cap',
      Key: { a: { S: 'none' } },
      ReturnConsumedCapacity: 'INDEXES',
    }).ConsumedCapacity;
    expect(missing).toEqual({ TableName: 'cap', CapacityUnits: 0.5, Table: { CapacityUnits: 0.5 } });
  });
});

describe('the commit point', () => {
  it('emits INSERT, MODIFY, REMOVE in commit order, and nothing for writes that change nothing', () => {
    const events: ChangeEvent[] = [];
    engine.onCommit((event) => events.push(event));
    const Key = { UserId: { S: '101' }, GameTitle: { S: 'Galaxy Invaders' } };
    engine.execute('PutItem', { TableName: 'GameScores', Item: gameScore });
    engine.execute('PutItem', { TableName: 'GameScores', Item: { ...gameScore } }); // identical: nothing
    // Same item, attributes in another order: still nothing (stored text is canonical).
    const reordered = Object.fromEntries(Object.entries(gameScore).reverse());
    engine.execute('PutItem', { TableName: 'GameScores', Item: reordered });
    engine.execute('PutItem', { TableName: 'GameScores', Item: { ...gameScore, Wins: { N: '22' } } });
    engine.execute('DeleteItem', { TableName: 'GameScores', Key });
    engine.execute('DeleteItem', { TableName: 'GameScores', Key }); // missing: nothing
    expect(events.map((event) => event.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3]);
    const [insert, modify, remove] = events as [ChangeEvent, ChangeEvent, ChangeEvent];
    expect(insert.keys).toEqual(Key);
    expect(insert.oldImage).toBeUndefined();
    expect(insert.newImage).toEqual(gameScore);
    expect(modify.oldImage).toEqual(gameScore);
    expect(modify.newImage).toEqual({ ...gameScore, Wins: { N: '22' } });
    expect(remove.newImage).toBeUndefined();
    expect(remove.itemKey).toBe(insert.itemKey);
    expect(insert.sizeBytes).toBe(insert.keysSize + insert.newItem!.size);
  });

  it('keeps a write when a listener throws', () => {
    engine.onCommit(() => {
      throw new Error('listener bug');
    });
    engine.execute('PutItem', { TableName: 'Numbers', Item: { id: { N: '1' } } });
    expect(engine.execute('GetItem', { TableName: 'Numbers', Key: { id: { N: '1' } } })).toEqual({
      Item: { id: { N: '1' } },
    });
  });
});
