import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as esbuild from 'esbuild';
import { type FunctionBinding, runsLocally } from '../bindings.js';
import { bundleName, esbuildOptionsOf } from './functionBuilds.js';
import type { LocalStack } from './localStack.js';

/**
 * `eddy serve --watch`: each of the project's functions is bundled by an esbuild watch context;
 * every successful rebuild replaces the function's code (as UpdateFunctionCode would) while its
 * event source mappings keep running from their checkpoints, so the next batch reaches the new
 * code and nothing is read twice or skipped. A build that fails keeps the previous code.
 *
 * Each build is copied to a file of its own (`index.<n>.mjs`): an ES module is evaluated once per
 * URL, so reloading needs a new URL. Dependencies stay external (`packages: 'external'`) and
 * resolve from the project's node_modules, which keeps rebuilds in the milliseconds. A function
 * with build settings (SAM's esbuild BuildProperties) is built with those instead.
 */
export interface WatchOptions {
  /** Where the bundles go (default `<baseDirectory>/.eddy/watch`). */
  readonly outDirectory: string;
  /** A line per reload or failed build. */
  readonly print: (line: string) => void;
}

export interface FunctionWatcher {
  /** Resolves after the first build of every function. */
  readonly ready: Promise<void>;
  /** Starts watching a function added since (a template changed under `--watch`). */
  add(binding: FunctionBinding): Promise<void>;
  /** Stops watching a function that is gone. */
  remove(functionName: string): Promise<void>;
  close(): Promise<void>;
}

export function watchFunctions(stack: LocalStack, options: WatchOptions): FunctionWatcher {
  const contexts = new Map<string, Promise<esbuild.BuildContext>>();
  const watch = (binding: FunctionBinding): Promise<void> => {
    const name = binding.functionName;
    // Functions eddy does not run have no code of theirs to build.
    if (!runsLocally(binding)) return Promise.resolve();
    const directory = join(options.outDirectory, name);
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
    const outfile = join(
      directory,
      binding.build === undefined ? 'index.mjs' : bundleName(binding.handlerPath, binding.build),
    );
    const extension = extname(outfile);
    let generation = 0;
    let first = true;
    let previous: string | undefined;
    let started = performance.now();
    let markBuilt: () => void = () => {};
    const built = new Promise<void>((resolve) => (markBuilt = resolve));
    const reload: esbuild.Plugin = {
      name: 'eddy-reload',
      setup(build) {
        build.onStart(() => {
          started = performance.now();
        });
        build.onEnd(async (result) => {
          const waiting = stack.waiting.has(name);
          const still = waiting ? 'still waiting for a handler' : 'still running the previous code';
          if (result.errors.length > 0) {
            options.print(`✗ ${name}: build failed, ${still}`);
            for (const message of result.errors) options.print(`    ${formatMessage(message)}`);
            markBuilt();
            return;
          }
          generation++;
          const versioned = join(directory, `index.${generation}${extension}`);
          copyFileSync(outfile, versioned);
          try {
            await stack.reloadFunction(name, versioned);
          } catch (error) {
            rmSync(versioned, { force: true });
            options.print(`✗ ${name}: ${(error as Error).message}; ${still}`);
            markBuilt();
            return;
          }
          if (previous !== undefined) rmSync(previous, { force: true });
          previous = versioned;
          // The first build only replaces the config's module with its bundle, unless the
          // function was waiting for a handler that loads: then it starts now.
          if (!first || waiting)
            options.print(
              `↻ ${name} ${waiting ? 'started' : 'reloaded'} (${(performance.now() - started).toFixed(0)} ms build)`,
            );
          first = false;
          markBuilt();
        });
      },
    };
    const settings: esbuild.BuildOptions =
      binding.build === undefined
        ? {
            bundle: true,
            packages: 'external',
            platform: 'node',
            target: 'node20',
            format: 'esm',
            sourcemap: 'inline',
            logLevel: 'silent',
          }
        : esbuildOptionsOf(binding.build);
    const context = esbuild.context({
      ...settings,
      entryPoints: [binding.handlerPath],
      outfile,
      plugins: [reload],
    });
    contexts.set(name, context);
    void context.then((ready) => ready.watch()).catch(() => markBuilt());
    return built;
  };
  const dispose = async (name: string) => {
    const context = contexts.get(name);
    contexts.delete(name);
    await context?.then((ready) => ready.dispose()).catch(() => {});
  };
  const firstBuilds = stack.bindings.map(watch);
  return {
    ready: Promise.all(firstBuilds).then(() => {}),
    async add(binding) {
      await dispose(binding.functionName);
      await watch(binding);
    },
    remove: dispose,
    async close() {
      for (const name of [...contexts.keys()]) await dispose(name);
    },
  };
}

function formatMessage(message: esbuild.Message): string {
  const where = message.location
    ? `${message.location.file}:${message.location.line}:${message.location.column}: `
    : '';
  return `${where}${message.text}`;
}
