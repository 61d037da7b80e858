import {
  CreateTableCommand,
  PutItemCommand,
  UpdateItemCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serve } from '../../infra/cli/serve.js';
import { TOKEN_HEADER } from '../../infra/console/index.js';
import { startStack, type TestStack } from '../../infra/testing/index.js';
import { send } from '../infra/rawHttp.js';
import { consoleConfig, onOrder } from './fixture.js';

// The console's read API over real HTTP on loopback (docs/console.md): what the page reads, and
// the rules that keep other pages out.

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON answers, which the assertions check
type Json = any;
const json = async (response: Response | Promise<Response>): Promise<Json> => (await response).json();

let stack: TestStack;
let consoleUrl: string;
let base: string;
let token: string;

beforeAll(async () => {
  stack = await startStack(consoleConfig, { handlers: { onOrder } });
  consoleUrl = await stack.openConsole();
  base = stack.endpoint!;
  const page = await (await fetch(consoleUrl)).text();
  token = /name="eddy-console-token" content="([^"]+)"/.exec(page)![1]!;
});
beforeEach(() => stack.reset());
afterAll(() => stack.close());

const api = (path: string, init: RequestInit = {}) => fetch(`${base}/_eddy/api/${path}`, init);
const post = (path: string, body: unknown, headers: Record<string, string> = { [TOKEN_HEADER]: token }) =>
  api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const put = (pk: string, status = 'new') =>
  stack.client.send(
    new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: pk }, status: { S: status } } }),
  );

describe('the page', () => {
  it('is served with its token, its own script only, and no framing', async () => {
    const response = await fetch(consoleUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const script = await fetch(`${consoleUrl}/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(1000);
  });
});

describe('same origin only', () => {
  it('refuses a request another origin made (403), even one the CORS policy allows', async () => {
    // http://localhost:3000 is a loopback origin, which the DynamoDB API serves by default.
    const response = await fetch(consoleUrl, { headers: { origin: 'http://localhost:3000' } });
    expect(response.status).toBe(403);
    expect((await json(response)).message).toContain('http://localhost:3000');
    const site = await api('tables', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(site.status).toBe(403);
  });

  it('opens the page from a link on another site (a navigation, which cannot read it), nothing else', async () => {
    // Raw requests: fetch sets its own Sec-Fetch-* headers.
    const navigation = {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    const read = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };
    expect((await send(base, { method: 'GET', path: '/_eddy/console', headers: navigation })).status).toBe(
      200,
    );
    expect((await send(base, { method: 'GET', path: '/_eddy/console', headers: read })).status).toBe(403);
    expect(
      (await send(base, { method: 'GET', path: '/_eddy/console/app.js', headers: navigation })).status,
    ).toBe(403);
  });

  it('serves its own origin', async () => {
    const response = await api('tables', { headers: { origin: base } });
    expect(response.status).toBe(200);
  });

  it('refuses a write without the token, or with another one, and writes nothing', async () => {
    const item = { operation: 'PutItem', input: { Item: { pk: { S: 'forged' } } } };
    expect((await post('tables/Orders/run', item, {})).status).toBe(403);
    expect((await post('tables/Orders/run', item, { [TOKEN_HEADER]: `${token.slice(1)}x` })).status).toBe(
      403,
    );
    const scan = await json(post('tables/Orders/run', { operation: 'Scan', input: {} }));
    expect(scan.Items).toEqual([]);
  });
});

describe('tables', () => {
  it('lists key schema, counts, GSI state and lag, TTL and stream', async () => {
    await put('o-1');
    await stack.settled();
    const { Tables } = await json(api('tables'));
    expect(Tables).toHaveLength(1);
    expect(Tables[0]).toMatchObject({
      TableName: 'Orders',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      ItemCount: 1,
      GlobalSecondaryIndexes: [{ IndexName: 'byStatus', IndexStatus: 'ACTIVE', backlog: 0 }],
      TimeToLive: { status: 'ENABLED', attributeName: 'expiresAt' },
      Stream: { viewType: 'NEW_AND_OLD_IMAGES', enabled: true, records: 1 },
    });
  });

  it('runs Query on an index, and answers the DynamoDB API error for a bad expression', async () => {
    await put('o-1', 'paid');
    await put('o-2', 'new');
    await stack.settled();
    const query = await post('tables/Orders/run', {
      operation: 'Query',
      input: {
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': { S: 'paid' } },
      },
    });
    expect((await json(query)).Items).toEqual([{ pk: { S: 'o-1' }, status: { S: 'paid' } }]);
    const bad = await post('tables/Orders/run', {
      operation: 'Query',
      input: { KeyConditionExpression: 'pk = ' },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).__type).toBe('ValidationException');
    const other = await post('tables/Orders/run', { operation: 'DeleteTable', input: {} });
    expect(other.status).toBe(400);
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const response = await api('tables/Orders/run', {
      method: 'POST',
      headers: { [TOKEN_HEADER]: token },
      body: '[1,',
    });
    expect(response.status).toBe(400);
  });
});

describe('streams', () => {
  it('shows shards with lineage fields and the newest records first, searchable by key', async () => {
    await put('order-1');
    await put('order-2');
    await stack.client.send(
      new UpdateItemCommand({
        TableName: 'Orders',
        Key: { pk: { S: 'order-1' } },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': { S: 'paid' } },
      }),
    );
    const summary = await json(api('tables/Orders/stream'));
    expect(summary.Shards.length).toBeGreaterThan(0);
    expect(summary.Shards[0]).toHaveProperty('StartingSequenceNumber');
    expect(summary.Records.map((record: { eventName: string }) => record.eventName)).toEqual([
      'MODIFY',
      'INSERT',
      'INSERT',
    ]);
    const found = await json(api('tables/Orders/stream?key=order-1'));
    expect(found.Records).toHaveLength(2);
    expect(found.Records[0].dynamodb.OldImage.status).toEqual({ S: 'new' });
  });

  it('tails new records live over server-sent events', async () => {
    const controller = new AbortController();
    const response = await api('live', { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    await put('live-1');
    let text = '';
    while (!text.includes('event: records')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain('"eventName":"INSERT"');
    expect(text).toContain('live-1');
  });
});

describe('TTL', () => {
  it('lists the deletions TTL made, with the service principal of their stream records', async () => {
    const past = Math.floor(stack.clock.now() / 1000) - 60;
    await stack.client.send(
      new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: 'old' }, expiresAt: { N: String(past) } } }),
    );
    await put('kept');
    await stack.expireNow();
    const { Ttl, RecentDeletions } = await json(api('ttl'));
    expect(Ttl.totals.deleted).toBe(1);
    expect(RecentDeletions).toHaveLength(1);
    expect(RecentDeletions[0]).toMatchObject({
      table: 'Orders',
      record: {
        eventName: 'REMOVE',
        dynamodb: { Keys: { pk: { S: 'old' } } },
        // docs/streams-and-lambda.md §1.2.8: TTL deletions carry the service's identity.
        userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
      },
    });
  });
});

describe('mappings and functions', () => {
  it('shows the mapping with its settings, disables it through the Lambda API, and lists its batches', async () => {
    await put('o-1');
    await stack.settled();
    const { Mappings } = await json(api('event-source-mappings'));
    const mapping = Mappings.find((entry: { functionName: string }) => entry.functionName === 'onOrder');
    expect(mapping).toMatchObject({
      state: 'Enabled',
      internal: false,
      tableName: 'Orders',
      recordsProcessed: 1,
    });
    expect(mapping.configuration).toMatchObject({ BatchSize: 10, MaximumRetryAttempts: 1 });
    const { Batches } = await json(api(`event-source-mappings/${mapping.uuid}/batches`));
    expect(Batches).toMatchObject([{ status: 'ok', records: 1 }]);

    const disabled = await post(`event-source-mappings/${mapping.uuid}/enabled`, { enabled: false });
    expect((await json(disabled)).State).toBe('Disabling');
    await stack.settled();
    await put('o-2');
    await stack.advance('1s');
    expect(stack.invocations('onOrder')).toHaveLength(1);
    await post(`event-source-mappings/${mapping.uuid}/enabled`, { enabled: true });
  });

  it('filters invocations by outcome, with their log lines', async () => {
    await put('good');
    await stack.settled();
    await put('bad', 'poison');
    await stack.advance('10s');
    const failed = await json(api('invocations?function=onOrder&outcome=error'));
    expect(failed.Invocations.length).toBe(2); // the first attempt and one retry
    expect(failed.Invocations[0].error).toMatchObject({ errorMessage: 'poison order' });
    const ok = await json(api('invocations?function=onOrder&outcome=ok'));
    expect(ok.Invocations[0].logs[0]).toMatch(/^START RequestId: /);
  });

  it('lists the failed batch the destination received, its records, and replays it', async () => {
    await put('bad', 'poison');
    await stack.advance('10s');
    const { FailedBatches } = await json(api('failed-batches'));
    expect(FailedBatches).toHaveLength(1);
    expect(FailedBatches[0].record.requestContext.condition).toBe('RetryAttemptsExhausted');
    const { Records } = await json(api('failed-batches/0/records'));
    expect(Records.map((record: { dynamodb: { Keys: unknown } }) => record.dynamodb.Keys)).toEqual([
      { pk: { S: 'bad' } },
    ]);
    const replay = await json(post('failed-batches/0/replay', {}));
    expect(replay).toMatchObject({ status: 'error', error: { errorMessage: 'poison order' } });
  });

  it('invokes a function by hand', async () => {
    const answer = await json(post('invoke/onOrder', { event: { Records: [] } }));
    expect(answer).toMatchObject({ status: 'ok' });
    expect((await post('invoke/nobody', { event: {} })).status).toBe(404);
  });
});

describe('flow and clock', () => {
  it('draws table → stream → function → destination, and the built-in ones', async () => {
    const flow = await json(api('flow'));
    const ids = flow.nodes.map((node: { id: string }) => node.id);
    expect(ids).toContain('table:Orders');
    expect(ids).toContain('function:onOrder');
    expect(ids).toContain('destination:arn:aws:sqs:us-east-1:000000000000:orders-failures');
    expect(ids.some((id: string) => id.startsWith('function:') && id !== 'function:onOrder')).toBe(true);
  });

  it("keeps each arrow's rate per second of the stack clock, at whole seconds, and forgets it on reset", async () => {
    const start = stack.clock.now();
    await json(api('flow/history')); // the first request starts the sampling
    await stack.advance('1s');
    for (let n = 0; n < 5; n++) await put(`h-${n}`);
    await stack.advance('1s');
    await stack.advance('1s');
    const history = await json(api('flow/history'));
    expect(history).toMatchObject({ intervalMs: 1000, capacity: 300 });
    expect(history.times).toEqual([start + 1000, start + 2000, start + 3000]);
    const edge = (label: string) =>
      history.edges.find(
        (entry: { from: string; label: string }) =>
          entry.from.startsWith(label === 'changes' ? 'table:Orders' : 'stream:') &&
          entry.label.startsWith(label),
      );
    // The counts at the first request are the baseline; the 5 writes fall in the second second.
    expect(edge('changes')).toMatchObject({ rates: [0, 5, 0], backlogs: [0, 0, 0] });
    expect(edge('mapping').rates).toEqual([0, 5, 0]);
    expect(edge('mapping').mappingUuid).toMatch(/^[0-9a-f-]{36}$/);
    await stack.reset();
    expect((await json(api('flow/history'))).times).toEqual([]);
  });

  it('samples only the last five minutes of an hour the console moves the virtual clock by', async () => {
    const start = stack.clock.now();
    await json(api('flow/history'));
    await put('before');
    const hour = 3_600_000;
    expect((await json(post('clock/advance', { ms: hour }))).now).toBe(start + hour);
    const { times, edges } = await json(api('flow/history'));
    expect(times).toHaveLength(300);
    expect(times.at(-1)).toBe(start + hour);
    expect(times[0]).toBe(start + hour - 299_000);
    // The write an hour ago is in no point: the history starts five minutes before the end.
    const changes = edges.find((edge: { label: string }) => edge.label === 'changes');
    expect(changes.rates.every((rate: number) => rate === 0)).toBe(true);
  });

  it("counts TTL deletions per table, not the expirer's total", async () => {
    await stack.client.send(
      new CreateTableCommand({
        TableName: 'Sessions',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    await stack.client.send(
      new UpdateTimeToLiveCommand({
        TableName: 'Sessions',
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      }),
    );
    const past = String(Math.floor(stack.clock.now() / 1000) - 60);
    const expired = (table: string, pk: string) =>
      stack.client.send(
        new PutItemCommand({ TableName: table, Item: { pk: { S: pk }, expiresAt: { N: past } } }),
      );
    await expired('Orders', 'o-old');
    await expired('Sessions', 's-old-1');
    await expired('Sessions', 's-old-2');
    await stack.expireNow();
    const flow = await json(api('flow'));
    const deletes = (table: string) =>
      flow.edges.find(
        (edge: { from: string; to: string }) => edge.from === 'ttl-expirer' && edge.to === `table:${table}`,
      )?.count;
    expect(deletes('Orders')).toBe(1);
    expect(deletes('Sessions')).toBe(2);
  });

  it('advances the virtual clock, within bounds', async () => {
    const before = stack.clock.now();
    const answer = await json(post('clock/advance', { ms: 60_000 }));
    expect(answer.now).toBe(before + 60_000);
    expect((await post('clock/advance', { ms: -1 })).status).toBe(400);
  });
});

describe('eddy serve', () => {
  it('serves the console by default and not with --no-console', async () => {
    const io = { print: () => {}, cwd: process.cwd() };
    const on = await serve({ port: 0, config: false }, io);
    const off = await serve({ port: 0, config: false, console: false }, io);
    try {
      expect((await fetch(`${on.address.url}/_eddy/console`)).status).toBe(200);
      expect((await fetch(`${off.address.url}/_eddy/console`)).status).toBe(404);
      // The system clock does not advance from the console.
      const page = await (await fetch(`${on.address.url}/_eddy/console`)).text();
      const serveToken = /content="([^"]+)">\n<title>/.exec(page)![1]!;
      const advance = await fetch(`${on.address.url}/_eddy/api/clock/advance`, {
        method: 'POST',
        headers: { [TOKEN_HEADER]: serveToken },
        body: '{"ms":1000}',
      });
      expect(advance.status).toBe(409);
    } finally {
      await on.close();
      await off.close();
    }
  });
});
