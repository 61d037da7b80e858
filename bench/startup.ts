import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installProject, pack, pinned, ROOT } from '../test/package/project.mjs';
import { printTable, type Row } from './support.js';

/**
 * How fast eddy starts, as a user's project has it: installed from its tarball (`npm pack`, then
 * `npm install` into a temporary project), beside dynalite started the same way in the same run.
 *
 * - `eddy serve` process start → its port accepts a connection (wall and CPU time), beside
 *   `dynalite --port` and a bare `node:http` server (the floor any Node server pays);
 * - `import('eddy/testing')` in plain Node, beside `import('dynalite')`;
 * - `startStack` with 3 tables (one with a GSI, one with TTL, one with a stream) and 2 functions
 *   bound to the stream: the first in a process, then each next one (after `close`), beside an
 *   in-process dynalite server started and given the same 3 tables;
 * - `stack.reset()` after a test's worth of writes (20 items per table, the functions invoked),
 *   beside deleting and creating the 3 tables again in dynalite.
 *
 * Medians of several processes (process-level figures) or iterations (in-process ones), with the
 * pairs interleaved so a drift of the machine's speed hits both. `EDDY_BENCH_PROJECT=<dir>` reuses
 * a project installed by an earlier run (it is printed) instead of packing and installing again.
 *
 * Wall times need a quiet machine. On a loaded one the CPU times (user + system) come closer, and
 * `EDDY_BENCH_INSTRUCTIONS=1` adds what does not depend on the load at all: the instructions
 * (valgrind's callgrind, which must be installed) of one `eddy serve` start until its server
 * listens and of one `import('eddy/testing')`, beside dynalite's. Under valgrind a start takes
 * about a minute.
 */

const RUNS = 9;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;

/** The installed project: eddy from its tarball, and what the scripts below import. */
function project(): { directory: string; temporary: boolean } {
  const given = process.env.EDDY_BENCH_PROJECT;
  if (given !== undefined && existsSync(join(given, 'node_modules', 'eddy')))
    return { directory: given, temporary: false };
  const work = mkdtempSync(join(tmpdir(), 'eddy-bench-startup-'));
  console.log(`packing and installing eddy into ${work}/project (EDDY_BENCH_PROJECT reuses it)...`);
  const { tarball } = pack(work);
  installProject(
    join(work, 'project'),
    tarball,
    ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'].map(pinned),
  );
  return { directory: join(work, 'project'), temporary: given === undefined };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** CPU time (user + system) a process has used, from /proc (Linux), in ms. */
function cpuOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Spawns a server on a free port and times it until the port accepts a connection. */
async function serverStart(
  args: (port: number) => string[],
  cwd: string,
): Promise<{ wall: number; cpu?: number }> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args(port), { cwd, stdio: 'ignore' });
  try {
    for (;;) {
      if (await accepts(port)) break;
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (performance.now() - started > 30_000) throw new Error('server did not listen within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const wall = performance.now() - started;
    const cpu = cpuOf(child.pid!);
    return cpu === undefined ? { wall } : { wall, cpu };
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  }
}

/** Runs a script with `node` in `cwd` and parses the JSON line it prints last. */
function script<T>(file: string, cwd: string, args: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => {
      const last = output.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(last) as T);
      else reject(new Error(`${file} exited ${code}: ${output}`));
    });
  });
}

const IMPORT_SCRIPT = `
const started = performance.now();
await import(process.argv[2]);
const { user, system } = process.cpuUsage();
console.log(JSON.stringify({ ms: performance.now() - started, cpu: (user + system) / 1000 }));
`;

// Loaded with --import before a server's own code: exits once any server listens, so an
// instruction count covers the start and nothing after it.
const EXIT_ON_LISTEN = `
import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => process.exit(0));
  return listen.apply(this, args);
};
`;

/** Instructions a command executes (valgrind's callgrind: the same on a loaded machine), in millions. */
function instructions(args: string[], cwd: string): number {
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...args],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  const collected = /Collected : (\d+)/.exec(run.stderr ?? '');
  if (collected === null) throw new Error(`valgrind ${args.join(' ')}: ${run.error?.message ?? run.stderr}`);
  return Number(collected[1]) / 1e6;
}

// The project of the stack measurements: 3 tables, 2 functions bound to the stream.
const TABLES = `[
  { TableName: 'Orders', BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'status', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [{ IndexName: 'byStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }] },
  { TableName: 'Sessions', BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } },
  { TableName: 'Events', BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } },
]`;
const ITERATIONS = 30;

const EDDY_STACK_SCRIPT = `
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { startStack } from 'eddy/testing';
const config = {
  tables: ${TABLES},
  functions: {
    audit: { handler: './bench-handler.mjs', events: [{ stream: { table: 'Events', BatchSize: 10 } }] },
    notify: { handler: './bench-handler.mjs', events: [{ stream: { table: 'Events', BatchSize: 100 } }] },
  },
};
const options = { baseDirectory: process.cwd() };
let started = performance.now();
let stack = await startStack(config, options);
const first = performance.now() - started;
const next = [];
for (let i = 0; i < ${ITERATIONS}; i++) {
  await stack.close();
  started = performance.now();
  stack = await startStack(config, options);
  next.push(performance.now() - started);
}
const reset = [];
for (let i = 0; i < ${ITERATIONS}; i++) {
  for (let n = 0; n < 20; n++)
    for (const TableName of ['Orders', 'Sessions', 'Events'])
      await stack.documentClient.send(new PutCommand({ TableName, Item: { pk: 'k' + n, status: 'placed', expiresAt: 1 } }));
  await stack.advance('1s');
  if (stack.invocations('audit').length === 0) throw new Error('the functions did not run');
  started = performance.now();
  await stack.reset();
  reset.push(performance.now() - started);
}
await stack.close();
console.log(JSON.stringify({ first, next, reset }));
`;

const DYNALITE_STACK_SCRIPT = `
import { createRequire } from 'node:module';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
const dynalite = createRequire(import.meta.url)('dynalite');
const tables = ${TABLES}.map(({ TimeToLiveSpecification, ...table }) => table);
async function start() {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new DynamoDBClient({ endpoint: 'http://127.0.0.1:' + server.address().port, region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  for (const table of tables) await client.send(new CreateTableCommand(table));
  return { server, client };
}
const stop = async ({ server, client }) => { client.destroy(); await new Promise((resolve) => server.close(resolve)); };
let started = performance.now();
let running = await start();
const first = performance.now() - started;
const next = [];
for (let i = 0; i < ${ITERATIONS}; i++) {
  await stop(running);
  started = performance.now();
  running = await start();
  next.push(performance.now() - started);
}
const reset = [];
for (let i = 0; i < ${ITERATIONS}; i++) {
  started = performance.now();
  for (const { TableName } of tables) await running.client.send(new DeleteTableCommand({ TableName }));
  for (const table of tables) await running.client.send(new CreateTableCommand(table));
  reset.push(performance.now() - started);
}
await stop(running);
console.log(JSON.stringify({ first, next, reset }));
`;

interface ImportFigures {
  readonly ms: number;
  /** The importing process's CPU time so far (user + system), Node's own start included. */
  readonly cpu: number;
}

interface StackFigures {
  readonly first: number;
  readonly next: number[];
  readonly reset: number[];
}

export async function run(): Promise<void> {
  const { directory, temporary } = project();
  const scratch = mkdtempSync(join(tmpdir(), 'eddy-bench-scripts-'));
  const inProject = (name: string, text: string) => {
    writeFileSync(join(directory, name), text);
    return join(directory, name);
  };
  const inRoot = (name: string, text: string) => {
    // Beside eddy's own node_modules, where dynalite is installed.
    mkdirSync(join(ROOT, 'dist', 'bench'), { recursive: true });
    const file = join(ROOT, 'dist', 'bench', name);
    writeFileSync(file, text);
    return file;
  };
  try {
    const eddyBin = join(directory, 'node_modules', 'eddy', 'bin', 'eddy.mjs');
    const dynaliteBin = join(ROOT, 'node_modules', 'dynalite', 'cli.js');
    // A warm-up of each: the first start of anything reads its files from disk.
    await serverStart((port) => [eddyBin, 'serve', '--port', String(port), '--no-config'], directory);
    await serverStart((port) => [dynaliteBin, '--port', String(port)], ROOT);
    const serve = {
      eddy: [] as { wall: number; cpu?: number }[],
      dynalite: [] as { wall: number; cpu?: number }[],
      bare: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      serve.eddy.push(
        await serverStart((port) => [eddyBin, 'serve', '--port', String(port), '--no-config'], directory),
      );
      serve.dynalite.push(await serverStart((port) => [dynaliteBin, '--port', String(port)], ROOT));
      serve.bare.push(
        (
          await serverStart(
            (port) => ['-e', `require('node:http').createServer().listen(${port}, '127.0.0.1')`],
            scratch,
          )
        ).wall,
      );
    }

    const eddyImport = inProject('bench-import.mjs', IMPORT_SCRIPT);
    const dynaliteImport = inRoot('bench-import.mjs', IMPORT_SCRIPT);
    const imports = { eddy: [] as ImportFigures[], dynalite: [] as ImportFigures[] };
    for (let i = 0; i < RUNS; i++) {
      imports.eddy.push(await script<ImportFigures>(eddyImport, directory, ['eddy/testing']));
      imports.dynalite.push(await script<ImportFigures>(dynaliteImport, ROOT, ['dynalite']));
    }

    inProject('bench-handler.mjs', 'export const handler = async () => ({ batchItemFailures: [] });\n');
    const eddyStack = inProject('bench-stack.mjs', EDDY_STACK_SCRIPT);
    const dynaliteStack = inRoot('bench-dynalite-stack.mjs', DYNALITE_STACK_SCRIPT);
    const stacks = { eddy: [] as StackFigures[], dynalite: [] as StackFigures[] };
    for (let i = 0; i < 5; i++) {
      stacks.eddy.push(await script<StackFigures>(eddyStack, directory));
      stacks.dynalite.push(await script<StackFigures>(dynaliteStack, ROOT));
    }

    const importMs = (runs: ImportFigures[]) => median(runs.map((run) => run.ms));
    const importCpu = (runs: ImportFigures[]) => median(runs.map((run) => run.cpu));
    const wall = (runs: { wall: number }[]) => median(runs.map((run) => run.wall));
    const cpu = (runs: { cpu?: number }[]) => median(runs.map((run) => run.cpu ?? Number.NaN));
    const first = (figures: StackFigures[]) => median(figures.map((figure) => figure.first));
    const next = (figures: StackFigures[]) => median(figures.flatMap((figure) => figure.next));
    const reset = (figures: StackFigures[]) => median(figures.flatMap((figure) => figure.reset));
    const rows: Row[] = [
      {
        name: '`eddy serve` start → accepting connections',
        value: ms(wall(serve.eddy)),
        baseline: `dynalite ${ms(wall(serve.dynalite))}`,
        ratio: wall(serve.eddy) / wall(serve.dynalite),
        target: '≤ 300 ms',
      },
      {
        name: '  its CPU time (user + system)',
        value: ms(cpu(serve.eddy)),
        baseline: `dynalite ${ms(cpu(serve.dynalite))}`,
        ratio: cpu(serve.eddy) / cpu(serve.dynalite),
      },
      { name: '  a bare node:http server, the floor', value: ms(median(serve.bare)) },
      {
        name: "import('eddy/testing'), plain Node",
        value: ms(importMs(imports.eddy)),
        baseline: `import('dynalite') ${ms(importMs(imports.dynalite))}`,
        ratio: importMs(imports.eddy) / importMs(imports.dynalite),
        target: '≤ 300 ms',
      },
      {
        name: '  its process, CPU time (Node itself included)',
        value: ms(importCpu(imports.eddy)),
        baseline: `dynalite ${ms(importCpu(imports.dynalite))}`,
        ratio: importCpu(imports.eddy) / importCpu(imports.dynalite),
      },
      {
        name: 'startStack, 3 tables + 2 functions: first',
        value: ms(first(stacks.eddy)),
        baseline: `dynalite + 3 tables ${ms(first(stacks.dynalite))}`,
        ratio: first(stacks.eddy) / first(stacks.dynalite),
        target: '≤ 100 ms',
      },
      {
        name: 'startStack: each next (after close)',
        value: ms(next(stacks.eddy)),
        baseline: `dynalite + 3 tables ${ms(next(stacks.dynalite))}`,
        ratio: next(stacks.eddy) / next(stacks.dynalite),
        target: '≤ 15 ms',
      },
      {
        name: 'stack.reset() after 60 writes',
        value: ms(reset(stacks.eddy)),
        baseline: `dynalite: 3 tables deleted and made again ${ms(reset(stacks.dynalite))}`,
        ratio: reset(stacks.eddy) / reset(stacks.dynalite),
        target: '≤ 2 ms',
      },
    ];
    if (process.env.EDDY_BENCH_INSTRUCTIONS === '1') {
      const hook = join(scratch, 'exit-on-listen.mjs');
      writeFileSync(hook, EXIT_ON_LISTEN);
      const eddyServe = instructions(
        ['--import', hook, eddyBin, 'serve', '--port', String(await freePort()), '--no-config'],
        directory,
      );
      const dynaliteServe = instructions(
        ['--import', hook, dynaliteBin, '--port', String(await freePort())],
        ROOT,
      );
      const eddyLoad = instructions([eddyImport, 'eddy/testing'], directory);
      const dynaliteLoad = instructions([dynaliteImport, 'dynalite'], ROOT);
      const millions = (value: number) => `${value.toFixed(0)} M`;
      rows.push(
        {
          name: '`eddy serve` start → listening, instructions',
          value: millions(eddyServe),
          baseline: `dynalite ${millions(dynaliteServe)}`,
          ratio: eddyServe / dynaliteServe,
        },
        {
          name: "import('eddy/testing') process, instructions",
          value: millions(eddyLoad),
          baseline: `dynalite ${millions(dynaliteLoad)}`,
          ratio: eddyLoad / dynaliteLoad,
        },
      );
    }
    printTable(`Startup (medians; ${RUNS} processes each, stacks: 5 processes × ${ITERATIONS})`, rows);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (temporary) rmSync(join(directory, '..'), { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
