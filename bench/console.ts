/**
 * The event-flow console's cost on the data path (docs/console.md, issue #24's figure: the
 * console never slows the data path by more than 5 % at 10,000 writes/s).
 *
 * One eddy per case, each in its own process: a stack with a table whose stream feeds a
 * function (a no-op handler), served over HTTP; the load generator (raw sockets, not the SDK)
 * runs here. "on" opens the console and keeps two browsers' live feeds (`GET /_eddy/api/live`)
 * reading from this process while the load runs; "off" serves no console. Per case:
 *
 * - PutItem at a paced 10,000 writes/s for a few seconds, 16 connections: latency p50 and p99;
 * - PutItem as fast as 16 connections go (closed loop): the throughput;
 * - the server's event-loop delay p99 during both (how long a request can wait for the loop);
 * - in process (less at the mercy of the machine's load): the CPU time per PutItem at a paced
 *   10,000 writes/s, stream and mapping deliveries included, with two live feeds looking and
 *   without, and the time the feeds' looks took.
 *
 * Cases run in turns (off, on, off, on...) and ratios are taken within a turn, their median
 * printed (this machine's load drifts between minutes).
 *
 * Run: npm run bench -- console (BENCH_TSX=1: through tsx)
 * Knobs: BENCH_CONSOLE_SECONDS (measured seconds per phase, default 3), BENCH_CONSOLE_TURNS (3).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { FlowHistory } from '../infra/console/flowHistory.js';
import { LiveFeed } from '../infra/console/liveFeed.js';
import { stackConsoleSources } from '../infra/console/stackSources.js';
import { LocalStack } from '../infra/stack/localStack.js';
import { forkBench } from './bundle.js';
import { jsonRequest, runLoad, runPaced } from './loadGenerator.js';
import { formatMicros, formatRate, nextTurn, percentile, printTable, putPaced, type Row } from './support.js';

const SECONDS = Number(process.env.BENCH_CONSOLE_SECONDS ?? 3);
const TURNS = Number(process.env.BENCH_CONSOLE_TURNS ?? 3);
const RATE = 10_000;
const CONCURRENCY = 16;
const WARMUP_MS = 1_000;
const ITEMS = 5_000;
const LIVE_FEEDS = 2;

const ITEM =
  '{"pk":{"S":"item#########"},"name":{"S":"Customer ######## with a name"},' +
  '"email":{"S":"customer########@example.com"},"plan":{"S":"pro"},"visits":{"N":"1##########"}}';
const values = (n: number) => [n % ITEMS, n % ITEMS, n % ITEMS, n];

type Mode = 'off' | 'on';
interface ServerReady {
  readonly port: number;
}
interface ServerFigures {
  readonly loopDelayP99Ms: number;
}
interface CaseFigures {
  readonly mode: Mode;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly pacedRate: number;
  readonly throughput: number;
  readonly loopDelayP99Ms: number;
  /** Stream records the live feeds carried, per second per feed (the tail's sampling bound). */
  readonly tailRecordsPerSecond: number;
}

/** The server side: the stack, its HTTP server, the console when `on`. */
function startBenchStack(): Promise<LocalStack> {
  return LocalStack.start(
    {
      tables: [
        {
          TableName: 'Bench',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
        },
      ],
      functions: {
        sink: { handler: './in-process.mjs', events: [{ stream: { table: 'Bench', BatchSize: 100 } }] },
      },
    },
    { handlers: { sink: async () => ({}) } },
  );
}

async function serveCase(mode: Mode): Promise<void> {
  const stack = await startBenchStack();
  const { port } = await stack.listen({ port: 0 });
  if (mode === 'on') stack.openConsole();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  process.on('message', async (message) => {
    if (message === 'measure') delay.enable();
    if (message === 'stop') {
      delay.disable();
      process.send!({ loopDelayP99Ms: delay.percentile(99) / 1e6 } satisfies ServerFigures);
      await stack.close();
      process.exit(0);
    }
  });
  process.send!({ port } satisfies ServerReady);
}

/** A browser's live feed: reads the event stream and counts the stream records in it. */
function openLiveFeed(port: number): { records: () => number; close: () => void } {
  let records = 0;
  const call = request({ host: '127.0.0.1', port, path: '/_eddy/api/live' }, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      for (const match of chunk.matchAll(/"eventName":/g)) if (match) records++;
    });
    response.on('error', () => {});
  });
  call.on('error', () => {});
  call.end();
  return { records: () => records, close: () => call.destroy() };
}

async function runCase(mode: Mode): Promise<CaseFigures> {
  const child = forkBench(fileURLToPath(import.meta.url), ['serve', mode]);
  const ready = await new Promise<ServerReady>((resolve) =>
    child.once('message', (m) => resolve(m as ServerReady)),
  );
  const feeds = mode === 'on' ? Array.from({ length: LIVE_FEEDS }, () => openLiveFeed(ready.port)) : [];
  const template = () => jsonRequest(ready.port, 'PutItem', `{"TableName":"Bench","Item":${ITEM}}`);
  const common = { port: ready.port, concurrency: CONCURRENCY, template, values, warmupMs: WARMUP_MS };
  child.send('measure');
  const started = performance.now();
  const paced = await runPaced({ ...common, durationMs: SECONDS * 1000, rate: RATE });
  const loaded = await runLoad({ ...common, durationMs: SECONDS * 1000 });
  const elapsedSeconds = (performance.now() - started) / 1000;
  const figures = await new Promise<ServerFigures>((resolve) => {
    child.once('message', (m) => resolve(m as ServerFigures));
    child.send('stop');
  });
  for (const feed of feeds) feed.close();
  if (paced.failures + loaded.failures > 0)
    throw new Error(`${mode}: ${paced.failures + loaded.failures} failed requests`);
  const tail =
    feeds.reduce((sum, feed) => sum + feed.records(), 0) / Math.max(1, feeds.length) / elapsedSeconds;
  return {
    mode,
    p50Ms: percentile(paced.latenciesMs, 0.5),
    p99Ms: percentile(paced.latenciesMs, 0.99),
    pacedRate: paced.opsPerSecond,
    throughput: loaded.opsPerSecond,
    loopDelayP99Ms: figures.loopDelayP99Ms,
    tailRecordsPerSecond: tail,
  };
}

interface CpuFigures {
  /** Process CPU time per write, the stream and the mapping's deliveries included, µs. */
  readonly cpuPerWriteMicros: number;
  /** Time spent in the live feeds' looks, ms per second of the phase. */
  readonly feedMsPerSecond: number;
}

/**
 * In process, the load on this machine mattering less: PutItem at a paced 10,000 writes/s for
 * a few seconds, the CPU time the process spent (writes, stream, mapping deliveries; and with the
 * console, two live feeds looking every 250 ms), per write.
 */
async function cpuPhase(stack: LocalStack, mode: Mode, inputs: readonly unknown[]): Promise<CpuFigures> {
  const feeds =
    mode === 'on'
      ? Array.from({ length: LIVE_FEEDS }, () => new LiveFeed(stackConsoleSources(stack), () => {}))
      : [];
  // The flow's history as the console samples it: once a second.
  const history = mode === 'on' ? new FlowHistory(stackConsoleSources(stack)) : undefined;
  let feedMs = 0;
  let looks = 0;
  const timer = setInterval(() => {
    const started = performance.now();
    for (const feed of feeds) feed.look();
    if (++looks % 4 === 0) history?.sample();
    feedMs += performance.now() - started;
  }, 250);
  const before = process.cpuUsage();
  const started = performance.now();
  await putPaced(stack.engine, inputs, RATE, new Float64Array(inputs.length));
  await stack.settled();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(before);
  clearInterval(timer);
  return { cpuPerWriteMicros: (cpu.user + cpu.system) / inputs.length, feedMsPerSecond: feedMs / seconds };
}

async function runCpu(): Promise<void> {
  const stack = await startBenchStack();
  const inputs = Array.from({ length: RATE * SECONDS }, (_, n) => ({
    TableName: 'Bench',
    Item: { pk: { S: `item${n % ITEMS}` }, name: { S: `Customer ${n}` }, visits: { N: String(n) } },
  }));
  await cpuPhase(stack, 'off', inputs.slice(0, RATE)); // warm-up
  const turns: { off: CpuFigures; on: CpuFigures }[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const off = await cpuPhase(stack, 'off', inputs);
    const on = await cpuPhase(stack, 'on', inputs);
    turns.push({ off, on });
  }
  await stack.close();
  const rows: Row[] = [
    {
      name: `CPU per PutItem at ${formatRate(RATE)}, in process`,
      value: `${median(turns.map((t) => t.on.cpuPerWriteMicros)).toFixed(1)} µs`,
      baseline: `${median(turns.map((t) => t.off.cpuPerWriteMicros)).toFixed(1)} µs`,
      ratio: median(turns.map((t) => t.on.cpuPerWriteMicros / t.off.cpuPerWriteMicros)),
      target: '≤ 1.05×',
    },
    {
      name: `time in ${LIVE_FEEDS} live feeds' looks and the history's samples`,
      value: `${median(turns.map((t) => t.on.feedMsPerSecond)).toFixed(2)} ms/s`,
      // Beside the CPU time the writes themselves take in a second at this rate.
      baseline: `${((median(turns.map((t) => t.off.cpuPerWriteMicros)) * RATE) / 1000).toFixed(0)} ms/s of writes`,
      ratio: median(turns.map((t) => t.on.feedMsPerSecond / ((t.off.cpuPerWriteMicros * RATE) / 1000))),
      target: '≤ 0.05×',
    },
  ];
  printTable(`console on (${LIVE_FEEDS} live feeds) vs off, in process; medians of ${TURNS} turns`, rows);
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;

async function run(): Promise<void> {
  const turns: { off: CaseFigures; on: CaseFigures }[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const off = await runCase('off');
    const on = await runCase('on');
    turns.push({ off, on });
    console.log(
      `turn ${turn + 1}: p99 ${formatMicros(off.p99Ms)} → ${formatMicros(on.p99Ms)}, ` +
        `throughput ${formatRate(off.throughput)} → ${formatRate(on.throughput)}`,
    );
  }
  const ratio = (pick: (figures: CaseFigures) => number) =>
    median(turns.map(({ off, on }) => pick(on) / pick(off)));
  const middle = (mode: Mode, pick: (figures: CaseFigures) => number) =>
    median(turns.map((t) => pick(t[mode])));
  const rows: Row[] = [
    {
      name: `PutItem p50 at ${formatRate(RATE)}`,
      value: formatMicros(middle('on', (f) => f.p50Ms)),
      baseline: formatMicros(middle('off', (f) => f.p50Ms)),
      ratio: ratio((f) => f.p50Ms),
    },
    {
      name: `PutItem p99 at ${formatRate(RATE)}`,
      value: formatMicros(middle('on', (f) => f.p99Ms)),
      baseline: formatMicros(middle('off', (f) => f.p99Ms)),
      ratio: ratio((f) => f.p99Ms),
      target: '≤ 1.05×',
    },
    {
      name: 'paced rate reached',
      value: formatRate(middle('on', (f) => f.pacedRate)),
      baseline: formatRate(middle('off', (f) => f.pacedRate)),
      ratio: ratio((f) => f.pacedRate),
    },
    {
      name: `PutItem throughput, ${CONCURRENCY} connections`,
      value: formatRate(middle('on', (f) => f.throughput)),
      baseline: formatRate(middle('off', (f) => f.throughput)),
      ratio: ratio((f) => f.throughput),
      target: '≥ 0.95×',
    },
    {
      name: 'event-loop delay p99 (server)',
      value: formatMicros(middle('on', (f) => f.loopDelayP99Ms)),
      baseline: formatMicros(middle('off', (f) => f.loopDelayP99Ms)),
      ratio: ratio((f) => f.loopDelayP99Ms),
    },
    {
      name: 'stream records per live feed',
      value: `${Math.round(middle('on', (f) => f.tailRecordsPerSecond))}/s`,
      target: '≤ 100/s (sampled)',
    },
  ];
  printTable(`console on (${LIVE_FEEDS} live feeds) vs off, over HTTP; medians of ${TURNS} turns`, rows);
  await runCpu();
  if (process.env.BENCH_CONSOLE_CALLGRIND === '1') await instructionCounts();
}

/**
 * One process of the instruction count, run under callgrind (`instructionCounts`): the bench
 * stack listening, with the console open when `on`, PutItems as the paced phase makes them, and
 * with the console what 10,000 writes/s brings in as many writes whatever the speed under
 * valgrind: each live feed's look every 2,500 writes (250 ms) and a sample of the flow's history
 * every 10,000 (1 s). After a warm-up (the JIT) the counters are zeroed, and dumped after the
 * measured writes and their deliveries (`callgrind_control`, asked without blocking the loop).
 */
async function countCase(mode: Mode, writes: number): Promise<void> {
  const stack = await startBenchStack();
  await stack.listen({ port: 0 });
  const feeds: LiveFeed[] = [];
  let history: FlowHistory | undefined;
  if (mode === 'on') {
    stack.openConsole();
    const sources = stackConsoleSources(stack);
    for (let n = 0; n < LIVE_FEEDS; n++) feeds.push(new LiveFeed(sources, () => {}));
    history = new FlowHistory(sources);
  }
  const control = (option: string) =>
    new Promise((resolve) => spawn('callgrind_control', [option, String(process.pid)]).on('exit', resolve));
  const put = async (count: number, offset: number) => {
    for (let n = offset; n < offset + count; n++) {
      stack.engine.executeRaw('PutItem', {
        TableName: 'Bench',
        Item: { pk: { S: `item${n % ITEMS}` }, name: { S: `Customer ${n}` }, visits: { N: String(n) } },
      });
      await undefined;
      if ((n + 1) % 100 === 0) await nextTurn();
      if ((n + 1) % 2_500 === 0) for (const feed of feeds) feed.look();
      if ((n + 1) % 10_000 === 0) history?.sample();
    }
    await stack.settled();
  };
  await put(COUNT_WARMUP, 0);
  await control('-z');
  await put(writes, COUNT_WARMUP);
  await control('-d');
  await stack.close();
}

const COUNT_WARMUP = 10_000;

/**
 * Instructions per PutItem with the console on and off (`BENCH_CONSOLE_CALLGRIND=1`; valgrind's
 * callgrind, minutes per case): each case in its own process under callgrind, the measured
 * writes' instructions from its dump, the stream's and the mapping's deliveries included.
 */
async function instructionCounts(): Promise<void> {
  const writes = Number(process.env.BENCH_CONSOLE_COUNT_WRITES ?? 20_000);
  const bundle = fileURLToPath(import.meta.url);
  const folder = mkdtempSync(join(tmpdir(), 'eddy-callgrind-'));
  const count = async (mode: Mode) => {
    const out = join(folder, `${mode}.out`);
    await new Promise((resolve, reject) =>
      spawn(
        'valgrind',
        [
          '--tool=callgrind',
          `--callgrind-out-file=${out}`,
          process.execPath,
          // V8's marking and compiling on the main thread, in order: on background threads they
          // fell in or out of the counted window by chance (470-741 M instructions of marking
          // in the same case, docs/console.md "Performance").
          '--single-threaded',
          bundle,
          'count',
          mode,
          String(writes),
        ],
        { stdio: 'ignore' },
      ).on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(`callgrind exited ${code}`)))),
    );
    // The dump asked after the measured writes: `<out>.1`, its totals on the `summary:` line.
    const dump = readFileSync(`${out}.1`, 'utf8');
    return Number(/^(?:summary|totals): (\d+)/m.exec(dump)![1]) / writes;
  };
  const off = await count('off');
  const on = await count('on');
  rmSync(folder, { recursive: true, force: true });
  printTable(`instructions per PutItem under callgrind, ${writes.toLocaleString('en-US')} writes`, [
    {
      name: 'instructions per PutItem, console on vs off',
      value: Math.round(on).toLocaleString('en-US'),
      baseline: Math.round(off).toLocaleString('en-US'),
      ratio: on / off,
      target: '≤ 1.05×',
    },
  ]);
}

if (process.argv[2] === 'serve') await serveCase(process.argv[3] as Mode);
else if (process.argv[2] === 'count') await countCase(process.argv[3] as Mode, Number(process.argv[4]));
else if (process.argv[2] === 'instructions') await instructionCounts();
else if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await run();
