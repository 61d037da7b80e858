import { describe, expect, it } from 'vitest';
import { START } from '../helpers.js';
import { keysOf, mappingFixture, until } from './helpers.js';

/**
 * Tumbling windows (docs/streams-and-lambda.md §2.6). START is 12:00:00 UTC, so 60-second windows start on
 * it.
 */

interface WindowEvent {
  Records: { dynamodb?: { Keys?: { pk?: { S?: string } } } }[];
  window: { start: string; end: string };
  state: { count?: number; blob?: string };
  shardId: string;
  eventSourceARN: string;
  isFinalInvokeForWindow: boolean;
  isWindowTerminatedEarly: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const keys = (event: WindowEvent) => event.Records.map((record) => record.dynamodb!.Keys!.pk!.S);

function counting(respond?: (event: WindowEvent, call: number) => unknown) {
  const events: WindowEvent[] = [];
  const handler = async (event: WindowEvent) => {
    events.push(structuredClone(event));
    const custom = respond?.(event, events.length);
    if (custom !== undefined) return custom;
    return { state: { count: (event.state.count ?? 0) + event.Records.length } };
  };
  return { events, handler };
}

describe('tumbling windows (docs/streams-and-lambda.md §2.6)', () => {
  it('docs/streams-and-lambda.md §2.6.1 adds window, state, shardId, eventSourceARN and the window flags; state flows between invocations', async () => {
    const f = mappingFixture();
    const { events, handler } = counting();
    f.map({ name: 'fn', handler }, { TumblingWindowInSeconds: 60 });
    f.put('a');
    await f.clock.advance('10s');
    f.put('b');
    await f.engine.settled();
    const shardId = f.changeLog.stream(f.streamArn)!.shards[0]!.id;
    expect(events).toHaveLength(2);
    expect(Object.keys(events[0]!)).toEqual([
      'Records',
      'window',
      'state',
      'shardId',
      'eventSourceARN',
      'isFinalInvokeForWindow',
      'isWindowTerminatedEarly',
    ]);
    expect(events[0]).toMatchObject({
      window: { start: iso(START), end: iso(START + 60_000) },
      state: {},
      shardId,
      eventSourceARN: f.streamArn,
      isFinalInvokeForWindow: false,
      isWindowTerminatedEarly: false,
    });
    expect(events[1]!.state).toEqual({ count: 1 });
    await f.clock.advance('50s');
    await f.engine.settled();
    expect(events).toHaveLength(3);
    expect(events[2]).toMatchObject({ Records: [], state: { count: 2 }, isFinalInvokeForWindow: true });
  });

  it('docs/streams-and-lambda.md §2.6.3 follows insertion time: records of the next window start a fresh state after the final invoke', async () => {
    const f = mappingFixture();
    const { events, handler } = counting();
    f.put('a');
    await f.clock.advance('61s');
    f.put('b');
    f.map({ name: 'fn', handler }, { TumblingWindowInSeconds: 60 });
    await f.run();
    expect(
      events.map((event) => [keys(event), event.state, event.isFinalInvokeForWindow, event.window.start]),
    ).toEqual([
      [['a'], {}, false, iso(START)],
      [[], { count: 1 }, true, iso(START)],
      [['b'], {}, false, iso(START + 60_000)],
      [[], { count: 1 }, true, iso(START + 60_000)],
    ]);
    expect(f.manager.inspect()[0]).toMatchObject({ windowsClosed: 2, recordsProcessed: 2, backlog: 0 });
  });

  it('docs/streams-and-lambda.md §2.6.2 counts a response without state as a failed invocation (retried)', async () => {
    const f = mappingFixture();
    const { events, handler } = counting((_event, call) => (call === 1 ? { notState: true } : undefined));
    f.map({ name: 'fn', handler }, { TumblingWindowInSeconds: 60 });
    f.put('a');
    await f.run();
    expect(events.map((event) => [keys(event), event.isFinalInvokeForWindow])).toEqual([
      [['a'], false],
      [['a'], false],
      [[], true],
    ]);
  });

  it('docs/streams-and-lambda.md §2.6.3 checkpoints only when the final invoke succeeds: a restart replays the window with a fresh state', async () => {
    const f = mappingFixture();
    const { events, handler } = counting();
    const uuid = f.map({ name: 'fn', handler }, { TumblingWindowInSeconds: 60 });
    f.put('a');
    f.put('b');
    await f.engine.settled();
    expect(f.manager.inspect(uuid)).toMatchObject({ recordsProcessed: 2, inProgress: 2, backlog: 2 });
    f.manager.disable(uuid);
    f.manager.enable(uuid);
    await f.run();
    expect(events.map((event) => [keys(event), event.state])).toEqual([
      [['a', 'b'], {}],
      [['a', 'b'], {}],
      [[], { count: 2 }],
    ]);
  });

  it('docs/streams-and-lambda.md §2.6.3 halts the shard until the final invoke succeeds', async () => {
    const f = mappingFixture();
    let failFinal = true;
    const { events, handler } = counting((event) => {
      if (event.isFinalInvokeForWindow && failFinal) throw new Error('cannot save');
      return undefined;
    });
    f.map({ name: 'fn', handler }, { TumblingWindowInSeconds: 60 });
    f.put('a');
    await f.clock.advance('60s');
    f.put('b');
    await f.clock.advance('10s');
    await f.engine.settled();
    expect(events.filter((event) => keys(event).includes('b'))).toHaveLength(0);
    failFinal = false;
    await f.run();
    expect(events.filter((event) => keys(event).includes('b'))).toHaveLength(1);
  });

  it('docs/streams-and-lambda.md §2.6.2 ends the window early when the state passes 1 MB', async () => {
    const f = mappingFixture();
    const { events, handler } = counting((event) =>
      event.isFinalInvokeForWindow ? { state: {} } : { state: { blob: 'x'.repeat(1_100_000) } },
    );
    f.map({ name: 'fn', handler }, { TumblingWindowInSeconds: 60, BatchSize: 1 });
    f.put('a');
    await until(() => events.length >= 2);
    await f.engine.settled();
    expect(events[1]).toMatchObject({
      Records: [],
      isFinalInvokeForWindow: true,
      isWindowTerminatedEarly: true,
    });
    f.put('b');
    await f.engine.settled();
    expect(events[2]).toMatchObject({ state: {}, isFinalInvokeForWindow: false });
    expect(keysOf(events[2] as never)).toEqual(['b']);
  });

  it('docs/streams-and-lambda.md §2.6.3 does not carry windows across shards: a child shard starts a fresh window', async () => {
    const f = mappingFixture({ changeLog: { rolloverPeriod: '30s' } });
    const { events, handler } = counting();
    f.map({ name: 'fn', handler }, { TumblingWindowInSeconds: 60 });
    f.put('a');
    await f.clock.advance('40s');
    f.put('b');
    await f.run('10s');
    const shards = f.changeLog.stream(f.streamArn)!.shards.map((shard) => shard.id);
    expect(
      events.map((event) => [
        keys(event),
        event.state,
        event.isFinalInvokeForWindow,
        shards.indexOf(event.shardId),
      ]),
    ).toEqual([
      [['a'], {}, false, 0],
      [[], { count: 1 }, true, 0],
      [['b'], {}, false, 1],
      [[], { count: 1 }, true, 1],
    ]);
    // Both records fall in the same 60-second window, yet each shard has its own.
    expect(new Set(events.map((event) => event.window.start)).size).toBe(1);
  });
});
