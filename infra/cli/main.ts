/**
 * The `eddy` command line (`npm start` runs `eddy serve`). See `eddy --help`.
 */
import { CommanderError } from 'commander';

// The AWS SDK v3 warns once per process on Node < 22 that SDK releases after January 2027 will
// need Node 22. eddy pins its SDK (package-lock.json) and supports Node 20, so on every command
// the warning says nothing the user can act on; it stays on for the user's own processes.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import type { RunningEddy } from './serve.js';
import { type CliIo, createServeProgram, servesOnly } from './serveProgram.js';

/** SIGINT/SIGTERM: finish in-flight requests, then exit 0. A second signal stops at once. */
function stopOnSignals(running: RunningEddy): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`eddy: ${signal} again, stopping now\n`);
      process.exit(1);
    }
    stopping = true;
    running.logger.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        running.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

// `eddy archive cat … | head -3` (or `event dynamodb`, `record`): once the reader has gone, what
// is left to print has no one to read it. Stop quietly with exit code 0, the reader has what it
// asked for, instead of crashing on the EPIPE of the next write.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const io: CliIo = {
  print: (line) => process.stdout.write(`${line}\n`),
  printError: (line) => process.stderr.write(`${line}\n`),
  cwd: process.cwd(),
  onStarted: stopOnSignals,
  exit: (code) => process.exit(code),
};
// `eddy serve` (and `eddy`, `eddy --port 0`, ...) loads serve's program alone; every other
// command line the whole program, with every command's modules (serveProgram.ts says why).
const program = servesOnly(process.argv.slice(2))
  ? createServeProgram(io)
  : (await import('./program.js')).createProgram(io);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Commander already printed its message (unknown flag, bad value, --help).
  if (error instanceof CommanderError) process.exit(error.exitCode);
  process.stderr.write(
    `eddy: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
