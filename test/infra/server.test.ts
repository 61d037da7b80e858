import { Agent } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine.js';
import { PortInUseError } from '../../infra/host/errors.js';
import { EddyServer } from '../../infra/host/server.js';
import { echoService, jsonHeaders, send, startServer } from './rawHttp.js';

const started: EddyServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function start(...args: Parameters<typeof startServer>) {
  const result = await startServer(...args);
  started.push(result.server);
  return result;
}

/** A pino logger whose lines land in an array. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('EddyServer', () => {
  it('binds 127.0.0.1 by default and reports the port it got', async () => {
    const { server, url } = await start();
    expect(server.address).toMatchObject({ host: '127.0.0.1' });
    expect(server.address!.port).toBeGreaterThan(0);
    expect(url).toBe(`http://127.0.0.1:${server.address!.port}`);
  });

  it('rejects with PortInUseError when the port is taken', async () => {
    const { server } = await start();
    const second = new EddyServer({ engine: new Engine() });
    const error = await second.listen(server.address!.port).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PortInUseError);
    expect((error as Error).message).toContain(`Port ${server.address!.port} on 127.0.0.1 is already in use`);
  });

  it('keeps connections alive between requests', async () => {
    const { url } = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{}', agent });
      const second = await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{', agent });
      const third = await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{}', agent });
      expect([first.status, second.status, third.status]).toEqual([200, 400, 200]);
      expect([second.reusedSocket, third.reusedSocket]).toEqual([true, true]);
    } finally {
      agent.destroy();
    }
  });

  it('answers InternalServerError 500 for a bug, logs its stack, and keeps serving', async () => {
    const { logger, lines } = capturingLogger();
    const { url } = await start({ logger });
    const response = await send(url, { headers: jsonHeaders('EddyTest_20990101.Fail'), body: '{}' });
    expect(response.status).toBe(500);
    expect(response.json).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
      message: 'Internal server error',
    });
    expect(lines[0]).toMatchObject({ msg: 'internal error', target: 'EddyTest_20990101.Fail' });
    expect(String((lines[0]!.err as { stack: string }).stack)).toContain('TypeError: a bug in a service');
    const next = await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{}' });
    expect(next.status).toBe(200);
  });

  it('logs one line per request when request logging is on', async () => {
    const { logger, lines } = capturingLogger();
    const { url } = await start({ logger, logRequests: true });
    await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{}' });
    await send(url, { headers: jsonHeaders('DynamoDB_20120810.GetItem'), body: '{}' });
    expect(lines).toMatchObject([
      { msg: 'request', target: 'EddyTest_20990101.Echo', status: 200 },
      { msg: 'request', target: 'DynamoDB_20120810.GetItem', status: 400, error: 'ValidationException' },
    ]);
  });

  it('serves async services and refuses a second service for the same prefix', async () => {
    const { server, url } = await start(
      {},
      echoService({ execute: async (operation) => ({ operation, async: true }) }),
    );
    const response = await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{}' });
    expect(response.json).toEqual({ operation: 'Echo', async: true });
    expect(() => server.registerService(echoService())).toThrow(/already registered/);
  });

  describe('graceful shutdown', () => {
    it('finishes an in-flight request, then resolves', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let arrived!: () => void;
      const requestArrived = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const { server, url } = await start(
        {},
        echoService({
          execute: async (operation) => {
            arrived();
            await gate;
            return { operation, finished: true };
          },
        }),
      );
      const agent = new Agent({ keepAlive: true });
      const inFlight = send(url, { headers: jsonHeaders('EddyTest_20990101.Slow'), body: '{}', agent });
      await requestArrived;
      let closed = false;
      const closing = server.close().then(() => {
        closed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closed).toBe(false);
      // No new connections while draining.
      await expect(
        send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{}' }),
      ).rejects.toThrow();
      release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ operation: 'Slow', finished: true });
      expect(response.headers.connection).toBe('close');
      await closing;
      expect(closed).toBe(true);
      agent.destroy();
    });

    it('does not wait for idle keep-alive connections', async () => {
      const { server, url } = await start();
      const agent = new Agent({ keepAlive: true });
      await send(url, { headers: jsonHeaders('EddyTest_20990101.Echo'), body: '{}', agent });
      const startedAt = Date.now();
      await server.close();
      expect(Date.now() - startedAt).toBeLessThan(1000);
      agent.destroy();
    });

    it('resolves for a server that never listened, and twice', async () => {
      const idle = new EddyServer({ engine: new Engine() });
      await idle.close();
      await idle.close();
    });
  });
});
