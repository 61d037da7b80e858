import type { DynamoDBRecord } from 'aws-lambda';
import { BehaviorSubject, delay, interval, lastValueFrom, map, queueScheduler, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { TrimmedDataAccessException } from '../../core/errors/index.js';
import { type ChangesOptions, changes$ } from '../../streams/changes.js';
import { clockScheduler } from '../../streams/clockScheduler.js';
import { StreamUnavailableError, ViewTypeError } from '../../streams/errors.js';
import {
  collect,
  createTable,
  del,
  fixture,
  n,
  put,
  type StreamsFixture,
  s,
  setStream,
  settle,
} from './helpers.js';

/** The RxJS API: live and replayed reads, positions, view types, slow subscribers, time. */

const keys = (records: DynamoDBRecord[]) => records.map((record) => record.dynamodb!.Keys!.pk!.S);

function orders(
  viewType: 'KEYS_ONLY' | 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' = 'NEW_AND_OLD_IMAGES',
): StreamsFixture {
  const f = fixture();
  createTable(f.engine, 'Orders', viewType);
  return f;
}

describe('changes$ live (hot)', () => {
  it('delivers the changes committed after subscribing, asynchronously, in commit order', async () => {
    const f = orders();
    put(f.engine, 'Orders', { pk: s('before') });
    const live = collect(changes$(f.changeLog, 'Orders'));
    put(f.engine, 'Orders', { pk: s('a') });
    put(f.engine, 'Orders', { pk: s('b') });
    // The writes returned before any subscriber code ran: writers never wait for subscribers.
    expect(live.values).toEqual([]);
    await settle(() => live.values.length === 2);
    expect(keys(live.values)).toEqual(['a', 'b']);
    expect(live.values[0]!.eventSourceARN).toMatch(/table\/Orders\/stream\//);
    live.state.subscription.unsubscribe();
  });

  it('gives every subscriber its own position and its own record objects', async () => {
    const f = orders();
    const first = collect(changes$(f.changeLog, 'Orders'));
    put(f.engine, 'Orders', { pk: s('a') });
    // The engine itself works as the source: it finds the change log attached to it.
    const second = collect(changes$(f.engine, 'Orders'));
    put(f.engine, 'Orders', { pk: s('b') });
    await settle(() => first.values.length === 2 && second.values.length === 1);
    expect(keys(first.values)).toEqual(['a', 'b']);
    expect(keys(second.values)).toEqual(['b']);
    expect(second.values[0]).not.toBe(first.values[1]);
    expect(second.values[0]).toEqual(first.values[1]);
  });

  it('stops delivering after unsubscribe', async () => {
    const f = orders();
    const live = collect(changes$(f.changeLog, 'Orders'));
    put(f.engine, 'Orders', { pk: s('a') });
    await settle(() => live.values.length === 1);
    live.state.subscription.unsubscribe();
    put(f.engine, 'Orders', { pk: s('b') });
    await settle();
    expect(keys(live.values)).toEqual(['a']);
  });

  it('completes once the stream is disabled and everything before is delivered', async () => {
    const f = orders();
    const live = collect(changes$(f.changeLog, 'Orders'));
    put(f.engine, 'Orders', { pk: s('a') });
    setStream(f.engine, 'Orders', false);
    put(f.engine, 'Orders', { pk: s('while-disabled') });
    await settle(() => live.state.complete);
    expect(keys(live.values)).toEqual(['a']);
    expect(live.state.complete).toBe(true);
  });

  it('errors with StreamUnavailableError when the table has no enabled stream', async () => {
    const f = fixture();
    createTable(f.engine, 'Plain', undefined);
    const live = collect(changes$(f.changeLog, 'Plain'));
    expect(live.state.error).toBeInstanceOf(StreamUnavailableError);
  });

  it('delivers through an operator that throws as an error, and stops reading', async () => {
    const f = orders();
    const failing = collect(
      changes$(f.changeLog, 'Orders').pipe(
        map(() => {
          throw new Error('boom');
        }),
      ),
    );
    put(f.engine, 'Orders', { pk: s('a') });
    put(f.engine, 'Orders', { pk: s('b') });
    await settle(() => failing.state.error !== undefined);
    expect((failing.state.error as Error).message).toBe('boom');
  });
});

describe('changes$ replay (cold)', () => {
  it('replays from TRIM_HORIZON, then follows live changes', async () => {
    const f = orders();
    put(f.engine, 'Orders', { pk: s('a') });
    put(f.engine, 'Orders', { pk: s('b') });
    const replay = collect(changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON' }));
    put(f.engine, 'Orders', { pk: s('c') });
    await settle(() => replay.values.length === 3);
    expect(keys(replay.values)).toEqual(['a', 'b', 'c']);
    expect(replay.state.complete).toBe(false);
  });

  it('completes at the last change before subscribing with follow: false, and replays the same records again', async () => {
    const f = orders();
    for (const key of ['a', 'b', 'c']) put(f.engine, 'Orders', { pk: s(key) });
    const read = () =>
      lastValueFrom(changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()));
    const first = await read();
    put(f.engine, 'Orders', { pk: s('d') });
    const second = await read();
    expect(keys(first)).toEqual(['a', 'b', 'c']);
    expect(second.slice(0, 3)).toEqual(first);
  });

  it('starts at or after a sequence number, at a time, or at LATEST', async () => {
    const f = orders();
    put(f.engine, 'Orders', { pk: s('a') });
    await f.clock.advance('1m');
    put(f.engine, 'Orders', { pk: s('b') });
    put(f.engine, 'Orders', { pk: s('c') });
    const all = await lastValueFrom(
      changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
    );
    const read = (from: ChangesOptions['from']) =>
      lastValueFrom(changes$(f.changeLog, 'Orders', { from, follow: false }).pipe(toArray()));
    const second = all[1]!.dynamodb!.SequenceNumber!;
    expect(keys(await read({ sequenceNumber: second }))).toEqual(['b', 'c']);
    expect(keys(await read({ afterSequenceNumber: second }))).toEqual(['c']);
    expect(keys(await read({ timestamp: new Date(f.clock.now()) }))).toEqual(['b', 'c']);
    expect(keys(await read({ timestamp: 0 }))).toEqual(['a', 'b', 'c']);
    expect(await read('LATEST')).toEqual([]);
  });

  it('errors with TrimmedDataAccessException for a sequence number older than the trim point', async () => {
    const f = orders();
    put(f.engine, 'Orders', { pk: s('a') });
    const [first] = await lastValueFrom(
      changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false }).pipe(toArray()),
    );
    await f.clock.advance('25h');
    put(f.engine, 'Orders', { pk: s('b') });
    const replay = collect(
      changes$(f.changeLog, 'Orders', { from: { sequenceNumber: first!.dynamodb!.SequenceNumber! } }),
    );
    expect(replay.state.error).toBeInstanceOf(TrimmedDataAccessException);
  });

  it('reads a disabled stream by ARN until its end', async () => {
    const f = orders();
    const arn = (
      f.engine.execute('DescribeTable', { TableName: 'Orders' }).Table as { LatestStreamArn: string }
    ).LatestStreamArn;
    put(f.engine, 'Orders', { pk: s('a') });
    setStream(f.engine, 'Orders', false);
    const records = await lastValueFrom(
      changes$(f.changeLog, 'Orders', { streamArn: arn, from: 'TRIM_HORIZON' }).pipe(toArray()),
    );
    expect(keys(records)).toEqual(['a']);
  });
});

describe('changes$ view types (docs/streams-and-lambda.md §1.2.3)', () => {
  it('narrows records to a view type the stream covers', async () => {
    const f = orders('NEW_AND_OLD_IMAGES');
    put(f.engine, 'Orders', { pk: s('a'), v: n(1) });
    put(f.engine, 'Orders', { pk: s('a'), v: n(2) });
    const read = (viewType: 'KEYS_ONLY' | 'OLD_IMAGE') =>
      lastValueFrom(
        changes$(f.changeLog, 'Orders', { from: 'TRIM_HORIZON', follow: false, viewType }).pipe(toArray()),
      );
    const keysOnly = await read('KEYS_ONLY');
    expect(keysOnly.map((record) => Object.keys(record.dynamodb!))).toEqual([
      ['ApproximateCreationDateTime', 'Keys', 'SequenceNumber', 'SizeBytes', 'StreamViewType'],
      ['ApproximateCreationDateTime', 'Keys', 'SequenceNumber', 'SizeBytes', 'StreamViewType'],
    ]);
    expect(keysOnly[0]!.dynamodb!.StreamViewType).toBe('KEYS_ONLY');
    const old = await read('OLD_IMAGE');
    expect(old.map((record) => record.dynamodb!.OldImage?.v?.N)).toEqual([undefined, '1']);
  });

  it('refuses a view type with images the stream does not carry', () => {
    const f = orders('KEYS_ONLY');
    const read = collect(changes$(f.changeLog, 'Orders', { viewType: 'NEW_IMAGE' }));
    expect(read.state.error).toBeInstanceOf(ViewTypeError);
  });
});

describe('changes$ internal feed', () => {
  it('sees every change whatever the StreamSpecification, as NEW_AND_OLD_IMAGES without eventSourceARN', async () => {
    const f = fixture();
    createTable(f.engine, 'Plain', undefined);
    const feed = collect(changes$(f.changeLog, 'Plain', { feed: 'internal' }));
    put(f.engine, 'Plain', { pk: s('a'), v: n(1) });
    put(f.engine, 'Plain', { pk: s('a'), v: n(2) });
    del(f.engine, 'Plain', { pk: s('a') });
    await settle(() => feed.values.length === 3);
    expect(feed.values.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(feed.values[1]!.dynamodb).toMatchObject({
      OldImage: { v: { N: '1' } },
      NewImage: { v: { N: '2' } },
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    expect(feed.values[0]).not.toHaveProperty('eventSourceARN');
  });

  it('keeps changes only until its readers consumed them, and nothing without readers', async () => {
    const f = fixture();
    createTable(f.engine, 'Plain', undefined);
    const internal = f.changeLog.internalFeed('000000000000', 'us-east-1', 'Plain');
    put(f.engine, 'Plain', { pk: s('unread') });
    expect(internal.log.size).toBe(0);
    const reader = internal.register();
    for (let i = 0; i < 10; i++) put(f.engine, 'Plain', { pk: s(`k${i}`) });
    expect(internal.log.size).toBe(10);
    const batch = reader.read(4);
    expect(batch.map((record) => record.event.keys.pk)).toEqual([0, 1, 2, 3].map((i) => ({ S: `k${i}` })));
    reader.rewind();
    expect(reader.read(4)).toEqual(batch);
    expect(internal.readFrom(batch[1]!.ordinal, 2).records).toEqual(batch.slice(1, 3));
    reader.seek(batch[2]!.ordinal);
    expect(reader.read(2)).toEqual([batch[2], batch[3]]);
    reader.commit(batch.at(-1)!.ordinal);
    expect(internal.log.size).toBe(6);
    expect(() => internal.readFrom(batch[0]!.ordinal)).toThrow(RangeError);
    const live = collect(changes$(f.changeLog, 'Plain', { feed: 'internal' }));
    put(f.engine, 'Plain', { pk: s('x') });
    await settle(() => live.values.length === 1);
    reader.close();
    expect(internal.log.size).toBe(0);
    live.state.subscription.unsubscribe();
  });

  it('completes when the table is deleted', async () => {
    const f = fixture();
    createTable(f.engine, 'Plain', undefined);
    const feed = collect(changes$(f.changeLog, 'Plain', { feed: 'internal' }));
    f.engine.execute('DeleteTable', { TableName: 'Plain' });
    f.changeLog.reconcile();
    await settle(() => feed.state.complete);
    expect(feed.state.complete).toBe(true);
  });
});

describe('changes$ with a subscriber that falls behind', () => {
  it('never blocks writers: a paused subscriber holds a position, the log holds the records, none are lost', async () => {
    const f = orders('KEYS_ONLY');
    const pause = new BehaviorSubject(false);
    const turns: number[] = [];
    let inTurn = 0;
    const slow = collect(
      changes$(f.changeLog, 'Orders', { pause, bufferSize: 100 }).pipe(
        map((record) => {
          if (inTurn++ === 0)
            setImmediate(() => {
              turns.push(inTurn);
              inTurn = 0;
            });
          return record;
        }),
      ),
    );
    pause.next(true);
    for (let i = 0; i < 5000; i++) put(f.engine, 'Orders', { pk: s(`k${i}`) });
    await settle();
    // Writers finished; nothing was delivered; the stream log holds the 5000 records.
    expect(slow.values).toHaveLength(0);
    expect(f.changeLog.tableStream('000000000000', 'us-east-1', 'Orders')!.log.size).toBe(5000);
    pause.next(false);
    await settle(() => slow.values.length === 5000, 500);
    expect(keys(slow.values)).toEqual(Array.from({ length: 5000 }, (_, i) => `k${i}`));
    // Catch-up came in turns of at most bufferSize records, yielding in between.
    expect(Math.max(...turns)).toBeLessThanOrEqual(100);
  });

  it('errors with TrimmedDataAccessException when it falls behind by more than the retention', async () => {
    const f = orders('KEYS_ONLY');
    const pause = new BehaviorSubject(true);
    const slow = collect(changes$(f.changeLog, 'Orders', { pause }));
    put(f.engine, 'Orders', { pk: s('a') });
    await f.clock.advance('25h');
    put(f.engine, 'Orders', { pk: s('b') });
    pause.next(false);
    await settle(() => slow.state.error !== undefined);
    expect(slow.state.error).toBeInstanceOf(TrimmedDataAccessException);
    expect(slow.values).toEqual([]);
  });
});

describe('changes$ schedulers', () => {
  it('delivers inside the write with a synchronous scheduler (the caller’s choice), every time', () => {
    const f = orders('KEYS_ONLY');
    const live = collect(changes$(f.changeLog, 'Orders', { scheduler: queueScheduler }));
    put(f.engine, 'Orders', { pk: s('a') });
    expect(keys(live.values)).toEqual(['a']);
    put(f.engine, 'Orders', { pk: s('b') });
    expect(keys(live.values)).toEqual(['a', 'b']);
  });
});

describe('clockScheduler', () => {
  it('runs rescheduling work (interval) on clock time and cancels its timer on unsubscribe', async () => {
    const f = fixture();
    const scheduler = clockScheduler(f.clock);
    const ticks: number[] = [];
    const subscription = interval(1000, scheduler).subscribe((tick) => ticks.push(tick));
    await f.clock.advance('3500ms');
    expect(ticks).toEqual([0, 1, 2]);
    subscription.unsubscribe();
    expect(f.clock.pendingTimers).toBe(0);
    await f.clock.advance('5s');
    expect(ticks).toEqual([0, 1, 2]);
  });

  it('delivers only when the virtual clock moves, when given as the scheduler', async () => {
    const f = orders('KEYS_ONLY');
    const live = collect(changes$(f.changeLog, 'Orders', { scheduler: clockScheduler(f.clock) }));
    put(f.engine, 'Orders', { pk: s('a') });
    await settle();
    expect(live.values).toEqual([]);
    await f.clock.advance(0);
    expect(keys(live.values)).toEqual(['a']);
  });

  it('drives time operators of a pipeline on the engine clock', async () => {
    const f = orders('KEYS_ONLY');
    const scheduler = clockScheduler(f.clock);
    const seen: number[] = [];
    changes$(f.changeLog, 'Orders')
      .pipe(delay(60_000, scheduler), take(1))
      .subscribe(() => seen.push(f.clock.now()));
    const committedAt = f.clock.now();
    put(f.engine, 'Orders', { pk: s('a') });
    await settle();
    await f.clock.advance('59s');
    expect(seen).toEqual([]);
    await f.clock.advance('1s');
    expect(seen).toEqual([committedAt + 60_000]);
    expect(scheduler.now()).toBe(f.clock.now());
  });
});
