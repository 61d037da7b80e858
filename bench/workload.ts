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
 * BENCH_WORKLOAD_DYNALITE=0 (no dynalite), BENCH_WORKLOAD_BARE=0 (no bare `node:http` server: the
 * transport's floor, which every row is also given as a ratio to), BENCH_WORKLOAD_PROFILE=<server> (e.g. `eddy gsi1`: its
 * CPU profile of each measured load, into dist/bench/profiles/<engine>-<configuration>/).
 * BENCH_WORKLOAD_INSTRUCTIONS=1: instructions per request under callgrind instead of wall time
 * (bench/workloadInstructions.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBench, PROJECT_ROOT, THROUGH_TSX } from './bundle.js';
import { type LoadResult, runLoad } from './loadGenerator.js';
import { percentile } from './support.js';
import {
  CONFIGURATION_TITLES,
  CONFIGURATIONS,
  type Configuration,
  DYNALITE_CONFIGURATIONS,
  DYNALITE_PEER,
  template,
  WORKLOAD_TITLES,
  WORKLOADS,
  type Workload,
} from './workloadCases.js';
import { runInstructions } from './workloadInstructions.js';
import {
  ask,
  BARE,
  type Engine,
  profileDirectory,
  startTarget,
  stopTargets,
  type Target,
} from './workloadServers.js';
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
const WITH_BARE = process.env.BENCH_WORKLOAD_BARE !== '0';
/** dynalite is measured at 16 clients only: the targets compare it there. */
const DYNALITE_CONCURRENCY = 16;
const PROFILED = process.env.BENCH_WORKLOAD_PROFILE;
const profiled = (engine: Engine, configuration: Configuration) =>
  `${engine} ${configuration}` === PROFILED ? { profile: profileDirectory(engine, configuration) } : {};

/** One measurement of one case on one target. */
interface Measured {
  readonly opsPerSecond: number;
  readonly failures: number;
  readonly cpuMicros: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly samples: TargetSamples | undefined;
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
    '× bare',
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
    const bare = byTarget.get(BARE);
    for (const target of targets) {
      const measured = byTarget.get(target.name);
      if (measured === undefined) continue;
      const ops = median(measured.map((m) => m.opsPerSecond));
      const failures = measured.reduce((sum, m) => sum + m.failures, 0);
      const baseline =
        target.engine === 'eddy'
          ? none
          : target.engine === 'dynalite'
            ? byTarget.get('dynalite none')
            : undefined;
      const bareRatios = bare === undefined || bare === measured ? undefined : ratios(measured, bare);
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
        bareRatios === undefined ? '' : `${median(bareRatios).toFixed(2)}×`,
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
      'by CPU: server CPU per request of the table without the feature over this one (per turn). ' +
      '× bare: ops/s over a node:http server that only parses the body and answers `{}` (per turn).',
  );
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('\nRSS at the end of the run:');
  for (const target of targets)
    if (target.rssBytes !== undefined)
      console.log(
        `  ${target.name.padEnd(16)} ${(target.rssBytes / 1024 / 1024).toFixed(0)} MB  ${target.engine === 'bare' ? 'parses the body, answers {}' : CONFIGURATION_TITLES[target.configuration]}`,
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
      targets.push(
        await startTarget(bundle, 'eddy', configuration, project, profiled('eddy', configuration)),
      );
    if (WITH_DYNALITE)
      for (const configuration of DYNALITE_CONFIGURATIONS)
        if (CONFIGURATION_LIST.includes(configuration))
          targets.push(
            await startTarget(
              bundle,
              'dynalite',
              configuration,
              project,
              profiled('dynalite', configuration),
            ),
          );
    if (WITH_BARE) targets.push(await startTarget(bundle, 'bare', 'none', project));
    console.log(`servers ready (load average ${loadavg()[0]!.toFixed(1)})`);
    const results = await measureInTurns(targets);
    report(results, targets);
  } finally {
    await stopTargets(targets);
    rmSync(project, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.env.BENCH_WORKLOAD_INSTRUCTIONS === '1') await runInstructions();
  else await run();
}
