import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { batchRecords } from '../../../streams/mapping/operators/batchRecords.js';
import { delayRecords } from '../../../streams/mapping/operators/delayRecords.js';
import { deliverBatches } from '../../../streams/mapping/operators/deliverBatches.js';
import { filterRecords } from '../../../streams/mapping/operators/filterRecords.js';
import { laneOf, partitionByKey } from '../../../streams/mapping/operators/partitionByKey.js';
import { tumblingWindows } from '../../../streams/mapping/operators/tumblingWindows.js';
import type { AttemptOutcome } from '../../../streams/mapping/responses.js';

/** Marble tests of the mapping operators: empty, never, one, many, error, early unsubscribe, callback throws. */

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const poison = new Error('poison');

describe('filterRecords', () => {
  const isUpper = (value: string) => {
    if (value === '!') throw poison;
    return value === value.toUpperCase();
  };

  it('keeps matching records, reports the others, and drops chunks left empty', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const dropped: string[] = [];
      const source = cold('-a-b-c|', { a: ['x', 'Y'], b: ['z'], c: ['W'] });
      expectObservable(source.pipe(filterRecords(isUpper, (value) => dropped.push(value)))).toBe('-a---c|', {
        a: ['Y'],
        c: ['W'],
      });
      expectObservable(cold<string[]>('|').pipe(filterRecords(isUpper))).toBe('|');
      expectObservable(cold<string[]>('-').pipe(filterRecords(isUpper))).toBe('-');
      expectObservable(cold('-a|', { a: ['Q'] }).pipe(filterRecords(isUpper))).toBe('-a|', { a: ['Q'] });
      expectObservable(cold<string[]>('--#', {}, poison).pipe(filterRecords(isUpper))).toBe(
        '--#',
        {},
        poison,
      );
    });
  });

  it('unsubscribes early, and turns a throwing predicate into an error', () => {
    testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c|', { a: ['A'], b: ['B'], c: ['C'] });
      expectObservable(source.pipe(filterRecords(isUpper)), '^--!').toBe('-a--', { a: ['A'] });
      expectSubscriptions(source.subscriptions).toBe('^--!');
      const throwing = cold('-a-b|', { a: ['!'], b: ['B'] });
      expectObservable(throwing.pipe(filterRecords(isUpper))).toBe('-#', {}, poison);
      expectSubscriptions(throwing.subscriptions).toBe('^!');
    });
  });
});

describe('partitionByKey', () => {
  const keyOf = (value: string) => {
    if (value === '!') throw poison;
    return value[0]!;
  };
  const laneOfKey = (key: string) => laneOf(key, 2);

  it('splits chunks into lanes by key, keeping order within each lane', () => {
    const [a, b] = ['a', 'b'].map(laneOfKey) as [number, number];
    expect(a).not.toBe(b);
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-x-----y|', { x: ['a1', 'b1', 'a2'], y: ['b2'] });
      const first = a < b ? 'A' : 'B';
      const second = a < b ? 'B' : 'A';
      expectObservable(source.pipe(partitionByKey(2, keyOf))).toBe(`-(${first}${second})--C|`, {
        A: { lane: a, records: ['a1', 'a2'] },
        B: { lane: b, records: ['b1'] },
        C: { lane: b, records: ['b2'] },
      });
      expectObservable(cold<string[]>('|').pipe(partitionByKey(2, keyOf))).toBe('|');
      expectObservable(cold<string[]>('-').pipe(partitionByKey(2, keyOf))).toBe('-');
      expectObservable(cold<string[]>('--#', {}, poison).pipe(partitionByKey(2, keyOf))).toBe(
        '--#',
        {},
        poison,
      );
      expectObservable(cold('-x|', { x: ['!'] }).pipe(partitionByKey(2, keyOf))).toBe('-#', {}, poison);
    });
  });

  it('unsubscribes early', () => {
    testScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-x--y|', { x: ['a'], y: ['a'] });
      expectObservable(source.pipe(partitionByKey(1, keyOf)), '^-!').toBe('-x-', {
        x: { lane: 0, records: ['a'] },
      });
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });
});

describe('batchRecords', () => {
  const bytesOf = (value: number) => {
    if (value < 0) throw poison;
    return value;
  };

  it('with window 0, cuts full batches and sends the rest of each chunk at once', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a---b|', { a: [1, 2, 3], b: [4] });
      expectObservable(source.pipe(batchRecords({ maxRecords: 2, windowMs: 0 }, scheduler))).toBe('-(xy)z|', {
        x: [1, 2],
        y: [3],
        z: [4],
      });
      expectObservable(
        cold<number[]>('|').pipe(batchRecords({ maxRecords: 2, windowMs: 0 }, scheduler)),
      ).toBe('|');
      expectObservable(
        cold<number[]>('-').pipe(batchRecords({ maxRecords: 2, windowMs: 0 }, scheduler)),
      ).toBe('-');
    });
  });

  it('with a window, waits from the batch’s first record; completion flushes; errors drop the buffer', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const windowed = batchRecords<number>({ maxRecords: 5, windowMs: 3 }, scheduler);
      expectObservable(cold('-a-b-----|', { a: [1], b: [2] }).pipe(windowed)).toBe('----x----|', {
        x: [1, 2],
      });
      expectObservable(
        cold('-a|', { a: [1] }).pipe(batchRecords({ maxRecords: 5, windowMs: 10 }, scheduler)),
      ).toBe('--(x|)', { x: [1] });
      expectObservable(
        cold('-a#', { a: [1] }, poison).pipe(batchRecords({ maxRecords: 5, windowMs: 10 }, scheduler)),
      ).toBe('--#', {}, poison);
    });
  });

  it('cuts before the payload limit; a throwing size function errors; early unsubscribe cancels the window', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const limited = batchRecords<number>({ maxRecords: 10, windowMs: 0, maxBytes: 10, bytesOf }, scheduler);
      expectObservable(cold('-a---|', { a: [6, 4, 6] }).pipe(limited)).toBe('-(xy)|', { x: [6, 4], y: [6] });
      const throwing = cold('-a|', { a: [-1] });
      expectObservable(throwing.pipe(limited)).toBe('-#', {}, poison);
      expectSubscriptions(throwing.subscriptions).toBe('^!');
      const source = hot('-a-----|', { a: [1] });
      expectObservable(source.pipe(batchRecords({ maxRecords: 5, windowMs: 3 }, scheduler)), '^-!').toBe(
        '---',
      );
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });
});

describe('delayRecords', () => {
  interface Timed {
    readonly name: string;
    readonly due: number;
  }
  const dueOf = (record: Timed) => {
    if (record.due < 0) throw poison;
    return record.due;
  };

  it('releases records at their due time, in order; the source’s end waits for them', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const a = { name: 'a', due: 3 };
      const b = { name: 'b', due: 2 };
      const c = { name: 'c', due: 6 };
      // b is due before a but came after it: it waits for a.
      expectObservable(cold('-x-y|', { x: [a, b], y: [c] }).pipe(delayRecords(dueOf, scheduler))).toBe(
        '---p--(q|)',
        {
          p: [a, b],
          q: [c],
        },
      );
      const now = { name: 'now', due: 0 };
      expectObservable(cold('-x|', { x: [now] }).pipe(delayRecords(dueOf, scheduler))).toBe('-x|', {
        x: [now],
      });
      expectObservable(cold<Timed[]>('|').pipe(delayRecords(dueOf, scheduler))).toBe('|');
      expectObservable(cold<Timed[]>('-').pipe(delayRecords(dueOf, scheduler))).toBe('-');
      expectObservable(cold<Timed[]>('-#', {}, poison).pipe(delayRecords(dueOf, scheduler))).toBe(
        '-#',
        {},
        poison,
      );
    });
  });

  it('unsubscribes early and turns a throwing due function into an error', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-x---|', { x: [{ name: 'a', due: 4 }] });
      expectObservable(source.pipe(delayRecords(dueOf, scheduler)), '^-!').toBe('---');
      expectSubscriptions(source.subscriptions).toBe('^-!');
      const throwing = cold('-x|', { x: [{ name: 'bad', due: -1 }] });
      expectObservable(throwing.pipe(delayRecords(dueOf, scheduler))).toBe('-#', {}, poison);
    });
  });
});

describe('tumblingWindows', () => {
  interface Timed {
    readonly name: string;
    readonly t: number;
  }
  const timeOf = (record: Timed) => {
    if (record.t < 0) throw poison;
    return record.t;
  };
  const w0 = { start: 0, end: 10 };
  const w1 = { start: 10, end: 20 };

  it('splits batches at window boundaries and ends windows on a later record, on time, and on completion', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const a = { name: 'a', t: 0 };
      const b = { name: 'b', t: 4 };
      const c = { name: 'c', t: 12 };
      const windows = tumblingWindows<Timed>({ windowMs: 10, timeOf }, scheduler);
      expectObservable(cold('-x-----|', { x: [a, b, c] }).pipe(windows)).toBe('-(xfy)-(g|)', {
        x: { kind: 'batch', window: w0, records: [a, b] },
        f: { kind: 'final', window: w0 },
        y: { kind: 'batch', window: w1, records: [c] },
        g: { kind: 'final', window: w1 },
      });
      // The clock reaches the window's end (frame 10) before the source completes.
      expectObservable(cold('-x-------------|', { x: [a] }).pipe(windows)).toBe('-x--------f----|', {
        x: { kind: 'batch', window: w0, records: [a] },
        f: { kind: 'final', window: w0 },
      });
      expectObservable(cold<Timed[]>('|').pipe(windows)).toBe('|');
      expectObservable(cold<Timed[]>('-').pipe(windows)).toBe('-');
      expectObservable(cold<Timed[]>('-#', {}, poison).pipe(windows)).toBe('-#', {}, poison);
    });
  });

  it('unsubscribes early and turns a throwing time function into an error', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const windows = tumblingWindows<Timed>({ windowMs: 10, timeOf }, scheduler);
      const source = hot('-x----|', { x: [{ name: 'a', t: 0 }] });
      expectObservable(source.pipe(windows), '^-!').toBe('-x-', {
        x: { kind: 'batch', window: w0, records: [{ name: 'a', t: 0 }] },
      });
      expectSubscriptions(source.subscriptions).toBe('^-!');
      expectObservable(cold('-x|', { x: [{ name: 'bad', t: -1 }] }).pipe(windows)).toBe('-#', {}, poison);
    });
  });
});

describe('deliverBatches', () => {
  const success: AttemptOutcome = { kind: 'success', requestId: 'r', payload: null };
  const failure: AttemptOutcome = { kind: 'failure', requestId: 'r', functionError: 'Unhandled' };
  const last = { requestId: 'r', functionError: 'Unhandled' as const };

  function policy(
    scheduler: TestScheduler,
    attempt: (records: readonly string[]) => Observable<AttemptOutcome>,
    options: {
      retries?: number;
      bisect?: boolean;
      expired?: (record: string) => boolean;
      delay?: number;
    } = {},
  ) {
    return deliverBatches<string>({
      attempt,
      maximumRetryAttempts: options.retries ?? -1,
      bisectOnError: options.bisect ?? false,
      ...(options.expired ? { isExpired: options.expired } : {}),
      retryDelayMs: () => options.delay ?? 2,
      scheduler,
    });
  }

  it('delivers batches one at a time and reports them processed', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const attempt = () => cold('-s|', { s: success });
      expectObservable(cold('-a-b|', { a: ['1'], b: ['2'] }).pipe(policy(scheduler, attempt))).toBe(
        '--p-(q|)',
        {
          p: { kind: 'processed', records: ['1'], outcome: success },
          q: { kind: 'processed', records: ['2'], outcome: success },
        },
      );
      expectObservable(cold<string[]>('|').pipe(policy(scheduler, attempt))).toBe('|');
      expectObservable(cold<string[]>('-').pipe(policy(scheduler, attempt))).toBe('-');
      expectObservable(cold<string[]>('-#', {}, poison).pipe(policy(scheduler, attempt))).toBe(
        '-#',
        {},
        poison,
      );
    });
  });

  it('retries after the delay, then discards when the retries are used up', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const attempt = () => cold('-f|', { f: failure });
      expectObservable(cold('-a|', { a: ['x'] }).pipe(policy(scheduler, attempt, { retries: 1 }))).toBe(
        '--r--(d|)',
        {
          r: { kind: 'retry', records: ['x'], retry: 1 },
          d: { kind: 'discarded', records: ['x'], condition: 'RetryAttemptsExhausted', invokeCount: 2, last },
        },
      );
    });
  });

  it('bisects failed batches without consuming retries, and handles partial responses', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const attempt = (records: readonly string[]) =>
        cold('-o|', { o: records.includes('bad') ? failure : success });
      expectObservable(
        cold('-a|', { a: ['ok', 'bad'] }).pipe(policy(scheduler, attempt, { retries: 0, bisect: true })),
      ).toBe('---p(d|)', {
        p: { kind: 'processed', records: ['ok'], outcome: success },
        d: { kind: 'discarded', records: ['bad'], condition: 'RetryAttemptsExhausted', invokeCount: 1, last },
      });
      const partial: AttemptOutcome = { kind: 'partial', requestId: 'p', failedIndex: 1, payload: {} };
      let calls = 0;
      const partly = () => cold('-o|', { o: ++calls === 1 ? partial : success });
      // The retry waits 5 frames: invoked at 7, done at 8.
      expectObservable(
        cold('-a|', { a: ['1', '2', '3'] }).pipe(policy(scheduler, partly, { delay: 5 })),
      ).toBe('--(pr)--(q|)', {
        p: { kind: 'processed', records: ['1'], outcome: partial },
        r: { kind: 'retry', records: ['2', '3'], retry: 1 },
        q: { kind: 'processed', records: ['2', '3'], outcome: success },
      });
    });
  });

  it('tells where a batch stands before each invocation: the part, its attempt, its bisections', () => {
    const scheduler = testScheduler();
    const seen: string[] = [];
    scheduler.run(({ cold }) => {
      const attempt = (records: readonly string[]) =>
        cold('-o|', { o: records.includes('bad') ? failure : success });
      const delivered = cold('-a|', { a: ['ok', 'bad', 'ok2'] }).pipe(
        deliverBatches<string>({
          attempt,
          maximumRetryAttempts: 1,
          bisectOnError: true,
          retryDelayMs: () => 2,
          scheduler,
          observe: (batch, at) =>
            seen.push(
              at === undefined
                ? `${batch.length} done`
                : `${at.records.join('+')} attempt ${at.attempt}, ${at.bisections} bisections, ${at.partsWaiting} waiting`,
            ),
        }),
      );
      delivered.subscribe();
    });
    expect(seen).toEqual([
      'ok+bad+ok2 attempt 1, 0 bisections, 0 waiting',
      'ok+bad attempt 1, 1 bisections, 1 waiting',
      'ok attempt 1, 2 bisections, 2 waiting',
      'bad attempt 1, 2 bisections, 1 waiting',
      'bad attempt 2, 2 bisections, 1 waiting',
      'ok2 attempt 1, 1 bisections, 0 waiting',
      '3 done',
    ]);
  });

  it('discards leading expired records without invoking, and turns a failing attempt into an invoke error', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const attempt = () => cold('-s|', { s: success });
      expectObservable(
        cold('-a|', { a: ['old', 'new'] }).pipe(
          policy(scheduler, attempt, { expired: (record) => record === 'old' }),
        ),
      ).toBe('-a(p|)', {
        a: { kind: 'discarded', records: ['old'], condition: 'RecordAgeExceeded', invokeCount: 0 },
        p: { kind: 'processed', records: ['new'], outcome: success },
      });
      let calls = 0;
      const flaky = () =>
        ++calls === 1 ? cold<AttemptOutcome>('-#', {}, poison) : cold('-s|', { s: success });
      expectObservable(cold('-a|', { a: ['x'] }).pipe(policy(scheduler, flaky))).toBe('--e--(p|)', {
        e: { kind: 'invokeError', records: ['x'], error: poison },
        p: { kind: 'processed', records: ['x'], outcome: success },
      });
    });
  });

  it('unsubscribes early, cancelling the attempt in flight', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const inner = cold('---s|', { s: success });
      const source = hot('-a---|', { a: ['x'] });
      expectObservable(source.pipe(policy(scheduler, () => inner)), '^-!').toBe('---');
      expectSubscriptions(source.subscriptions).toBe('^-!');
      expectSubscriptions(inner.subscriptions).toBe('-^!');
    });
  });
});
