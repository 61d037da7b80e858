/**
 * One server per process for `bench/workload.ts`: `eddy <config file>` starts `eddy serve` on that
 * config (the CLI's `serve`: the local stack with its gsi-maintainer, the project's function bound
 * to its table's stream, the ttl-expirer, behind the HTTP server), `dynalite` starts dynalite,
 * `bare` a `node:http` server that does only what every write costs any server in Node
 * (bench/bareServer.ts). It listens on a free loopback port and reports `{ port }` to the parent
 * over IPC.
 *
 * The parent asks over IPC, between and during its load runs:
 * - `cpu` → the process's CPU time so far (µs);
 * - `settle` → answers once every index and mapping has caught up;
 * - `sample-start` / `sample-stop` → while sampling: at each invocation of the gsi-maintainer and
 *   of the project's function, the iterator age and batch size (`recordDeliveries`); every
 *   SAMPLE_MS, the mappings' backlogs; the event loop's delay. `sample-stop` answers with them
 *   and the RSS.
 *
 * With `--profile=<directory>` (argv[4]), each sampling window is also CPU-profiled (the V8
 * sampling profiler, as `node --cpu-prof` runs it, but over the measured load only) into
 * `<directory>/<n>.cpuprofile`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { RunningEddy } from '../infra/cli/serve.js';
import type { EventSourceMapping } from '../streams/mapping/eventSourceMapping.js';
import { startBareServer } from './bareServer.js';

/** How often the backlogs are sampled while the parent's load runs (ms). */
const SAMPLE_MS = 10;

/** What one kind of mapping did while sampling: per invocation, its records and iterator age. */
export interface Deliveries {
  readonly invocations: number;
  readonly records: number;
  /**
   * Iterator age (ms) at each invocation: how old the oldest record not yet done was when the
   * batch was handed to the function (AWS's IteratorAge takes the batch's last record; the oldest
   * makes this an upper bound). For the gsi-maintainer, its batch's changes reach the indexes
   * within that invocation: this is the GSI lag of its oldest change.
   */
  readonly agesMs: number[];
  /** Records per invocation, in the order of `agesMs` (to weigh GSI lag by change). */
  readonly sizes: number[];
  /** Backlog (records committed and not yet done) every SAMPLE_MS, largest over the mappings. */
  readonly backlog: number[];
}

export interface TargetSamples {
  readonly gsi: Deliveries;
  /** The project's mapping (the no-op handler bound to the stream). */
  readonly handler: Deliveries;
  /** Event-loop delay p99 over the sampling (ms), from `monitorEventLoopDelay`. */
  readonly loopDelayP99Ms: number;
  readonly rssBytes: number;
}

async function startEddy(configFile: string): Promise<{ port: number; eddy: RunningEddy }> {
  // Loaded here only: the dynalite process carries none of eddy's code.
  const { serve } = await import('../infra/cli/serve.js');
  const eddy = await serve(
    { config: configFile, port: 0, host: '127.0.0.1' },
    { print: () => {}, cwd: dirname(configFile) },
  );
  return { port: eddy.address.port, eddy };
}

function startDynalite(): Promise<number> {
  const dynalite = createRequire(import.meta.url)('dynalite') as (options: object) => {
    listen(port: number, host: string, callback: () => void): void;
    address(): AddressInfo;
  };
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

const kind = process.argv[2];
let eddy: RunningEddy | undefined;
let port: number;
if (kind === 'eddy') ({ port, eddy } = await startEddy(process.argv[3]!));
// The transport's floor for a write (bench/bareServer.ts): PutItem's `{}`, answers written per
// event-loop turn as eddy's server writes them. No server in Node answers a write over node:http
// for much less, so it bounds every ratio: eddy at N× dynalite needs dynalite's throughput × N
// below this one's.
else if (kind === 'bare') port = await startBareServer(Buffer.from('{}'), { perTurn: true });
else port = await startDynalite();

type Kind = 'gsi' | 'handler';
interface Recording {
  invocations: number;
  records: number;
  agesMs: number[];
  sizes: number[];
  backlog: number[];
}
const emptyRecording = (): Recording => ({ invocations: 0, records: 0, agesMs: [], sizes: [], backlog: [] });
let recordings: Record<Kind, Recording> | undefined;

/**
 * Wraps each mapping's function (the gsi-maintainer's internal mappings and the project's) to
 * note its iterator age and batch size at every invocation, then restarts the mapping so its
 * pipeline takes the wrapper (from its checkpoint: nothing is lost or repeated but what was in
 * flight, and nothing is, between loads).
 */
function recordDeliveries(running: RunningEddy): EventSourceMapping[] {
  const mappings = running.stack.mappings
    .inspect()
    .map((state) => running.stack.mappings.mapping(state.uuid));
  for (const mapping of mappings) {
    const fn = mapping.fn;
    const kind: Kind = fn.functionName === 'gsi-maintainer' ? 'gsi' : 'handler';
    mapping.fn = {
      functionName: fn.functionName,
      functionArn: fn.functionArn,
      invoke: (event) => {
        const recording = recordings?.[kind];
        if (recording !== undefined) {
          const { Changes, Records } = event as { Changes?: unknown[]; Records?: unknown[] };
          const size = (Changes ?? Records ?? []).length;
          recording.invocations++;
          recording.records += size;
          recording.agesMs.push(mapping.iteratorAgeMs());
          recording.sizes.push(size);
        }
        return fn.invoke(event);
      },
    };
    mapping.stop();
    mapping.start();
  }
  return mappings;
}

/** Samples backlogs on a timer while the parent's load runs; deliveries are recorded meanwhile. */
function sampler(mappings: readonly EventSourceMapping[]) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const current = { gsi: emptyRecording(), handler: emptyRecording() };
  recordings = current;
  const sample = () => {
    const backlog = { gsi: 0, handler: 0 };
    for (const mapping of mappings) {
      const kind: Kind = mapping.fn.functionName === 'gsi-maintainer' ? 'gsi' : 'handler';
      backlog[kind] = Math.max(backlog[kind], mapping.backlog());
    }
    current.gsi.backlog.push(backlog.gsi);
    current.handler.backlog.push(backlog.handler);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return (): TargetSamples => {
    clearInterval(timer);
    delay.disable();
    recordings = undefined;
    return {
      ...current,
      loopDelayP99Ms: delay.percentile(99) / 1e6,
      rssBytes: process.memoryUsage.rss(),
    };
  };
}

const mappings = eddy === undefined ? [] : recordDeliveries(eddy);

const profileDirectory = process.argv.find((arg) => arg.startsWith('--profile='))?.slice(10);
let profiles = 0;
const profiler = profileDirectory === undefined ? undefined : new Session();
profiler?.connect();
await profiler?.post('Profiler.enable');

let stopSampling: (() => TargetSamples) | undefined;
process.send?.({ port });
// Exit normally on SIGTERM, so `--cpu-prof` runs write their profile.
process.on('SIGTERM', () => process.exit(0));
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  } else if (message === 'settle') {
    // Every index and mapping caught up (dynalite's indexes are synchronous).
    void (eddy?.engine.settled() ?? Promise.resolve()).then(() => process.send?.({ settled: true }));
  } else if (message === 'sample-start') {
    void (profiler?.post('Profiler.start') ?? Promise.resolve()).then(() => {
      stopSampling = sampler(mappings);
      process.send?.({ sampling: true });
    });
  } else if (message === 'sample-stop') {
    const samples = stopSampling?.();
    stopSampling = undefined;
    void (profiler?.post('Profiler.stop') ?? Promise.resolve(undefined)).then((stopped) => {
      if (stopped !== undefined) {
        mkdirSync(profileDirectory!, { recursive: true });
        writeFileSync(join(profileDirectory!, `${++profiles}.cpuprofile`), JSON.stringify(stopped.profile));
      }
      process.send?.({ samples });
    });
  }
});
