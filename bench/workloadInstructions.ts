/**
 * `BENCH_WORKLOAD_INSTRUCTIONS=1 npm run bench -- workload`: the workloads of bench/workload.ts
 * measured in instructions, not time. Each server (eddy per configuration, dynalite per
 * configuration it can run) runs alone under valgrind's callgrind; per case, after WARMUP requests
 * uninstrumented, instrumentation goes on for exactly REQUESTS requests at the case's concurrency
 * and until every index and mapping has caught up (`settle`: the GSI maintenance, stream records
 * and handler deliveries those requests caused are counted), then off. Reported: instructions per
 * request (callgrind's Ir: every instruction the process ran, the server's background work and
 * V8's garbage collection included, its optimizing compiler printed apart), and the ratios to
 * the table without the feature and to dynalite with the same indexes. On a machine shared by
 * other sessions this is the figure that does not move with their load (a repeat differs by
 * ~1 %); wall-time ops/s comes from the ordinary run.
 *
 * Knobs: as bench/workload.ts (BENCH_WORKLOAD_ONLY, BENCH_WORKLOAD_CONFIGS, BENCH_WORKLOAD_C,
 * BENCH_WORKLOAD_DYNALITE=0), and BENCH_WORKLOAD_REQUESTS (measured requests per case, default
 * 2,000), BENCH_WORKLOAD_WARMUP (10,000: uninstrumented, so cheap; with 2,000 the optimizing compiler was still busy in the measured window, ~120k instructions a request), BENCH_WORKLOAD_PERF_MAP=1 (node --perf-basic-prof, so
 * `scripts/callgrindJit.py` can name the JIT code in the dumps). The dumps stay in
 * dist/bench/callgrind/ for callgrind_annotate.
 *
 * The bare `node:http` server of the wall-time run is not counted here: instructions per request
 * follow how many requests a server finds per event-loop turn, and under callgrind the lighter
 * server finds fewer (27 November 2026: 254k a request against eddy's 192k, though natively it
 * needs 19 µs of CPU to eddy's 22 µs).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleBench, PROJECT_ROOT, THROUGH_TSX } from './bundle.js';
import { sendCount } from './loadGenerator.js';
import {
  CONFIGURATIONS,
  type Configuration,
  DYNALITE_CONFIGURATIONS,
  DYNALITE_PEER,
  template,
  WORKLOAD_TITLES,
  WORKLOADS,
  type Workload,
} from './workloadCases.js';
import { ask, type Engine, startTarget, stopTargets, type Target } from './workloadServers.js';

const list = (name: string, fallback: readonly string[]) =>
  process.env[name] === undefined ? fallback : process.env[name]!.split(',').map((item) => item.trim());
const WORKLOAD_LIST = list('BENCH_WORKLOAD_ONLY', WORKLOADS) as Workload[];
const CONFIGURATION_LIST = list('BENCH_WORKLOAD_CONFIGS', CONFIGURATIONS) as Configuration[];
const CONCURRENCIES = list('BENCH_WORKLOAD_C', ['1', '16']).map(Number);
const WITH_DYNALITE = process.env.BENCH_WORKLOAD_DYNALITE !== '0';
const REQUESTS = Number(process.env.BENCH_WORKLOAD_REQUESTS ?? 2000);
const WARMUP = Number(process.env.BENCH_WORKLOAD_WARMUP ?? 10_000);
const PERF_MAP = process.env.BENCH_WORKLOAD_PERF_MAP === '1';
const DUMPS = join(PROJECT_ROOT, 'dist', 'bench', 'callgrind');
/**
 * V8's memory reducer starts full collections when the allocation rate per second of wall time
 * is low, and under callgrind (~50× slower) every rate is low: it ran major GCs that a native run
 * never does (node --trace-gc, eddy all at 16 clients: no Mark-Compact in 15,000 requests
 * natively; under callgrind concurrent marking and sweeping were ~25 % of the instructions, and
 * the bytecode they flushed was compiled again). Off, collections follow allocation as natively.
 */
const NODE_ARGS = ['--no-memory-reducer'];

/** Sends `count` requests of a workload at a concurrency; throws if any failed. */
async function send(target: Target, workload: Workload, concurrency: number, count: number): Promise<void> {
  const base = template(workload, target.port);
  const failures = await sendCount({
    port: target.port,
    concurrency,
    template: () => ({ bytes: Buffer.from(base.bytes), fields: base.fields }),
    values: () => target.values.next(workload),
    count,
  });
  if (failures > 0) throw new Error(`${target.name} ${workload}: ${failures} of ${count} requests failed`);
}

const control = (pid: number, ...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore' });

/** The Ir total of the newest dump whose name starts with `prefix`. */
function newestTotal(prefix: string): { file: string; instructions: number } {
  const dumps = readdirSync(DUMPS)
    .filter((name) => name.startsWith(`${prefix}.`) && /\.\d+$/.test(name))
    .sort((a, b) => Number(a.slice(a.lastIndexOf('.') + 1)) - Number(b.slice(b.lastIndexOf('.') + 1)));
  const file = join(DUMPS, dumps.at(-1)!);
  const totals = /^totals: (\d+)/m.exec(readFileSync(file, 'utf8'));
  if (totals === null) throw new Error(`no totals in ${file}`);
  return { file, instructions: Number(totals[1]) };
}

/** Instructions per request of one case on one server (instrumented around the requests only). */
async function measure(target: Target, prefix: string, workload: Workload, concurrency: number) {
  const pid = target.child.pid!;
  await send(target, workload, concurrency, WARMUP);
  await ask(target.child, 'settle', 'settled');
  control(pid, '-z');
  control(pid, '-i', 'on');
  await send(target, workload, concurrency, REQUESTS);
  await ask(target.child, 'settle', 'settled');
  control(pid, '-i', 'off');
  control(pid, '-d');
  const { file, instructions } = newestTotal(prefix);
  const compiler = compilerInstructions(file);
  return { perRequest: (instructions - compiler) / REQUESTS, compilerPerRequest: compiler / REQUESTS, file };
}

/**
 * The instructions V8's optimizing compiler ran in a dump (its background task, inclusive). They
 * are left out of the per-request figure: under callgrind the warm-up does not finish the
 * compiler's work (threads run one at a time), and the first workload measured in a server
 * process took 142k instructions a request of compilation where the next took none (27 November
 * 2026, eddy all, PutItem overwrites: 469k with it, 327k without).
 */
function compilerInstructions(file: string): number {
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const line = annotated
    .split('\n')
    .find((text) => text.includes('OptimizingCompileDispatcher::CompileTask::RunInternal'));
  return line === undefined ? 0 : Number(line.trim().split(' ')[0]!.replaceAll(',', ''));
}

type Results = Map<string, Map<string, number>>;

export async function runInstructions(): Promise<void> {
  const bundle = THROUGH_TSX
    ? join(PROJECT_ROOT, 'bench', 'workloadTarget.ts')
    : await bundleBench('workloadTarget');
  mkdirSync(DUMPS, { recursive: true });
  const project = mkdtempSync(join(tmpdir(), 'eddy-bench-workload-'));
  const servers: [Engine, Configuration][] = [
    ...CONFIGURATION_LIST.map((c): [Engine, Configuration] => ['eddy', c]),
    ...(WITH_DYNALITE
      ? DYNALITE_CONFIGURATIONS.filter((c) => CONFIGURATION_LIST.includes(c)).map(
          (c): [Engine, Configuration] => ['dynalite', c],
        )
      : []),
  ];
  const results: Results = new Map();
  try {
    // One server at a time: valgrind's cost is the whole machine's.
    for (const [engine, configuration] of servers) {
      const prefix = `${engine}-${configuration}-${process.pid}`;
      const target = await startTarget(bundle, engine, configuration, project, {
        callgrind: join(DUMPS, prefix),
        nodeArgs: PERF_MAP ? [...NODE_ARGS, '--perf-basic-prof'] : NODE_ARGS,
      });
      try {
        for (const workload of WORKLOAD_LIST)
          for (const concurrency of CONCURRENCIES) {
            const { perRequest, compilerPerRequest, file } = await measure(
              target,
              prefix,
              workload,
              concurrency,
            );
            const key = `${workload} c=${concurrency}`;
            const row = results.get(key) ?? new Map<string, number>();
            results.set(key, row);
            row.set(target.name, perRequest);
            console.log(
              `${target.name} ${key}: ${Math.round(perRequest).toLocaleString('en-US')} instructions/request ` +
                `and ${Math.round(compilerPerRequest).toLocaleString('en-US')} of the optimizing compiler ` +
                `(${file}; load average ${loadavg()[0]!.toFixed(1)})`,
            );
          }
      } finally {
        await stopTargets([target]);
      }
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
  report(results, servers);
}

function report(results: Results, servers: readonly [Engine, Configuration][]): void {
  const header = ['case', 'server', 'instructions/request', '× none', '× dynalite (its ops/s at equal CPU)'];
  const rows: string[][] = [];
  for (const [key, row] of results) {
    const [workload, concurrency] = key.split(' c=') as [Workload, string];
    for (const [engine, configuration] of servers) {
      const name = `${engine} ${configuration}`;
      const value = row.get(name);
      if (value === undefined) continue;
      const none = row.get(`${engine} none`);
      const peer = engine === 'eddy' ? DYNALITE_PEER[configuration] : undefined;
      const dynalite = peer === undefined ? undefined : row.get(`dynalite ${peer}`);
      rows.push([
        `${WORKLOAD_TITLES[workload]}, c=${concurrency}`,
        name,
        `${Math.round(value / 1000).toLocaleString('en-US')}k`,
        none === undefined || configuration === 'none' ? '' : `${(none / value).toFixed(2)}×`,
        dynalite === undefined ? '' : `${(dynalite / value).toFixed(2)}×`,
      ]);
    }
  }
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(
    `\nInstructions per request under callgrind (${REQUESTS} requests per case after ${WARMUP} of warm-up, ` +
      'background work until settled included, the optimizing compiler left out (its share of a ' +
      'window is chance, printed per case above); × none and × dynalite: the throughput ratio the ' +
      "instructions alone allow, the other server's instructions over this one's)",
  );
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}
