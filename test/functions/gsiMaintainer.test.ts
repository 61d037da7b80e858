import { beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../core/changeEvent.js';
import { Engine } from '../../core/engine.js';
import { GlobalIndexWriter } from '../../core/indexes/globalIndexWriter.js';
import {
  createFeedHandler,
  type FeedChange,
  type FeedIndexWriter,
} from '../../functions/gsi-maintainer/feedHandler.js';
import { createHandler, handler, recordHandler, tableArnOf } from '../../functions/gsi-maintainer/handler.js';
import { injectPorts, providePorts } from '../../functions/shared/middlewares/injectPorts.js';
import type { IndexWriter } from '../../functions/shared/ports.js';
import { lambdaContext, recordOf, streamEvent } from '../helpers/events.js';
import { gameScoresTable } from '../helpers/tables.js';

let engine: Engine;
let events: ChangeEvent[];

beforeEach(() => {
  // External mode: only the gsi-maintainer writes global indexes.
  engine = new Engine({ globalIndexes: 'external' });
  engine.execute(
    'CreateTable',
    gameScoresTable({ projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['Wins'] } }),
  );
  events = [];
  engine.onCommit((event) => events.push(event));
});

const indexCount = () =>
  engine.execute('Scan', { TableName: 'GameScores', IndexName: 'GameTitleIndex' }).Count;
const put = (item: Record<string, unknown>) =>
  engine.execute('PutItem', { TableName: 'GameScores', Item: item });

/** A writer that records what the handler asked for, delegating to the engine's real writer. */
function recordingWriter(): IndexWriter & { calls: string[] } {
  const real = new GlobalIndexWriter(engine);
  const calls: string[] = [];
  return {
    calls,
    globalIndexes: (arn) => real.globalIndexes(arn),
    put: (arn, index, image) => {
      calls.push(`put ${index}`);
      real.put(arn, index, image as never);
    },
    remove: (arn, index, image) => {
      calls.push(`remove ${index}`);
      real.remove(arn, index, image as never);
    },
  };
}

describe('gsi-maintainer', () => {
  it('derives the table ARN from a stream ARN', () => {
    expect(tableArnOf('arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/2026-01-01T00:00:00.000')).toBe(
      'arn:aws:dynamodb:us-east-1:000000000000:table/T',
    );
  });

  it('leaves the index untouched until it runs (asynchronous, as in DynamoDB)', async () => {
    put({ UserId: { S: '1' }, GameTitle: { S: 'g' }, TopScore: { N: '10' } });
    expect(indexCount()).toBe(0);
    const restore = providePorts({ indexWriter: new GlobalIndexWriter(engine) });
    try {
      const response = await handler(
        streamEvent(events.map((event) => recordOf(event))),
        lambdaContext('gsi-maintainer') as never,
      );
      expect(response).toEqual({ batchItemFailures: [] });
    } finally {
      restore();
    }
    expect(indexCount()).toBe(1);
  });

  it('puts on entering, updates on projected changes, replaces on key changes, removes on leaving, ignores the rest', () => {
    const writer = recordingWriter();
    const Key = { UserId: { S: '1' }, GameTitle: { S: 'g' } };
    const update = (UpdateExpression: string, values?: Record<string, unknown>) =>
      engine.execute('UpdateItem', {
        TableName: 'GameScores',
        Key,
        UpdateExpression,
        ...(values ? { ExpressionAttributeValues: values } : {}),
      });
    const step = (action: () => void) => {
      events.length = 0;
      writer.calls.length = 0;
      action();
      for (const event of events) recordHandler(recordOf(event), writer);
      return [...writer.calls];
    };
    expect(step(() => put({ ...Key, Note: { S: 'a' } }))).toEqual([]); // in no index
    expect(step(() => update('SET TopScore = :s', { ':s': { N: '5' } }))).toEqual(['put GameTitleIndex']);
    expect(step(() => update('SET Wins = :w', { ':w': { N: '1' } }))).toEqual(['put GameTitleIndex']);
    expect(step(() => update('SET Note = :n', { ':n': { S: 'b' } }))).toEqual([]); // unprojected
    expect(step(() => update('SET TopScore = :s', { ':s': { N: '6' } }))).toEqual([
      'remove GameTitleIndex',
      'put GameTitleIndex',
    ]);
    expect(step(() => update('REMOVE TopScore'))).toEqual(['remove GameTitleIndex']);
    expect(indexCount()).toBe(0);
  });

  it('reports the failed record and every later one, so the mapping retries from there', async () => {
    put({ UserId: { S: '1' }, GameTitle: { S: 'g' }, TopScore: { N: '1' } });
    put({ UserId: { S: '2' }, GameTitle: { S: 'g' }, TopScore: { N: '2' } });
    put({ UserId: { S: '3' }, GameTitle: { S: 'g' }, TopScore: { N: '3' } });
    const records = events.map((event) => recordOf(event));
    let calls = 0;
    const flaky: IndexWriter = {
      globalIndexes: (arn) => new GlobalIndexWriter(engine).globalIndexes(arn),
      put: () => {
        calls++;
        if (calls === 2) throw new Error('index store unavailable');
      },
      remove: () => {},
    };
    const response = await createHandler({ indexWriter: flaky })(
      streamEvent(records),
      lambdaContext() as never,
    );
    expect(response).toEqual({
      batchItemFailures: records
        .slice(1)
        .map((record) => ({ itemIdentifier: record.dynamodb!.SequenceNumber })),
    });
  });

  it('refuses to run without its port, and rejects unknown middleware options', async () => {
    await expect(handler(streamEvent([]), lambdaContext() as never)).rejects.toThrow('no indexWriter port');
    expect(() => injectPorts({ portz: {} } as never)).toThrow('unknown option "portz"');
  });
});

describe('gsi-maintainer internal entry point (feedHandler)', () => {
  const change = (event: ChangeEvent, i: number): FeedChange<ChangeEvent> => ({
    change: event,
    sequenceNumber: `1${String(i + 1).padStart(20, '0')}`,
  });

  it('applies the changes of the feed in order through the writer', async () => {
    put({ UserId: { S: '1' }, GameTitle: { S: 'g' }, TopScore: { N: '1' } });
    put({ UserId: { S: '1' }, GameTitle: { S: 'g' }, TopScore: { N: '2' } });
    put({ UserId: { S: '2' }, GameTitle: { S: 'g' }, TopScore: { N: '3' } });
    const response = await createFeedHandler({ indexWriter: new GlobalIndexWriter(engine) })(
      { Changes: events.map(change) },
      lambdaContext() as never,
    );
    expect(response).toEqual({ batchItemFailures: [] });
    const scores = engine.execute('Query', {
      TableName: 'GameScores',
      IndexName: 'GameTitleIndex',
      KeyConditionExpression: 'GameTitle = :g',
      ExpressionAttributeValues: { ':g': { S: 'g' } },
    }).Items as { TopScore: { N: string } }[];
    expect(scores.map((item) => item.TopScore.N)).toEqual(['2', '3']);
  });

  it('reports the failed change and every later one, so the mapping retries from there', async () => {
    put({ UserId: { S: '1' }, GameTitle: { S: 'g' }, TopScore: { N: '1' } });
    put({ UserId: { S: '2' }, GameTitle: { S: 'g' }, TopScore: { N: '2' } });
    put({ UserId: { S: '3' }, GameTitle: { S: 'g' }, TopScore: { N: '3' } });
    const real = new GlobalIndexWriter(engine);
    let calls = 0;
    const flaky: FeedIndexWriter = {
      globalIndexes: (arn) => real.globalIndexes(arn),
      put: (arn, index, image) => real.put(arn, index, image as never),
      remove: (arn, index, image) => real.remove(arn, index, image as never),
      applyFeedChange: (event) => {
        if (++calls === 2) throw new Error('index store unavailable');
        real.applyFeedChange(event as ChangeEvent);
      },
    };
    const changes = events.map(change);
    const response = await createFeedHandler({ indexWriter: flaky })(
      { Changes: changes },
      lambdaContext() as never,
    );
    expect(response).toEqual({
      batchItemFailures: changes.slice(1).map((failed) => ({ itemIdentifier: failed.sequenceNumber })),
    });
    expect(indexCount()).toBe(1);
  });

  it('hands a writer that takes whole batches the changes at once, reporting those it did not apply', async () => {
    put({ UserId: { S: '1' }, GameTitle: { S: 'g' }, TopScore: { N: '1' } });
    put({ UserId: { S: '2' }, GameTitle: { S: 'g' }, TopScore: { N: '2' } });
    put({ UserId: { S: '3' }, GameTitle: { S: 'g' }, TopScore: { N: '3' } });
    const real = new GlobalIndexWriter(engine);
    // The index store fails on the second entry put: the batch stops there. (New entries are
    // stored with `insert`, which falls back to `set` only for the partition's first entry.)
    const entries = engine
      .region()
      .tables.get('GameScores')!
      .globalSecondaryIndexes.get('GameTitleIndex')!.items;
    const insert = entries.insert;
    let sets = 0;
    entries.insert = function (this: typeof entries, ...args: Parameters<typeof insert>) {
      if (++sets === 2) throw new Error('index store unavailable');
      return insert.apply(this, args);
    };
    const changes = events.map(change);
    const response = await createFeedHandler({ indexWriter: real })(
      { Changes: changes },
      lambdaContext() as never,
    );
    entries.insert = insert;
    expect(response).toEqual({
      batchItemFailures: changes.slice(1).map((failed) => ({ itemIdentifier: failed.sequenceNumber })),
    });
    expect(indexCount()).toBe(1);
    expect(real.applyFeedChanges(changes.slice(1))).toBe(2);
    expect(indexCount()).toBe(3);
  });

  it('refuses to run without a writer that takes feed changes', async () => {
    const plain: IndexWriter = { globalIndexes: () => [], put: () => {}, remove: () => {} };
    await expect(
      createFeedHandler({ indexWriter: plain })({ Changes: [] }, lambdaContext() as never),
    ).rejects.toThrow('takes no feed changes');
    await expect(createFeedHandler()({ Changes: [] }, lambdaContext() as never)).rejects.toThrow(
      'no indexWriter port',
    );
  });
});
