import { describe, expect, it } from 'vitest';
import { markIndexActive } from '../../../../core/actions/tableLifecycle.js';
import { LIMIT, NOT_FOUND, wireError } from '../../../helpers/errors.js';
import {
  arnOf,
  defs,
  describeOf,
  expectValidation,
  hashTable,
  instantEngine,
  keys,
  rangeTable,
  slowEngine,
} from './helpers.js';

const INVALID = 'One or more parameter values were invalid: ';
type Description = Record<string, unknown>;
const indexes = (table: Description) => (table.GlobalSecondaryIndexes ?? []) as Description[];
const createIndex = (name: string, keySchema: unknown, extra: Record<string, unknown> = {}) => ({
  Create: { IndexName: name, KeySchema: keySchema, Projection: { ProjectionType: 'ALL' }, ...extra },
});

/**
 * The schema-demo table of rory.horse's write-up: on demand, key pk, GSI `gsi` on ix_pk.
 * http://rory.horse/posts/dynamo-dissected-schema/
 */
function schemaDemo(engine = instantEngine()) {
  engine.execute('CreateTable', {
    TableName: 'schema-demo',
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: keys(['pk', 'HASH']),
    AttributeDefinitions: defs(['pk', 'S'], ['ix_pk', 'S']),
    GlobalSecondaryIndexes: [
      { IndexName: 'gsi', KeySchema: keys(['ix_pk', 'HASH']), Projection: { ProjectionType: 'ALL' } },
    ],
  });
  return engine;
}

const animalType = {
  TableName: 'schema-demo',
  AttributeDefinitions: defs(['type', 'S'], ['admitted', 'N']),
  GlobalSecondaryIndexUpdates: [createIndex('animal_type', keys(['type', 'HASH'], ['admitted', 'RANGE']))],
};

describe('the schema-validation write-up (rory.horse)', () => {
  it('refuses a definition no key uses', () => {
    expectValidation(
      instantEngine(),
      'CreateTable',
      {
        TableName: 'schema-demo',
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: keys(['pk', 'HASH']),
        AttributeDefinitions: defs(['pk', 'S'], ['ix_pk', 'S']),
      },
      `${INVALID}Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions`,
    );
  });

  it('creates schema-demo with the gsi index', () => {
    const table = describeOf(schemaDemo(), 'schema-demo');
    expect(table.AttributeDefinitions).toEqual(defs(['pk', 'S'], ['ix_pk', 'S']));
    expect(indexes(table)).toEqual([
      {
        IndexName: 'gsi',
        KeySchema: keys(['ix_pk', 'HASH']),
        Projection: { ProjectionType: 'ALL' },
        IndexStatus: 'ACTIVE',
        ProvisionedThroughput: { NumberOfDecreasesToday: 0, ReadCapacityUnits: 0, WriteCapacityUnits: 0 },
        IndexSizeBytes: 0,
        ItemCount: 0,
        IndexArn: `${arnOf('schema-demo')}/index/gsi`,
      },
    ]);
  });

  it('adds animal_type: table UPDATING, index CREATING and backfilling, definitions merged', () => {
    const engine = schemaDemo();
    const output = engine.execute('UpdateTable', animalType).TableDescription as Description;
    expect(output.TableStatus).toBe('UPDATING');
    expect(output.AttributeDefinitions).toEqual(
      defs(['pk', 'S'], ['ix_pk', 'S'], ['type', 'S'], ['admitted', 'N']),
    );
    expect(indexes(output)[1]).toEqual({
      IndexName: 'animal_type',
      KeySchema: keys(['type', 'HASH'], ['admitted', 'RANGE']),
      Projection: { ProjectionType: 'ALL' },
      IndexStatus: 'CREATING',
      Backfilling: true,
      ProvisionedThroughput: { NumberOfDecreasesToday: 0, ReadCapacityUnits: 0, WriteCapacityUnits: 0 },
      IndexSizeBytes: 0,
      ItemCount: 0,
      IndexArn: `${arnOf('schema-demo')}/index/animal_type`,
    });
    const table = describeOf(engine, 'schema-demo');
    expect(table.TableStatus).toBe('ACTIVE');
    expect(indexes(table)[1]!.IndexStatus).toBe('ACTIVE');
    expect(indexes(table)[1]).not.toHaveProperty('Backfilling');
  });

  it('keeps animal_type backfilling until the transient delay ends (or markIndexActive is called)', async () => {
    const { engine, clock } = slowEngine(1000);
    schemaDemo(engine);
    await clock.advance(1000);
    engine.execute('UpdateTable', animalType);
    await clock.advance(500);
    let table = describeOf(engine, 'schema-demo');
    expect([table.TableStatus, indexes(table)[1]!.IndexStatus, indexes(table)[1]!.Backfilling]).toEqual([
      'UPDATING',
      'CREATING',
      true,
    ]);
    const stored = engine.region().tables.get('schema-demo')!;
    markIndexActive(stored, stored.globalSecondaryIndexes.get('animal_type')!);
    expect(indexes(describeOf(engine, 'schema-demo'))[1]!.IndexStatus).toBe('ACTIVE');
    await clock.advance(500);
    table = describeOf(engine, 'schema-demo');
    expect(table.TableStatus).toBe('ACTIVE');
  });
});

describe('UpdateTable Create (docs/dynamodb.md §3.3.4)', () => {
  it.each(['gsi', 'lsi'])('refuses a name an index already has (%s)', (name) => {
    const engine = instantEngine();
    engine.execute('CreateTable', {
      ...rangeTable('tbl', {
        AttributeDefinitions: defs(['a', 'S'], ['b', 'S'], ['x', 'S']),
        BillingMode: 'PAY_PER_REQUEST',
        ProvisionedThroughput: undefined,
      }),
      GlobalSecondaryIndexes: [
        { IndexName: 'gsi', KeySchema: keys(['x', 'HASH']), Projection: { ProjectionType: 'ALL' } },
      ],
      LocalSecondaryIndexes: [
        {
          IndexName: 'lsi',
          KeySchema: keys(['a', 'HASH'], ['x', 'RANGE']),
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'tbl',
        AttributeDefinitions: defs(['y', 'S']),
        GlobalSecondaryIndexUpdates: [createIndex(name, keys(['y', 'HASH']))],
      },
      'Attempting to create an index which already exists',
    );
  });

  it('requires AttributeDefinitions for the new index', () => {
    const engine = schemaDemo();
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'schema-demo',
        GlobalSecondaryIndexUpdates: [createIndex('again', keys(['ix_pk', 'HASH']))],
      },
      `${INVALID}AttributeDefinitions is not specified for index: again`,
    );
  });

  it('requires every key in the request definitions, even one the table defines', () => {
    const engine = schemaDemo();
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'schema-demo',
        AttributeDefinitions: defs(['other', 'S']),
        GlobalSecondaryIndexUpdates: [createIndex('again', keys(['ix_pk', 'HASH']))],
      },
      `${INVALID}Some index key attributes are not defined in AttributeDefinitions. Keys: [ix_pk], AttributeDefinitions: [other]`,
    );
  });

  it('refuses to redefine an attribute type', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', {
      ...hashTable('tbl', { AttributeDefinitions: defs(['a', 'S'], ['xyz', 'S']) }),
      GlobalSecondaryIndexes: [
        { IndexName: 'index1', KeySchema: keys(['xyz', 'HASH']), Projection: { ProjectionType: 'ALL' } },
      ],
    });
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'tbl',
        AttributeDefinitions: defs(['xyz', 'N']),
        GlobalSecondaryIndexUpdates: [createIndex('index2', keys(['xyz', 'HASH']))],
      },
      `${INVALID}Attributes cannot be redefined. Please check that your attribute has the same type as previously defined. Existing schema: Schema:[SchemaElement: key{xyz:S:HASH}] New schema: Schema:[SchemaElement: key{xyz:N:HASH}]`,
    );
  });

  it('ignores extra definitions', () => {
    const engine = schemaDemo();
    engine.execute('UpdateTable', {
      TableName: 'schema-demo',
      AttributeDefinitions: defs(['x', 'S'], ['unused', 'N']),
      GlobalSecondaryIndexUpdates: [createIndex('byX', keys(['x', 'HASH']))],
    });
    expect(describeOf(engine, 'schema-demo').AttributeDefinitions).toEqual(
      defs(['pk', 'S'], ['ix_pk', 'S'], ['x', 'S']),
    );
  });

  it('checks key schema, projection and throughput of the new index', () => {
    const engine = instantEngine();
    engine.execute('CreateTable', rangeTable('prov'));
    const update = (create: unknown) => ({
      TableName: 'prov',
      AttributeDefinitions: defs(['x', 'S'], ['y', 'S']),
      GlobalSecondaryIndexUpdates: [create],
    });
    expectValidation(
      engine,
      'UpdateTable',
      update(createIndex('idx', keys(['x', 'RANGE']))),
      'Invalid KeySchema: The first KeySchemaElement is not a HASH key type',
    );
    expectValidation(
      engine,
      'UpdateTable',
      update(createIndex('idx', keys(['x', 'HASH']), { Projection: {} })),
      `${INVALID}Unknown ProjectionType: null`,
    );
    expectValidation(
      engine,
      'UpdateTable',
      update(createIndex('idx', keys(['x', 'HASH']))),
      `${INVALID}ProvisionedThroughput is not specified for index: idx`,
    );
    const onDemand = schemaDemo();
    expectValidation(
      onDemand,
      'UpdateTable',
      {
        TableName: 'schema-demo',
        AttributeDefinitions: defs(['x', 'S']),
        GlobalSecondaryIndexUpdates: [
          createIndex('idx', keys(['x', 'HASH']), {
            ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
          }),
        ],
      },
      `${INVALID}ProvisionedThroughput should not be specified for index: idx when BillingMode is PAY_PER_REQUEST`,
    );
  });

  it('accepts a multi-attribute key', () => {
    const engine = schemaDemo();
    const keySchema = keys(['t1', 'HASH'], ['t2', 'HASH'], ['s1', 'RANGE'], ['s2', 'RANGE']);
    const output = engine.execute('UpdateTable', {
      TableName: 'schema-demo',
      AttributeDefinitions: defs(['t1', 'S'], ['t2', 'N'], ['s1', 'S'], ['s2', 'B']),
      GlobalSecondaryIndexUpdates: [createIndex('multi', keySchema)],
    }).TableDescription as Description;
    expect(indexes(output)[1]!.KeySchema).toEqual(keySchema);
  });

  it('answers LimitExceededException past 20 indexes', () => {
    const engine = instantEngine();
    const many = Array.from({ length: 20 }, (_, i) => ({
      IndexName: `idx${i}`,
      KeySchema: keys(['a', 'HASH']),
      Projection: { ProjectionType: 'KEYS_ONLY' },
    }));
    engine.execute('CreateTable', { ...hashTable('full'), GlobalSecondaryIndexes: many });
    expect(
      wireError(() =>
        engine.execute('UpdateTable', {
          TableName: 'full',
          AttributeDefinitions: defs(['a', 'S']),
          GlobalSecondaryIndexUpdates: [createIndex('idx20', keys(['a', 'HASH']))],
        }),
      ),
    ).toEqual({
      __type: LIMIT,
      message: `${INVALID}GlobalSecondaryIndex count exceeds the per-table limit of 20`,
    });
  });
});

describe('UpdateTable Delete and Update (docs/dynamodb.md §3.3.4, §3.3.5)', () => {
  function lsiAndGsi() {
    const engine = instantEngine();
    engine.execute('CreateTable', {
      ...rangeTable('both', { AttributeDefinitions: defs(['a', 'S'], ['b', 'S'], ['x', 'S'], ['y', 'N']) }),
      LocalSecondaryIndexes: [
        {
          IndexName: 'lsi',
          KeySchema: keys(['a', 'HASH'], ['x', 'RANGE']),
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi',
          KeySchema: keys(['x', 'HASH'], ['y', 'RANGE']),
          Projection: { ProjectionType: 'ALL' },
          ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
        },
      ],
    });
    return engine;
  }

  it('deletes a GSI (DELETING, then gone) and drops the definitions only it used', () => {
    const engine = lsiAndGsi();
    const output = engine.execute('UpdateTable', {
      TableName: 'both',
      GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'gsi' } }],
    }).TableDescription as Description;
    expect(indexes(output).map((index) => index.IndexStatus)).toEqual(['DELETING']);
    const table = describeOf(engine, 'both');
    expect(table).not.toHaveProperty('GlobalSecondaryIndexes');
    // x still keys the LSI; y keyed only the deleted GSI.
    expect(table.AttributeDefinitions).toEqual(defs(['a', 'S'], ['b', 'S'], ['x', 'S']));
  });

  it('shows the GSI DELETING until the transient delay ends (eddy serve --create-delay), no longer queryable', async () => {
    // DescribeTable lists a deleted GSI as DELETING while DynamoDB drops it; reads name it unknown.
    // https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GlobalSecondaryIndexDescription.html
    const { engine, clock } = slowEngine(1000);
    schemaDemo(engine);
    await clock.advance(1000);
    engine.execute('UpdateTable', {
      TableName: 'schema-demo',
      GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'gsi' } }],
    });
    await clock.advance(500);
    let table = describeOf(engine, 'schema-demo');
    expect([table.TableStatus, indexes(table).map((index) => index.IndexStatus)]).toEqual([
      'UPDATING',
      ['DELETING'],
    ]);
    expect(() =>
      engine.execute('Query', {
        TableName: 'schema-demo',
        IndexName: 'gsi',
        KeyConditionExpression: 'ix_pk = :v',
        ExpressionAttributeValues: { ':v': { S: 'x' } },
      }),
    ).toThrow('The table does not have the specified index: gsi');
    await clock.advance(500);
    table = describeOf(engine, 'schema-demo');
    expect([table.TableStatus, table.GlobalSecondaryIndexes]).toEqual(['ACTIVE', undefined]);
  });

  it('answers ResourceNotFoundException for an unknown GSI and ValidationException for an LSI', () => {
    const engine = lsiAndGsi();
    for (const action of ['Delete', 'Update'] as const) {
      const entry = (name: string) =>
        action === 'Delete'
          ? { Delete: { IndexName: name } }
          : {
              Update: {
                IndexName: name,
                ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 2 },
              },
            };
      expect(
        wireError(() =>
          engine.execute('UpdateTable', { TableName: 'both', GlobalSecondaryIndexUpdates: [entry('ghost')] }),
        ),
      ).toEqual({
        __type: NOT_FOUND,
        message: 'Requested resource not found: Index ghost for table both',
      });
      expectValidation(
        engine,
        'UpdateTable',
        { TableName: 'both', GlobalSecondaryIndexUpdates: [entry('lsi')] },
        `Cannot ${action.toLowerCase()} an index that is not a GlobalSecondaryIndex: lsi`,
      );
    }
  });

  it('updates GSI throughput: UPDATING with old values, then the new ones', () => {
    const engine = lsiAndGsi();
    const output = engine.execute('UpdateTable', {
      TableName: 'both',
      GlobalSecondaryIndexUpdates: [
        {
          Update: {
            IndexName: 'gsi',
            ProvisionedThroughput: { ReadCapacityUnits: 4, WriteCapacityUnits: 1 },
          },
        },
      ],
    }).TableDescription as Description;
    expect(indexes(output)[0]!.IndexStatus).toBe('UPDATING');
    expect((indexes(output)[0]!.ProvisionedThroughput as Description).ReadCapacityUnits).toBe(1);
    const index = indexes(describeOf(engine, 'both'))[0]!;
    expect(index.IndexStatus).toBe('ACTIVE');
    expect(index.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 4, WriteCapacityUnits: 1 });
  });

  it('refuses a GSI throughput equal to the current one', () => {
    expectValidation(
      lsiAndGsi(),
      'UpdateTable',
      {
        TableName: 'both',
        GlobalSecondaryIndexUpdates: [
          {
            Update: {
              IndexName: 'gsi',
              ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
            },
          },
        ],
      },
      'The provisioned throughput for the index gsi will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the index: 1. Requested ReadCapacityUnits: 1. Current WriteCapacityUnits provisioned for the index: 1. Requested WriteCapacityUnits: 1. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.',
    );
  });

  it('requires units for a provisioned GSI update', () => {
    expectValidation(
      lsiAndGsi(),
      'UpdateTable',
      { TableName: 'both', GlobalSecondaryIndexUpdates: [{ Update: { IndexName: 'gsi' } }] },
      `${INVALID}Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: gsi`,
    );
  });

  it('takes only on-demand and warm settings for an on-demand GSI', () => {
    const engine = schemaDemo();
    expectValidation(
      engine,
      'UpdateTable',
      {
        TableName: 'schema-demo',
        GlobalSecondaryIndexUpdates: [
          {
            Update: {
              IndexName: 'gsi',
              ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
            },
          },
        ],
      },
      `${INVALID}Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: gsi when BillingMode is PAY_PER_REQUEST`,
    );
    expectValidation(
      engine,
      'UpdateTable',
      { TableName: 'schema-demo', GlobalSecondaryIndexUpdates: [{ Update: { IndexName: 'gsi' } }] },
      `${INVALID}The only Updates for index: gsi when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput`,
    );
    const output = engine.execute('UpdateTable', {
      TableName: 'schema-demo',
      GlobalSecondaryIndexUpdates: [
        { Update: { IndexName: 'gsi', OnDemandThroughput: { MaxReadRequestUnits: 50 } } },
      ],
    }).TableDescription as Description;
    expect(indexes(output)[0]!.OnDemandThroughput).toEqual({ MaxReadRequestUnits: 50 });
  });

  it('re-creates a deleted index, as a new backfilling index', () => {
    const engine = schemaDemo();
    engine.execute('UpdateTable', {
      TableName: 'schema-demo',
      GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'gsi' } }],
    });
    expect(describeOf(engine, 'schema-demo').AttributeDefinitions).toEqual(defs(['pk', 'S']));
    const output = engine.execute('UpdateTable', {
      TableName: 'schema-demo',
      AttributeDefinitions: defs(['ix_pk', 'N']),
      GlobalSecondaryIndexUpdates: [createIndex('gsi', keys(['ix_pk', 'HASH']))],
    }).TableDescription as Description;
    expect(indexes(output)[0]).toMatchObject({
      IndexName: 'gsi',
      IndexStatus: 'CREATING',
      Backfilling: true,
    });
    expect(output.AttributeDefinitions).toEqual(defs(['pk', 'S'], ['ix_pk', 'N']));
  });
});
