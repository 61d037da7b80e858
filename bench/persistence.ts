/**
 * Persistence figures (issue #10), in one run:
 *
 * - PutItem over HTTP at concurrency 16 (~200-byte items, keep-alive, the lean client of
 *   `loadGenerator.ts`) against three servers set up as `eddy serve` (engine + streams): in
 *   memory, `--data-dir --durability everysec`, `--durability always`. Each server runs in its
 *   own process; rounds alternate between them. Targets: everysec ≥ 0.80× in memory, always
 *   ≥ 0.25× (group commit: the figure shows requests per fsync).
 * - A snapshot of 1,000,000 items (time, size, the longest event-loop pause while it runs), and
 *   the restart from it in a fresh process (target ≤ 5 s); the restart from 200,000 log records
 *   alone (replay rate).
 *
 * Run: npm run bench (all benches) or npm run bench -- persistence (BENCH_TSX=1: through tsx)
 * Knobs: BENCH_PERSIST_SECONDS (3), BENCH_PERSIST_ROUNDS (2), BENCH_PERSIST_ITEMS (1,000,000).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Engine } from '../core/engine.js';
import { EddyServer } from '../infra/host/server.js';
import { Persistence } from '../infra/persistence/persistence.js';
import { ReplayableClock } from '../infra/persistence/replayableClock.js';
import { StreamsService } from '../streams/streamsApi/streamsService.js';
import { forkBench } from './bundle.js';
import { jsonRequest, runLoad, sendCount } from './loadGenerator.js';
import { formatRate, printTable, type Row } from './support.js';

const SECONDS = Number(process.env.BENCH_PERSIST_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_PERSIST_ROUNDS ?? 2);
const BIG = Number(process.env.BENCH_PERSIST_ITEMS ?? 1_000_000);
const REPLAY = 200_000;
const KEYS = 5_000;
const MODES = ['memory', 'everysec', 'always'] as const;
type Mode = (typeof MODES)[number];

const ITEM =
  '{"pk":{"S":"item#########"},"name":{"S":"Customer ######## with a name"},' +
  '"email":{"S":"customer########@example.com"},"plan":{"S":"pro"},"visits":{"N":"1##########"},' +
  '"active":{"BOOL":true},"tags":{"SS":["blue","green"]}}';

/** An engine with streams, as `eddy serve` builds it; with a data directory unless in memory. */
async function host(mode: Mode | 'no', dataDir: string | undefined) {
  const engine = new Engine({ clock: new ReplayableClock() });
  const streams = new StreamsService(engine);
  const persistence =
    mode === 'memory' || dataDir === undefined
      ? undefined
      : // Snapshots only when the bench takes them.
        await Persistence.open(engine, {
          dataDir,
          durability: mode,
          snapshotOnClose: false,
          snapshotLogBytes: Number.POSITIVE_INFINITY,
        });
  return { engine, streams, persistence };
}

/** Child process: one HTTP server, reporting its port, then its CPU and fsync counts on request. */
async function serveTarget(mode: Mode): Promise<void> {
  const { default: pino } = await import('pino');
  const dataDir = mode === 'memory' ? undefined : mkdtempSync(join(tmpdir(), 'eddy-bench-'));
  const { engine, streams, persistence } = await host(mode, dataDir);
  const server = new EddyServer({
    engine,
    port: 0,
    logger: pino({ level: 'silent' }),
    ...(persistence === undefined ? {} : { afterCall: persistence.afterCall }),
  });
  server.registerService(streams.protocol);
  const { port } = await server.listen();
  process.send?.({ port });
  process.on('message', (message) => {
    if (message !== 'stats') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system, ...(persistence?.stats ?? { writes: 0, fsyncs: 0 }) });
  });
  process.on('SIGTERM', () => {
    void persistence?.close().finally(() => {
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
    if (persistence === undefined) process.exit(0);
  });
}

/** Child process: recovers a data directory and reports how long it took. */
async function restartChild(dataDir: string): Promise<void> {
  const started = performance.now();
  const { engine, persistence } = await host('no', dataDir);
  const ms = performance.now() - started;
  let items = 0;
  for (const table of engine.region().tables.values()) items += table.items.size;
  process.send?.({ ...persistence!.recovery, ms, items, heapMB: process.memoryUsage().heapUsed / 2 ** 20 });
  await persistence!.close();
  process.exit(0);
}

const here = fileURLToPath(import.meta.url);

/** The child runs this same file. */
const child = (args: string[]): ChildProcess => forkBench(here, args);

function reply<T>(process: ChildProcess, message?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    process.once('message', (value) => resolve(value as T));
    process.once('exit', (code) => reject(new Error(`bench child exited with ${code}`)));
    if (message !== undefined) process.send(message);
  });
}

interface Stats {
  readonly cpu: number;
  readonly writes: number;
  readonly fsyncs: number;
}

async function measureHttp(): Promise<Row[]> {
  const targets = new Map<Mode, { process: ChildProcess; port: number }>();
  const best = new Map<Mode, { rate: number; requests: number; fsyncs: number; cpu: number }>();
  try {
    for (const mode of MODES) {
      const process = child(['target', mode]);
      const { port } = await reply<{ port: number }>(process);
      targets.set(mode, { process, port });
      const table = jsonRequest(
        port,
        'CreateTable',
        JSON.stringify({
          TableName: 'Bench',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      await sendCount({ port, concurrency: 1, template: () => table, values: () => [], count: 1 });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const { process, port } = targets.get(mode)!;
        const put = jsonRequest(port, 'PutItem', `{"TableName":"Bench","Item":${ITEM}}`);
        const load = {
          port,
          concurrency: 16,
          template: () => ({ bytes: Buffer.from(put.bytes), fields: put.fields }),
          // Keys cycle; the counter changes on every write, so each one is logged.
          values: (i: number) => [i % KEYS, i % KEYS, i % KEYS, i],
          warmupMs: 0,
        };
        await runLoad({ ...load, durationMs: 500 });
        const before = await reply<Stats>(process, 'stats');
        const result = await runLoad({ ...load, durationMs: SECONDS * 1000 });
        const after = await reply<Stats>(process, 'stats');
        if (result.failures > 0) throw new Error(`${mode}: ${result.failures} PutItem failures`);
        const measured = {
          rate: result.opsPerSecond,
          requests: result.requests,
          fsyncs: after.fsyncs - before.fsyncs,
          cpu: (after.cpu - before.cpu) / Math.max(1, result.requests),
        };
        if ((best.get(mode)?.rate ?? 0) < measured.rate) best.set(mode, measured);
      }
    }
  } finally {
    for (const { process } of targets.values()) process.kill('SIGTERM');
  }
  const memory = best.get('memory')!;
  const row = (mode: Mode, name: string, target?: string): Row => {
    const result = best.get(mode)!;
    const perFsync =
      mode === 'always' && result.fsyncs > 0
        ? `, ${(result.requests / result.fsyncs).toFixed(1)} req/fsync`
        : '';
    return {
      name,
      value: `${formatRate(result.rate)} (${result.cpu.toFixed(0)} µs cpu${perFsync})`,
      ...(mode === 'memory'
        ? {}
        : {
            baseline: formatRate(memory.rate),
            ratio: result.rate / memory.rate,
            ...(target ? { target } : {}),
          }),
    };
  };
  return [
    row('memory', 'PutItem c=16, in memory'),
    row('everysec', 'PutItem c=16, --durability everysec', '≥ 0.80×'),
    row('always', 'PutItem c=16, --durability always', '≥ 0.25×'),
  ];
}

function bigItem(i: number, visits = i % 997) {
  return {
    TableName: 'Big',
    Item: {
      pk: { S: `user#${String(i).padStart(8, '0')}` },
      name: { S: `Customer ${i}` },
      email: { S: `customer${i}@example.com` },
      plan: { S: i % 3 === 0 ? 'pro' : 'free' },
      visits: { N: String(visits) },
      active: { BOOL: i % 2 === 0 },
      tags: { SS: ['blue', 'green'] },
    },
  };
}

async function fill(dataDir: string, count: number) {
  const { engine, persistence } = await host('no', dataDir);
  engine.execute('CreateTable', {
    TableName: 'Big',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  for (let i = 0; i < count; i++) {
    engine.executeRaw('PutItem', bigItem(i));
    // Let the log's end-of-turn write run now and then, as it would between requests.
    if (i % 5000 === 4999) await new Promise((resolve) => setImmediate(resolve));
  }
  return { engine, persistence: persistence! };
}

async function restart(dataDir: string) {
  return reply<{ ms: number; items: number; heapMB: number; replayed: number }>(child(['restart', dataDir]));
}

async function measureRestart(): Promise<Row[]> {
  const rows: Row[] = [];
  const big = mkdtempSync(join(tmpdir(), 'eddy-bench-big-'));
  const replay = mkdtempSync(join(tmpdir(), 'eddy-bench-replay-'));
  try {
    const { engine, persistence } = await fill(big, BIG);
    // The longest pause writers see while the snapshot runs, with writes going on; the same
    // write loop without a snapshot for comparison (GC and a shared machine pause it too).
    const writeWhile = async (running: Promise<unknown>) => {
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      let done = false;
      void running.finally(() => {
        done = true;
      });
      for (let i = 0; !done; i++) {
        // A new `visits` each time: every write is a change (logged, and copied-on-write).
        engine.executeRaw('PutItem', bigItem((i * 7919) % BIG, 1000 + i));
        if (i % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
      }
      delay.disable();
      return delay;
    };
    const quiet = await writeWhile(new Promise((resolve) => setTimeout(resolve, 2000)));
    const snapshot = persistence.snapshot();
    const delay = await writeWhile(snapshot);
    const result = (await snapshot)!;
    await persistence.close();
    rows.push({
      name: `snapshot of ${BIG.toLocaleString('en-US')} items (writes going on)`,
      value: `${(result.ms / 1000).toFixed(2)} s, ${(result.bytes / 2 ** 20).toFixed(0)} MiB`,
    });
    const pauses = (histogram: typeof delay) =>
      `max ${(histogram.max / 1e6).toFixed(1)} ms, p99 ${(histogram.percentile(99) / 1e6).toFixed(1)} ms`;
    rows.push({
      name: 'event-loop pauses during it',
      value: pauses(delay),
      baseline: `${pauses(quiet)} without`,
      target: 'a few ms',
    });
    const fromSnapshot = await restart(big);
    rows.push({
      name: `restart with ${fromSnapshot.items.toLocaleString('en-US')} items (snapshot + log)`,
      value: `${(fromSnapshot.ms / 1000).toFixed(2)} s, heap ${fromSnapshot.heapMB.toFixed(0)} MiB`,
      target: '≤ 5 s',
    });

    const filled = await fill(replay, REPLAY);
    await filled.persistence.close();
    const logBytes = statSync(join(replay, 'wal', `${'1'.padStart(20, '0')}.log`)).size;
    const fromLog = await restart(replay);
    rows.push({
      name: `restart replaying ${fromLog.replayed.toLocaleString('en-US')} log records`,
      value: `${(fromLog.ms / 1000).toFixed(2)} s (${formatRate(fromLog.replayed / (fromLog.ms / 1000))}, ${(logBytes / 2 ** 20).toFixed(0)} MiB)`,
    });
  } finally {
    rmSync(big, { recursive: true, force: true });
    rmSync(replay, { recursive: true, force: true });
  }
  return rows;
}

export async function run(): Promise<Row[]> {
  const rows = [...(await measureHttp()), ...(await measureRestart())];
  printTable('Persistence: PutItem over HTTP (best of rounds), snapshots and restarts', rows);
  return rows;
}

const role = process.argv[2];
if (role === 'target') await serveTarget(process.argv[3] as Mode);
else if (role === 'restart') await restartChild(process.argv[3]!);
else if (process.argv[1] === here) await run();
