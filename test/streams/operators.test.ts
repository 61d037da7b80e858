import type { DynamoDBRecord } from 'aws-lambda';
import { map, mergeMap, type OperatorFunction, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { groupByItemKey, itemKeyOf } from '../../streams/operators/groupByItemKey.js';
import { inserts } from '../../streams/operators/inserts.js';
import { modifies } from '../../streams/operators/modifies.js';
import { ofEventName } from '../../streams/operators/ofEventName.js';
import { removes } from '../../streams/operators/removes.js';
import { isTtlRemoval, ttlRemovals } from '../../streams/operators/ttlRemovals.js';
import { unmarshallImages } from '../../streams/operators/unmarshallImages.js';
import { whereChanged } from '../../streams/operators/whereChanged.js';

/** Marble tests of every operator: empty, never, one, many, error, early unsubscribe, callback throws. */

let sequence = 100;
function record(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  pk: string,
  images: { old?: Record<string, unknown>; new?: Record<string, unknown>; ttl?: boolean } = {},
): DynamoDBRecord {
  const body: Record<string, unknown> = { ApproximateCreationDateTime: 1767268800, Keys: { pk: { S: pk } } };
  if (images.new) body.NewImage = { pk: { S: pk }, ...images.new };
  if (images.old) body.OldImage = { pk: { S: pk }, ...images.old };
  body.SequenceNumber = String(100000000000000000000n + BigInt(++sequence));
  body.SizeBytes = 10;
  body.StreamViewType = 'NEW_AND_OLD_IMAGES';
  const result: DynamoDBRecord = {
    eventID: 'f'.repeat(32),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: body,
  };
  if (images.ttl) result.userIdentity = { type: 'Service', principalId: 'dynamodb.amazonaws.com' };
  return result;
}

/** A record whose fields throw when read: makes the operator's own callback throw. */
function poisoned(): DynamoDBRecord {
  const bad = {} as DynamoDBRecord;
  for (const name of ['eventName', 'dynamodb', 'userIdentity'])
    Object.defineProperty(bad, name, {
      enumerable: true,
      get() {
        throw new Error('poison');
      },
    });
  return bad;
}

const i = record('INSERT', 'a', { new: { status: { S: 'new' }, n: { N: '1' } } });
const m = record('MODIFY', 'a', {
  old: { status: { S: 'new' }, n: { N: '1' } },
  new: { status: { S: 'paid' }, n: { N: '1' } },
});
const k = record('MODIFY', 'b', { old: { n: { N: '1' } }, new: { n: { N: '2' } } });
const r = record('REMOVE', 'b', { old: { n: { N: '2' } } });
const t = record('REMOVE', 'a', { old: { status: { S: 'paid' } }, ttl: true });
const values = { i, m, k, r, t, x: poisoned() };

interface Case {
  readonly name: string;
  readonly operator: () => OperatorFunction<DynamoDBRecord, unknown>;
  /** One source element and what it becomes ('' when dropped). */
  readonly one: [keyof typeof values, string];
  readonly many: string;
  readonly manyOut: string;
  readonly outValues?: Record<string, unknown>;
}

const identity = { i, m, k, r, t };
const cases: Case[] = [
  {
    name: "ofEventName('INSERT', 'REMOVE')",
    operator: () => ofEventName('INSERT', 'REMOVE'),
    one: ['i', 'i'],
    many: '-i-m-k-r-t-|',
    manyOut: '-i-----r-t-|',
  },
  {
    name: 'inserts()',
    operator: () => inserts(),
    one: ['i', 'i'],
    many: '-i-m-k-r-t-|',
    manyOut: '-i---------|',
  },
  {
    name: 'modifies()',
    operator: () => modifies(),
    one: ['m', 'm'],
    many: '-i-m-k-r-t-|',
    manyOut: '---m-k-----|',
  },
  {
    name: 'removes()',
    operator: () => removes(),
    one: ['r', 'r'],
    many: '-i-m-k-r-t-|',
    manyOut: '-------r-t-|',
  },
  {
    name: 'ttlRemovals()',
    operator: () => ttlRemovals(),
    one: ['t', 't'],
    many: '-i-m-k-r-t-|',
    manyOut: '---------t-|',
  },
  {
    name: 'ttlRemovals({ exclude: true })',
    operator: () => ttlRemovals({ exclude: true }),
    one: ['t', ''],
    many: '-i-m-k-r-t-|',
    manyOut: '-i-m-k-r---|',
  },
  {
    name: "whereChanged('status')",
    operator: () => whereChanged('status'),
    one: ['m', 'm'],
    many: '-i-m-k-r-t-|',
    manyOut: '-i-m-----t-|',
  },
  {
    name: 'unmarshallImages()',
    operator: () => unmarshallImages(),
    one: ['k', 'K'],
    many: '-i-k-r-|',
    manyOut: '-I-K-R-|',
    outValues: {
      I: {
        eventName: 'INSERT',
        keys: { pk: 'a' },
        newImage: { pk: 'a', status: 'new', n: 1 },
        oldImage: undefined,
        sequenceNumber: i.dynamodb!.SequenceNumber,
        record: i,
      },
      K: {
        eventName: 'MODIFY',
        keys: { pk: 'b' },
        newImage: { pk: 'b', n: 2 },
        oldImage: { pk: 'b', n: 1 },
        sequenceNumber: k.dynamodb!.SequenceNumber,
        record: k,
      },
      R: {
        eventName: 'REMOVE',
        keys: { pk: 'b' },
        newImage: undefined,
        oldImage: { pk: 'b', n: 2 },
        sequenceNumber: r.dynamodb!.SequenceNumber,
        record: r,
      },
    },
  },
  {
    name: 'groupByItemKey() (group keys)',
    operator: () => (source) =>
      source.pipe(
        groupByItemKey(),
        map((group) => group.key),
      ),
    one: ['i', 'A'],
    many: '-i-m-k-r-t-|',
    manyOut: '-A---B-----|',
    outValues: { A: itemKeyOf(i), B: itemKeyOf(k) },
  },
];

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe.each(cases)('$name', (testCase) => {
  const out = { ...identity, ...testCase.outValues };

  it('completes on an empty source', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<DynamoDBRecord>('|').pipe(testCase.operator())).toBe('|');
    });
  });

  it('stays silent on a source that never emits', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<DynamoDBRecord>('-').pipe(testCase.operator())).toBe('-');
    });
  });

  it('maps one value', () => {
    const [input, output] = testCase.one;
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold(`-${input}|`, values).pipe(testCase.operator())).toBe(
        output === '' ? '--|' : `-${output}|`,
        out,
      );
    });
  });

  it('maps many values in order', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold(testCase.many, values).pipe(testCase.operator())).toBe(testCase.manyOut, out);
    });
  });

  it('passes errors through', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('--#', values, new Error('upstream')).pipe(testCase.operator())).toBe(
        '--#',
        undefined,
        new Error('upstream'),
      );
    });
  });

  it('unsubscribes from the source on early unsubscribe', () => {
    scheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot(testCase.many, values);
      expectObservable(source.pipe(testCase.operator()), '^----!').toBe(
        testCase.manyOut.slice(0, 5).replace('|', '-'),
        out,
      );
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('turns a throwing callback into an error and unsubscribes', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-x-i|', values);
      expectObservable(source.pipe(testCase.operator())).toBe('-#', undefined, new Error('poison'));
      expectSubscriptions(source.subscriptions).toBe('^!');
    });
  });
});

describe('groupByItemKey', () => {
  it('keeps each item’s records in order within its group', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const grouped = cold('-i-k-m-r-t-|', values).pipe(
        groupByItemKey(),
        mergeMap((group) =>
          group.pipe(
            toArray(),
            map((list) => list.map((entry) => entry.eventName).join(',')),
          ),
        ),
      );
      expectObservable(grouped).toBe('-----------(ab|)', { a: 'INSERT,MODIFY,REMOVE', b: 'MODIFY,REMOVE' });
    });
  });

  it('identifies items by their keys whatever the attribute order', () => {
    const a = record('INSERT', 'x');
    const b = record('INSERT', 'x');
    a.dynamodb!.Keys = { pk: { S: 'x' }, sk: { N: '1' } };
    b.dynamodb!.Keys = { sk: { N: '1' }, pk: { S: 'x' } };
    expect(itemKeyOf(a)).toBe(itemKeyOf(b));
  });
});

describe('isTtlRemoval', () => {
  it('needs REMOVE by the Service principal dynamodb.amazonaws.com', () => {
    expect([i, m, k, r, t].map(isTtlRemoval)).toEqual([false, false, false, false, true]);
    const impostor = record('REMOVE', 'z', { ttl: true });
    impostor.userIdentity = { type: 'User', principalId: 'dynamodb.amazonaws.com' };
    expect(isTtlRemoval(impostor)).toBe(false);
  });
});
