import { Agent, type ClientRequest, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine.js';
import {
  DEFAULT_MAX_BUFFERED_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type EddyServer,
} from '../../infra/host/server.js';
import { StreamsService } from '../../streams/index.js';
import { fakeAuthorization, jsonHeaders, type RawResponse, send, startServer } from './rawHttp.js';

// Issue 16 item 7: what a hostile client can make eddy hold. Bodies being received share one
// budget; a body that takes too long is cut off; regions that hold nothing are not kept.
const servers: EddyServer[] = [];
const stalled: ClientRequest[] = [];
afterEach(async () => {
  for (const request of stalled.splice(0)) request.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const started = await startServer(options);
  servers.push(started.server);
  return started;
}

/** Starts a request declaring `declared` bytes, sends `sent` of them and stops there. */
function stall(url: string, declared: number, sent: number): Promise<RawResponse | 'open'> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: { ...jsonHeaders('EddyTest_20990101.Echo'), 'Content-Length': declared },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.from(text),
            text,
            json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
            reusedSocket: false,
          });
        });
      },
    );
    request.on('error', reject);
    stalled.push(request);
    request.write(Buffer.alloc(sent, 0x20), () => setImmediate(() => resolve('open')));
  });
}

describe('request bodies being received share a budget', () => {
  it('answers 503 ServiceUnavailable once stalled bodies hold the budget, and recovers', async () => {
    const { url, server } = await start({ maxBufferedBodyBytes: 1024 * 1024 });
    // Two stalled uploads declare 800 KiB between them.
    expect(await stall(url, 400 * 1024, 1024)).toBe('open');
    expect(await stall(url, 400 * 1024, 1024)).toBe('open');
    const refused = await send(url, {
      headers: jsonHeaders('EddyTest_20990101.Echo'),
      body: ' '.repeat(400 * 1024),
    });
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable',
      message: 'eddy is receiving 1048576 bytes of request bodies already; retry shortly',
    });
    expect(refused.headers.connection).toBe('close');
    // Small requests still fit beside them.
    const small = await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{"ping":1}' });
    expect(small.status).toBe(200);
    // A chunked body is counted as it arrives.
    const chunked = await send(url, {
      headers: jsonHeaders('EddyTest_20990101.Echo'),
      body: ' '.repeat(400 * 1024),
      chunked: true,
    });
    expect(chunked.status).toBe(503);
    // The stalled clients go away: their share comes back.
    for (const request of stalled.splice(0)) request.destroy();
    await expect
      .poll(async () => {
        const retried = await send(url, {
          headers: jsonHeaders('EddyTest_20990101.Echo'),
          body: `{"pad":"${' '.repeat(400 * 1024)}"}`,
        });
        return retried.status;
      })
      .toBe(200);
    expect(server.http.listening).toBe(true);
  });

  it('refuses an Expect: 100-continue body before it is sent', async () => {
    const { url } = await start({ maxBufferedBodyBytes: 1024 * 1024 });
    expect(await stall(url, 1000 * 1024, 1)).toBe('open');
    const refused = await send(url, {
      headers: { ...jsonHeaders('EddyTest_20990101.Echo'), Expect: '100-continue' },
      body: ' '.repeat(100 * 1024),
    });
    expect(refused.status).toBe(503);
  });

  it('budgets 64 MiB and 30 s by default', async () => {
    const { server } = await start();
    expect(DEFAULT_MAX_BUFFERED_BODY_BYTES).toBe(64 * 1024 * 1024);
    expect(server.http.requestTimeout).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(30_000);
  });
});

describe('slow bodies', () => {
  it('answers 408 and closes the connection when a body stops arriving', async () => {
    const { url } = await start({ requestTimeoutMs: 300, maxBufferedBodyBytes: 1024 * 1024 });
    const started = performance.now();
    const answer = await stall(url, 400 * 1024, 10).then(async (first) =>
      first === 'open'
        ? new Promise<RawResponse>((resolve) => {
            const request = stalled.at(-1)!;
            request.once('response', (response) => {
              response.resume();
              response.on('end', () =>
                resolve({
                  status: response.statusCode ?? 0,
                  headers: response.headers,
                  body: Buffer.alloc(0),
                  text: '',
                  json: undefined,
                  reusedSocket: false,
                }),
              );
            });
          })
        : first,
    );
    const waited = performance.now() - started;
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    // The check runs every 300 ms here (every second by default, against 30 s by node's).
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(5_000);
    // Its share of the budget came back with it.
    const next = await send(url, {
      headers: jsonHeaders('EddyTest_20990101.Echo'),
      body: `{"pad":"${' '.repeat(700 * 1024)}"}`,
    });
    expect(next.status).toBe(200);
  });
});

describe('regions that hold nothing', () => {
  it('keeps no state for 200 region names that hold nothing', async () => {
    const engine = new Engine();
    const { url, server } = await start({ engine });
    server.registerService(new StreamsService(engine).protocol);
    const agent = new Agent({ keepAlive: true, maxSockets: 5 });
    const call = (target: string, region: string, input: unknown) =>
      send(url, {
        headers: { ...jsonHeaders(target), ...fakeAuthorization(region) },
        body: JSON.stringify(input),
        agent,
      });
    await call('DynamoDB_20120810.CreateTable', 'eu-west-1', {
      TableName: 'Kept',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    for (let i = 0; i < 200; i++) {
      const region = `ap-region${i}-1`;
      const missing = { TableName: 'Missing', Key: { id: { S: 'x' } } };
      const answers = await Promise.all([
        call('DynamoDB_20120810.ListTables', region, {}),
        call('DynamoDB_20120810.GetItem', region, missing),
        call('DynamoDB_20120810.TransactWriteItems', region, {
          ClientRequestToken: `token-${i}`,
          TransactItems: [{ Put: { TableName: 'Missing', Item: { id: { S: 'x' } } } }],
        }),
        call('DynamoDBStreams_20120810.ListStreams', region, { TableName: 'Missing' }),
        call('DynamoDBStreams_20120810.DescribeStream', region, {
          StreamArn: `arn:aws:dynamodb:${region}:000000000000:table/Missing/stream/2026-01-01T00:00:00.000`,
        }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 400, 400, 400, 400]);
    }
    expect([...engine.allRegions()].map((region) => region.name)).toEqual(['eu-west-1']);
    // A region that gets a table is kept from then on.
    await call('DynamoDB_20120810.CreateTable', 'ap-region7-1', {
      TableName: 'Later',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    const listed = await call('DynamoDB_20120810.ListTables', 'ap-region7-1', {});
    expect(listed.json).toEqual({ TableNames: ['Later'] });
    expect([...engine.allRegions()].map((region) => region.name).sort()).toEqual([
      'ap-region7-1',
      'eu-west-1',
    ]);
    agent.destroy();
  });
});
