import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { runtimeBundleOptions } from '../bin/bundleOptions.mjs';

/**
 * Benchmarks run eddy as `npm start` does: from an esbuild bundle (see bin/eddy.mjs), not
 * through tsx. tsx transforms with `keepNames`, which wraps every closure eddy creates in a
 * `__name(...)` call, a cost per request that no user of the server pays (measured in process:
 * GetItem 5.8 → 4.2 µs, Query of 10 items 22 → 12 µs).
 */

/** The project root, found from this file in `bench/` or from a bundle in `dist/bench/`. */
export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  let directory = from;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${from}`);
    directory = parent;
  }
  return directory;
}

/** The tsx loader, for a child that runs TypeScript sources (BENCH_TSX=1). */
export const TSX_LOADER = pathToFileURL(join(PROJECT_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Runs benches through tsx instead of bundles (to see what the transform costs). */
export const THROUGH_TSX = process.env.BENCH_TSX === '1';

/**
 * Bundles `bench/<name>.ts` (eddy's code included, packages left as imports) into
 * `dist/bench/<name>.mjs`, two levels below the root like the CLI's bundle, so packages resolve
 * from the root's node_modules. Returns the bundle's path.
 */
export async function bundleBench(name: string): Promise<string> {
  const outfile = join(PROJECT_ROOT, 'dist', 'bench', `${name}.mjs`);
  await build({
    entryPoints: [join(PROJECT_ROOT, 'bench', `${name}.ts`)],
    outfile,
    ...runtimeBundleOptions,
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Runs a bench file again in a child process with IPC (through tsx when it is the source, as is
 * when it is a bundle), for a measurement that must not inherit this process's heap or JIT state.
 */
export function forkBench(file: string, args: readonly string[]): ChildProcess {
  const execArgv = file.endsWith('.ts') ? ['--expose-gc', '--import', TSX_LOADER] : ['--expose-gc'];
  return fork(file, args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}
