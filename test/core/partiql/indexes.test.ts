import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../core/engine.js';
import { engineWith, failure, run } from './helpers.js';

/**
 * SELECT through an index qualifier (`FROM "T"."Index"`) and the qualifier on writes, with the
 * messages pinned against DynamoDB (eu-west-2, 2026) by nubo-db/dynamodb-conformance
 * tests/tier2/partiql/indexQualifier.test.ts and tests/tier3/error-messages/partiqlIndexQualifier.test.ts
 * (docs/partiql.md §3.2, §5.4). Their fixture: a table keyed pk + sk with GSIs of each projection
 * type and KEYS_ONLY / INCLUDE LSIs; `nonproj` is projected by no index.
 */
const TABLE = {
  TableName: 'Indexed',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'gsiPk', AttributeType: 'S' },
    { AttributeName: 'gsiPk2', AttributeType: 'S' },
    { AttributeName: 'lsiSk', AttributeType: 'S' },
    { AttributeName: 'lsiSk2', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'gsi-all',
      KeySchema: [{ AttributeName: 'gsiPk', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'ALL' },
    },
    {
      IndexName: 'gsi-inc',
      KeySchema: [{ AttributeName: 'gsiPk2', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['projattr'] },
    },
    {
      IndexName: 'gsi-keys',
      KeySchema: [{ AttributeName: 'gsiPk2', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    },
  ],
  LocalSecondaryIndexes: [
    {
      IndexName: 'lsi-all',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'lsiSk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
    {
      IndexName: 'lsi-keys',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'lsiSk2', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    },
  ],
};

const S = (value: string) => ({ S: value });
const ITEMS = [
  {
    pk: S('p'),
    sk: S('s1'),
    gsiPk: S('x'),
    gsiPk2: S('y'),
    lsiSk: S('l1'),
    lsiSk2: S('k1'),
    projattr: S('proj1'),
    nonproj: S('np1'),
  },
  {
    pk: S('p'),
    sk: S('s2'),
    gsiPk: S('z'),
    gsiPk2: S('y'),
    lsiSk: S('l2'),
    lsiSk2: S('k2'),
    projattr: S('proj2'),
    nonproj: S('np2'),
  },
  { pk: S('p'), sk: S('s3'), nonproj: S('np3') },
  {
    pk: S('p'),
    sk: S('s4'),
    gsiPk: S('x'),
    gsiPk2: S('y'),
    lsiSk: S('l4'),
    lsiSk2: S('k4'),
    projattr: S('proj4'),
    nonproj: S('np4'),
  },
  { pk: S('q'), sk: S('s5'), gsiPk2: S('y2'), projattr: S('proj5'), nonproj: S('np5') },
];

let engine: Engine;
beforeEach(async () => {
  engine = engineWith([TABLE]);
  for (const Item of ITEMS) engine.execute('PutItem', { TableName: 'Indexed', Item });
  await engine.settled();
});

const sortKeys = (items: Record<string, unknown>[] | undefined) =>
  (items ?? []).map((item) => (item.sk as { S: string }).S).sort();

describe('SELECT through an index qualifier', () => {
  it('reads what the index holds, projected as the index projects', () => {
    expect(sortKeys(run(engine, `SELECT pk, sk FROM "Indexed"."gsi-all" WHERE gsiPk = 'x'`).Items)).toEqual([
      's1',
      's4',
    ]);
    const keysOnly = run(engine, `SELECT * FROM "Indexed"."gsi-keys" WHERE gsiPk2 = 'y'`).Items ?? [];
    expect(keysOnly.map((item) => Object.keys(item).sort())).toEqual([
      ['gsiPk2', 'pk', 'sk'],
      ['gsiPk2', 'pk', 'sk'],
      ['gsiPk2', 'pk', 'sk'],
    ]);
  });

  it('reaches the table for an attribute an LSI does not project', () => {
    const items = run(engine, `SELECT nonproj FROM "Indexed"."lsi-keys" WHERE pk = 'p'`).Items;
    expect(items).toEqual([{ nonproj: S('np1') }, { nonproj: S('np2') }, { nonproj: S('np4') }]);
  });

  // nubo-db conformance indexQualifier.test.ts ("the reach-back splits by index kind").
  it('charges the table for what an LSI read fetched from it, and the index alone otherwise', () => {
    const capacity = (statement: string, extra: Record<string, unknown> = {}) =>
      run(engine, statement, { ReturnConsumedCapacity: 'INDEXES', ...extra }).ConsumedCapacity as {
        CapacityUnits: number;
        Table: { CapacityUnits: number };
        LocalSecondaryIndexes: Record<string, { CapacityUnits: number }>;
      };
    const fetched = capacity(`SELECT nonproj FROM "Indexed"."lsi-keys" WHERE pk = 'p'`);
    expect(fetched.Table.CapacityUnits).toBeGreaterThan(0);
    const consistent = capacity(`SELECT nonproj FROM "Indexed"."lsi-keys" WHERE pk = 'p'`, {
      ConsistentRead: true,
    });
    expect(consistent.Table.CapacityUnits).toBe(fetched.Table.CapacityUnits * 2);
    expect(consistent.LocalSecondaryIndexes['lsi-keys']!.CapacityUnits).toBe(
      fetched.LocalSecondaryIndexes['lsi-keys']!.CapacityUnits * 2,
    );
    const projected = capacity(`SELECT lsiSk2 FROM "Indexed"."lsi-keys" WHERE pk = 'p'`);
    expect(projected.Table.CapacityUnits).toBe(0);
    expect(projected.LocalSecondaryIndexes['lsi-keys']!.CapacityUnits).toBe(projected.CapacityUnits);
  });

  it('refuses an attribute a GSI does not project, in the projection message', () => {
    expect(failure(engine, `SELECT nonproj FROM "Indexed"."gsi-inc" WHERE gsiPk2 = 'y'`).message).toBe(
      'One or more parameter values were invalid: Global secondary index gsi-inc does not project [nonproj]',
    );
  });

  it('refuses a filter on an unprojected attribute when the read is keyed, on a GSI and on an LSI', () => {
    const message = (index: string) =>
      `One or more parameter values were invalid: Secondary index ${index} does not project one or more filter attributes: [nonproj]`;
    for (const [statement, index] of [
      [`SELECT pk FROM "Indexed"."gsi-inc" WHERE gsiPk2 = 'y' AND nonproj = 'np1'`, 'gsi-inc'],
      [`SELECT pk FROM "Indexed"."lsi-keys" WHERE pk = 'p' AND nonproj = 'np1'`, 'lsi-keys'],
      [`SELECT pk FROM "Indexed"."gsi-inc" WHERE gsiPk2 = 'y' AND nonproj IS MISSING`, 'gsi-inc'],
      [`SELECT pk FROM "Indexed"."gsi-inc" WHERE gsiPk2 = 'y' AND nonproj IS NOT MISSING`, 'gsi-inc'],
      [`SELECT pk FROM "Indexed"."gsi-inc" WHERE gsiPk2 = 'y' AND begins_with(nonproj, 'np')`, 'gsi-inc'],
      [`SELECT pk FROM "Indexed"."gsi-inc" WHERE gsiPk2 = 'y' AND NOT nonproj = 'np1'`, 'gsi-inc'],
      [`SELECT pk FROM "Indexed"."gsi-inc" WHERE gsiPk2 IN ['y', 'z'] AND nonproj = 'np1'`, 'gsi-inc'],
      [
        `SELECT pk FROM "Indexed"."lsi-keys" WHERE pk = 'p' AND lsiSk2 BETWEEN 'k1' AND 'k4' AND nonproj = 'np1'`,
        'lsi-keys',
      ],
    ]) {
      expect(failure(engine, statement!), statement).toEqual({
        name: 'ValidationException',
        message: message(index!),
      });
    }
  });

  it('runs the same filters unkeyed (a scan of the index, where the attribute is absent)', () => {
    expect(run(engine, `SELECT pk FROM "Indexed"."gsi-inc" WHERE nonproj = 'np1'`).Items).toEqual([]);
    expect(run(engine, `SELECT pk FROM "Indexed"."lsi-keys" WHERE nonproj = 'np1'`).Items).toEqual([]);
    expect(
      run(engine, `SELECT pk FROM "Indexed"."gsi-inc" WHERE nonproj = 'np1' AND nonproj = 'np2'`).Items,
    ).toEqual([]);
    expect(
      sortKeys(run(engine, `SELECT pk, sk FROM "Indexed"."gsi-keys" WHERE NOT nonproj = 'np1'`).Items),
    ).toEqual(['s1', 's2', 's4', 's5']);
    // A key reached through OR is not a key condition, so the filter inside the branch runs.
    expect(
      sortKeys(
        run(
          engine,
          `SELECT pk, sk FROM "Indexed"."gsi-inc" WHERE (gsiPk2 = 'y' AND nonproj = 'np1') OR (gsiPk2 = 'y2')`,
        ).Items,
      ),
    ).toEqual(['s5']);
    expect(
      run(engine, `SELECT pk FROM "Indexed"."gsi-inc" WHERE gsiPk2 = 'y' AND projattr IS NOT MISSING`).Items,
    ).toHaveLength(3);
  });

  // floci-io/floci DynamoDbPartiQLKeyPlan, checked against DynamoDB (eu-west-2, September 2026): ORed
  // branches that each fix the partition go through when one filters on projected attributes only,
  // and are refused, naming the branch of the highest partition value, when none does.
  it('checks ORed keyed branches one by one', () => {
    expect(
      sortKeys(
        run(
          engine,
          `SELECT pk, sk FROM "Indexed"."gsi-inc" WHERE (gsiPk2 = 'y' AND nonproj = 'np1') OR (gsiPk2 = 'y2' AND projattr = 'proj5')`,
        ).Items,
      ),
    ).toEqual(['s5']);
    expect(
      failure(
        engine,
        `SELECT pk FROM "Indexed"."gsi-inc" WHERE (gsiPk2 = 'y2' AND other = 'o') OR (gsiPk2 = 'y' AND nonproj = 'np1')`,
      ).message,
    ).toBe(
      'One or more parameter values were invalid: Secondary index gsi-inc does not project one or more filter attributes: [other]',
    );
  });

  it('answers the qualifier messages', () => {
    const refused = (statement: string, extra: Record<string, unknown> = {}) =>
      failure(engine, statement, extra).message;
    expect(refused(`SELECT * FROM "Indexed"."no-such-index" WHERE pk = 'p'`)).toBe(
      'The table does not have the specified index',
    );
    expect(refused(`SELECT * FROM "Indexed"."Indexed" WHERE pk = 'p'`)).toBe(
      'The table does not have the specified index',
    );
    expect(refused(`SELECT * FROM "Indexed"."gsi-all"."extra" WHERE pk = 'p'`)).toBe(
      'A path may contain at most 2 components in the FROM clause',
    );
    expect(refused(`SELECT * FROM "Indexed"."" WHERE pk = 'p'`)).toBe(
      'Path component cannot be an empty string',
    );
    // Before the table is looked up: an empty name is not a missing table.
    expect(refused(`SELECT * FROM "" WHERE pk = 'p'`)).toBe('Path component cannot be an empty string');
    expect(refused(`SELECT * FROM "Indexed"."gsi-all" WHERE gsiPk = 'x'`, { ConsistentRead: true })).toBe(
      'Strongly consistent read is not supported on Global Secondary Indexes',
    );
    // An LSI takes a consistent read (paritysuite/dynamodb-conformance executeStatementIndex.test.ts).
    expect(
      run(engine, `SELECT * FROM "Indexed"."lsi-all" WHERE pk = 'p'`, { ConsistentRead: true }).Items,
    ).toHaveLength(3);
  });
});

describe('writes with an index qualifier', () => {
  it('refuses INSERT at the parser and UPDATE and DELETE as operations on an index, changing nothing', async () => {
    for (const index of ['gsi-all', 'no-such-index']) {
      expect(failure(engine, `INSERT INTO "Indexed"."${index}" VALUE {'pk': 'w1', 'sk': 'w1'}`)).toEqual({
        name: 'ValidationException',
        message: 'FROM clause may only contain a single table name',
      });
    }
    expect(
      failure(engine, `UPDATE "Indexed"."gsi-all" SET projattr = 'z' WHERE pk = 'p' AND sk = 's1'`),
    ).toEqual({
      name: 'ValidationException',
      message: 'This operation is not supported on an index',
    });
    expect(failure(engine, `DELETE FROM "Indexed"."gsi-all" WHERE pk = 'p' AND sk = 's1'`)).toEqual({
      name: 'ValidationException',
      message: 'This operation is not supported on an index',
    });
    expect(sortKeys(run(engine, `SELECT pk, sk FROM "Indexed" WHERE pk = 'p'`).Items)).toEqual([
      's1',
      's2',
      's3',
      's4',
    ]);
    expect(run(engine, `SELECT projattr FROM "Indexed" WHERE pk = 'p' AND sk = 's1'`).Items).toEqual([
      { projattr: S('proj1') },
    ]);
  });
});
