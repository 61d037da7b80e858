import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * The eddy command line in a child process, as users run it: `bin/eddy.mjs`, the package's `bin`,
 * which runs the compiled CLI (dist/cli.js, rebuilt first when a source is newer). Not the
 * sources through tsx's loader: that transforms eddy's whole tree in every child, ~3 s of CPU per
 * start against ~0.4 s (`/usr/bin/time node bin/eddy.mjs --version`), and the suite starts
 * dozens. The working directory can be a temp dir (no eddy.config.* or node_modules there).
 */
const ROOT = join(import.meta.dirname, '..', '..');
export const EDDY_BIN = join(ROOT, 'bin', 'eddy.mjs');

export interface EddyProcess {
  readonly child: ChildProcess;
  /** Everything printed so far. */
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

/** Children still running: a test that fails before stopping its server must not leave it behind. */
const running = new Set<ChildProcess>();
process.on('exit', stopLeftovers);

/**
 * Kills every child started here that still runs: for `afterEach` in the suites that start eddy
 * (a case that fails before it stops its server would otherwise leave it running, and a test
 * worker can be ended without its 'exit' event).
 */
export function stopLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Runs `eddy ...args` (or another entry script) in `cwd`, collecting what it prints. */
export function startEddy(args: readonly string[], cwd: string, entry = EDDY_BIN): EddyProcess {
  const child = spawn(process.execPath, [entry, ...args], {
    cwd,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  const run: EddyProcess = {
    child,
    stdout: '',
    stderr: '',
    // 'close', not 'exit': a process can exit before its last output has been read, and a test
    // that checks what it printed once it exited must see all of it.
    exited: new Promise((resolve) => child.on('close', (code) => resolve(code))),
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    run.stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    run.stderr += chunk.toString();
  });
  return run;
}

/** `eddy serve ...args` in `cwd`. */
export const eddyServe = (args: readonly string[], cwd: string): EddyProcess =>
  startEddy(['serve', ...args], cwd);

/** The banner's last line (infra/cli/serve.ts printBanner). */
const BANNER_END = /^Press Ctrl\+C to stop\.$/m;

/**
 * Resolves with the URL `eddy serve` prints on its first line, once the whole banner has arrived;
 * fails with the output if it exits first. The banner is several writes to a pipe, and they can
 * reach this process in separate chunks: a test that checks a banner line as soon as the first
 * line is in must not find the rest still on its way (a CI run failed so: the data-dir line of
 * test/persistence/cli.test.ts had not arrived yet).
 */
export function listening(run: EddyProcess, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdout = run.child.stdout!;
    // Checked on every chunk (after startEddy's listener has appended it) and once the process
    // has ended, output read: no polling. The timer only bounds a start that hangs.
    const check = () => {
      const match = /^eddy listening on (http:\/\/\S+)$/m.exec(run.stdout);
      if (match && BANNER_END.test(run.stdout)) finish(() => resolve(match[1]!));
    };
    const failed = () => finish(() => reject(new Error(`eddy did not start:\n${run.stdout}\n${run.stderr}`)));
    const timer = setTimeout(failed, timeoutMs);
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stdout.off('data', check);
      settle();
    };
    stdout.on('data', check);
    void run.exited.then(() => {
      check();
      failed();
    });
    check();
  });
}
