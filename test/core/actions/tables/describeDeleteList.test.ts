import { describe, expect, it } from 'vitest';
import { IN_USE, NOT_FOUND, VALIDATION, wireError } from '../../../helpers/errors.js';
import {
  arnOf,
  describeOf,
  expectConstraints,
  expectValidation,
  hashTable,
  instantEngine,
  rangeTable,
  slowEngine,
} from './helpers.js';

// Control-plane TableName checks (docs/dynamodb.md §2.5.2).
describe.each(['DescribeTable', 'DeleteTable', 'UpdateTable'])('%s table name', (operation) => {
  const engine = instantEngine();
  it('returns the required-parameter message when TableName is missing', () => {
    expectValidation(
      engine,
      operation,
      {},
      "The parameter 'TableName' is required but was not present in the request",
    );
  });
  // The older text stays on these operations: no 2026 recording of them (docs/dynamodb.md §2.5.2).
  it.each(['', 'a;', 'a'.repeat(256)])('returns the length message for %j', (name) => {
    expectValidation(
      engine,
      operation,
      { TableName: name },
      'TableName must be at least 3 characters long and at most 255 characters long',
    );
  });
  it('lists a bad pattern', () => {
    expectValidation(
      engine,
      operation,
      { TableName: 'abc;' },
      "1 validation error detected: Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
    );
  });
});

describe('DescribeTable (docs/dynamodb.md §3.2)', () => {
  it('answers ResourceNotFoundException naming a missing table', () => {
    expect(
      wireError(() => instantEngine().execute('DescribeTable', { TableName: 'non_existent_table' })),
    ).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Table: non_existent_table not found',
    });
  });

  it('answers the ACTIVE description with no stream, encryption or restore members by default', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('Plain'));
    const table = describeOf(engine, 'Plain');
    expect(table.TableStatus).toBe('ACTIVE');
    for (const member of [
      'StreamSpecification',
      'LatestStreamArn',
      'LatestStreamLabel',
      'SSEDescription',
      'RestoreSummary',
      'BillingModeSummary',
    ])
      expect(table).not.toHaveProperty(member);
  });

  it('counts items and bytes exactly', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', hashTable('Counted'));
    engine.execute('PutItem', { TableName: 'Counted', Item: { a: { S: 'abc' }, x: { N: '12' } } });
    const table = describeOf(engine, 'Counted');
    expect(table.ItemCount).toBe(1);
    // a (1) + "abc" (3) + x (1) + 12 (2 bytes) = 7 (docs/dynamodb.md §2.4).
    expect(table.TableSizeBytes).toBe(7);
  });

  it('describes a CREATING table (the control plane sees it)', () => {
    const { engine } = slowEngine();
    engine.execute('CreateTable', rangeTable('Creating'));
    expect(describeOf(engine, 'Creating').TableStatus).toBe('CREATING');
  });

  it('returns a copy the caller may change', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('Copied'));
    const table = describeOf(engine, 'Copied');
    (table.KeySchema as unknown[]).length = 0;
    expect(describeOf(engine, 'Copied').KeySchema).toHaveLength(2);
  });
});

describe('DeleteTable (docs/dynamodb.md §3.4.1)', () => {
  it('answers DELETING with counters and no schema, and the table is gone at once with no delay', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', { ...hashTable('Gone'), GlobalSecondaryIndexes: undefined });
    const output = engine.execute('DeleteTable', { TableName: 'Gone' });
    expect(output).toEqual({
      TableDescription: {
        TableName: 'Gone',
        TableStatus: 'DELETING',
        TableId: expect.any(String),
        TableArn: arnOf('Gone'),
        ItemCount: 0,
        TableSizeBytes: 0,
        ProvisionedThroughput: { NumberOfDecreasesToday: 0, ReadCapacityUnits: 0, WriteCapacityUnits: 0 },
        BillingModeSummary: {
          BillingMode: 'PAY_PER_REQUEST',
          LastUpdateToPayPerRequestDateTime: expect.any(Number),
        },
      },
    });
    expect(wireError(() => engine.execute('DescribeTable', { TableName: 'Gone' }))).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Table: Gone not found',
    });
  });

  it('leaves out index lists', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', {
      ...rangeTable('WithIndex'),
      GlobalSecondaryIndexes: [
        {
          IndexName: 'abc',
          KeySchema: [{ AttributeName: 'b', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
          ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
        },
      ],
    });
    const output = engine.execute('DeleteTable', { TableName: 'WithIndex' }).TableDescription as Record<
      string,
      unknown
    >;
    for (const member of ['GlobalSecondaryIndexes', 'KeySchema', 'AttributeDefinitions', 'CreationDateTime'])
      expect(output).not.toHaveProperty(member);
  });

  it('keeps the stream members of a table with a stream', () => {
    const engine = instantEngine();
    const created = engine.execute('CreateTable', {
      ...hashTable('Streamed'),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    }).TableDescription as Record<string, unknown>;
    const output = engine.execute('DeleteTable', { TableName: 'Streamed' }).TableDescription as Record<
      string,
      unknown
    >;
    expect(output).toMatchObject({
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      LatestStreamLabel: created.LatestStreamLabel,
      LatestStreamArn: created.LatestStreamArn,
    });
  });

  it('answers ResourceNotFoundException naming a missing table', () => {
    expect(wireError(() => instantEngine().execute('DeleteTable', { TableName: 'missing' }))).toEqual({
      __type: NOT_FOUND,
      message: 'Requested resource not found: Table: missing not found',
    });
  });

  it('refuses a table still being created', () => {
    const { engine } = slowEngine();
    engine.execute('CreateTable', rangeTable('Young'));
    expect(wireError(() => engine.execute('DeleteTable', { TableName: 'Young' }))).toEqual({
      __type: IN_USE,
      message: 'Attempt to change a resource which is still in use: Table is being created: Young',
    });
  });

  it('stays DELETING for the transient delay, then disappears; deleting again meanwhile is fine', async () => {
    const { engine, clock } = slowEngine(500);
    engine.execute('CreateTable', rangeTable('Slowly'));
    await clock.advance(500);
    engine.execute('DeleteTable', { TableName: 'Slowly' });
    expect(describeOf(engine, 'Slowly').TableStatus).toBe('DELETING');
    expect(wireError(() => engine.dataPlaneTable(engine.region(), 'Slowly')).__type).toBe(NOT_FOUND);
    expect(
      (engine.execute('DeleteTable', { TableName: 'Slowly' }).TableDescription as Record<string, unknown>)
        .TableStatus,
    ).toBe('DELETING');
    expect(wireError(() => engine.execute('CreateTable', rangeTable('Slowly')))).toEqual({
      __type: IN_USE,
      message: 'Table already exists: Slowly',
    });
    await clock.advance(500);
    expect(engine.execute('ListTables', {})).toEqual({ TableNames: [] });
  });

  it('refuses a protected table with the service ValidationException', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('Kept', { DeletionProtectionEnabled: true }));
    expect(wireError(() => engine.execute('DeleteTable', { TableName: 'Kept' }))).toEqual({
      __type: VALIDATION,
      message:
        'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.',
    });
    engine.execute('UpdateTable', { TableName: 'Kept', DeletionProtectionEnabled: false });
    expect(() => engine.execute('DeleteTable', { TableName: 'Kept' })).not.toThrow();
  });

  it('refuses a table whose tags are still being applied', async () => {
    const { engine, clock } = slowEngine(100);
    engine.execute('CreateTable', rangeTable('Tagging'));
    await clock.advance(100);
    engine.execute('TagResource', { ResourceArn: arnOf('Tagging'), Tags: [{ Key: 'k', Value: 'v' }] });
    expect(wireError(() => engine.execute('DeleteTable', { TableName: 'Tagging' }))).toEqual({
      __type: IN_USE,
      message: 'Attempt to change a resource which is still in use: Table tags are being updated',
    });
    await clock.advance(100);
    expect(() => engine.execute('DeleteTable', { TableName: 'Tagging' })).not.toThrow();
  });
});

describe('ListTables (docs/dynamodb.md §3.4.2)', () => {
  const engine = instantEngine();
  for (const name of ['delta', 'alpha', 'Charlie', 'bravo', 'echo'])
    engine.execute('CreateTable', rangeTable(name));

  it('lists every name in ascending order', () => {
    expect(engine.execute('ListTables', {})).toEqual({
      TableNames: ['Charlie', 'alpha', 'bravo', 'delta', 'echo'],
    });
  });

  it('pages with Limit and LastEvaluatedTableName', () => {
    expect(engine.execute('ListTables', { Limit: 2 })).toEqual({
      TableNames: ['Charlie', 'alpha'],
      LastEvaluatedTableName: 'alpha',
    });
    expect(engine.execute('ListTables', { Limit: 2, ExclusiveStartTableName: 'alpha' })).toEqual({
      TableNames: ['bravo', 'delta'],
      LastEvaluatedTableName: 'delta',
    });
    expect(engine.execute('ListTables', { Limit: 2, ExclusiveStartTableName: 'delta' })).toEqual({
      TableNames: ['echo'],
    });
  });

  it('omits LastEvaluatedTableName when the limit equals the remaining count', () => {
    expect(engine.execute('ListTables', { Limit: 5 })).toEqual({
      TableNames: ['Charlie', 'alpha', 'bravo', 'delta', 'echo'],
    });
  });

  it('starts strictly after a start name that need not exist', () => {
    expect(engine.execute('ListTables', { ExclusiveStartTableName: 'bravo0' })).toEqual({
      TableNames: ['delta', 'echo'],
    });
    expect(engine.execute('ListTables', { ExclusiveStartTableName: 'zzz' })).toEqual({ TableNames: [] });
  });

  it.each([
    [
      { Limit: 101 },
      [
        "Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100",
      ],
    ],
    [
      { Limit: 0 },
      [
        "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
      ],
    ],
    [
      { ExclusiveStartTableName: 'a;' },
      [
        "Value 'a;' at 'exclusiveStartTableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        "Value 'a;' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
      ],
    ],
    [
      { ExclusiveStartTableName: 'a'.repeat(256) },
      [
        `Value '${'a'.repeat(256)}' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length less than or equal to 255`,
      ],
    ],
  ])(
    'lists bad paging parameters (%j) — names are list entries as on the data plane (docs/dynamodb.md §2.5.3)',
    (input, entries) => {
      expectConstraints(engine, 'ListTables', input, entries);
    },
  );
});

describe('DescribeLimits', () => {
  it('answers the default account and table quotas', () => {
    expect(instantEngine().execute('DescribeLimits', {})).toEqual({
      AccountMaxReadCapacityUnits: 80000,
      AccountMaxWriteCapacityUnits: 80000,
      TableMaxReadCapacityUnits: 40000,
      TableMaxWriteCapacityUnits: 40000,
    });
  });
});

describe('table change notifications', () => {
  it('announces creation, updates, status transitions and deletion, in order', async () => {
    const { VirtualClock } = await import('../../../../core/clock.js');
    const { Engine } = await import('../../../../core/engine.js');
    const clock = new VirtualClock();
    const engine = new Engine({ clock, transientStatusDelayMs: 1_000 });
    const seen: string[] = [];
    engine.onTableChange(({ table, kind }) => seen.push(`${kind}:${table.name}:${table.status}`));
    engine.execute('CreateTable', {
      TableName: 'Watched',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    });
    await clock.advance(1_000);
    engine.execute('UpdateTable', {
      TableName: 'Watched',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    });
    await clock.advance(1_000);
    engine.execute('DeleteTable', { TableName: 'Watched' });
    await clock.advance(1_000);
    expect(seen).toEqual([
      'created:Watched:CREATING',
      'updated:Watched:ACTIVE',
      'updated:Watched:UPDATING',
      'updated:Watched:ACTIVE',
      'updated:Watched:DELETING',
      'deleted:Watched:DELETING',
    ]);
  });
});
