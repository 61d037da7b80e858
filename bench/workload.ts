/**
 * Speed where users feel it (issue #21): PutItem and UpdateItem over HTTP into tables with global
 * secondary indexes, a stream with a handler bound to it, and TTL, each beside the same table
 * without the feature, measured in one run.
 *
 * Each configuration (bench/workloadCases.ts: none, 1 GSI ALL, 2 GSIs KEYS_ONLY + INCLUDE, a
 * NEW_AND_OLD_IMAGES stream with a no-op handler bound by a mapping, all of these with TTL) runs in
 * its own `eddy serve` process, started from a project config as a user starts it
 * (bench/workloadTarget.ts); dynalite runs the configurations it can (its GSIs are synchronous; it
 * keeps no stream records). The lean load generator (bench/loadGenerator.ts) runs here, in another
 * process. Tables are PAY_PER_REQUEST with ~230-byte items, 20,000 preloaded: 10,000 overwritten
 * keeping their index keys, 10,000 overwritten moving them.
 *
 * Turns: every case (workload × concurrency) is measured on every server back to back, in an
 * order reversed every other turn, and its ratio to the table without features taken within the
 * turn; the medians over TURNS turns are printed with the ratios' range (this 2-core machine is
 * shared and its load drifts). Per case: ops/s, server CPU per request, p50/p99 latency, the GSI
 * lag and the mapping's iterator age sampled every 10 ms during the load (their p99 and the
 * largest backlog seen), and each server's RSS at the end.
 *
 * Run: npm run bench -- workload
 * Knobs: BENCH_WORKLOAD_SECONDS (measured seconds per case, default 2), BENCH_WORKLOAD_TURNS (3),
 * BENCH_WORKLOAD_ONLY (workloads, comma-separated, e.g. `put-same,put-new`),
 * BENCH_WORKLOAD_CONFIGS (configurations, e.g. `none,gsi1`), BENCH_WORKLOAD_C (`1,16`),
 * BENCH_WORKLOAD_DYNALITE=0 (no dynalite), BENCH_WORKLOAD_PROFILE=<server> (e.g. `eddy gsi1`: its
 * CPU profile of each measured load, into dist/bench/profiles/<engine>-<configuration>/).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBench, PROJECT_ROOT, THROUGH_TSX, TSX_LOADER } from './bundle.js';
import { jsonRequest, type LoadResult, runLoad, sendCount } from './loadGenerator.js';
import { percentile } from './support.js';
import {
  CONFIGURATION_TITLES,
  CONFIGURATIONS,
  type Configuration,
  createTableInput,
  DYNALITE_CONFIGURATIONS,
  DYNALITE_PEER,
  NOOP_HANDLER,
  OVERWRITTEN,
  projectConfig,
  template,
  Values,
  WORKLOAD_TITLES,
  WORKLOADS,
  type Workload,
} from './workloadCases.js';
import type { Deliveries, TargetSamples } from './workloadTarget.js';

const list = (name: string, fallback: readonly string[]) =>
  process.env[name] === undefined ? fallback : process.env[name]!.split(',').map((item) => item.trim());
const SECONDS = Number(process.env.BENCH_WORKLOAD_SECONDS ?? 2);
const WARMUP_MS = 500;
const TURNS = Number(process.env.BENCH_WORKLOAD_TURNS ?? 3);
const WORKLOAD_LIST = list('BENCH_WORKLOAD_ONLY', WORKLOADS) as Workload[];
const CONFIGURATION_LIST = list('BENCH_WORKLOAD_CONFIGS', CONFIGURATIONS) as Configuration[];
const CONCURRENCIES = list('BENCH_WORKLOAD_C', ['1', '16']).map(Number);
const WITH_DYNALITE = process.env.BENCH_WORKLOAD_DYNALITE !== '0';
/** dynalite is measured at 16 clients only: the targets compare it there. */
const DYNALITE_CONCURRENCY = 16;
const PROFILED = process.env.BENCH_WORKLOAD_PROFILE;

interface Target {
  readonly name: string;
  readonly engine: 'eddy' | 'dynalite';
  readonly configuration: Configuration;
  readonly child: ChildProcess;
  readonly port: number;
  readonly values: Values;
  rssBytes?: number;
}

/** One measurement of one case on one target. */
interface Measured {
  readonly opsPerSecond: number;
  readonly failures: number;
  readonly cpuMicros: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly samples: TargetSamples | undefined;
}

/** Asks a target something over IPC and waits for the answer carrying `field`. */
function ask<T>(child: ChildProcess, message: string, field: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (answer: unknown) => {
      if (typeof answer === 'object' && answer !== null && field in answer) {
        child.off('message', listener);
        resolve((answer as Record<string, T>)[field]!);
      }
    };
    child.on('message', listener);
    child.send(message);
  });
}

async function startTarget(
  bundle: string,
  engine: 'eddy' | 'dynalite',
  configuration: Configuration,
  project: string,
): Promise<Target> {
  const args: string[] = [engine];
  if (engine === 'eddy') {
    const directory = join(project, configuration);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'noop.mjs'), NOOP_HANDLER);
    writeFileSync(join(directory, 'eddy.config.json'), JSON.stringify(projectConfig(configuration), null, 2));
    args.push(join(directory, 'eddy.config.json'));
  }
  if (PROFILED !== undefined && `${engine} ${configuration}` === PROFILED)
    args.push(`--profile=${join(PROJECT_ROOT, 'dist', 'bench', 'profiles', `${engine}-${configuration}`)}`);
  const execArgv = THROUGH_TSX ? ['--import', TSX_LOADER] : [];
  const child = fork(bundle, args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${engine} ${configuration} exited with ${code}`)));
  });
  const target: Target = {
    name: `${engine} ${configuration}`,
    engine,
    configuration,
    child,
    port,
    values: new Values(),
  };
  if (engine === 'dynalite') {
    await request(port, 'CreateTable', createTableInput(configuration));
    // dynalite makes tables ACTIVE on a timer even with createTableMs 0.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await preload(target);
  return target;
}

/** One request (setup). */
async function request(port: number, operation: string, body: object): Promise<void> {
  const bytes = jsonRequest(port, operation, JSON.stringify(body));
  const failures = await sendCount({
    port,
    concurrency: 1,
    template: () => bytes,
    values: () => [],
    count: 1,
  });
  if (failures > 0) throw new Error(`${operation} failed during setup`);
}

/** Writes the 2 × 10,000 items the overwrites rewrite (not measured). */
async function preload(target: Target): Promise<void> {
  const base = template('preload', target.port);
  const failures = await sendCount({
    port: target.port,
    concurrency: 8,
    template: () => ({ bytes: Buffer.from(base.bytes), fields: base.fields }),
    values: Values.preload,
    count: 2 * OVERWRITTEN,
  });
  if (failures > 0) throw new Error(`${target.name}: ${failures} preload writes failed`);
  await ask(target.child, 'settle', 'settled');
}

async function measure(target: Target, workload: Workload, concurrency: number): Promise<Measured> {
  const base = template(workload, target.port);
  const load = {
    port: target.port,
    concurrency,
    template: () => ({ bytes: Buffer.from(base.bytes), fields: base.fields }),
    values: () => target.values.next(workload),
    warmupMs: 0,
  };
  await runLoad({ ...load, durationMs: WARMUP_MS });
  await ask(target.child, 'settle', 'settled');
  const latencies: number[] = [];
  const cpuBefore = await ask<number>(target.child, 'cpu', 'cpu');
  await ask(target.child, 'sample-start', 'sampling');
  const result: LoadResult = await runLoad({ ...load, durationMs: SECONDS * 1000, latencies });
  const samples = await ask<TargetSamples | undefined>(target.child, 'sample-stop', 'samples');
  const cpuAfter = await ask<number>(target.child, 'cpu', 'cpu');
  await ask(target.child, 'settle', 'settled');
  target.rssBytes = samples?.rssBytes;
  latencies.sort((a, b) => a - b);
  return {
    opsPerSecond: result.opsPerSecond,
    failures: result.failures,
    cpuMicros: (cpuAfter - cpuBefore) / Math.max(1, result.requests),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    samples,
  };
}

const caseKey = (workload: Workload, concurrency: number) => `${workload} c=${concurrency}`;

/** Every measurement: case → target name → one per turn. */
type Results = Map<string, Map<string, Measured[]>>;

async function measureInTurns(targets: readonly Target[]): Promise<Results> {
  const results: Results = new Map();
  for (let turn = 0; turn < TURNS; turn++) {
    const order = turn % 2 === 0 ? targets : [...targets].reverse();
    for (const workload of WORKLOAD_LIST) {
      for (const concurrency of CONCURRENCIES) {
        const key = caseKey(workload, concurrency);
        const byTarget = results.get(key) ?? new Map<string, Measured[]>();
        results.set(key, byTarget);
        for (const target of order) {
          if (target.engine === 'dynalite' && concurrency !== DYNALITE_CONCURRENCY) continue;
          const measured = await measure(target, workload, concurrency);
          byTarget.set(target.name, [...(byTarget.get(target.name) ?? []), measured]);
        }
        process.stdout.write('.');
      }
    }
    console.log(` turn ${turn + 1}/${TURNS} (load average ${loadavg()[0]!.toFixed(1)})`);
  }
  return results;
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const range = (values: readonly number[]) =>
  `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** Ratios within each turn of `a` to `b` (same length: one per turn). */
const ratios = (a: readonly Measured[], b: readonly Measured[]) =>
  a.map((measured, turn) => measured.opsPerSecond / b[turn]!.opsPerSecond);
/**
 * Within each turn, `b`'s server CPU per request over `a`'s: the throughput ratio the CPU work
 * alone allows, steadier than ops/s while others load the machine (their processes take turns
 * with the load generator and the server, and ops/s follows the scheduler).
 */
const cpuRatios = (a: readonly Measured[], b: readonly Measured[]) =>
  a.map((measured, turn) => b[turn]!.cpuMicros / measured.cpuMicros);

/** The issue's targets (c=16, ratios to the table without the feature). */
function targetOf(configuration: Configuration, workload: Workload): { ratio?: number; dynalite?: number } {
  const overwrite = !workload.endsWith('-new');
  switch (configuration) {
    case 'gsi1':
      return overwrite ? { ratio: 0.65 } : {};
    case 'gsi2':
      return overwrite ? {} : { ratio: 0.5 };
    case 'stream':
      return { ratio: 0.7 };
    case 'all':
      return { ratio: 0.4, dynalite: 4 };
    default:
      return {};
  }
}

/**
 * One mapping's figures over the turns: the p99 of its iterator age (weighted by change for the
 * GSI lag: each change counts with the age of its batch's oldest), records per invocation, the
 * largest backlog seen and the backlog when the load ended (growing: it keeps up no more).
 */
function deliveryCell(deliveries: readonly Deliveries[], byChange: boolean): string {
  const runs = deliveries.filter((d) => d.invocations > 0);
  if (runs.length === 0) return '';
  const p99s = runs.map((d) => {
    const ages = byChange ? d.agesMs.flatMap((age, i) => Array<number>(d.sizes[i]!).fill(age)) : d.agesMs;
    return percentile(
      ages.sort((a, b) => a - b),
      0.99,
    );
  });
  const invocations = runs.reduce((sum, d) => sum + d.invocations, 0);
  const records = runs.reduce((sum, d) => sum + d.records, 0);
  const backlogMax = Math.max(...runs.flatMap((d) => d.backlog));
  const backlogEnd = Math.max(...runs.map((d) => d.backlog.at(-1) ?? 0));
  return `${ms(median(p99s))} ms, ${(records / invocations).toFixed(1)}/inv, ≤ ${backlogMax} (end ${backlogEnd})`;
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

function report(results: Results, targets: readonly Target[]): void {
  const header = [
    'case',
    'server',
    'ops/s',
    '× none (turns)',
    'by CPU',
    '× dynalite',
    'cpu/req',
    'p50/p99 ms',
    'GSI lag p99, batch, backlog',
    'iterator age p99, batch, backlog',
    'loop delay p99',
    'target (c=16)',
  ];
  const rows: string[][] = [];
  for (const [key, byTarget] of results) {
    const [workload, concurrencyText] = key.split(' c=') as [Workload, string];
    const concurrency = Number(concurrencyText);
    const none = byTarget.get('eddy none');
    for (const target of targets) {
      const measured = byTarget.get(target.name);
      if (measured === undefined) continue;
      const ops = median(measured.map((m) => m.opsPerSecond));
      const failures = measured.reduce((sum, m) => sum + m.failures, 0);
      const baseline = target.engine === 'eddy' ? none : byTarget.get('dynalite none');
      const turnRatios =
        baseline === undefined || baseline === measured ? undefined : ratios(measured, baseline);
      const peer = DYNALITE_PEER[target.configuration];
      const dynalite =
        target.engine === 'eddy' && peer !== undefined ? byTarget.get(`dynalite ${peer}`) : undefined;
      const dynaliteRatios = dynalite === undefined ? undefined : ratios(measured, dynalite);
      const samples = measured.map((m) => m.samples).filter((s) => s !== undefined);
      const goal =
        target.engine === 'eddy' && concurrency === 16 ? targetOf(target.configuration, workload) : {};
      const goals: string[] = [];
      if (goal.ratio !== undefined && turnRatios !== undefined)
        goals.push(
          `≥ ${goal.ratio.toFixed(2)}× ${median(turnRatios) >= goal.ratio ? '✓' : '✗'} ` +
            `(by CPU ${median(cpuRatios(measured, baseline!)) >= goal.ratio ? '✓' : '✗'})`,
        );
      if (goal.dynalite !== undefined && dynaliteRatios !== undefined)
        goals.push(`≥ ${goal.dynalite}× dynalite ${median(dynaliteRatios) >= goal.dynalite ? '✓' : '✗'}`);
      rows.push([
        `${WORKLOAD_TITLES[workload]}, c=${concurrency}`,
        `${target.name}`,
        `${Math.round(ops).toLocaleString('en-US')}${failures > 0 ? ` (${failures} failed)` : ''}`,
        turnRatios === undefined ? '' : `${median(turnRatios).toFixed(2)}× (${range(turnRatios)})`,
        baseline === undefined || baseline === measured
          ? ''
          : `${median(cpuRatios(measured, baseline)).toFixed(2)}× (${range(cpuRatios(measured, baseline))})`,
        dynaliteRatios === undefined ? '' : `${median(dynaliteRatios).toFixed(1)}×`,
        `${median(measured.map((m) => m.cpuMicros)).toFixed(0)} µs`,
        `${ms(median(measured.map((m) => m.p50Ms)))} / ${ms(median(measured.map((m) => m.p99Ms)))}`,
        deliveryCell(
          samples.map((s) => s.gsi),
          true,
        ),
        deliveryCell(
          samples.map((s) => s.handler),
          false,
        ),
        samples.length === 0 ? '' : `${ms(median(samples.map((s) => s.loopDelayP99Ms)))} ms`,
        goals.join(', '),
      ]);
    }
  }
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(
    `\nWorkloads over HTTP (keep-alive, ~230-byte items, PAY_PER_REQUEST; medians of ${TURNS} turns × ` +
      `${SECONDS}s per case, servers ${THROUGH_TSX ? 'through tsx' : 'bundled'}; load average now ` +
      `${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})\n` +
      'Targets at c=16: GSI lag p99 ≤ 20 ms, iterator age p99 ≤ 50 ms, at each invocation during the load ' +
      '(ms clock); batch: records per invocation; backlog: largest sampled every 10 ms, and at the end.\n' +
      'by CPU: server CPU per request of the table without the feature over this one (per turn).',
  );
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('\nRSS at the end of the run:');
  for (const target of targets)
    if (target.rssBytes !== undefined)
      console.log(
        `  ${target.name.padEnd(16)} ${(target.rssBytes / 1024 / 1024).toFixed(0)} MB  ${CONFIGURATION_TITLES[target.configuration]}`,
      );
}

export async function run(): Promise<void> {
  const bundle = THROUGH_TSX
    ? join(PROJECT_ROOT, 'bench', 'workloadTarget.ts')
    : await bundleBench('workloadTarget');
  const project = mkdtempSync(join(tmpdir(), 'eddy-bench-workload-'));
  const targets: Target[] = [];
  try {
    for (const configuration of CONFIGURATION_LIST)
      targets.push(await startTarget(bundle, 'eddy', configuration, project));
    if (WITH_DYNALITE)
      for (const configuration of DYNALITE_CONFIGURATIONS)
        if (CONFIGURATION_LIST.includes(configuration))
          targets.push(await startTarget(bundle, 'dynalite', configuration, project));
    console.log(`servers ready (load average ${loadavg()[0]!.toFixed(1)})`);
    const results = await measureInTurns(targets);
    report(results, targets);
  } finally {
    await Promise.all(
      targets.map(
        (target) =>
          new Promise<void>((resolve) => {
            target.child.once('exit', () => resolve());
            target.child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(project, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
