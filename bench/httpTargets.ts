/**
 * One HTTP server per process for `bench/http.ts`: `eddy`, `dynalite` or `bare` (argv[2]). It
 * listens on a free loopback port and reports `{ port, query }` to the parent over IPC, so the
 * server and the load generator each get a core.
 */

import type { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { startBareServer } from './bareServer.js';

export type TargetName = 'eddy' | 'dynalite' | 'bare';

export interface TargetReady {
  readonly port: number;
  /** Whether the server answers Query (eddy before the Query issue lands does not). */
  readonly query: boolean;
}

/** A GetItem-sized answer, for the bare server (bench/bareServer.ts), the transport's limit. */
const BARE_BODY = Buffer.from(
  JSON.stringify({
    Item: {
      pk: { S: 'item#00000000' },
      name: { S: 'Customer 00000000 with a name' },
      email: { S: 'customer00000000@example.com' },
      plan: { S: 'pro' },
      visits: { N: '12' },
      active: { BOOL: true },
      tags: { SS: ['blue', 'green'] },
    },
  }),
);

async function startEddy(): Promise<TargetReady> {
  // Loaded here only: the bare and dynalite processes carry none of eddy's code.
  const [{ Engine }, { EddyServer }, { default: pino }] = await Promise.all([
    import('../core/engine.js'),
    import('../infra/host/server.js'),
    import('pino'),
  ]);
  const engine = new Engine();
  const server = new EddyServer({ engine, port: 0, logger: pino({ level: 'silent' }) });
  const { port } = await server.listen();
  return { port, query: engine.supports('Query') };
}

function startDynalite(): Promise<number> {
  const dynalite = createRequire(import.meta.url)('dynalite') as (
    options: object,
  ) => ReturnType<typeof createServer>;
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

async function start(target: TargetName): Promise<TargetReady> {
  if (target === 'eddy') return startEddy();
  if (target === 'dynalite') return { port: await startDynalite(), query: true };
  return { port: await startBareServer(BARE_BODY), query: true };
}

const target = process.argv[2] as TargetName;
const ready = await start(target);
process.send?.(ready);
// Exit normally on SIGTERM, so `--cpu-prof` runs write their profile.
process.on('SIGTERM', () => process.exit(0));
// `cpu` → the process's CPU time so far (µs), so the parent can report CPU per request: a figure
// that outside load on a shared machine disturbs far less than wall-clock throughput.
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  }
});
