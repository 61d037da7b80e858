import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../core/actions/index.js';
import { Engine } from '../../core/engine.js';
import type { EddyServer } from '../../infra/host/server.js';
import { jsonHeaders, send, startServer } from './rawHttp.js';

// The bad-input bar: whatever arrives, a proper 4xx, the server answers the next request,
// and no table state changes. Every operation the engine answers today, every top-level member,
// values of every wrong JSON type, sent raw (the SDKs would refuse to serialise them).
let server: EddyServer;
let engine: Engine;
let url: string;
/** The engine's own report of each InternalServerError (the last one wins). */
let lastInternalError: unknown;
beforeAll(async () => {
  engine = new Engine({
    onInternalError: (error) => {
      lastInternalError = error;
    },
  });
  ({ server, url } = await startServer({ engine }));
  await call('CreateTable', {
    TableName: 'Orders',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  await call('PutItem', { TableName: 'Orders', Item: SEED });
});
afterAll(() => server.close());

const SEED = { id: { S: 'seed' }, total: { N: '10' } };
const WRONG_VALUES: unknown[] = [
  7,
  -1.5e300,
  'text',
  '',
  true,
  [],
  [1, 'two'],
  {},
  { S: 1 },
  { __proto__: { polluted: true } },
  'x'.repeat(70_000),
];

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'DeleteTable', 'UpdateTable', 'CreateTable']);

function call(operation: string, input: unknown) {
  return send(url, { headers: jsonHeaders(`DynamoDB_20120810.${operation}`), body: JSON.stringify(input) });
}

/** A valid-looking base request, so each wrong member is the thing the engine trips on. */
function baseInput(operation: string): Record<string, unknown> {
  if (operation === 'CreateTable') return {};
  return { TableName: 'Orders', Key: { id: { S: 'seed' } }, Item: { id: { S: 'seed' } } };
}

async function tableState() {
  const listed = await call('ListTables', {});
  const read = await call('GetItem', { TableName: 'Orders', Key: { id: { S: 'seed' } } });
  return { tables: listed.json, item: read.json };
}

describe('bad input over HTTP', () => {
  const supported = Object.keys(operations).sort();

  it.each(supported)('%s: every wrong member type answers 4xx and changes nothing', async (operation) => {
    const before = await tableState();
    const members = Object.keys(operations[operation]!.shape);
    const statuses = new Map<number, string[]>();
    for (const member of members) {
      for (const value of WRONG_VALUES) {
        const input = { ...baseInput(operation), [member]: value };
        // Requests that would change data aim elsewhere: a wrong member that happens to be
        // valid must not be able to alter the seeded table.
        if (WRITES.has(operation) && member !== 'TableName') input.TableName = 'Elsewhere';
        lastInternalError = undefined;
        const response = await call(operation, input);
        const cases = statuses.get(response.status) ?? [];
        // A 500 names the engine's own report of the bug, to make the failure readable.
        const cause = response.status === 500 ? ` (${String(lastInternalError)})` : '';
        cases.push(
          `${member}=${JSON.stringify(value).slice(0, 30)} → ${response.text.slice(0, 120)}${cause}`,
        );
        statuses.set(response.status, cases);
      }
    }
    const serverErrors = [...statuses.entries()]
      .filter(([status]) => status >= 500)
      .flatMap(([, cases]) => cases);
    expect(serverErrors).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // TagResource and similar may legitimately succeed on valid-typed members; state must hold.
    expect(await tableState()).toEqual(before);
  });

  it('answers the next request after a burst of garbage on one connection', async () => {
    const garbage = ['{', '[]', 'null', '{"TableName":', '\u0000\u0001', '{"a":1}'.repeat(1000)];
    for (const body of garbage) {
      const response = await send(url, { headers: jsonHeaders('DynamoDB_20120810.GetItem'), body });
      expect(response.status).toBe(400);
    }
    const read = await call('GetItem', { TableName: 'Orders', Key: { id: { S: 'seed' } } });
    expect(read.json).toEqual({ Item: SEED });
    expect(engine.region().tables.size).toBe(1);
  });
});

describe('invalid UTF-8 over HTTP (issue 16 item 8)', () => {
  // DynamoDB parses request bodies with Jackson, which refuses bytes that are not UTF-8 as it
  // refuses malformed JSON: SerializationException, as for any body that does not parse
  // (docs/security.md, "Invalid UTF-8", gives the evidence).
  const putWith = (value: Buffer) =>
    send(url, {
      headers: jsonHeaders('DynamoDB_20120810.PutItem'),
      body: Buffer.concat([
        Buffer.from('{"TableName":"Orders","Item":{"id":{"S":"'),
        value,
        Buffer.from('"}}}'),
      ]),
    });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['a truncated two-byte sequence', [0x61, 0xc3]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a byte that never appears in UTF-8', [0xff]],
  ])('answers SerializationException for %s in a string, and stores nothing', async (_case, bytes) => {
    const response = await putWith(Buffer.from(bytes));
    expect(response.status).toBe(400);
    expect(response.text).toBe('{"__type":"com.amazon.coral.service#SerializationException"}');
    const scan = await call('Scan', { TableName: 'Orders' });
    expect(scan.json).toMatchObject({ Count: 1, Items: [SEED] });
  });

  it('stores well-formed multi-byte text as sent', async () => {
    const response = await putWith(Buffer.from('é😀', 'utf8'));
    expect(response.status).toBe(200);
    const read = await call('GetItem', { TableName: 'Orders', Key: { id: { S: 'é😀' } } });
    expect(read.json).toEqual({ Item: { id: { S: 'é😀' } } });
    await call('DeleteItem', { TableName: 'Orders', Key: { id: { S: 'é😀' } } });
  });
});
