import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EddyServer } from '../../infra/host/server.js';
import { fakeAuthorization, jsonHeaders, type RawResponse, send, startServer } from './rawHttp.js';

// docs/dynamodb.md §1: the DynamoDB JSON 1.0 wire protocol, checked with raw HTTP on loopback.
let server: EddyServer;
let url: string;
beforeAll(async () => {
  ({ server, url } = await startServer());
});
afterAll(() => server.close());

const ECHO = 'EddyTest_20990101.Echo';
const SERIALIZATION = '{"__type":"com.amazon.coral.service#SerializationException"}';
const UNKNOWN_OPERATION = '{"__type":"com.amazon.coral.service#UnknownOperationException"}';
const MISSING_TOKEN =
  '{"__type":"com.amazon.coral.service#MissingAuthenticationTokenException","message":"Request is missing Authentication Token"}';

/** Every protocol response carries these (docs/dynamodb.md §1.2.1). */
function expectProtocolHeaders(response: RawResponse) {
  expect(response.headers['x-amzn-requestid']).toMatch(/^[0-9A-Z]{52}$/);
  expect(response.headers['content-length']).toBe(String(response.body.length));
  expect(response.headers['x-amz-crc32']).toMatch(/^\d+$/);
}

async function expectStillServing() {
  const response = await send(url, { headers: jsonHeaders(ECHO), body: '{"ping":1}' });
  expect(response.status).toBe(200);
  expect(response.json).toMatchObject({ operation: 'Echo', input: { ping: 1 } });
}

describe('content types (docs/dynamodb.md §1.1.2, §1.1.3)', () => {
  it.each([
    ['application/x-amz-json-1.0', 'application/x-amz-json-1.0'],
    ['application/json', 'application/json'],
    ['application/x-amz-json-1.0; charset=utf-8', 'application/x-amz-json-1.0'],
    ['  application/json ; charset=UTF-8', 'application/json'],
    ['Application/X-Amz-Json-1.0', 'application/x-amz-json-1.0'],
  ])('accepts %j and answers with Content-Type %s', async (contentType, answered) => {
    const response = await send(url, {
      headers: { ...jsonHeaders(ECHO), 'Content-Type': contentType },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(answered);
    expectProtocolHeaders(response);
  });

  it('echoes the content type on errors too', async () => {
    const response = await send(url, {
      headers: { ...jsonHeaders(ECHO), 'Content-Type': 'application/json' },
      body: 'not json',
    });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
  });

  it.each(['application/x-amz-json-1.1', 'text/plain', 'whatever'])(
    'answers 404 <UnknownOperationException/> for a body with Content-Type %s',
    async (contentType) => {
      const response = await send(url, {
        headers: { ...jsonHeaders(ECHO), 'Content-Type': contentType },
        body: '{}',
      });
      expect(response.status).toBe(404);
      expect(response.text).toBe('<UnknownOperationException/>\n');
      expect(response.headers['x-amz-crc32']).toBe('3552371480');
      expect(response.headers['content-length']).toBe('29');
      expect(response.headers['x-amzn-requestid']).toMatch(/^[0-9A-Z]{52}$/);
    },
  );

  it('answers 404 for a body without Content-Type', async () => {
    const { 'Content-Type': _ignored, ...headers } = jsonHeaders(ECHO);
    const response = await send(url, { headers, body: '{}' });
    expect(response.status).toBe(404);
  });

  it('lets an empty body without Content-Type through to the SerializationException', async () => {
    const { 'Content-Type': _ignored, ...headers } = jsonHeaders(ECHO);
    const response = await send(url, { headers });
    expect(response.status).toBe(400);
    expect(response.text).toBe(SERIALIZATION);
    expect(response.headers['content-type']).toBe('application/json');
  });

  it.each(['PUT', 'DELETE', 'PATCH', 'HEAD'])('answers 404 to %s', async (method) => {
    const response = await send(url, { method, headers: jsonHeaders(ECHO) });
    expect(response.status).toBe(404);
    if (method !== 'HEAD') expect(response.text).toBe('<UnknownOperationException/>\n');
  });

  it('answers 404 to GET on another path and to OPTIONS without Origin', async () => {
    expect((await send(url, { method: 'GET', path: '/tables' })).status).toBe(404);
    expect((await send(url, { method: 'OPTIONS' })).status).toBe(404);
  });
});

describe('response headers (docs/dynamodb.md §1.2.1)', () => {
  it('gives every response its own 52-character request id', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => send(url, { headers: jsonHeaders(ECHO), body: '{}' })),
    );
    const ids = new Set(responses.map((response) => response.headers['x-amzn-requestid']));
    expect(ids.size).toBe(20);
    for (const response of responses) expectProtocolHeaders(response);
  });

  it('computes x-amz-crc32 over the exact body bytes (documented vectors)', async () => {
    const serialization = await send(url, { headers: jsonHeaders(ECHO), body: '{' });
    expect(serialization.text).toBe(SERIALIZATION);
    expect(serialization.headers['x-amz-crc32']).toBe('3948637019');
    const unknown = await send(url, { headers: jsonHeaders('whatever'), body: '{}' });
    expect(unknown.text).toBe(UNKNOWN_OPERATION);
    expect(unknown.headers['x-amz-crc32']).toBe('1368724161');
  });

  it('counts Content-Length in bytes, not characters', async () => {
    const response = await send(url, { headers: jsonHeaders(ECHO), body: '{"name":"Zoë 🌊"}' });
    expect(response.headers['content-length']).toBe(String(response.body.length));
    expect(response.json).toMatchObject({ input: { name: 'Zoë 🌊' } });
  });
});

describe('body size limit (docs/dynamodb.md §1.1.4)', () => {
  const SIXTEEN_MIB = 16 * 1024 * 1024;
  /** A JSON object of exactly `size` bytes. */
  const jsonOfSize = (size: number) => `{"a":"${'x'.repeat(size - 8)}"}`;

  it('accepts exactly 16 MiB and answers 413 at 16 MiB + 1', async () => {
    const exact = await send(url, {
      headers: jsonHeaders('DynamoDB_20120810.Nope'),
      body: jsonOfSize(SIXTEEN_MIB),
    });
    expect(exact.status).toBe(400);
    expect(exact.text).toBe(UNKNOWN_OPERATION);
    const over = await send(url, { headers: jsonHeaders(ECHO), body: jsonOfSize(SIXTEEN_MIB + 1) });
    expect(over.status).toBe(413);
    expect(over.headers['x-amzn-requestid']).toBeUndefined();
    await expectStillServing();
  });

  it('checks before anything else: a 413 beats a wrong method', async () => {
    const response = await send(url, { method: 'PUT', body: jsonOfSize(SIXTEEN_MIB + 1) });
    expect(response.status).toBe(413);
  });

  it('honours a configured limit, also for chunked bodies it cannot size in advance', async () => {
    const small = await startServer({ maxBodyBytes: 1024 });
    try {
      const atLimit = await send(small.url, { headers: jsonHeaders(ECHO), body: jsonOfSize(1024) });
      expect(atLimit.status).toBe(200);
      const declared = await send(small.url, { headers: jsonHeaders(ECHO), body: jsonOfSize(1025) });
      expect(declared.status).toBe(413);
      const chunked = await send(small.url, {
        headers: jsonHeaders(ECHO),
        body: jsonOfSize(5000),
        chunked: true,
      });
      expect(chunked.status).toBe(413);
      const next = await send(small.url, { headers: jsonHeaders(ECHO), body: '{}' });
      expect(next.status).toBe(200);
    } finally {
      await small.server.close();
    }
  });
});

describe('JSON and targets (docs/dynamodb.md §1.2.4, §1.2.5, §8.1)', () => {
  it.each(['{', 'hi', '{"a":}', '\u0000'])(
    'answers SerializationException without message for %j',
    async (body) => {
      const response = await send(url, { headers: jsonHeaders(ECHO), body });
      expect(response.status).toBe(400);
      expect(response.text).toBe(SERIALIZATION);
      expectProtocolHeaders(response);
      await expectStillServing();
    },
  );

  it.each(['null', '[]', '[{}]', '1', '"text"', 'true'])(
    'answers SerializationException for non-object JSON %s',
    async (body) => {
      const response = await send(url, { headers: jsonHeaders(ECHO), body });
      expect(response.status).toBe(400);
      expect(response.text).toBe(SERIALIZATION);
    },
  );

  it('answers SerializationException for an empty body with a valid target', async () => {
    const response = await send(url, { headers: jsonHeaders(ECHO) });
    expect(response.text).toBe(SERIALIZATION);
  });

  it.each([
    ['a missing target', undefined],
    ['an unknown prefix', 'whatever'],
    ['an unknown operation', 'DynamoDB_20120810.ListTable'],
    ['an empty operation', 'DynamoDB_20120810.'],
    ['no prefix', '.GetItem'],
    ['an extra dot', 'DynamoDB_20120810.Get.Item'],
  ])('answers UnknownOperationException without message for %s', async (_case, target) => {
    const headers = jsonHeaders(ECHO);
    if (target === undefined) delete (headers as Record<string, string>)['X-Amz-Target'];
    else headers['X-Amz-Target'] = target;
    const response = await send(url, { headers, body: '{}' });
    expect(response.status).toBe(400);
    expect(response.text).toBe(UNKNOWN_OPERATION);
  });

  it('checks JSON before the target, and the target before authentication', async () => {
    const malformed = await send(url, {
      headers: { 'Content-Type': 'application/json', 'X-Amz-Target': 'x' },
      body: '{',
    });
    expect(malformed.text).toBe(SERIALIZATION);
    const unknown = await send(url, {
      headers: { 'Content-Type': 'application/json', 'X-Amz-Target': 'x' },
      body: '{}',
    });
    expect(unknown.text).toBe(UNKNOWN_OPERATION);
  });

  it('routes DynamoDB_20120810 targets to the engine', async () => {
    const response = await send(url, {
      headers: jsonHeaders('DynamoDB_20120810.GetItem'),
      body: '{"TableName":"Missing","Key":{"id":{"S":"1"}}}',
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
      message: 'Requested resource not found',
    });
  });

  it('ignores __proto__ keys: no crash, no prototype pollution, a proper 4xx', async () => {
    const body = '{"__proto__":{"polluted":true},"TableName":"Missing","Key":{"__proto__":{"S":"1"}}}';
    const response = await send(url, { headers: jsonHeaders('DynamoDB_20120810.GetItem'), body });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const echoed = await send(url, { headers: jsonHeaders(ECHO), body: '{"__proto__":{"polluted":true}}' });
    expect(echoed.status).toBe(200);
    expect(echoed.text).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectStillServing();
  });
});

describe('authentication (docs/dynamodb.md §1.2.6)', () => {
  const withoutAuth = { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': ECHO };

  it('answers MissingAuthenticationTokenException without an Authorization header', async () => {
    const response = await send(url, { headers: withoutAuth, body: '{}' });
    expect(response.status).toBe(400);
    expect(response.text).toBe(MISSING_TOKEN);
    expect(response.headers['x-amz-crc32']).toBe('2088342776');
  });

  it.each(['AWS4', 'Bearer abc', 'AWS3 x'])('treats Authorization %j as no token', async (authorization) => {
    const response = await send(url, {
      headers: { ...withoutAuth, Authorization: authorization },
      body: '{}',
    });
    expect(response.text).toBe(MISSING_TOKEN);
  });

  it('lists every missing part of an incomplete signature', async () => {
    const response = await send(url, { headers: { ...withoutAuth, Authorization: 'AWS4-' }, body: '{}' });
    expect(response.json).toEqual({
      __type: 'com.amazon.coral.service#IncompleteSignatureException',
      message:
        "Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' parameter. " +
        "Authorization header requires 'SignedHeaders' parameter. Authorization header requires existence of " +
        "either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-",
    });
  });

  it('refuses an unsupported algorithm and a credential without five parts', async () => {
    const headers = { ...withoutAuth, 'X-Amz-Date': '20260101T000000Z' };
    const algorithm = await send(url, {
      headers: {
        ...headers,
        Authorization: 'AWS4-HMAC-SHA1 Credential=a/b/c/d/e, SignedHeaders=host, Signature=x',
      },
      body: '{}',
    });
    expect(algorithm.json).toMatchObject({ __type: 'com.amazon.coral.service#IncompleteSignatureException' });
    expect(algorithm.json?.message).toContain("Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA1'");
    const credential = await send(url, {
      headers: {
        ...headers,
        Authorization: 'AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host, Signature=x',
      },
      body: '{}',
    });
    expect(credential.json?.message).toBe(
      "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got 'a/b/c/d'",
    );
  });

  it('refuses header and query signing together', async () => {
    const response = await send(url, {
      path: '/?X-Amz-Algorithm=AWS4-HMAC-SHA256',
      headers: jsonHeaders(ECHO),
      body: '{}',
    });
    expect(response.json).toEqual({
      __type: 'com.amazon.coral.service#InvalidSignatureException',
      message: "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.",
    });
  });

  it('accepts query-string signing and takes the region from its credential', async () => {
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKID/20260101/ap-south-1/dynamodb/aws4_request',
      'X-Amz-Date': '20260101T000000Z',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Signature': 'abc',
    });
    const response = await send(url, { path: `/?${query}`, headers: withoutAuth, body: '{}' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ context: { region: 'ap-south-1' } });
  });

  it('takes the region from the credential scope and the configured account id', async () => {
    const response = await send(url, {
      headers: { ...withoutAuth, ...fakeAuthorization('eu-central-1') },
      body: '{}',
    });
    expect(response.json).toMatchObject({ context: { region: 'eu-central-1', accountId: '000000000000' } });
  });
});

describe('CORS and health (docs/dynamodb.md §1.1.6)', () => {
  // With `--cors "*"`, eddy answers browsers as DynamoDB does; its default allows only pages
  // from this machine (browserSecurity.test.ts).
  let open: { server: EddyServer; url: string };
  beforeAll(async () => {
    open = await startServer({ cors: '*' });
  });
  afterAll(() => open.server.close());

  it('adds Access-Control-Allow-Origin to answers of requests with Origin', async () => {
    const response = await send(open.url, {
      headers: { ...jsonHeaders(ECHO), Origin: 'http://app.test' },
      body: '{',
    });
    expect(response.status).toBe(400);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a preflight with the requested headers and method echoed', async () => {
    const response = await send(open.url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://app.test',
        'Access-Control-Request-Headers': 'a, b, c',
        'Access-Control-Request-Method': 'd',
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(0);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'a, b, c',
      'access-control-allow-methods': 'd',
      'access-control-max-age': '172800',
      'content-length': '0',
    });
    expect(response.headers['x-amzn-requestid']).toMatch(/^[0-9A-Z]{52}$/);
  });

  it("answers GET / with the service's health text, trailing space included", async () => {
    const response = await send(url, { method: 'GET' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('healthy: dynamodb.us-east-1.amazonaws.com ');
    expectProtocolHeaders(response);
  });

  it('names the configured region in GET /', async () => {
    const other = await startServer({ region: 'eu-west-1' });
    try {
      expect((await send(other.url, { method: 'GET' })).text).toBe(
        'healthy: dynamodb.eu-west-1.amazonaws.com ',
      );
    } finally {
      await other.server.close();
    }
  });

  it('answers GET /_eddy/health with JSON for scripts', async () => {
    const response = await send(url, { method: 'GET', path: '/_eddy/health' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json).toMatchObject({
      status: 'ok',
      region: 'us-east-1',
      accountId: '000000000000',
      tables: 0,
      targets: ['DynamoDB_20120810', 'EddyTest_20990101'],
    });
  });
});
