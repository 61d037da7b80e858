import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Image } from '../../functions/shared/ports.js';
import { RestoreError, restoreItems } from '../../infra/archive/restore.js';
import { serveSessionsTable, sessionItem } from './helpers.js';

/**
 * Restore against a real eddy over HTTP, behind a loopback proxy that throttles BatchWriteItem the
 * way DynamoDB does under load: it forwards only part of each request and answers the rest as
 * `UnprocessedItems` (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html).
 */

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function eddyBehindProxy(keep: (requestSize: number, call: number) => number) {
  const eddy = await serveSessionsTable();
  const { engine, url } = eddy;
  const requestSizes: number[] = [];
  let calls = 0;
  const proxy: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks).toString('utf8');
    const target = String(request.headers['x-amz-target']);
    let unprocessed: unknown[] = [];
    if (target.endsWith('.BatchWriteItem')) {
      const input = JSON.parse(body) as { RequestItems: Record<string, unknown[]> };
      const writes = input.RequestItems.Sessions!;
      requestSizes.push(writes.length);
      const kept = keep(writes.length, ++calls);
      unprocessed = writes.slice(kept);
      input.RequestItems.Sessions = writes.slice(0, kept);
      if (kept === 0) input.RequestItems = {};
      body = JSON.stringify(input);
    }
    const forwarded =
      unprocessed.length > 0 && body === '{"RequestItems":{}}'
        ? { status: 200, text: '{"UnprocessedItems":{}}' }
        : await fetch(url, {
            method: 'POST',
            // The signature no longer matches the edited body; eddy checks it only when configured to.
            headers: {
              'content-type': 'application/x-amz-json-1.0',
              'x-amz-target': target,
              authorization: String(request.headers.authorization),
              'x-amz-date': String(request.headers['x-amz-date']),
            },
            body,
          }).then(async (answer) => ({ status: answer.status, text: await answer.text() }));
    let text = forwarded.text;
    if (unprocessed.length > 0) {
      const output = JSON.parse(text) as { UnprocessedItems?: Record<string, unknown[]> };
      output.UnprocessedItems = { Sessions: [...(output.UnprocessedItems?.Sessions ?? []), ...unprocessed] };
      text = JSON.stringify(output);
    }
    response.writeHead(forwarded.status, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(text);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'eddy', secretAccessKey: 'eddy' },
    maxAttempts: 1,
  });
  closers.push(
    () => eddy.close(),
    () => new Promise((resolve) => proxy.close(resolve)),
    async () => client.destroy(),
  );
  const scan = () => engine.execute('Scan', { TableName: 'Sessions' }).Items as Image[];
  return { client, scan, requestSizes };
}

describe('restore', () => {
  it('retries UnprocessedItems until every item is written', async () => {
    // Each request: only half its items get through.
    const { client, scan, requestSizes } = await eddyBehindProxy((size) => Math.ceil(size / 2));
    const items = Array.from({ length: 60 }, (_, i) => sessionItem(i));
    const result = await restoreItems(client, 'Sessions', items, { baseDelayMs: 1 });
    expect(result.written).toBe(60);
    expect(result.retries).toBeGreaterThan(0);
    expect(Math.max(...requestSizes)).toBe(25);
    expect(scan()).toHaveLength(60);
  });

  it('gives up with RestoreError when items stay unprocessed', async () => {
    const { client } = await eddyBehindProxy(() => 0);
    await expect(
      restoreItems(client, 'Sessions', [sessionItem(1)], { baseDelayMs: 1, maxAttempts: 3 }),
    ).rejects.toThrow(new RestoreError('1 items of Sessions still unprocessed after 3 attempts'));
  });

  it('an item archived twice ends with its later version, never two of a key in one request', async () => {
    const { client, scan, requestSizes } = await eddyBehindProxy((size) => size);
    const early = sessionItem(1);
    const late = { ...sessionItem(1), visits: { N: '12345' } };
    const result = await restoreItems(client, 'Sessions', [early, sessionItem(2), late, sessionItem(3)]);
    expect(result.written).toBe(4);
    expect(requestSizes).toEqual([2, 2]);
    expect(scan()).toContainEqual(late);
    expect(scan()).toHaveLength(3);
  });
});
