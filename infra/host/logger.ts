import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export interface HostLoggerOptions {
  /** `warn` by default (quiet); `info` shows one line per request when request logging is on. */
  readonly level?: pino.LevelWithSilent;
  /** File descriptor to write to (default 2, stderr: stdout stays free for the CLI's own output). */
  readonly fd?: number;
}

/**
 * eddy's structured logger: pino JSON lines, quiet by default. Written synchronously so that a
 * line logged just before exit is not lost.
 */
export function createHostLogger(options: HostLoggerOptions = {}): Logger {
  return pino(
    { name: 'eddy', level: options.level ?? 'warn', base: undefined },
    pino.destination({ fd: options.fd ?? 2, sync: true }),
  );
}
