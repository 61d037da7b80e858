import {
  type AttributeValue,
  CreateTableCommand,
  DescribeTableCommand,
  PutItemCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStack } from '../../../infra/testing/index.js';
import { httpTransport, type TransportHandle } from '../../helpers/transports.js';

/**
 * GSIs with multi-attribute keys (DynamoDB, November 2025): up to 4 HASH and 4 RANGE attributes,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
 * and docs/multi-attribute-keys.md.
 *
 * Evidence, newest first:
 * - [conf] a public DynamoDB conformance suite's multi-attribute GSI Query test, "Verified against
 *   real AWS (eu-central-1 and us-east-1, October 2026; eu-west-2 for this file)": its items and
 *   expectations are the `conformance` block below, texts verbatim;
 * - [moto] moto's `tests/test_dynamodb/test_dynamodb_multi_attribute_gsi.py`, every test marked
 *   `aws_verified` (2026): the `moto` block.
 */
let eddy: TransportHandle;
beforeEach(async () => {
  eddy = await httpTransport.start();
});
afterEach(() => eddy.close());

const S = (value: string): AttributeValue => ({ S: value });
const N = (value: string): AttributeValue => ({ N: value });

async function failure(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as Error;
    return { name: e.name, message: e.message };
  }
  throw new Error('expected the call to fail');
}

describe('a GSI keyed by one HASH and four RANGE attributes [conf]', () => {
  const items: Record<string, string | undefined>[] = [
    { pk: 'p1', a: 'T', b: 'live', c: 'b', d: 'r1' },
    { pk: 'p2', a: 'T', b: 'live', c: 'a', d: 'r2' },
    { pk: 'p3', a: 'T', b: 'live', c: 'a', d: 'r1' },
    { pk: 'p4', a: 'T', b: 'draft', c: 'c', d: 'r1' },
    { pk: 'p5', a: 'F', b: 'live', c: 'a', d: 'r0' },
    // No c: not in the index.
    { pk: 'p6', a: 'T', b: 'live', c: undefined, d: 'r1' },
  ];
  const values: Record<string, AttributeValue> = {
    ':h': S('o1'),
    ':a': S('T'),
    ':b': S('live'),
    ':c': S('a'),
    ':d': S('r'),
    ':x': S('r1'),
    ':y': S('r1'),
  };

  beforeEach(async () => {
    await eddy.client.send(
      new CreateTableCommand({
        TableName: 'Matches',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'h', 'a', 'b', 'c', 'd'].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi',
            KeySchema: [
              { AttributeName: 'h', KeyType: 'HASH' },
              { AttributeName: 'a', KeyType: 'RANGE' },
              { AttributeName: 'b', KeyType: 'RANGE' },
              { AttributeName: 'c', KeyType: 'RANGE' },
              { AttributeName: 'd', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    for (const item of items) {
      const Item: Record<string, AttributeValue> = { h: S('o1') };
      for (const [name, value] of Object.entries(item)) if (value !== undefined) Item[name] = S(value);
      await eddy.client.send(new PutItemCommand({ TableName: 'Matches', Item }));
    }
  });

  async function query(KeyConditionExpression: string, extra: Partial<QueryCommandInput> = {}) {
    const used = Object.fromEntries(
      Object.entries(values).filter(([name]) => KeyConditionExpression.includes(name)),
    );
    const result = await eddy.client.send(
      new QueryCommand({
        TableName: 'Matches',
        IndexName: 'gsi',
        KeyConditionExpression,
        ExpressionAttributeValues: used,
        ...extra,
      }),
    );
    return { pks: (result.Items ?? []).map((item) => item.pk!.S), lastEvaluatedKey: result.LastEvaluatedKey };
  }

  it('describes the key schema as created', async () => {
    const { Table } = await eddy.client.send(new DescribeTableCommand({ TableName: 'Matches' }));
    expect(Table?.GlobalSecondaryIndexes?.[0]?.KeySchema?.map((element) => element.KeyType)).toEqual([
      'HASH',
      'RANGE',
      'RANGE',
      'RANGE',
      'RANGE',
    ]);
  });

  it('returns the indexed items in key order, attribute after attribute, without the item missing one', async () => {
    expect((await query('h = :h')).pks).toEqual(['p5', 'p4', 'p3', 'p2', 'p1']);
  });

  it('narrows by equalities on a prefix of the RANGE attributes, in either direction', async () => {
    expect((await query('h = :h AND a = :a')).pks).toEqual(['p4', 'p3', 'p2', 'p1']);
    expect((await query('h = :h AND a = :a', { ScanIndexForward: false })).pks).toEqual([
      'p1',
      'p2',
      'p3',
      'p4',
    ]);
    expect((await query('h = :h AND a = :a AND b = :b')).pks).toEqual(['p3', 'p2', 'p1']);
    expect((await query('h = :h AND a = :a AND b = :b AND c = :c')).pks).toEqual(['p3', 'p2']);
  });

  it('takes a range condition on the last attribute named', async () => {
    expect((await query('h = :h AND a = :a AND b = :b AND c > :c')).pks).toEqual(['p1']);
    expect((await query('h = :h AND a = :a AND b = :b AND c = :c AND begins_with(d, :d)')).pks).toEqual([
      'p3',
      'p2',
    ]);
    expect((await query('h = :h AND a = :a AND b = :b AND c = :c AND d BETWEEN :x AND :y')).pks).toEqual([
      'p3',
    ]);
    expect((await query('h = :h AND a = :a AND b < :b')).pks).toEqual(['p4']);
  });

  it('takes the clauses in any order', async () => {
    expect((await query('b = :b AND h = :h AND a = :a')).pks).toEqual(['p3', 'p2', 'p1']);
  });

  it('answers LastEvaluatedKey with the table key and every index key attribute, and resumes from it', async () => {
    const { pks, lastEvaluatedKey } = await query('h = :h AND a = :a', { Limit: 2 });
    expect(pks).toEqual(['p4', 'p3']);
    expect(Object.keys(lastEvaluatedKey ?? {}).sort()).toEqual(['a', 'b', 'c', 'd', 'h', 'pk']);
    const next = await query('h = :h AND a = :a', { Limit: 2, ExclusiveStartKey: lastEvaluatedKey });
    expect(next.pks).toEqual(['p2', 'p1']);
    const back = await query('h = :h AND a = :a', {
      Limit: 1,
      ScanIndexForward: false,
      ExclusiveStartKey: lastEvaluatedKey,
    });
    expect(back.pks).toEqual(['p4']);
  });

  it('refuses a gap in the RANGE attributes or a range condition before the last one named', async () => {
    const equality = (attribute: string, later: string) => ({
      name: 'ValidationException',
      message: `RANGE key attributes ${attribute} must have equality conditions specified in the query because a condition is present on key attribute ${later}`,
    });
    expect(await failure(query('h = :h AND a = :a AND c = :c'))).toEqual(equality('b', 'c'));
    expect(await failure(query('h = :h AND a = :a AND b > :b AND c = :c'))).toEqual(equality('b', 'c'));
    expect(await failure(query('h = :h AND b = :b'))).toEqual(equality('a', 'b'));
  });

  it('needs an equality on the HASH attribute', async () => {
    expect(await failure(query('a = :a'))).toEqual({
      name: 'ValidationException',
      message: 'Query condition missed key schema element: h',
    });
    expect(await failure(query('h > :h'))).toEqual({
      name: 'ValidationException',
      message: 'Query key condition not supported',
    });
  });

  it('scans only the indexed items', async () => {
    const { Items } = await eddy.client.send(new ScanCommand({ TableName: 'Matches', IndexName: 'gsi' }));
    expect(Items?.map((item) => item.pk!.S).sort()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
  });
});

describe('a GSI keyed by gsi_pk, then gsi_sk (S) and gsi_sk2 (N) [moto]', () => {
  beforeEach(async () => {
    await eddy.client.send(
      new CreateTableCommand({
        TableName: 'Scores',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'gsi_pk', AttributeType: 'S' },
          { AttributeName: 'gsi_sk', AttributeType: 'S' },
          { AttributeName: 'gsi_sk2', AttributeType: 'N' },
        ],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'test_gsi',
            KeySchema: [
              { AttributeName: 'gsi_pk', KeyType: 'HASH' },
              { AttributeName: 'gsi_sk', KeyType: 'RANGE' },
              { AttributeName: 'gsi_sk2', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
      }),
    );
    // Numbers sort as numbers: 9 before 100 (by text it would come last).
    const rows: [string, string, string, string][] = [
      ['1', 'pk1', 'skA', '100'],
      ['2', 'pk1', 'skA', '200'],
      ['3', 'pk1', 'skA', '9'],
      ['4', 'pk1', 'skB', '150'],
      ['5', 'pk2', 'skA', '250'],
    ];
    for (const [pk, gsiPk, gsiSk, gsiSk2] of rows) {
      await eddy.client.send(
        new PutItemCommand({
          TableName: 'Scores',
          Item: {
            pk: S(pk),
            gsi_pk: S(gsiPk),
            gsi_sk: S(gsiSk),
            gsi_sk2: N(gsiSk2),
            note: S('not projected'),
          },
        }),
      );
    }
  });

  const query = (input: Partial<QueryCommandInput>) =>
    eddy.client.send(new QueryCommand({ TableName: 'Scores', IndexName: 'test_gsi', ...input }));

  it('sorts by gsi_sk, then gsi_sk2 by number, and projects every key attribute', async () => {
    const { Items } = await query({
      KeyConditionExpression: 'gsi_pk = :pk',
      ExpressionAttributeValues: { ':pk': S('pk1') },
    });
    expect(Items?.map((item) => [item.gsi_sk!.S, item.gsi_sk2!.N])).toEqual([
      ['skA', '9'],
      ['skA', '100'],
      ['skA', '200'],
      ['skB', '150'],
    ]);
    // KEYS_ONLY holds the table key and all index key attributes.
    expect(Object.keys(Items![0]!).sort()).toEqual(['gsi_pk', 'gsi_sk', 'gsi_sk2', 'pk']);
  });

  it('compares the last attribute by its type: gsi_sk > skA, gsi_sk2 > 100 within skA', async () => {
    const first = await query({
      KeyConditionExpression: 'gsi_pk = :pk AND gsi_sk > :sk',
      ExpressionAttributeValues: { ':pk': S('pk1'), ':sk': S('skA') },
    });
    expect(first.Items?.map((item) => item.pk!.S)).toEqual(['4']);
    const second = await query({
      KeyConditionExpression: 'gsi_pk = :pk AND gsi_sk = :sk AND gsi_sk2 > :n',
      ExpressionAttributeValues: { ':pk': S('pk1'), ':sk': S('skA'), ':n': N('9') },
    });
    expect(second.Items?.map((item) => item.gsi_sk2!.N)).toEqual(['100', '200']);
    const atMost = await query({
      KeyConditionExpression: 'gsi_pk = :pk AND gsi_sk = :sk AND gsi_sk2 <= :n',
      ExpressionAttributeValues: { ':pk': S('pk1'), ':sk': S('skA'), ':n': N('100') },
      ScanIndexForward: false,
    });
    expect(atMost.Items?.map((item) => item.gsi_sk2!.N)).toEqual(['100', '9']);
  });

  it('takes legacy KeyConditions alike', async () => {
    const { Items } = await query({
      KeyConditions: {
        gsi_pk: { ComparisonOperator: 'EQ', AttributeValueList: [S('pk1')] },
        gsi_sk: { ComparisonOperator: 'EQ', AttributeValueList: [S('skA')] },
        gsi_sk2: { ComparisonOperator: 'GT', AttributeValueList: [N('100')] },
      },
    });
    expect(Items?.map((item) => item.gsi_sk2!.N)).toEqual(['200']);
    expect(
      await failure(
        query({
          KeyConditions: {
            gsi_pk: { ComparisonOperator: 'EQ', AttributeValueList: [S('pk1')] },
            gsi_sk2: { ComparisonOperator: 'GT', AttributeValueList: [N('100')] },
          },
        }),
      ),
    ).toEqual({
      name: 'ValidationException',
      message:
        'RANGE key attributes gsi_sk must have equality conditions specified in the query because a condition is present on key attribute gsi_sk2',
    });
  });

  it('refuses a write whose index key attribute has another type, naming the attribute and index', async () => {
    expect(
      await failure(
        eddy.client.send(
          new PutItemCommand({
            TableName: 'Scores',
            Item: { pk: S('9'), gsi_pk: S('pk1'), gsi_sk2: S('ten') },
          }),
        ),
      ),
    ).toEqual({
      name: 'ValidationException',
      message:
        'One or more parameter values were invalid: Type mismatch for Index Key gsi_sk2 Expected: N Actual: S IndexName: test_gsi',
    });
  });

  it('leaves an item out when it lacks a later RANGE attribute, and takes it in once it has it', async () => {
    await eddy.client.send(
      new PutItemCommand({ TableName: 'Scores', Item: { pk: S('6'), gsi_pk: S('pk2'), gsi_sk: S('skZ') } }),
    );
    const count = async () =>
      (
        await query({
          KeyConditionExpression: 'gsi_pk = :pk',
          ExpressionAttributeValues: { ':pk': S('pk2') },
          Select: 'COUNT',
        })
      ).Count;
    expect(await count()).toBe(1);
    await eddy.client.send(
      new PutItemCommand({
        TableName: 'Scores',
        Item: { pk: S('6'), gsi_pk: S('pk2'), gsi_sk: S('skZ'), gsi_sk2: N('1') },
      }),
    );
    expect(await count()).toBe(2);
  });
});

describe('a GSI keyed by two HASH and two RANGE attributes (the developer guide tournament)', () => {
  beforeEach(async () => {
    await eddy.client.send(
      new CreateTableCommand({
        TableName: 'TournamentMatches',
        AttributeDefinitions: [{ AttributeName: 'matchId', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'matchId', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    const matches: [string, string, string, string, string][] = [
      ['match-001', 'WINTER2024', 'NA-EAST', 'SEMIFINALS', 'UPPER'],
      ['match-002', 'WINTER2024', 'NA-EAST', 'FINALS', 'CHAMPIONSHIP'],
      ['match-003', 'WINTER2024', 'NA-EAST', 'SEMIFINALS', 'LOWER'],
      ['match-004', 'WINTER2024', 'NA-WEST', 'FINALS', 'CHAMPIONSHIP'],
    ];
    for (const [matchId, tournamentId, region, round, bracket] of matches) {
      await eddy.client.send(
        new PutItemCommand({
          TableName: 'TournamentMatches',
          Item: {
            matchId: S(matchId),
            tournamentId: S(tournamentId),
            region: S(region),
            round: S(round),
            bracket: S(bracket),
          },
        }),
      );
    }
    // Added to a table with items: the index is backfilled.
    await eddy.client.send(
      new UpdateTableCommand({
        TableName: 'TournamentMatches',
        AttributeDefinitions: [
          { AttributeName: 'tournamentId', AttributeType: 'S' },
          { AttributeName: 'region', AttributeType: 'S' },
          { AttributeName: 'round', AttributeType: 'S' },
          { AttributeName: 'bracket', AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: 'TournamentRegionIndex',
              KeySchema: [
                { AttributeName: 'tournamentId', KeyType: 'HASH' },
                { AttributeName: 'region', KeyType: 'HASH' },
                { AttributeName: 'round', KeyType: 'RANGE' },
                { AttributeName: 'bracket', KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
    await eddy.engine.settled();
  });

  const namesIn = (expression: string) => {
    const names = Object.entries({ '#region': 'region', '#round': 'round' }).filter(([name]) =>
      expression.includes(name),
    );
    return names.length === 0 ? undefined : Object.fromEntries(names);
  };
  const query = (KeyConditionExpression: string, values: Record<string, string>) =>
    eddy.client.send(
      new QueryCommand({
        TableName: 'TournamentMatches',
        IndexName: 'TournamentRegionIndex',
        KeyConditionExpression,
        ExpressionAttributeNames: namesIn(KeyConditionExpression),
        ExpressionAttributeValues: Object.fromEntries(
          Object.entries(values).map(([name, value]) => [name, S(value)]),
        ),
      }),
    );

  it('finds the matches of a tournament and region, by round then bracket', async () => {
    const { Items } = await query('tournamentId = :t AND #region = :r', {
      ':t': 'WINTER2024',
      ':r': 'NA-EAST',
    });
    expect(Items?.map((item) => item.matchId!.S)).toEqual(['match-002', 'match-003', 'match-001']);
    const semis = await query('tournamentId = :t AND #region = :r AND #round = :round', {
      ':t': 'WINTER2024',
      ':r': 'NA-EAST',
      ':round': 'SEMIFINALS',
    });
    expect(semis.Items?.map((item) => item.bracket!.S)).toEqual(['LOWER', 'UPPER']);
  });

  it('needs an equality on every HASH attribute', async () => {
    expect(
      await failure(query('tournamentId = :t AND #region > :r', { ':t': 'WINTER2024', ':r': 'NA' })),
    ).toEqual({
      name: 'ValidationException',
      message: 'Query key condition not supported',
    });
    expect(
      await failure(
        query('tournamentId = :t AND #region = :r AND #round = :t AND #round = :r', {
          ':t': 'W',
          ':r': 'NA',
        }),
      ),
    ).toMatchObject({
      message: 'KeyConditionExpressions must only contain one condition per key',
    });
    expect(
      await failure(query('tournamentId = :t AND bracket = :r', { ':t': 'WINTER2024', ':r': 'UPPER' })),
    ).toEqual({
      name: 'ValidationException',
      message: 'Query condition missed key schema element: region',
    });
  });
});

describe('a classic key', () => {
  it('still takes at most 2 conditions', async () => {
    await eddy.client.send(
      new CreateTableCommand({
        TableName: 'Plain',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'h', AttributeType: 'S' },
          { AttributeName: 'r', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'h', KeyType: 'HASH' },
          { AttributeName: 'r', KeyType: 'RANGE' },
        ],
      }),
    );
    expect(
      await failure(
        eddy.client.send(
          new QueryCommand({
            TableName: 'Plain',
            KeyConditionExpression: 'h = :a AND r = :a AND x = :a',
            ExpressionAttributeValues: { ':a': S('a') },
          }),
        ),
      ),
    ).toEqual({ name: 'ValidationException', message: 'Conditions can be of length 1 or 2 only' });
  });
});

describe('kept by the gsi-maintainer (the test kit: eventually consistent)', () => {
  it('moves an entry when a RANGE attribute changes and drops it when one is removed', async () => {
    const stack = await startStack({
      tables: [
        {
          TableName: 'Tasks',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: 'id', AttributeType: 'S' },
            { AttributeName: 'team', AttributeType: 'S' },
            { AttributeName: 'status', AttributeType: 'S' },
            { AttributeName: 'due', AttributeType: 'N' },
          ],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          GlobalSecondaryIndexes: [
            {
              IndexName: 'byTeam',
              KeySchema: [
                { AttributeName: 'team', KeyType: 'HASH' },
                { AttributeName: 'status', KeyType: 'RANGE' },
                { AttributeName: 'due', KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['title'] },
            },
          ],
        },
      ],
    });
    try {
      const put = (id: string, status: string, due: string) =>
        stack.client.send(
          new PutItemCommand({
            TableName: 'Tasks',
            Item: { id: S(id), team: S('core'), status: S(status), due: N(due), title: S(id.toUpperCase()) },
          }),
        );
      await put('t1', 'open', '30');
      await put('t2', 'open', '4');
      await put('t3', 'done', '1');
      await stack.settled();
      const listed = async () =>
        (
          await stack.client.send(
            new QueryCommand({
              TableName: 'Tasks',
              IndexName: 'byTeam',
              KeyConditionExpression: 'team = :t',
              ExpressionAttributeValues: { ':t': S('core') },
            }),
          )
        ).Items?.map((item) => `${item.id!.S}:${item.status!.S}:${item.due!.N}:${item.title!.S}`);
      expect(await listed()).toEqual(['t3:done:1:T3', 't2:open:4:T2', 't1:open:30:T1']);
      await put('t1', 'done', '0');
      await stack.client.send(
        new PutItemCommand({ TableName: 'Tasks', Item: { id: S('t2'), team: S('core'), status: S('open') } }),
      );
      await stack.settled();
      expect(await listed()).toEqual(['t1:done:0:T1', 't3:done:1:T3']);
    } finally {
      await stack.close();
    }
  });
});
