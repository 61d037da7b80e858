import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `eddy serve` in a child process, as users run it (tsx's loader, by path). */
const ROOT = join(import.meta.dirname, '..', '..');
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface ServeRun {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

export function eddyServe(args: string[], cwd: string): ServeRun {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, join(ROOT, 'infra', 'cli', 'main.ts'), 'serve', ...args],
    { cwd, env: { ...process.env, NODE_OPTIONS: '' } },
  );
  const run: ServeRun = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    run.stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    run.stderr += chunk.toString();
  });
  return run;
}

/** Resolves with the URL the first line prints. */
export async function listening(run: ServeRun, timeoutMs = 20_000): Promise<string> {
  for (let waited = 0; waited < timeoutMs; waited += 20) {
    const match = /^eddy listening on (http:\/\/\S+)$/m.exec(run.stdout);
    if (match) return match[1]!;
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`eddy did not start:\n${run.stdout}\n${run.stderr}`);
}
