import { beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine.js';
import { gameScoresTable, validation, wireError } from '../../helpers/tables.js';

/**
 * The developer guide's GSI page, GameScores and its GameTitleIndex:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html
 */
let engine: Engine;

function createGameScores(projection: Record<string, unknown> = { ProjectionType: 'KEYS_ONLY' }) {
  engine.execute('CreateTable', gameScoresTable({ projection }));
}

function score(userId: string, title: string, topScore?: string, extra: Record<string, unknown> = {}) {
  const Item: Record<string, unknown> = { UserId: { S: userId }, GameTitle: { S: title }, ...extra };
  if (topScore !== undefined) Item.TopScore = { N: topScore };
  engine.execute('PutItem', { TableName: 'GameScores', Item });
}

type Items = {
  Items: Record<string, { S?: string; N?: string }>[];
  Count: number;
  LastEvaluatedKey?: unknown;
};
const queryIndex = (input: Record<string, unknown>) =>
  engine.execute('Query', {
    TableName: 'GameScores',
    IndexName: 'GameTitleIndex',
    ...input,
  }) as unknown as Items;
const byTitle = (title: string) => ({
  KeyConditionExpression: 'GameTitle = :title',
  ExpressionAttributeValues: { ':title': { S: title } },
});

beforeEach(() => {
  engine = new Engine();
});

describe('GameTitleIndex (GSI guide)', () => {
  beforeEach(() => {
    createGameScores();
    score('101', 'Galaxy Invaders', '5842', { Wins: { N: '21' }, Losses: { N: '72' } });
    score('101', 'Meteor Blasters', '1000', { Wins: { N: '12' }, Losses: { N: '3' } });
    score('102', 'Meteor Blasters', '3000');
    score('103', 'Meteor Blasters', '2000');
  });

  it("returns a game's scores ordered by TopScore, highest first with ScanIndexForward false", () => {
    const result = queryIndex({ ...byTitle('Meteor Blasters'), ScanIndexForward: false });
    expect(result.Items.map((item) => item.TopScore!.N)).toEqual(['3000', '2000', '1000']);
  });

  it('projects the table keys into a KEYS_ONLY index, and nothing else', () => {
    const [top] = queryIndex({ ...byTitle('Meteor Blasters'), ScanIndexForward: false }).Items;
    expect(top).toEqual({
      GameTitle: { S: 'Meteor Blasters' },
      TopScore: { N: '3000' },
      UserId: { S: '102' },
    });
  });

  it('answers the GSI guide query with KeyConditions, ProjectionExpression "UserId, TopScore" and descending order', () => {
    const result = queryIndex({
      KeyConditions: {
        GameTitle: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'Meteor Blasters' }] },
      },
      ScanIndexForward: false,
    });
    expect(result.Count).toBe(3);
    const projected = queryIndex({
      ...byTitle('Meteor Blasters'),
      ProjectionExpression: 'UserId, TopScore',
      ScanIndexForward: false,
    });
    expect(projected.Items[0]).toEqual({ UserId: { S: '102' }, TopScore: { N: '3000' } });
  });

  it('keeps non-unique index keys: the three Comet Quest players with TopScore 0', () => {
    for (const user of ['123', '201', '301']) score(user, 'Comet Quest', '0');
    const result = queryIndex({
      KeyConditionExpression: 'GameTitle = :title AND TopScore = :zero',
      ExpressionAttributeValues: { ':title': { S: 'Comet Quest' }, ':zero': { N: '0' } },
    });
    expect(result.Items.map((item) => item.UserId!.S).sort()).toEqual(['123', '201', '301']);
  });

  it('leaves an item without TopScore out of the index (sparse), while the table has it', () => {
    for (const user of ['123', '201', '301']) score(user, 'Comet Quest', '0');
    score('400', 'Comet Quest');
    expect(queryIndex(byTitle('Comet Quest')).Count).toBe(3);
    const scan = engine.execute('Scan', {
      TableName: 'GameScores',
      FilterExpression: 'GameTitle = :title',
      ExpressionAttributeValues: { ':title': { S: 'Comet Quest' } },
    });
    expect(scan.Count).toBe(4);
  });

  it('pages an index with LastEvaluatedKey holding the index key and the table key', () => {
    for (let i = 0; i < 7; i++) score(`u${i}`, 'Comet Quest', '0');
    const seen: string[] = [];
    let start: unknown;
    do {
      const page = queryIndex({
        ...byTitle('Comet Quest'),
        Limit: 3,
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      seen.push(...page.Items.map((item) => item.UserId!.S!));
      start = page.LastEvaluatedKey;
      if (start) expect(Object.keys(start as object).sort()).toEqual(['GameTitle', 'TopScore', 'UserId']);
    } while (start);
    expect(seen.sort()).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6']);
  });

  it('follows updates: a changed TopScore moves the entry, a removed one drops it', () => {
    engine.execute('UpdateItem', {
      TableName: 'GameScores',
      Key: { UserId: { S: '101' }, GameTitle: { S: 'Meteor Blasters' } },
      UpdateExpression: 'SET TopScore = :s',
      ExpressionAttributeValues: { ':s': { N: '9999' } },
    });
    expect(queryIndex({ ...byTitle('Meteor Blasters'), ScanIndexForward: false }).Items[0]!.UserId!.S).toBe(
      '101',
    );
    engine.execute('UpdateItem', {
      TableName: 'GameScores',
      Key: { UserId: { S: '101' }, GameTitle: { S: 'Meteor Blasters' } },
      UpdateExpression: 'REMOVE TopScore',
    });
    expect(queryIndex(byTitle('Meteor Blasters')).Count).toBe(2);
    engine.execute('DeleteItem', {
      TableName: 'GameScores',
      Key: { UserId: { S: '102' }, GameTitle: { S: 'Meteor Blasters' } },
    });
    expect(queryIndex(byTitle('Meteor Blasters')).Count).toBe(1);
  });

  it('refuses ConsistentRead, an unknown index, ALL_ATTRIBUTES and unprojected attributes (docs/dynamodb.md §6.3)', () => {
    expect(wireError(() => queryIndex({ ...byTitle('x'), ConsistentRead: true }))).toEqual(
      validation('Consistent reads are not supported on global secondary indexes'),
    );
    expect(
      wireError(() =>
        engine.execute('Query', { TableName: 'GameScores', IndexName: 'Nope', ...byTitle('x') }),
      ),
    ).toEqual(validation('The table does not have the specified index: Nope'));
    expect(wireError(() => queryIndex({ ...byTitle('x'), Select: 'ALL_ATTRIBUTES' }))).toEqual(
      validation(
        'One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index GameTitleIndex because its projection type is not ALL',
      ),
    );
    expect(wireError(() => queryIndex({ ...byTitle('x'), ProjectionExpression: 'Wins, UserId' }))).toEqual(
      validation(
        'One or more parameter values were invalid: Global secondary index GameTitleIndex does not project [Wins]',
      ),
    );
  });

  it('rejects a write whose index key has the wrong type (docs/dynamodb.md §4.1.3)', () => {
    expect(wireError(() => score('9', 'Galaxy Invaders', undefined, { TopScore: { S: 'high' } }))).toEqual(
      validation(
        'One or more parameter values were invalid: Type mismatch for Index Key TopScore Expected: N Actual: S IndexName: GameTitleIndex',
      ),
    );
  });

  it('scans an index in its own hash order and counts only indexed items', () => {
    score('400', 'Comet Quest');
    const result = engine.execute('Scan', { TableName: 'GameScores', IndexName: 'GameTitleIndex' });
    expect(result.Count).toBe(4);
  });
});

describe('projections', () => {
  it('INCLUDE projects the listed non-key attributes (Wins, Losses)', () => {
    createGameScores({ ProjectionType: 'INCLUDE', NonKeyAttributes: ['Wins', 'Losses'] });
    score('101', 'Galaxy Invaders', '5842', { Wins: { N: '21' }, Losses: { N: '72' }, Secret: { S: 'x' } });
    const [item] = queryIndex(byTitle('Galaxy Invaders')).Items;
    expect(item).toEqual({
      UserId: { S: '101' },
      GameTitle: { S: 'Galaxy Invaders' },
      TopScore: { N: '5842' },
      Wins: { N: '21' },
      Losses: { N: '72' },
    });
  });

  it('ALL projects the whole item and allows Select ALL_ATTRIBUTES', () => {
    createGameScores({ ProjectionType: 'ALL' });
    score('101', 'Galaxy Invaders', '5842', { Secret: { S: 'x' } });
    const [item] = queryIndex({ ...byTitle('Galaxy Invaders'), Select: 'ALL_ATTRIBUTES' }).Items;
    expect(item!.Secret).toEqual({ S: 'x' });
  });
});

describe('index storage and capacity', () => {
  it('reports ItemCount and IndexSizeBytes by the GSI guide rule: keys + projected attributes + 100 bytes', () => {
    createGameScores();
    score('101', 'Meteor Blasters', '1000', { Wins: { N: '12' } });
    score('400', 'Comet Quest');
    const { Table } = engine.execute('DescribeTable', { TableName: 'GameScores' }) as {
      Table: { GlobalSecondaryIndexes: { ItemCount: number; IndexSizeBytes: number }[] };
    };
    const [index] = Table.GlobalSecondaryIndexes;
    // UserId(6)+"101"(3) + GameTitle(9)+"Meteor Blasters"(15) + TopScore(8)+1000(2) = 43, + 100.
    expect(index).toMatchObject({ ItemCount: 1, IndexSizeBytes: 143 });
  });

  it('charges index writes: enter 1, key change 2, projected change 1, no change 0, leave 1 (GSI guide rules)', () => {
    createGameScores({ ProjectionType: 'INCLUDE', NonKeyAttributes: ['Wins'] });
    const Key = { UserId: { S: '1' }, GameTitle: { S: 'g' } };
    const update = (expression: string, values?: Record<string, unknown>) =>
      engine.execute('UpdateItem', {
        TableName: 'GameScores',
        Key,
        UpdateExpression: expression,
        ...(values ? { ExpressionAttributeValues: values } : {}),
        ReturnConsumedCapacity: 'INDEXES',
      }).ConsumedCapacity as {
        GlobalSecondaryIndexes?: Record<string, { CapacityUnits: number }>;
        CapacityUnits: number;
      };
    const indexUnits = (capacity: ReturnType<typeof update>) =>
      capacity.GlobalSecondaryIndexes?.GameTitleIndex?.CapacityUnits ?? 0;
    expect(indexUnits(update('SET Memo = :v', { ':v': { S: 'a' } }))).toBe(0); // not in the index
    expect(indexUnits(update('SET TopScore = :v', { ':v': { N: '1' } }))).toBe(1); // enters
    expect(indexUnits(update('SET TopScore = :v', { ':v': { N: '2' } }))).toBe(2); // key changes
    expect(indexUnits(update('SET Wins = :v', { ':v': { N: '5' } }))).toBe(1); // projected attribute changes
    const unchanged = update('SET Memo = :v', { ':v': { S: 'b' } }); // unprojected attribute
    expect(indexUnits(unchanged)).toBe(0);
    expect(unchanged.CapacityUnits).toBe(1);
    expect(indexUnits(update('REMOVE TopScore'))).toBe(1); // leaves
  });
});

describe('local secondary indexes', () => {
  beforeEach(() => {
    engine.execute('CreateTable', {
      TableName: 'Thread',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'ForumName', AttributeType: 'S' },
        { AttributeName: 'Subject', AttributeType: 'S' },
        { AttributeName: 'LastPostDateTime', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'ForumName', KeyType: 'HASH' },
        { AttributeName: 'Subject', KeyType: 'RANGE' },
      ],
      LocalSecondaryIndexes: [
        {
          IndexName: 'LastPostIndex',
          KeySchema: [
            { AttributeName: 'ForumName', KeyType: 'HASH' },
            { AttributeName: 'LastPostDateTime', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    });
    for (const [subject, date] of [
      ['a', '2024-03'],
      ['b', '2024-01'],
      ['c', '2024-02'],
    ]) {
      engine.execute('PutItem', {
        TableName: 'Thread',
        Item: {
          ForumName: { S: 'DynamoDB' },
          Subject: { S: subject! },
          LastPostDateTime: { S: date! },
          Body: { S: `body ${subject}` },
        },
      });
    }
  });

  it('is strongly consistent, ordered by the index sort key, and fetches unprojected attributes from the table', () => {
    const result = engine.execute('Query', {
      TableName: 'Thread',
      IndexName: 'LastPostIndex',
      ConsistentRead: true,
      KeyConditionExpression: 'ForumName = :f AND LastPostDateTime > :d',
      ExpressionAttributeValues: { ':f': { S: 'DynamoDB' }, ':d': { S: '2024-01' } },
      ProjectionExpression: 'Subject, Body',
    });
    expect(result.Items).toEqual([
      { Subject: { S: 'c' }, Body: { S: 'body c' } },
      { Subject: { S: 'a' }, Body: { S: 'body a' } },
    ]);
  });

  it('charges the index for its entries and the table for the items it fetched (docs/dynamodb.md §4.3.6)', () => {
    // https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html: reading attributes
    // an LSI does not project fetches whole items from the table, whose reads count apart.
    const body = 'x'.repeat(5_000);
    for (const subject of ['a', 'c']) {
      engine.execute('UpdateItem', {
        TableName: 'Thread',
        Key: { ForumName: { S: 'DynamoDB' }, Subject: { S: subject } },
        UpdateExpression: 'SET Body = :b',
        ExpressionAttributeValues: { ':b': { S: body } },
      });
    }
    const query = (input: Record<string, unknown>) =>
      engine.execute('Query', {
        TableName: 'Thread',
        IndexName: 'LastPostIndex',
        ConsistentRead: true,
        KeyConditionExpression: 'ForumName = :f AND LastPostDateTime > :d',
        ExpressionAttributeValues: { ':f': { S: 'DynamoDB' }, ':d': { S: '2024-01' } },
        ReturnConsumedCapacity: 'INDEXES',
        ...input,
      }).ConsumedCapacity;
    // Two KEYS_ONLY entries of ~40 bytes: 1 unit from the index; their two items, ~10 KB: 3 units.
    expect(query({ Select: 'ALL_ATTRIBUTES' })).toEqual({
      TableName: 'Thread',
      CapacityUnits: 4,
      Table: { CapacityUnits: 3 },
      LocalSecondaryIndexes: { LastPostIndex: { CapacityUnits: 1 } },
    });
    // Projected attributes only: nothing is fetched, the table's share is 0.
    expect(query({ Select: 'ALL_PROJECTED_ATTRIBUTES' })).toEqual({
      TableName: 'Thread',
      CapacityUnits: 1,
      Table: { CapacityUnits: 0 },
      LocalSecondaryIndexes: { LastPostIndex: { CapacityUnits: 1 } },
    });
  });

  it('returns ItemCollectionMetrics with ReturnItemCollectionMetrics SIZE', () => {
    const result = engine.execute('PutItem', {
      TableName: 'Thread',
      Item: { ForumName: { S: 'DynamoDB' }, Subject: { S: 'd' } },
      ReturnItemCollectionMetrics: 'SIZE',
    });
    expect(result.ItemCollectionMetrics).toEqual({
      ItemCollectionKey: { ForumName: { S: 'DynamoDB' } },
      SizeEstimateRangeGB: [0, 1],
    });
  });
});
