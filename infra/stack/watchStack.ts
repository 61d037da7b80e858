import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import type { LocalStack } from './localStack.js';
import { reconcileStack } from './reconcile.js';
import type { StackDefinition } from './sources/index.js';
import type { FunctionWatcher } from './watchFunctions.js';

/**
 * `eddy serve --watch` on the stack's own file (a template, a cloud assembly's manifest, an eddy
 * config): when it changes, it is read again and the running stack reconciled with it
 * (`reconcile.ts`: new tables created, changed mappings updated from where they stopped, removed
 * functions stopped, data kept). A file that no longer reads keeps the running stack as it is.
 *
 * Folders are watched rather than files: editors save by writing a new file and renaming it over
 * the old one, which a watch on the file itself would lose.
 */
export interface StackWatchOptions {
  /** Reads the stack again (the same source, options and parameters as at start). */
  readonly reload: () => Promise<StackDefinition>;
  readonly print: (line: string) => void;
  /** The handler watcher, told about functions added and removed. */
  readonly functions?: FunctionWatcher;
  /** Changes closer together than this are one change (ms, default 100). */
  readonly debounceMs?: number;
  /** Paths in messages are relative to this folder. */
  readonly cwd: string;
  /** Called after each attempt (tests wait on it). */
  readonly onReconciled?: (lines: readonly string[], error?: unknown) => void;
}

export interface StackWatcher {
  close(): void;
}

export function watchStack(
  stack: LocalStack,
  definition: StackDefinition,
  options: StackWatchOptions,
): StackWatcher {
  const files = new Set(definition.watchFiles);
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const name = relative(options.cwd, definition.origin.file) || definition.origin.file;

  const apply = async () => {
    try {
      const next = await options.reload();
      const lines = await reconcileStack(stack, next.config, next.baseDirectory, {
        added: (binding) => void options.functions?.add(binding),
        removed: (functionName) => void options.functions?.remove(functionName),
      });
      options.print(`↻ ${name} read again${lines.length === 0 ? ': nothing to change' : ''}`);
      for (const line of lines) options.print(`  ${line}`);
      options.onReconciled?.(lines);
    } catch (error) {
      options.print(`✗ ${name}: ${(error as Error).message}`);
      options.print('  still running the stack as it was');
      options.onReconciled?.([], error);
    }
  };
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(apply);
    }, options.debounceMs ?? 100);
  };
  for (const directory of new Set([...files].map((file) => dirname(file)))) {
    const names = new Set(
      [...files].filter((file) => dirname(file) === directory).map((file) => basename(file)),
    );
    watchers.push(
      watch(directory, (_event, filename) => {
        if (filename !== null && names.has(basename(filename.toString()))) changed();
      }),
    );
  }
  return {
    close() {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
