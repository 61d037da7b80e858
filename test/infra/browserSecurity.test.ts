import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { EddyServer } from '../../infra/host/server.js';
import { jsonHeaders, send, startServer } from './rawHttp.js';

// Issue 16 item 5: a web page the developer opens must not be able to read or write eddy.
// By default only pages from this machine may call it from a browser (CORS), and while eddy
// listens on loopback it serves only Host names of this machine (DNS rebinding).
const servers: EddyServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Parameters<typeof startServer>[0] = {}) {
  const started = await startServer(options);
  servers.push(started.server);
  return started;
}

const ECHO = 'EddyTest_20990101.Echo';
const preflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': 'POST',
    'Access-Control-Request-Headers': 'content-type,x-amz-target,authorization,x-amz-date',
  },
});

describe('CORS: pages from this machine only, by default', () => {
  it.each([
    'https://evil.example',
    'http://localhost.evil.example',
    'http://127.0.0.1.evil.example:8000',
    'null',
  ])('refuses %s: 403 on the preflight and on the request, nothing done', async (origin) => {
    const { url, engine } = await start();
    const answer = await send(url, preflight(origin));
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.json?.__type).toBe('com.amazon.coral.service#AccessDeniedException');
    expect(answer.json?.Message).toContain(`eddy refuses cross-origin requests from '${origin}'`);
    expect(answer.json?.Message).toContain('--cors');
    const create = await send(url, {
      headers: { ...jsonHeaders('DynamoDB_20120810.CreateTable'), Origin: origin },
      body: JSON.stringify({
        TableName: 'Planted',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    });
    expect(create.status).toBe(403);
    expect([...engine.allRegions()]).toEqual([]);
  });

  it.each([
    'http://localhost:5173',
    'http://localhost',
    'http://127.0.0.1:3000',
    'http://[::1]:8080',
    'https://localhost:8443',
  ])('allows %s, naming it in Access-Control-Allow-Origin', async (origin) => {
    const { url } = await start();
    const answer = await send(url, preflight(origin));
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(origin);
    expect(answer.headers.vary).toBe('Origin');
    const echoed = await send(url, { headers: { ...jsonHeaders(ECHO), Origin: origin }, body: '{}' });
    expect(echoed.status).toBe(200);
    expect(echoed.headers['access-control-allow-origin']).toBe(origin);
  });

  it('widens to the origins given, and to every origin with "*"', async () => {
    const listed = await start({ cors: ['https://app.example.com', 'http://dev.example:*'] });
    for (const origin of ['https://app.example.com', 'http://dev.example:3000', 'http://localhost:1']) {
      const answer = await send(listed.url, preflight(origin));
      expect([origin, answer.headers['access-control-allow-origin']]).toEqual([origin, origin]);
    }
    expect((await send(listed.url, preflight('https://app.example.com:8443'))).status).toBe(403);
    expect((await send(listed.url, preflight('https://other.example'))).status).toBe(403);
    const any = await start({ cors: '*' });
    const answer = await send(any.url, preflight('https://other.example'));
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers.vary).toBeUndefined();
  });

  it('answers SDK calls, which send no Origin, as before', async () => {
    const { url } = await start();
    const client = new DynamoDBClient({
      endpoint: url.replace('127.0.0.1', 'localhost'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    await expect(client.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: [] });
    client.destroy();
  });
});

describe('Host: names of this machine only while bound to loopback', () => {
  it.each([
    'evil.example',
    'evil.example:8000',
    '192.168.1.20:8000',
    '0.0.0.0:8000',
    'localhost.evil.example',
  ])('refuses Host %s with 403 and says why', async (host) => {
    const { url, engine } = await start();
    const answer = await send(url, {
      headers: { ...jsonHeaders('DynamoDB_20120810.ListTables'), Host: host },
      body: '{}',
    });
    expect(answer.status).toBe(403);
    expect(answer.json?.__type).toBe('com.amazon.coral.service#AccessDeniedException');
    expect(answer.json?.Message).toContain(`eddy refuses Host '${host}'`);
    expect(answer.json?.Message).toContain('--allowed-hosts');
    const health = await send(url, { method: 'GET', path: '/_eddy/health', headers: { Host: host } });
    expect(health.status).toBe(403);
    expect([...engine.allRegions()]).toEqual([]);
  });

  it.each([
    'localhost',
    'LOCALHOST:1234',
    'localhost.',
    'app.localhost:8000',
    '127.0.0.1',
    '127.8.9.10:80',
    '[::1]:8000',
  ])('serves Host %s', async (host) => {
    const { url } = await start();
    const answer = await send(url, { headers: { ...jsonHeaders(ECHO), Host: host }, body: '{}' });
    expect(answer.status).toBe(200);
  });

  it('serves the names given with allowedHosts, or any with "*"', async () => {
    const named = await start({ allowedHosts: ['dynamodb.local'] });
    const headers = (host: string) => ({ ...jsonHeaders(ECHO), Host: host });
    expect((await send(named.url, { headers: headers('dynamodb.local:8000'), body: '{}' })).status).toBe(200);
    expect((await send(named.url, { headers: headers('other.local:8000'), body: '{}' })).status).toBe(403);
    const any = await start({ allowedHosts: '*' });
    expect((await send(any.url, { headers: headers('other.local:8000'), body: '{}' })).status).toBe(200);
  });

  it('does not check Host when listening on every interface', async () => {
    const everywhere = await start({ host: '0.0.0.0' });
    const url = everywhere.url.replace('0.0.0.0', '127.0.0.1');
    const answer = await send(url, { headers: { ...jsonHeaders(ECHO), Host: 'eddy.lan:8000' }, body: '{}' });
    expect(answer.status).toBe(200);
  });
});
