import { describe, expect, it } from 'vitest';
import { NOT_FOUND, SERIALIZATION, wireError } from '../../../helpers/errors.js';
import {
  defs,
  expectConstraints,
  expectValidation,
  hashTable,
  instantEngine,
  keys,
  rangeTable,
} from './helpers.js';

const INVALID = 'One or more parameter values were invalid: ';
const pt = { ReadCapacityUnits: 1, WriteCapacityUnits: 1 };
const lsi = (name: string, keySchema: unknown, projection: unknown = { ProjectionType: 'ALL' }) => ({
  IndexName: name,
  KeySchema: keySchema,
  Projection: projection,
});
const gsi = (name: string, keySchema: unknown, extra: Record<string, unknown> = {}) => ({
  IndexName: name,
  KeySchema: keySchema,
  Projection: { ProjectionType: 'ALL' },
  ...extra,
});

describe('CreateTable table name (docs/dynamodb.md §2.5.2)', () => {
  const engine = instantEngine();
  it('returns the required-parameter message when TableName is missing', () => {
    expectValidation(
      engine,
      'CreateTable',
      {},
      "The parameter 'TableName' is required but was not present in the request",
    );
  });
  // A name of the wrong length became a constraint-list entry (2026, nubo-db/dynamodb-conformance
  // tests/tier3/error-messages/createTable.test.ts: "short table name (2 chars)").
  it('lists a name of 2 characters as a length entry (2026)', () => {
    const full = {
      TableName: 'ab',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    };
    expectValidation(
      engine,
      'CreateTable',
      full,
      "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
    );
    expectValidation(
      engine,
      'CreateTable',
      { ...full, TableName: 'a'.repeat(256) },
      `1 validation error detected: Value '${'a'.repeat(256)}' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255`,
    );
  });
  it('lists a bad pattern with the other null members', () => {
    expectConstraints(engine, 'CreateTable', { TableName: 'abc;' }, [
      "Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null",
      "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
      "Value null at 'keySchema' failed to satisfy constraint: Member must not be null",
    ]);
  });
  it('returns SerializationException when TableName is not a string', () => {
    expect(wireError(() => engine.execute('CreateTable', { TableName: 5 }))).toEqual({
      __type: SERIALIZATION,
      Message: 'NUMBER_VALUE cannot be converted to String',
    });
  });
});

describe('CreateTable constraint list (docs/dynamodb.md §1.2.8, §1.2.9)', () => {
  const engine = instantEngine();
  it('lists null throughput members and a missing KeySchema', () => {
    expectConstraints(
      engine,
      'CreateTable',
      { TableName: 'abc', AttributeDefinitions: [], ProvisionedThroughput: {} },
      [
        "Value null at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must not be null",
        "Value null at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must not be null",
        "Value null at 'keySchema' failed to satisfy constraint: Member must not be null",
      ],
    );
  });
  it('lists low units and an empty KeySchema', () => {
    expectConstraints(
      engine,
      'CreateTable',
      {
        TableName: 'abc',
        AttributeDefinitions: [],
        KeySchema: [],
        ProvisionedThroughput: { ReadCapacityUnits: -1, WriteCapacityUnits: -1 },
      },
      [
        "Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1",
        "Value '-1' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1",
        "Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1",
      ],
    );
  });
  it('lists key elements without names or types, an unknown KeyType and too many elements', () => {
    const body = wireError(() =>
      engine.execute('CreateTable', {
        TableName: 'abc',
        AttributeDefinitions: [],
        KeySchema: [{ KeyType: 'HASH' }, { AttributeName: 'a' }, { KeyType: 'Woop', AttributeName: 'a' }],
        ProvisionedThroughput: pt,
      }),
    );
    const message = body.message as string;
    expect(message.startsWith('4 validation errors detected: ')).toBe(true);
    expect(message).toMatch(
      /Value '\[.+\]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2/,
    );
    expect(message).toContain(
      "Value null at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must not be null",
    );
    expect(message).toContain(
      "Value null at 'keySchema.2.member.keyType' failed to satisfy constraint: Member must not be null",
    );
    expect(message).toContain(
      "Value 'Woop' at 'keySchema.3.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
    );
  });
  it('lists an attribute type that is not a key type', () => {
    expectValidation(
      engine,
      'CreateTable',
      {
        TableName: 'abc',
        AttributeDefinitions: defs(['b', 'SS']),
        KeySchema: keys(['a', 'HASH']),
        ProvisionedThroughput: pt,
      },
      "1 validation error detected: Value 'SS' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
    );
  });
  it('lists null LSI members, at most ten entries', () => {
    const body = wireError(() =>
      engine.execute('CreateTable', {
        ...rangeTable('abc'),
        LocalSecondaryIndexes: [{}, {}, {}, {}, {}, {}, {}, {}, {}],
      }),
    );
    expect((body.message as string).startsWith('10 validation errors detected: ')).toBe(true);
    expect(body.message).toContain(
      "Value null at 'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must not be null",
    );
  });
  it('lists bad GSI names and throughput', () => {
    expectConstraints(
      engine,
      'CreateTable',
      {
        ...hashTable('abc', { BillingMode: undefined, ProvisionedThroughput: pt }),
        GlobalSecondaryIndexes: [
          {
            IndexName: 'h;',
            KeySchema: [],
            Projection: {},
            ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0 },
          },
          {
            IndexName: 'a'.repeat(256),
            KeySchema: keys(['a', 'HASH']),
            Projection: {},
            ProvisionedThroughput: {},
          },
        ],
      },
      [
        "Value 'h;' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        "Value 'h;' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3",
        "Value '0' at 'globalSecondaryIndexes.1.member.provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1",
        "Value '0' at 'globalSecondaryIndexes.1.member.provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1",
        "Value '[]' at 'globalSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1",
        `Value '${'a'.repeat(256)}' at 'globalSecondaryIndexes.2.member.indexName' failed to satisfy constraint: Member must have length less than or equal to 255`,
        "Value null at 'globalSecondaryIndexes.2.member.provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must not be null",
        "Value null at 'globalSecondaryIndexes.2.member.provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must not be null",
      ],
    );
  });
  it('lists an unknown ProjectionType and empty NonKeyAttributes', () => {
    expectConstraints(
      engine,
      'CreateTable',
      {
        ...rangeTable('abc'),
        LocalSecondaryIndexes: [
          lsi('abc', keys(['a', 'HASH'], ['b', 'RANGE']), { NonKeyAttributes: [], ProjectionType: 'abc' }),
        ],
      },
      [
        "Value 'abc' at 'localSecondaryIndexes.1.member.projection.projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]",
        "Value '[]' at 'localSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy constraint: Member must have length greater than or equal to 1",
      ],
    );
  });
  it('lists an unknown BillingMode', () => {
    expectValidation(
      engine,
      'CreateTable',
      hashTable('abc', { BillingMode: 'FREE' }),
      "1 validation error detected: Value 'FREE' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
    );
  });
});

describe('CreateTable billing and throughput (docs/dynamodb.md §3.1.2)', () => {
  const engine = instantEngine();
  const base = { TableName: 'abc', AttributeDefinitions: [], KeySchema: keys(['a', 'HASH']) };
  it('requires both units when provisioned (the default)', () => {
    expectValidation(
      engine,
      'CreateTable',
      base,
      `${INVALID}ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED`,
    );
  });
  it('rejects units on demand', () => {
    expectValidation(
      engine,
      'CreateTable',
      { ...base, BillingMode: 'PAY_PER_REQUEST', ProvisionedThroughput: pt },
      `${INVALID}Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST`,
    );
  });
  it('lists a negative unit before the bound of the other', () => {
    expectValidation(
      engine,
      'CreateTable',
      { ...base, ProvisionedThroughput: { ReadCapacityUnits: 1000000000001, WriteCapacityUnits: -1 } },
      "1 validation error detected: Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1",
    );
  });
  it.each([
    [
      { ReadCapacityUnits: 1000000000001, WriteCapacityUnits: 1000000000001 },
      'Given value 1000000000001 for ReadCapacityUnits is out of bounds',
    ],
    [
      { WriteCapacityUnits: 1000000000001, ReadCapacityUnits: 1000000000001 },
      'Given value 1000000000001 for ReadCapacityUnits is out of bounds',
    ],
    [
      { ReadCapacityUnits: 1000000000000, WriteCapacityUnits: 1000000000001 },
      'Given value 1000000000001 for WriteCapacityUnits is out of bounds',
    ],
  ])('checks the 10^12 bound, read first (%j)', (throughput, message) => {
    expectValidation(engine, 'CreateTable', { ...base, ProvisionedThroughput: throughput }, message);
  });
  it('rejects GSI throughput on demand', () => {
    expectValidation(
      engine,
      'CreateTable',
      {
        ...rangeTable('abc', { ProvisionedThroughput: undefined, BillingMode: 'PAY_PER_REQUEST' }),
        GlobalSecondaryIndexes: [gsi('idx', keys(['b', 'HASH']), { ProvisionedThroughput: pt })],
      },
      `${INVALID}ProvisionedThroughput should not be specified for index: idx when BillingMode is PAY_PER_REQUEST`,
    );
  });
  it('requires GSI throughput when provisioned', () => {
    expectValidation(
      engine,
      'CreateTable',
      { ...rangeTable('abc'), GlobalSecondaryIndexes: [gsi('idx', keys(['b', 'HASH']))] },
      `${INVALID}ProvisionedThroughput is not specified for index: idx`,
    );
  });
  it('rejects OnDemandThroughput on a provisioned table', () => {
    expectValidation(
      engine,
      'CreateTable',
      { ...rangeTable('abc'), OnDemandThroughput: { MaxReadRequestUnits: 10 } },
      `${INVALID}MaxReadRequestUnits for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED`,
    );
  });
  it('rejects OnDemandThroughput outside its range', () => {
    expectValidation(
      engine,
      'CreateTable',
      hashTable('abc', { OnDemandThroughput: { MaxWriteRequestUnits: 0 } }),
      `${INVALID}Requested MaxWriteRequestUnits for OnDemandThroughput for table is outside of valid range`,
    );
  });
});

describe('CreateTable WarmThroughput (docs/dynamodb.md §3.1.12, unverified: moto 5.2.1 texts)', () => {
  const warm = (ReadUnitsPerSecond: number, WriteUnitsPerSecond: number) => ({
    WarmThroughput: { ReadUnitsPerSecond, WriteUnitsPerSecond },
  });
  it('takes on demand 12000 reads and 4000 writes a second, and refuses one less', () => {
    expect(instantEngine().execute('CreateTable', hashTable('abc', warm(12_000, 4_000)))).toBeDefined();
    expectValidation(
      instantEngine(),
      'CreateTable',
      hashTable('abc', warm(11_999, 4_000)),
      `${INVALID}Requested ReadUnitsPerSecond for WarmThroughput for table is lower than initial throughput for OnDemand`,
    );
    expectValidation(
      instantEngine(),
      'CreateTable',
      hashTable('abc', warm(12_000, 3_999)),
      `${INVALID}Requested WriteUnitsPerSecond for WarmThroughput for table is lower than initial throughput for OnDemand`,
    );
  });
  it('takes the provisioned units of a table or index, and refuses one less', () => {
    const units = { ProvisionedThroughput: { ReadCapacityUnits: 50, WriteCapacityUnits: 20 } };
    const table = (extra: Record<string, unknown>) => ({ ...rangeTable('abc'), ...units, ...extra });
    expect(instantEngine().execute('CreateTable', table(warm(50, 20)))).toBeDefined();
    expectValidation(
      instantEngine(),
      'CreateTable',
      table(warm(49, 20)),
      `${INVALID}Requested ReadUnitsPerSecond for WarmThroughput for table is lower than ReadCapacityUnits of ProvisionedThroughput`,
    );
    expectValidation(
      instantEngine(),
      'CreateTable',
      table({
        GlobalSecondaryIndexes: [gsi('gsi', keys(['b', 'HASH']), { ...units, ...warm(50, 19) })],
      }),
      `${INVALID}Requested WriteUnitsPerSecond for WarmThroughput for index gsi is lower than WriteCapacityUnits of ProvisionedThroughput`,
    );
  });
});

describe('CreateTable table keys (docs/dynamodb.md §3.1.3)', () => {
  const engine = instantEngine();
  const create = (definitions: unknown, keySchema: unknown, extra: Record<string, unknown> = {}) => ({
    TableName: 'abc',
    AttributeDefinitions: definitions,
    KeySchema: keySchema,
    ProvisionedThroughput: pt,
    ...extra,
  });
  it.each([
    [[], keys(['a', 'HASH'], ['a', 'HASH'])],
    [defs(['b', 'S']), keys(['a', 'HASH'], ['a', 'HASH'])],
    [defs(['b', 'S']), keys(['a', 'HASH'], ['b', 'RANGE'])],
    [defs(['a', 'S']), keys(['a', 'HASH'], ['a', 'HASH'])],
  ])('says some key has no definition when keys outnumber definitions (%#)', (definitions, keySchema) => {
    expectValidation(
      engine,
      'CreateTable',
      create(definitions, keySchema),
      'Invalid KeySchema: Some index key attribute have no definition',
    );
  });
  it('names undefined keys and the definitions', () => {
    expectValidation(
      engine,
      'CreateTable',
      create(defs(['b', 'S']), keys(['a', 'HASH'])),
      `${INVALID}Some index key attributes are not defined in AttributeDefinitions. Keys: [a], AttributeDefinitions: [b]`,
    );
  });
  it('rejects a hash and range key of the same name', () => {
    expectValidation(
      engine,
      'CreateTable',
      create(defs(['a', 'S'], ['b', 'S']), keys(['a', 'HASH'], ['a', 'HASH'])),
      'Both the Hash Key and the Range Key element in the KeySchema have the same name',
    );
  });
  it('rejects a second HASH key', () => {
    expectValidation(
      engine,
      'CreateTable',
      create(defs(['a', 'S'], ['b', 'S']), keys(['a', 'HASH'], ['b', 'HASH'])),
      'Invalid KeySchema: The second KeySchemaElement is not a RANGE key type',
    );
  });
  it.each([[keys(['a', 'RANGE'], ['b', 'HASH'])], [keys(['a', 'RANGE'], ['b', 'RANGE'])]])(
    'rejects a first key that is not HASH (%#)',
    (keySchema) => {
      expectValidation(
        engine,
        'CreateTable',
        create(defs(['a', 'S'], ['b', 'S']), keySchema),
        'Invalid KeySchema: The first KeySchemaElement is not a HASH key type',
      );
    },
  );
  it.each([
    [defs(['a', 'S'], ['c', 'S'], ['b', 'S']), keys(['a', 'HASH'], ['b', 'RANGE'])],
    [defs(['a', 'S'], ['b', 'S']), keys(['a', 'HASH'])],
  ])('rejects extra definitions without indexes (%#)', (definitions, keySchema) => {
    expectValidation(
      engine,
      'CreateTable',
      create(definitions, keySchema),
      `${INVALID}Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions`,
    );
  });
  it('rejects definitions no key uses when there are indexes', () => {
    expectValidation(
      engine,
      'CreateTable',
      create(defs(['a', 'S'], ['b', 'S'], ['c', 'S']), keys(['a', 'HASH']), {
        GlobalSecondaryIndexes: [gsi('idx', keys(['b', 'HASH']), { ProvisionedThroughput: pt })],
      }),
      `${INVALID}Some AttributeDefinitions are not used. AttributeDefinitions: [a, b, c], keys used: [a, b]`,
    );
  });
  it('rejects an attribute defined twice, naming it', () => {
    expectValidation(
      engine,
      'CreateTable',
      create(defs(['a', 'S'], ['a', 'N']), keys(['a', 'HASH'])),
      'Attribute Name is duplicated: a',
    );
  });
});

describe('CreateTable local secondary indexes (docs/dynamodb.md §3.1.4)', () => {
  const engine = instantEngine();
  const withLsi = (...indexes: unknown[]) => ({ ...rangeTable('abc'), LocalSecondaryIndexes: indexes });
  it('rejects an empty list', () => {
    expectValidation(
      engine,
      'CreateTable',
      { ...rangeTable('abc', { KeySchema: keys(['a', 'HASH']) }), LocalSecondaryIndexes: [] },
      `${INVALID}List of LocalSecondaryIndexes is empty`,
    );
  });
  it('requires a table range key', () => {
    expectValidation(
      engine,
      'CreateTable',
      {
        ...rangeTable('abc', { KeySchema: keys(['a', 'HASH']) }),
        LocalSecondaryIndexes: [lsi('abc', keys(['c', 'RANGE']), {})],
      },
      `${INVALID}Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex`,
    );
  });
  it('names undefined index keys', () => {
    expectValidation(
      engine,
      'CreateTable',
      withLsi(lsi('abc', keys(['a', 'HASH'], ['c', 'RANGE']), {})),
      `${INVALID}Some index key attributes are not defined in AttributeDefinitions. Keys: [a, c], AttributeDefinitions: [a, b]`,
    );
  });
  it.each([
    [keys(['a', 'RANGE']), 'Invalid KeySchema: The first KeySchemaElement is not a HASH key type'],
    [
      keys(['a', 'HASH'], ['a', 'HASH']),
      'Both the Hash Key and the Range Key element in the KeySchema have the same name',
    ],
    [
      keys(['a', 'HASH'], ['a', 'RANGE']),
      'Both the Hash Key and the Range Key element in the KeySchema have the same name',
    ],
    [
      keys(['a', 'HASH'], ['b', 'HASH']),
      'Invalid KeySchema: The second KeySchemaElement is not a RANGE key type',
    ],
    [keys(['b', 'HASH']), `${INVALID}Index KeySchema does not have a range key for index: abc`],
    [
      keys(['b', 'HASH'], ['a', 'RANGE']),
      `${INVALID}Index KeySchema does not have the same leading hash key as table KeySchema for index: abc. index hash key: b, table hash key: a`,
    ],
  ])('checks the index key schema (%#)', (keySchema, message) => {
    expectValidation(engine, 'CreateTable', withLsi(lsi('abc', keySchema, {})), message);
  });
  it.each([
    [{}, `${INVALID}Unknown ProjectionType: null`],
    [{ NonKeyAttributes: ['a'] }, `${INVALID}Unknown ProjectionType: null`],
    [
      { ProjectionType: 'ALL', NonKeyAttributes: ['a'] },
      `${INVALID}ProjectionType is ALL, but NonKeyAttributes is specified`,
    ],
    [
      { ProjectionType: 'KEYS_ONLY', NonKeyAttributes: ['a'] },
      `${INVALID}ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified`,
    ],
    [
      { ProjectionType: 'INCLUDE' },
      `${INVALID}ProjectionType is INCLUDE, but NonKeyAttributes is not specified`,
    ],
    [
      { ProjectionType: 'INCLUDE', NonKeyAttributes: ['x', 'x'] },
      `${INVALID}Duplicate element in NonKeyAttributes: x`,
    ],
  ])('checks the projection (%#)', (projection, message) => {
    expectValidation(
      engine,
      'CreateTable',
      withLsi(lsi('abc', keys(['a', 'HASH'], ['b', 'RANGE']), projection)),
      message,
    );
  });
  it('rejects a repeated index name', () => {
    const index = lsi('abc', keys(['a', 'HASH'], ['b', 'RANGE']));
    expectValidation(engine, 'CreateTable', withLsi(index, index), `${INVALID}Duplicate index name: abc`);
  });
  it('allows five and rejects six', () => {
    const indexes = ['abc', 'abd', 'abe', 'abf', 'abg', 'abh'].map((name) =>
      lsi(name, keys(['a', 'HASH'], ['b', 'RANGE'])),
    );
    expectValidation(
      engine,
      'CreateTable',
      withLsi(...indexes),
      `${INVALID}Number of LocalSecondaryIndexes exceeds per-table limit of 5`,
    );
    expect(() => engine.execute('CreateTable', withLsi(...indexes.slice(0, 5)))).not.toThrow();
    engine.execute('DeleteTable', { TableName: 'abc' });
  });
});

describe('CreateTable global secondary indexes (docs/dynamodb.md §3.1.5, §3.1.6, §3.1.7)', () => {
  const engine = instantEngine();
  const withGsi = (...indexes: unknown[]) => ({ ...rangeTable('abc'), GlobalSecondaryIndexes: indexes });
  const index = (keySchema: unknown, extra: Record<string, unknown> = {}) =>
    gsi('abc', keySchema, { ProvisionedThroughput: pt, ...extra });
  it('rejects an empty list', () => {
    expectValidation(engine, 'CreateTable', withGsi(), `${INVALID}List of GlobalSecondaryIndexes is empty`);
  });
  it.each([
    [
      keys(['c', 'RANGE'], ['d', 'RANGE']),
      `${INVALID}Some index key attributes are not defined in AttributeDefinitions. Keys: [c, d], AttributeDefinitions: [a, b]`,
    ],
    [keys(['a', 'RANGE']), 'Invalid KeySchema: The first KeySchemaElement is not a HASH key type'],
    [
      keys(['a', 'HASH'], ['a', 'HASH']),
      'Both the Hash Key and the Range Key element in the KeySchema have the same name',
    ],
    [
      keys(['a', 'HASH'], ['a', 'RANGE']),
      'Both the Hash Key and the Range Key element in the KeySchema have the same name',
    ],
  ])('checks the index key schema (%#)', (keySchema, message) => {
    expectValidation(engine, 'CreateTable', withGsi(index(keySchema)), message);
  });
  it('reports the projection when the hash key differs from the table (any hash key is allowed)', () => {
    expectValidation(
      engine,
      'CreateTable',
      withGsi(index(keys(['b', 'HASH'], ['a', 'RANGE']), { Projection: {} })),
      `${INVALID}Unknown ProjectionType: null`,
    );
  });
  it('rejects a GSI named like an LSI', () => {
    expectValidation(
      engine,
      'CreateTable',
      {
        ...withGsi(index(keys(['a', 'HASH'], ['b', 'RANGE']))),
        LocalSecondaryIndexes: [lsi('abc', keys(['a', 'HASH'], ['b', 'RANGE']))],
      },
      `${INVALID}Duplicate index name: abc`,
    );
  });
  it('allows twenty and rejects twenty-one', () => {
    const indexes = Array.from({ length: 21 }, (_, i) =>
      gsi(`abc${i}`, keys(['a', 'HASH'], ['b', 'RANGE']), { ProvisionedThroughput: pt }),
    );
    expectValidation(
      engine,
      'CreateTable',
      withGsi(...indexes),
      `${INVALID}GlobalSecondaryIndex count exceeds the per-table limit of 20`,
    );
    expect(() => engine.execute('CreateTable', withGsi(...indexes.slice(0, 20)))).not.toThrow();
    engine.execute('DeleteTable', { TableName: 'abc' });
  });
  it('rejects more than 100 projected attributes across indexes', () => {
    const include = (n: number) => ({
      ProjectionType: 'INCLUDE',
      NonKeyAttributes: Array.from({ length: n }, (_, i) => `x${i}`),
    });
    const indexes = [
      gsi('one', keys(['a', 'HASH']), { ProvisionedThroughput: pt, Projection: include(60) }),
      gsi('two', keys(['b', 'HASH']), { ProvisionedThroughput: pt, Projection: include(41) }),
    ];
    expectValidation(
      engine,
      'CreateTable',
      withGsi(...indexes),
      `${INVALID}Number of projected attributes in all indexes exceeds limit of 100`,
    );
  });
  describe('multi-attribute keys', () => {
    const four = defs(
      ['a', 'S'],
      ['b', 'S'],
      ['c', 'S'],
      ['d', 'N'],
      ['e', 'S'],
      ['f', 'S'],
      ['g', 'S'],
      ['h', 'S'],
      ['i', 'S'],
    );
    const multi = (keySchema: unknown) => ({
      ...rangeTable('abc', { AttributeDefinitions: four }),
      GlobalSecondaryIndexes: [gsi('multi', keySchema, { ProvisionedThroughput: pt })],
    });
    it('accepts up to four HASH and four RANGE attributes', () => {
      const keySchema = keys(
        ['a', 'HASH'],
        ['b', 'HASH'],
        ['c', 'HASH'],
        ['d', 'HASH'],
        ['e', 'RANGE'],
        ['f', 'RANGE'],
        ['g', 'RANGE'],
        ['h', 'RANGE'],
      );
      const description = engine.execute('CreateTable', {
        ...multi(keySchema),
        AttributeDefinitions: four.slice(0, 8),
      }).TableDescription as Record<string, unknown>;
      expect((description.GlobalSecondaryIndexes as Record<string, unknown>[])[0]!.KeySchema).toEqual(
        keySchema,
      );
      engine.execute('DeleteTable', { TableName: 'abc' });
    });
    it.each([
      [
        keys(['a', 'HASH'], ['b', 'RANGE'], ['a', 'RANGE']),
        'The KeySchema contains multiple key attributes with the same name',
      ],
      [
        keys(['a', 'HASH'], ['b', 'RANGE'], ['c', 'HASH']),
        `${INVALID}All HASH key attributes must precede RANGE key attributes in the KeySchema`,
      ],
      [
        keys(['a', 'HASH'], ['b', 'HASH'], ['c', 'HASH'], ['d', 'HASH'], ['e', 'HASH']),
        `${INVALID}The KeySchema exceeds the maximum allowed number of HASH key attributes`,
      ],
      [
        keys(['a', 'HASH'], ['b', 'RANGE'], ['c', 'RANGE'], ['d', 'RANGE'], ['e', 'RANGE'], ['f', 'RANGE']),
        `${INVALID}The KeySchema exceeds the maximum allowed number of RANGE key attributes`,
      ],
    ])('rejects bad multi-attribute schemas (%#)', (keySchema, message) => {
      const used = (keySchema as { AttributeName: string }[]).map((element) => element.AttributeName);
      const definitions = four.filter((definition) => ['a', 'b', ...used].includes(definition.AttributeName));
      expectValidation(
        engine,
        'CreateTable',
        { ...multi(keySchema), AttributeDefinitions: definitions },
        message,
      );
    });
  });
});

describe('CreateTable other settings (docs/streams-and-lambda.md §1.6, SSE, table class, tags)', () => {
  const engine = instantEngine();
  it.each([
    [
      { StreamEnabled: true },
      `${INVALID}Table is being created with a stream enabled, UpdateViewType is required`,
    ],
    [
      { StreamEnabled: false, StreamViewType: 'KEYS_ONLY' },
      `${INVALID}Table is being created with a stream disabled, UpdateViewType should not be specified`,
    ],
  ])('checks StreamSpecification (%#)', (spec, message) => {
    expectValidation(engine, 'CreateTable', hashTable('abc', { StreamSpecification: spec }), message);
  });
  it('lists a missing StreamEnabled and an unknown view type', () => {
    expectConstraints(
      engine,
      'CreateTable',
      hashTable('abc', { StreamSpecification: { StreamViewType: 'ALL' } }),
      [
        "Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: Member must not be null",
        "Value 'ALL' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]",
      ],
    );
  });
  it.each([
    [{ Enabled: false, SSEType: 'KMS' }, `${INVALID}SSEType can not be specified if Enabled is false`],
    [
      { Enabled: false, KMSMasterKeyId: 'k' },
      `${INVALID}KMSMasterKeyId can not be specified if Enabled is false`,
    ],
    [
      { Enabled: true, KMSMasterKeyId: 'k' },
      `${INVALID}SSEType KMS is required if KMSMasterKeyId is specified`,
    ],
    [{ Enabled: true, SSEType: 'AES256' }, `${INVALID}SSEType AES256 is not supported`],
  ])('checks SSESpecification (%#)', (spec, message) => {
    expectValidation(engine, 'CreateTable', hashTable('abc', { SSESpecification: spec }), message);
  });
  it('rejects an unknown table class', () => {
    expectValidation(
      engine,
      'CreateTable',
      hashTable('abc', { TableClass: 'GLACIER' }),
      'Invalid table-class parameter provided. Please try again with a valid table-class value: [STANDARD, STANDARD_INFREQUENT_ACCESS].',
    );
  });
  it('rejects more than 50 tags and leaves no table behind', () => {
    const tags = Array.from({ length: 51 }, (_, i) => ({ Key: `k${i}`, Value: `v${i}` }));
    expectValidation(
      engine,
      'CreateTable',
      hashTable('tagged', { Tags: tags }),
      'Number of Tags exceed the current limit for the provided ResourceArn',
    );
    expect(wireError(() => engine.execute('DescribeTable', { TableName: 'tagged' }))).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Table: tagged not found',
    });
  });
  it('rejects an invalid tag key', () => {
    expectValidation(
      engine,
      'CreateTable',
      hashTable('abc', { Tags: [{ Key: 'hi!', Value: 'x' }] }),
      'The Tag Key provided is invalid, Key: hi!',
    );
  });
});

describe('CreateTable member types (docs/dynamodb.md §1.2.7, §3.1.7)', () => {
  it('returns SerializationException for a NonKeyAttributes entry that is not a string', () => {
    const engine = instantEngine();
    expect(
      wireError(() =>
        engine.execute('CreateTable', {
          ...rangeTable('abc'),
          LocalSecondaryIndexes: [
            lsi('abc', keys(['a', 'HASH'], ['b', 'RANGE']), {
              ProjectionType: 'INCLUDE',
              NonKeyAttributes: [5],
            }),
          ],
        }),
      ),
    ).toEqual({ __type: SERIALIZATION, Message: 'NUMBER_VALUE cannot be converted to String' });
  });
  it('lists a NonKeyAttributes name over 255 characters', () => {
    expectValidation(
      instantEngine(),
      'CreateTable',
      {
        ...rangeTable('abc'),
        LocalSecondaryIndexes: [
          lsi('abc', keys(['a', 'HASH'], ['b', 'RANGE']), {
            ProjectionType: 'INCLUDE',
            NonKeyAttributes: ['n'.repeat(256)],
          }),
        ],
      },
      `1 validation error detected: Value '${'n'.repeat(256)}' at 'localSecondaryIndexes.1.member.projection.nonKeyAttributes.1.member' failed to satisfy constraint: Member must have length less than or equal to 255`,
    );
  });
});
