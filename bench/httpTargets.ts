/**
 * One HTTP server per process for `bench/http.ts`: `eddy`, `dynalite` or `bare` (argv[2]). It
 * listens on a free loopback port and reports `{ port, query }` to the parent over IPC, so the
 * server and the load generator each get a core.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

export type TargetName = 'eddy' | 'dynalite' | 'bare';

export interface TargetReady {
  readonly port: number;
  /** Whether the server answers Query (eddy before the Query issue lands does not). */
  readonly query: boolean;
}

/**
 * The transport's limit: reads the body, parses the same JSON, answers a fixed GetItem-sized
 * body with the same headers eddy sends. Nothing else.
 */
function startBare(): Promise<number> {
  const body = Buffer.from(
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
  const headers = [
    'x-amzn-RequestId',
    'BARE0000000000000000000000000000000000000000000000000',
    'x-amz-crc32',
    '0',
    'Content-Type',
    'application/x-amz-json-1.0',
    'Content-Length',
    String(body.length),
  ];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, headers);
      response.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

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
  return { port: await startBare(), query: true };
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
