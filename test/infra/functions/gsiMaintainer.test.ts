import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../core/clock.js';
import { Engine } from '../../../core/engine.js';
import { startGsiMaintainer } from '../../../infra/functions/gsiMaintainer.js';
import { ChangeLog } from '../../../streams/changeLog.js';
import { seededRandom as random } from '../../helpers/random.js';
import { gameScoresTable } from '../../helpers/tables.js';

/**
 * The gsi-maintainer as an internal mapping: after `engine.settled()` every GSI equals the index
 * a synchronous engine (the oracle) computes from the same writes.
 */

const START = Date.UTC(2026, 0, 1);

const scores = (name: string) =>
  gameScoresTable({
    tableName: name,
    indexName: 'ByGame',
    projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['Wins'] },
  });

function randomWrite(next: () => number, table: string): [string, Record<string, unknown>] {
  const Key = {
    UserId: { S: `u${Math.floor(next() * 40)}` },
    GameTitle: { S: `g${Math.floor(next() * 3)}` },
  };
  const roll = next();
  if (roll < 0.15) return ['DeleteItem', { TableName: table, Key }];
  if (roll < 0.35) return ['UpdateItem', { TableName: table, Key, UpdateExpression: 'REMOVE TopScore' }];
  if (roll < 0.6)
    return [
      'UpdateItem',
      {
        TableName: table,
        Key,
        UpdateExpression: 'SET Wins = :w, Note = :n',
        ExpressionAttributeValues: { ':w': { N: String(Math.floor(next() * 10)) }, ':n': { S: 'x' } },
      },
    ];
  return [
    'PutItem',
    {
      TableName: table,
      Item: { ...Key, TopScore: { N: String(Math.floor(next() * 100)) }, Wins: { N: '1' } },
    },
  ];
}

/** JSON with object members sorted at every level: equal items give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const indexItems = (engine: Engine, table: string, index: string) =>
  (engine.execute('Scan', { TableName: table, IndexName: index }).Items as Record<string, unknown>[])
    .map(canonical)
    .sort();

function engines() {
  const clock = new VirtualClock(START);
  const engine = new Engine({ clock, globalIndexes: 'external' });
  const changeLog = ChangeLog.attach(engine);
  const oracle = new Engine({ clock: new VirtualClock(START) });
  return { clock, engine, changeLog, oracle };
}

describe('gsi-maintainer mapping', () => {
  it('keeps every GSI equal to the index recomputed from the table once settled', async () => {
    const { engine, changeLog, oracle } = engines();
    const gsi = startGsiMaintainer({ engine, changeLog, batchSize: 25 });
    engine.execute('CreateTable', scores('Scores'));
    oracle.execute('CreateTable', scores('Scores'));
    const next = random(7);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 100; i++) {
        const [operation, input] = randomWrite(next, 'Scores');
        engine.execute(operation, input);
        oracle.execute(operation, input);
      }
      await engine.settled();
      expect(indexItems(engine, 'Scores', 'ByGame')).toEqual(indexItems(oracle, 'Scores', 'ByGame'));
    }
    expect(gsi.lag()).toEqual([{ tableName: 'Scores', indexName: 'ByGame', backlog: 0, lagMs: 0 }]);
    gsi.close();
  });

  it('applies changes after the propagation delay only (stale reads), pauses and resumes', async () => {
    const { clock, engine, changeLog } = engines();
    const gsi = startGsiMaintainer({ engine, changeLog, propagationDelay: [100, 300], random: random(3) });
    engine.execute('CreateTable', scores('Scores'));
    const count = () => engine.execute('Scan', { TableName: 'Scores', IndexName: 'ByGame' }).Count;
    engine.execute('PutItem', {
      TableName: 'Scores',
      Item: { UserId: { S: 'a' }, GameTitle: { S: 'g' }, TopScore: { N: '1' } },
    });
    await engine.settled();
    expect(count()).toBe(0);
    expect(gsi.lag()[0]!.backlog).toBe(1);
    await clock.advance(300);
    await engine.settled();
    expect(count()).toBe(1);

    gsi.pause();
    engine.execute('PutItem', {
      TableName: 'Scores',
      Item: { UserId: { S: 'b' }, GameTitle: { S: 'g' }, TopScore: { N: '2' } },
    });
    await clock.advance('1s');
    await engine.settled();
    expect(count()).toBe(1);
    expect(gsi.lag()[0]).toMatchObject({ backlog: 1, lagMs: 1000 });
    gsi.resume();
    await clock.advance(300);
    await engine.settled();
    expect(count()).toBe(2);
    gsi.close();
  });

  it('backfills a GSI added to a table with items through the same handler', async () => {
    const { engine, changeLog, oracle } = engines();
    const gsi = startGsiMaintainer({ engine, changeLog, batchSize: 7 });
    const { GlobalSecondaryIndexes, ...withIndexes } = scores('Scores');
    const plain = { ...withIndexes, AttributeDefinitions: withIndexes.AttributeDefinitions.slice(0, 2) };
    const add = {
      TableName: 'Scores',
      AttributeDefinitions: withIndexes.AttributeDefinitions,
      GlobalSecondaryIndexUpdates: [{ Create: GlobalSecondaryIndexes[0] }],
    };
    for (const target of [engine, oracle]) target.execute('CreateTable', plain);
    const next = random(11);
    for (let i = 0; i < 200; i++) {
      const [operation, input] = randomWrite(next, 'Scores');
      engine.execute(operation, input);
      oracle.execute(operation, input);
    }
    engine.execute('UpdateTable', add);
    oracle.execute('UpdateTable', add);
    for (let i = 0; i < 100; i++) {
      const [operation, input] = randomWrite(next, 'Scores');
      engine.execute(operation, input);
      oracle.execute(operation, input);
    }
    const table = engine.region().tables.get('Scores')!;
    await engine.indexes.backfilled(table.globalSecondaryIndexes.get('ByGame')!);
    await engine.settled();
    expect(indexItems(engine, 'Scores', 'ByGame')).toEqual(indexItems(oracle, 'Scores', 'ByGame'));
    gsi.close();
  });

  it('backfills a large table in chunks while writes go on, ending equal to the recomputed index', async () => {
    const { engine, changeLog, oracle } = engines();
    const gsi = startGsiMaintainer({ engine, changeLog });
    const { GlobalSecondaryIndexes, ...withIndexes } = scores('Scores');
    const plain = { ...withIndexes, AttributeDefinitions: withIndexes.AttributeDefinitions.slice(0, 2) };
    const add = {
      TableName: 'Scores',
      AttributeDefinitions: withIndexes.AttributeDefinitions,
      GlobalSecondaryIndexUpdates: [{ Create: GlobalSecondaryIndexes[0] }],
    };
    for (const target of [engine, oracle]) target.execute('CreateTable', plain);
    const both = (operation: string, input: Record<string, unknown>) => {
      engine.execute(operation, input);
      oracle.execute(operation, input);
    };
    for (let i = 0; i < 3_500; i++) {
      both('PutItem', {
        TableName: 'Scores',
        Item: {
          UserId: { S: `user${i}` },
          GameTitle: { S: `g${i % 3}` },
          ...(i % 5 === 0 ? {} : { TopScore: { N: String(i % 97) } }),
          Wins: { N: String(i % 7) },
          Note: { S: 'x'.repeat(i % 11) },
        },
      });
    }
    engine.execute('UpdateTable', add);
    oracle.execute('UpdateTable', add);
    const index = engine.region().tables.get('Scores')!.globalSecondaryIndexes.get('ByGame')!;
    let backfilled = false;
    void engine.indexes.backfilled(index).then(() => {
      backfilled = true;
    });
    // The backfill yields between chunks: writes land meanwhile, and reach the index afterwards.
    const next = random(5);
    let turns = 0;
    const progress: { done: number; total: number }[] = [];
    while (!backfilled) {
      for (const { done, total } of gsi.backfills()) progress.push({ done, total });
      for (let i = 0; i < 20; i++) {
        const [operation, input] = randomWrite(next, 'Scores');
        both(operation, input);
        both('UpdateItem', {
          TableName: 'Scores',
          Key: {
            UserId: { S: `user${Math.floor(next() * 3_500)}` },
            GameTitle: { S: `g${Math.floor(next() * 3)}` },
          },
          UpdateExpression: 'SET TopScore = :s',
          ExpressionAttributeValues: { ':s': { N: String(Math.floor(next() * 1000)) } },
        });
      }
      turns++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(turns).toBeGreaterThan(1);
    // Where the backfill stands, as the console's Tables view shows it: done / the items it found.
    expect(progress.every(({ total }) => total === 3_500)).toBe(true);
    expect(progress.some(({ done }) => done > 0 && done < 3_500)).toBe(true);
    expect(gsi.backfills()).toEqual([]);
    await engine.settled();
    expect(indexItems(engine, 'Scores', 'ByGame')).toEqual(indexItems(oracle, 'Scores', 'ByGame'));
    expect(gsi.lag()).toEqual([{ tableName: 'Scores', indexName: 'ByGame', backlog: 0, lagMs: 0 }]);
    gsi.close();
  });

  it('follows a table deleted and created again under the same name', async () => {
    const { engine, changeLog } = engines();
    const gsi = startGsiMaintainer({ engine, changeLog });
    const put = (user: string) =>
      engine.execute('PutItem', {
        TableName: 'Scores',
        Item: { UserId: { S: user }, GameTitle: { S: 'g' }, TopScore: { N: '1' } },
      });
    engine.execute('CreateTable', scores('Scores'));
    put('a');
    await engine.settled();
    engine.execute('DeleteTable', { TableName: 'Scores' });
    engine.execute('CreateTable', scores('Scores'));
    put('b');
    await engine.settled();
    expect(indexItems(engine, 'Scores', 'ByGame')).toEqual([
      canonical({ GameTitle: { S: 'g' }, TopScore: { N: '1' }, UserId: { S: 'b' } }),
    ]);
    expect(gsi.lag()).toHaveLength(1);
    gsi.close();
  });
});
