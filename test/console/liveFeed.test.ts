import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveFeed, MAX_INVOCATIONS_PER_LOOK, MAX_RECORDS_PER_LOOK } from '../../infra/console/liveFeed.js';
import { stackConsoleSources } from '../../infra/console/stackSources.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { consoleConfig, onOrder } from './fixture.js';

// The live feed's looks, driven by hand (the server runs one every 250 ms): what it sends, and
// how it samples when more is new than a look carries (docs/console.md, "The live feed").

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack(consoleConfig, { handlers: { onOrder } });
});
beforeEach(() => stack.reset());
afterAll(() => stack.close());

interface Event {
  readonly event: string;
  // biome-ignore lint/suspicious/noExplicitAny: the events' JSON, which the assertions check
  readonly data: any;
}

function openFeed(): { feed: LiveFeed; events: Event[] } {
  const events: Event[] = [];
  const feed = new LiveFeed(stackConsoleSources(stack.stack), (chunk) => {
    const [, event, data] = /^event: (\w+)\ndata: (.*)\n\n$/s.exec(chunk)!;
    events.push({ event: event!, data: JSON.parse(data!) });
  });
  return { feed, events };
}

const put = (pk: string) =>
  stack.client.send(
    new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: pk }, status: { S: 'new' } } }),
  );

describe('LiveFeed', () => {
  it('starts at the present and sends each new record once', async () => {
    await put('before');
    const { feed, events } = openFeed();
    expect(events.map((entry) => entry.event)).toEqual(['tick']);
    await put('after');
    feed.look();
    feed.look();
    const records = events.filter((entry) => entry.event === 'records');
    expect(records).toHaveLength(1);
    expect(records[0]!.data).toMatchObject({ table: 'Orders', skipped: 0 });
    expect(
      records[0]!.data.records.map((record: { dynamodb: { Keys: unknown } }) => record.dynamodb.Keys),
    ).toEqual([{ pk: { S: 'after' } }]);
  });

  it('samples a burst: the newest 25 records of a look, the older ones counted as skipped', async () => {
    const { feed, events } = openFeed();
    for (let i = 0; i < 40; i++) await put(`burst-${String(i).padStart(3, '0')}`);
    feed.look();
    const [batch] = events.filter((entry) => entry.event === 'records');
    expect(batch!.data.records).toHaveLength(MAX_RECORDS_PER_LOOK);
    expect(batch!.data.skipped).toBe(40 - MAX_RECORDS_PER_LOOK);
    expect(batch!.data.records.at(-1).dynamodb.Keys).toEqual({ pk: { S: 'burst-039' } });
  });

  it('sends new invocations, at most 10 a look, with the rest counted', async () => {
    const { feed, events } = openFeed();
    const fn = stack.stack.functions.get('onOrder')!;
    for (let i = 0; i < 12; i++) await fn.invoke({ Records: [] });
    feed.look();
    const [batch] = events.filter((entry) => entry.event === 'invocations');
    expect(batch!.data.functionName).toBe('onOrder');
    expect(batch!.data.invocations).toHaveLength(MAX_INVOCATIONS_PER_LOOK);
    expect(batch!.data.skipped).toBe(12 - MAX_INVOCATIONS_PER_LOOK);
  });

  it('sends the clock every fourth look', () => {
    const { feed, events } = openFeed();
    for (let i = 0; i < 8; i++) feed.look();
    expect(events.filter((entry) => entry.event === 'tick')).toHaveLength(3);
    expect(events[0]!.data).toEqual({ now: stack.clock.now(), virtual: false });
  });
});
