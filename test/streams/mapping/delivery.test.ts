import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { ordinalOf } from '../../../streams/sequenceNumber.js';
import { keysOf, mappingFixture, recorder, until } from './helpers.js';

const boom = () => {
  throw new Error('boom');
};

describe('event shape and batching (docs/streams-and-lambda.md §2.2, §2.1.1, §2.1.2)', () => {
  it('docs/streams-and-lambda.md §2.2.1 invokes with exactly {Records: [...]} in sequence-number order, never empty', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    f.put('a');
    f.put('b');
    f.map({ name: 'fn', handler });
    f.put('c');
    await f.engine.settled();
    expect(events.flatMap(keysOf)).toEqual(['a', 'b', 'c']);
    for (const event of events) {
      expect(Object.keys(event)).toEqual(['Records']);
      expect(event.Records.length).toBeGreaterThan(0);
    }
  });

  it('docs/streams-and-lambda.md §2.2.2 delivers the stream record plus eventSourceARN, in the recorded field order', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    f.map({ name: 'fn', handler });
    f.put('a', { n: { N: '1' } });
    await f.engine.settled();
    const record = events[0]!.Records[0]!;
    expect(Object.keys(record)).toEqual([
      'eventID',
      'eventName',
      'eventVersion',
      'eventSource',
      'awsRegion',
      'dynamodb',
      'eventSourceARN',
    ]);
    expect(record).toMatchObject({
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: f.streamArn,
      dynamodb: { Keys: { pk: { S: 'a' } }, NewImage: { pk: { S: 'a' }, n: { N: '1' } } },
    });
    expect(record.eventID).toMatch(/^[0-9a-f]{32}$/);
  });

  it('reads the writes of one turn of the event loop together, in order (a server answers many requests per turn)', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    f.map({ name: 'fn', handler });
    // As requests answered in one poll of the sockets: each write ends its own task.
    for (let i = 0; i < 10; i++) {
      f.put(`k${i}`);
      await undefined;
    }
    await f.engine.settled();
    // The first is read at once (commit-to-invocation latency), the rest when the turn ends:
    // read one by one, each would cost a whole invocation.
    expect(events.map((event) => event.Records.length)).toEqual([1, 9]);
    expect(events.flatMap(keysOf)).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`));
  });

  it('docs/streams-and-lambda.md §2.1.1 honours BatchSize, docs/streams-and-lambda.md §2.1.2 window 0 invokes with what is available', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    for (let i = 0; i < 250; i++) f.put(`k${i}`);
    f.map({ name: 'fn', handler });
    await f.engine.settled();
    expect(events.map((event) => event.Records.length)).toEqual([100, 100, 50]);
    f.put('late');
    await f.engine.settled();
    expect(events.at(-1)!.Records.length).toBe(1);
  });

  it('docs/streams-and-lambda.md §2.1.2 with a batching window, invokes when the window expires or the batch is full', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    f.map({ name: 'fn', handler }, { BatchSize: 3, MaximumBatchingWindowInSeconds: 5 });
    f.put('a');
    await f.clock.advance('2s');
    f.put('b');
    await f.clock.advance('2s');
    await f.engine.settled();
    expect(events).toHaveLength(0);
    await f.clock.advance('1s');
    await f.engine.settled();
    expect(events.map(keysOf)).toEqual([['a', 'b']]);
    f.put('c');
    f.put('d');
    f.put('e');
    await f.engine.settled();
    expect(events.map(keysOf)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('docs/streams-and-lambda.md §2.2.3 puts records of one shard only in a batch, in sequence order', async () => {
    const f = mappingFixture({ changeLog: { shardCount: 4 } });
    const { events, handler } = recorder();
    for (let i = 0; i < 60; i++) f.put(`k${i}`);
    f.map({ name: 'fn', handler });
    await f.engine.settled();
    const stream = f.changeLog.stream(f.streamArn)!;
    const shardOf = (ordinal: number) =>
      stream.shards.find((shard) => {
        const index = shard.indexAtOrdinal(ordinal);
        return index < shard.size && shard.positionAt(index) + 1 === ordinal;
      })!.id;
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) {
      const ordinals = event.Records.map((record) => ordinalOf(record.dynamodb!.SequenceNumber!));
      expect(new Set(ordinals.map(shardOf)).size).toBe(1);
      expect([...ordinals].sort((a, b) => a - b)).toEqual(ordinals);
    }
    expect(events.flatMap(keysOf).sort()).toEqual(Array.from({ length: 60 }, (_, i) => `k${i}`).sort());
  });

  it('docs/streams-and-lambda.md §2.2.5 keeps each invocation payload within 6 MB', async () => {
    const f = mappingFixture();
    const sizes: number[] = [];
    f.map({
      name: 'fn',
      handler: async (event: DynamoDBStreamEvent) => void sizes.push(JSON.stringify(event).length),
    });
    for (let i = 0; i < 30; i++) f.put(`k${i}`, { big: { S: 'x'.repeat(300_000) } });
    await f.engine.settled();
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(6 * 1024 * 1024);
  });
});

describe('errors without ReportBatchItemFailures (docs/streams-and-lambda.md §2.3)', () => {
  it('docs/streams-and-lambda.md §2.3.1 ignores the return value: a response listing failures is still a success', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder((event) => ({
      batchItemFailures: [{ itemIdentifier: event.Records[0]!.dynamodb!.SequenceNumber }],
    }));
    f.map({ name: 'fn', handler });
    f.put('a');
    await f.run();
    expect(events).toHaveLength(1);
  });

  it('docs/streams-and-lambda.md §2.3.1, §2.3.2 retries a failed batch whole, and the shard waits meanwhile', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder((_event, call) => (call <= 2 ? boom() : undefined));
    f.map({ name: 'fn', handler }, { BatchSize: 2 });
    f.put('a');
    f.put('b');
    f.put('c');
    await f.run();
    expect(events.map(keysOf)).toEqual([['a', 'b'], ['a', 'b'], ['a', 'b'], ['c']]);
    expect(f.manager.inspect()[0]).toMatchObject({ retries: 2, recordsProcessed: 3, invocations: 4 });
  });

  it('docs/streams-and-lambda.md §2.3.1 counts a timed-out invocation as a failure', async () => {
    const f = mappingFixture();
    let calls = 0;
    f.map(
      {
        name: 'slow',
        timeout: 1,
        handler: () => (++calls === 1 ? new Promise(() => {}) : Promise.resolve()),
      },
      {
        MaximumRetryAttempts: 1,
        DestinationConfig: { OnFailure: { Destination: 'arn:aws:sqs:us-east-1:000000000000:dlq' } },
      },
    );
    f.put('a');
    await f.run();
    expect(calls).toBe(2);
    expect(f.functions.invocations('slow')[0]!.error).toEqual({
      errorType: 'Sandbox.Timedout',
      errorMessage: 'Task timed out after 1.00 seconds',
    });
    expect(f.manager.inspect()[0]).toMatchObject({ recordsProcessed: 1, recordsFailed: 0 });
  });

  it('docs/streams-and-lambda.md §2.3.3, §2.1.7 discards after MaximumRetryAttempts (invoked 1 + retries times) and moves on', async () => {
    for (const retries of [1, 3]) {
      const f = mappingFixture();
      const dlq = 'arn:aws:sqs:us-east-1:000000000000:dlq';
      const { events, handler } = recorder((event) => (keysOf(event).includes('bad') ? boom() : undefined));
      f.map(
        { name: 'fn', handler },
        {
          BatchSize: 1,
          MaximumRetryAttempts: retries,
          DestinationConfig: { OnFailure: { Destination: dlq } },
        },
      );
      f.put('bad');
      f.put('good');
      await f.run();
      expect(events.map(keysOf)).toEqual([...Array.from({ length: retries + 1 }, () => ['bad']), ['good']]);
      const [record] = f.destinations.queue(dlq).records();
      expect(record!.requestContext).toMatchObject({
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: retries + 1,
      });
      expect(f.manager.inspect()[0]).toMatchObject({
        recordsFailed: 1,
        recordsProcessed: 1,
        destinationCount: 1,
      });
    }
  });

  it('docs/streams-and-lambda.md §2.3.3 discards records older than MaximumRecordAgeInSeconds as RecordAgeExceeded', async () => {
    const f = mappingFixture();
    const dlq = 'arn:aws:sqs:us-east-1:000000000000:dlq';
    f.map(
      { name: 'fn', handler: boom },
      { MaximumRecordAgeInSeconds: 60, DestinationConfig: { OnFailure: { Destination: dlq } } },
    );
    f.put('a');
    await f.run('10s');
    const [record] = f.destinations.queue(dlq).records();
    expect(record!.requestContext.condition).toBe('RecordAgeExceeded');
    expect(record).not.toHaveProperty('responseContext');
    expect(f.clock.now() - Date.parse(record!.timestamp)).toBeLessThan(60_000);
  });

  it('docs/streams-and-lambda.md §2.1.7 retries until the record expires with the stream (24 h) by default', async () => {
    const f = mappingFixture();
    const dlq = 'arn:aws:sqs:us-east-1:000000000000:dlq';
    f.map({ name: 'fn', handler: boom }, { DestinationConfig: { OnFailure: { Destination: dlq } } });
    f.put('a');
    await f.run('1h', 30);
    const [record] = f.destinations.queue(dlq).records();
    expect(record!.requestContext.condition).toBe('RecordAgeExceeded');
    expect(record!.requestContext.approximateInvokeCount).toBeGreaterThan(1000);
  });
});

describe('invocation failures outside the handler', () => {
  it('docs/streams-and-lambda.md §2.3.4 retries when the function cannot be invoked at all, without counting retry attempts', async () => {
    const f = mappingFixture();
    let refusals = 2;
    const delivered: string[][] = [];
    const { MappingManager } = await import('../../../streams/mapping/manager.js');
    const manager = new MappingManager({
      changeLog: f.changeLog,
      settler: f.engine,
      functions: {
        resolve: () => ({
          functionName: 'throttled',
          functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:throttled',
          invoke: async (event: unknown) => {
            if (refusals-- > 0) throw new Error('TooManyRequestsException');
            delivered.push(keysOf(event as DynamoDBStreamEvent) as string[]);
            return { requestId: 'r', status: 'ok' as const };
          },
        }),
      },
    });
    const { UUID } = manager.create({
      FunctionName: 'throttled',
      EventSourceArn: f.streamArn,
      StartingPosition: 'TRIM_HORIZON',
      MaximumRetryAttempts: 0,
    });
    f.put('a');
    for (let i = 0; i < 5; i++) await f.clock.advance('1s');
    await f.engine.settled();
    expect(delivered).toEqual([['a']]);
    expect(manager.inspect(UUID)).toMatchObject({
      invokeErrors: 2,
      retries: 0,
      recordsProcessed: 1,
      recordsFailed: 0,
    });
    manager.close();
  });

  it('builds the records afresh for a retry: what the handler mutated is not seen again', async () => {
    const f = mappingFixture();
    const images: unknown[] = [];
    f.map({
      name: 'mutating',
      handler: async (event: DynamoDBStreamEvent) => {
        const record = event.Records[0]!;
        images.push(structuredClone(record.dynamodb!.NewImage));
        if (images.length === 1) {
          // As @middy/event-normalizer does (docs/streams-and-lambda.md §4.4): images rewritten in place.
          record.dynamodb!.NewImage = { pk: 'a' } as never;
          throw new Error('after mutating');
        }
      },
    });
    f.put('a');
    await f.run();
    expect(images).toEqual([{ pk: { S: 'a' } }, { pk: { S: 'a' } }]);
  });
});

describe('positions, enabling and checkpoints (docs/streams-and-lambda.md §2.1.4, §2.1.13, §1.4.3, §2.2.4)', () => {
  it('docs/streams-and-lambda.md §2.1.4 LATEST skips what is already in the stream; TRIM_HORIZON reads it', async () => {
    const f = mappingFixture();
    const latest = recorder();
    const horizon = recorder();
    f.put('old');
    f.map({ name: 'latest', handler: latest.handler }, { StartingPosition: 'LATEST' });
    f.map({ name: 'horizon', handler: horizon.handler });
    f.put('new');
    await f.engine.settled();
    expect(latest.events.flatMap(keysOf)).toEqual(['new']);
    expect(horizon.events.flatMap(keysOf)).toEqual(['old', 'new']);
  });

  it('docs/streams-and-lambda.md §2.1.13 disabling stops processing and keeps the place; enabling resumes from it', async () => {
    const f = mappingFixture();
    const { events, handler } = recorder();
    const uuid = f.map({ name: 'fn', handler });
    f.put('a');
    await f.engine.settled();
    f.manager.disable(uuid);
    f.put('b');
    f.put('c');
    await f.run();
    expect(events.flatMap(keysOf)).toEqual(['a']);
    expect(f.manager.inspect(uuid)).toMatchObject({
      state: 'Disabled',
      backlog: 2,
      iteratorAgeMs: 0,
      behindNewestMs: 0,
    });
    await f.clock.advance('5s');
    f.put('d');
    expect(f.manager.inspect(uuid)).toMatchObject({ backlog: 3, iteratorAgeMs: 5000, behindNewestMs: 5000 });
    f.manager.enable(uuid);
    await f.engine.settled();
    expect(events.flatMap(keysOf)).toEqual(['a', 'b', 'c', 'd']);
    expect(f.manager.inspect(uuid)).toMatchObject({ backlog: 0, iteratorAgeMs: 0, behindNewestMs: 0 });
  });

  it('docs/streams-and-lambda.md §1.4.6 skips what retention trimmed while the mapping was disabled, and says so', async () => {
    const f = mappingFixture({ changeLog: { rolloverPeriod: '48h' } });
    const { events, handler } = recorder();
    const uuid = f.map({ name: 'fn', handler });
    f.manager.disable(uuid);
    f.put('old');
    await f.clock.advance('25h');
    f.put('new');
    f.manager.enable(uuid);
    await f.engine.settled();
    expect(events.flatMap(keysOf)).toEqual(['new']);
    expect(f.manager.inspect(uuid)).toMatchObject({ retentionSkips: 1, backlog: 0 });
  });

  it('docs/streams-and-lambda.md §2.2.4 delivers at least once: a batch in flight when the mapping stops comes again', async () => {
    const f = mappingFixture();
    let release: () => void = () => {};
    const { events, handler } = recorder(() => new Promise<void>((resolve) => (release = resolve)));
    const uuid = f.map({ name: 'fn', handler });
    f.put('a');
    await until(() => events.length === 1);
    f.manager.disable(uuid);
    release();
    f.manager.enable(uuid);
    await until(() => events.length === 2);
    release();
    await f.engine.settled();
    expect(events.flatMap(keysOf)).toEqual(['a', 'a']);
  });

  it('resumes a re-created mapping from its serialisable checkpoint, losing and repeating nothing', async () => {
    const f = mappingFixture({ changeLog: { shardCount: 3 } });
    const { events, handler } = recorder();
    const uuid = f.map({ name: 'fn', handler });
    for (let i = 0; i < 20; i++) f.put(`a${i}`);
    await f.engine.settled();
    const checkpoint = JSON.parse(JSON.stringify(f.manager.mapping(uuid).checkpoint()));
    f.manager.delete(uuid);
    for (let i = 0; i < 10; i++) f.put(`b${i}`);
    f.manager.create(
      { FunctionName: 'fn', EventSourceArn: f.streamArn, StartingPosition: 'LATEST' },
      { checkpoint },
    );
    await f.engine.settled();
    const seen = events.flatMap(keysOf);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
  });

  it('docs/streams-and-lambda.md §1.4.3 reads a parent shard to its end before its child', async () => {
    const f = mappingFixture({ changeLog: { rolloverPeriod: '1h' } });
    const { events, handler } = recorder((_event, call) => (call === 1 ? boom() : undefined));
    f.map({ name: 'fn', handler }, { BatchSize: 1 });
    f.put('parent');
    await f.clock.advance('2h');
    f.put('child');
    await f.run();
    expect(events.flatMap(keysOf)).toEqual(['parent', 'parent', 'child']);
    expect(f.changeLog.stream(f.streamArn)!.shards.length).toBeGreaterThan(1);
  });
});
