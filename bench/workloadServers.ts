/**
 * The servers `bench/workload.ts` and `bench/workloadInstructions.ts` load: each configuration
 * (bench/workloadCases.ts) in its own process (bench/workloadTarget.ts), `eddy serve` on a project
 * config as a user starts it, or dynalite with the same table, preloaded with the items the
 * overwrites rewrite. With `callgrind`, the process runs under valgrind's callgrind with
 * instrumentation off (bench/workloadInstructions.ts turns it on around the measured requests).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, THROUGH_TSX, TSX_LOADER } from './bundle.js';
import { jsonRequest, sendCount } from './loadGenerator.js';
import {
  type Configuration,
  createTableInput,
  NOOP_HANDLER,
  OVERWRITTEN,
  projectConfig,
  template,
  Values,
} from './workloadCases.js';

export type Engine = 'eddy' | 'dynalite' | 'bare';
/** The name of the bare `node:http` server's target (bench/workloadTarget.ts `startBare`). */
export const BARE = 'bare node:http';

export interface Target {
  readonly name: string;
  readonly engine: Engine;
  readonly configuration: Configuration;
  readonly child: ChildProcess;
  readonly port: number;
  readonly values: Values;
  rssBytes?: number;
}

export interface StartOptions {
  /** A V8 CPU profile of each sampling window, into this directory. */
  readonly profile?: string;
  /** Runs the server under callgrind, instrumentation off, its dumps named after this path. */
  readonly callgrind?: string;
  /** More node options (e.g. `--perf-basic-prof`). */
  readonly nodeArgs?: readonly string[];
}

/** Asks a target something over IPC and waits for the answer carrying `field`. */
export function ask<T>(child: ChildProcess, message: string, field: string): Promise<T> {
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

/**
 * valgrind's arguments for a JIT (V8 rewrites code in memory: `--smc-check=all-non-file`), with
 * instrumentation off until `callgrind_control -i on` (the start and the preload run at a tenth
 * of callgrind's cost).
 */
function callgrindArgs(outFile: string): string[] {
  return [
    '--tool=callgrind',
    '--instr-atstart=no',
    '--smc-check=all-non-file',
    `--callgrind-out-file=${outFile}`,
    process.execPath,
  ];
}

export async function startTarget(
  bundle: string,
  engine: Engine,
  configuration: Configuration,
  project: string,
  options: StartOptions = {},
): Promise<Target> {
  const args: string[] = [engine];
  if (engine === 'eddy') {
    const directory = join(project, configuration);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'noop.mjs'), NOOP_HANDLER);
    writeFileSync(join(directory, 'eddy.config.json'), JSON.stringify(projectConfig(configuration), null, 2));
    args.push(join(directory, 'eddy.config.json'));
  }
  if (options.profile !== undefined) args.push(`--profile=${options.profile}`);
  const nodeArgs = [...(THROUGH_TSX ? ['--import', TSX_LOADER] : []), ...(options.nodeArgs ?? [])];
  const child =
    options.callgrind === undefined
      ? fork(bundle, args, { execArgv: nodeArgs, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
      : fork(bundle, args, {
          execPath: 'valgrind',
          execArgv: [...callgrindArgs(options.callgrind), ...nodeArgs],
          // valgrind's own lines (its banner) are not the bench's output.
          stdio: ['ignore', 'inherit', 'ignore', 'ipc'],
        });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${engine} ${configuration} exited with ${code}`)));
  });
  const target: Target = {
    name: engine === 'bare' ? BARE : `${engine} ${configuration}`,
    engine,
    configuration,
    child,
    port,
    values: new Values(),
  };
  if (engine === 'dynalite') {
    await request(port, 'CreateTable', createTableInput(configuration));
    // dynalite makes tables ACTIVE on a timer even with createTableMs 0.
    await new Promise((resolve) => setTimeout(resolve, options.callgrind === undefined ? 200 : 2000));
  }
  // The bare server stores nothing: there is nothing to preload.
  if (engine !== 'bare') await preload(target);
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

/** Stops every target and waits for their exits. */
export async function stopTargets(targets: readonly Target[]): Promise<void> {
  await Promise.all(
    targets.map(
      (target) =>
        new Promise<void>((resolve) => {
          if (target.child.exitCode !== null || target.child.signalCode !== null) return resolve();
          target.child.once('exit', () => resolve());
          target.child.kill('SIGTERM');
        }),
    ),
  );
}

/** The profile directory of a target: dist/bench/profiles/<engine>-<configuration>/. */
export const profileDirectory = (engine: Engine, configuration: Configuration) =>
  join(PROJECT_ROOT, 'dist', 'bench', 'profiles', `${engine}-${configuration}`);
