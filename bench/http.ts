/**
 * HTTP throughput, side by side in one run (issue #4): GetItem and PutItem with ~200-byte items,
 * keep-alive, concurrency 1 and 16, against eddy, dynalite and a bare `node:http` server that
 * parses the same JSON and answers a fixed body (the transport's limit). Query of 10 items
 * against dynalite once eddy answers Query. Each server runs in its own process, pinned to one
 * core when `taskset` exists; the lean load generator (raw `net`, not the SDK) runs here, pinned
 * to the other.
 *
 * The servers run from an esbuild bundle of `httpTargets.ts` (`dist/bench/`, rebuilt each run in
 * ~0.1 s), as `npm start` runs eddy from a bundle of the CLI (see bench/bundle.ts).
 *
 * Run: npm run bench (all benches) or npm run bench -- http (BENCH_TSX=1: through tsx)
 * Knobs: BENCH_HTTP_SECONDS (measured seconds per case and round, default 3),
 * BENCH_HTTP_WARMUP_MS (500), BENCH_HTTP_ROUNDS (2; the best round counts),
 * BENCH_TSX=1 (run the servers through tsx instead of the bundle).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBench, PROJECT_ROOT, THROUGH_TSX, TSX_LOADER } from './bundle.js';
import type { TargetName, TargetReady } from './httpTargets.js';
import { jsonRequest, type LoadResult, runLoad, sendCount } from './loadGenerator.js';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const WARMUP_MS = Number(process.env.BENCH_HTTP_WARMUP_MS ?? 500);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 2);
const ITEMS = 5_000;
const PARTITIONS = 200;
const ITEMS_PER_PARTITION = 10;
const TARGETS: readonly TargetName[] = ['bare', 'eddy', 'dynalite'];

/** ~200 bytes of item JSON: key, name, email, plan, a counter, a flag and a string set. */
const ITEM =
  '{"pk":{"S":"item#########"},"name":{"S":"Customer ######## with a name"},' +
  '"email":{"S":"customer########@example.com"},"plan":{"S":"pro"},"visits":{"N":"1##########"},' +
  '"active":{"BOOL":true},"tags":{"SS":["blue","green"]}}';

const SCENARIOS = {
  PutItem: (port: number) => jsonRequest(port, 'PutItem', `{"TableName":"Bench","Item":${ITEM}}`),
  GetItem: (port: number) =>
    jsonRequest(port, 'GetItem', '{"TableName":"Bench","Key":{"pk":{"S":"item#########"}}}'),
  Query: (port: number) =>
    jsonRequest(
      port,
      'Query',
      '{"TableName":"BenchQuery","KeyConditionExpression":"pk = :pk",' +
        '"ExpressionAttributeValues":{":pk":{"S":"part#####"}}}',
    ),
} as const;
type Scenario = keyof typeof SCENARIOS;

/** Field values per request: the item key (cycling), then, for puts, a changing counter. */
const VALUES: Record<Scenario, (n: number) => number[]> = {
  // A put names the key three times (pk, name, email) and bumps the counter so each is a change.
  PutItem: (n) => [n % ITEMS, n % ITEMS, n % ITEMS, n],
  GetItem: (n) => [(n * 7919) % ITEMS],
  Query: (n) => [n % PARTITIONS],
};

/**
 * Pins every thread of a process to one core (BENCH_HTTP_PIN=1). Off by default: on a shared
 * machine, pinning also stops the scheduler from moving a process away from someone else's load.
 */
function pin(pid: number, core: number): void {
  if (process.env.BENCH_HTTP_PIN !== '1' || availableParallelism() < 2) return;
  try {
    execFileSync('taskset', ['-a', '-pc', String(core), String(pid)], { stdio: 'ignore' });
  } catch {
    // No taskset: the OS scheduler spreads the two busy processes over the cores anyway.
  }
}

const TARGETS_SOURCE = join(PROJECT_ROOT, 'bench', 'httpTargets.ts');
let targetsBundle: string | undefined;

async function startTarget(name: TargetName): Promise<{ child: ChildProcess; ready: TargetReady }> {
  const child = THROUGH_TSX
    ? fork(TARGETS_SOURCE, [name], {
        execArgv: ['--import', TSX_LOADER],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
    : fork(targetsBundle!, [name], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<TargetReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as TargetReady));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  pin(child.pid!, 0);
  return { child, ready };
}

/** One request, for setup (CreateTable). */
async function setupCall(port: number, operation: string, body: object): Promise<void> {
  const template = jsonRequest(port, operation, JSON.stringify(body));
  const failures = await sendCount({
    port,
    concurrency: 1,
    template: () => template,
    values: () => [],
    count: 1,
  });
  if (failures > 0) throw new Error(`${operation} failed during setup`);
}

async function createTables(port: number): Promise<void> {
  const table = (name: string, range: boolean) => ({
    TableName: name,
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      ...(range ? [{ AttributeName: 'sk', AttributeType: 'S' }] : []),
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      ...(range ? [{ AttributeName: 'sk', KeyType: 'RANGE' }] : []),
    ],
    BillingMode: 'PAY_PER_REQUEST',
  });
  await setupCall(port, 'CreateTable', table('Bench', false));
  await setupCall(port, 'CreateTable', table('BenchQuery', true));
  // dynalite makes tables ACTIVE on a timer even with createTableMs 0.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Writes every item once (not measured), so each GetItem and Query finds data. */
async function preload(port: number): Promise<void> {
  const put = SCENARIOS.PutItem(port);
  const putFailures = await sendCount({
    port,
    concurrency: 8,
    template: () => ({ bytes: Buffer.from(put.bytes), fields: put.fields }),
    values: VALUES.PutItem,
    count: ITEMS,
  });
  const queryItem = jsonRequest(
    port,
    'PutItem',
    '{"TableName":"BenchQuery","Item":{"pk":{"S":"part#####"},"sk":{"S":"sk###"},"name":{"S":"Customer with a name"},' +
      '"email":{"S":"customer@example.com"},"plan":{"S":"pro"},"visits":{"N":"12"},"active":{"BOOL":true},' +
      '"tags":{"SS":["blue","green"]}}}',
  );
  const queryFailures = await sendCount({
    port,
    concurrency: 8,
    template: () => ({ bytes: Buffer.from(queryItem.bytes), fields: queryItem.fields }),
    values: (n) => [Math.floor(n / ITEMS_PER_PARTITION), n % ITEMS_PER_PARTITION],
    count: PARTITIONS * ITEMS_PER_PARTITION,
  });
  if (putFailures + queryFailures > 0) throw new Error('preloading failed');
}

/** A case's best round: throughput, and the server's CPU time per request. */
interface Measured extends LoadResult {
  readonly serverCpuMicros: number;
}
type Results = Map<string, Measured>;

/** The server process's CPU time so far (all threads), in µs. */
function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve((message as { cpu: number }).cpu));
    child.send('cpu');
  });
}
const key = (target: TargetName, scenario: Scenario, concurrency: number) =>
  `${target}/${scenario}/${concurrency}`;

/**
 * All three servers run at once (idle ones cost nothing); each case measures them back to back,
 * ROUNDS times, keeping each one's best round, so a burst of outside load hits no target alone.
 */
async function measureAll(results: Results): Promise<boolean> {
  const started = new Map<TargetName, { child: ChildProcess; ready: TargetReady }>();
  if (!THROUGH_TSX) targetsBundle = await bundleBench('httpTargets');
  try {
    for (const name of TARGETS) {
      const target = await startTarget(name);
      started.set(name, target);
      if (name !== 'bare') {
        await createTables(target.ready.port);
        await preload(target.ready.port);
      }
    }
    const eddyQuery = started.get('eddy')!.ready.query;
    for (const scenario of Object.keys(SCENARIOS) as Scenario[]) {
      if (scenario === 'Query' && !eddyQuery) continue;
      for (const concurrency of [1, 16]) {
        for (let round = 0; round < ROUNDS; round++) {
          for (const name of TARGETS) {
            const { child, ready } = started.get(name)!;
            const base = SCENARIOS[scenario](ready.port);
            const load = {
              port: ready.port,
              concurrency,
              template: () => ({ bytes: Buffer.from(base.bytes), fields: base.fields }),
              values: VALUES[scenario],
              warmupMs: 0,
            };
            await runLoad({ ...load, durationMs: WARMUP_MS });
            const cpuBefore = await serverCpu(child);
            const loadResult = await runLoad({ ...load, durationMs: SECONDS * 1000 });
            const cpuAfter = await serverCpu(child);
            const result: Measured = {
              ...loadResult,
              serverCpuMicros: (cpuAfter - cpuBefore) / Math.max(1, loadResult.requests),
            };
            const best = results.get(key(name, scenario, concurrency));
            if (best === undefined || result.opsPerSecond > best.opsPerSecond) {
              results.set(key(name, scenario, concurrency), result);
            }
          }
        }
      }
    }
    return eddyQuery;
  } finally {
    for (const { child } of started.values()) child.kill();
  }
}

function rate(result: Measured | undefined): string {
  if (result === undefined) return '–';
  const failures = result.failures > 0 ? ` (${result.failures} failed)` : '';
  return `${Math.round(result.opsPerSecond).toLocaleString('en-US')}/s ${result.serverCpuMicros.toFixed(0)}µs${failures}`;
}

/** Throughput ratio, then the inverse CPU-per-request ratio (steadier on a busy machine). */
function ratio(a: Measured | undefined, b: Measured | undefined): string {
  if (a === undefined || b === undefined) return '–';
  return `${(a.opsPerSecond / b.opsPerSecond).toFixed(2)}× (cpu ${(b.serverCpuMicros / a.serverCpuMicros).toFixed(2)}×)`;
}

export async function run(): Promise<void> {
  pin(process.pid, 1);
  const results: Results = new Map();
  const eddyQuery = await measureAll(results);
  const header = ['case', 'eddy', 'bare', 'dynalite', 'eddy/bare', 'eddy/dynalite', 'target (c=16)'];
  const targets: Record<Scenario, string> = {
    PutItem: '≥ 0.70× bare',
    GetItem: '≥ 0.70× bare',
    Query: '≥ 5× dynalite',
  };
  const rows: string[][] = [];
  for (const scenario of Object.keys(SCENARIOS) as Scenario[]) {
    for (const concurrency of [1, 16]) {
      const [bare, eddy, dynalite] = TARGETS.map((t) => results.get(key(t, scenario, concurrency))) as [
        Measured | undefined,
        Measured | undefined,
        Measured | undefined,
      ];
      if (scenario === 'Query' && !eddyQuery) {
        if (concurrency === 1)
          rows.push([`${scenario}`, 'skipped: Query not implemented yet', '', '', '', '', '']);
        continue;
      }
      rows.push([
        `${scenario} c=${concurrency}`,
        rate(eddy),
        rate(bare),
        rate(dynalite),
        ratio(eddy, bare),
        ratio(eddy, dynalite),
        concurrency === 16 ? targets[scenario] : '',
      ]);
    }
  }
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(
    `\nHTTP (keep-alive, ~200-byte items, best of ${ROUNDS} × ${SECONDS}s per case, lean net client, ` +
      `servers ${THROUGH_TSX ? 'through tsx' : 'bundled'})` +
      '\nEach cell: ops/s and server CPU per request (all threads); ratios: throughput (and CPU efficiency).',
  );
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
