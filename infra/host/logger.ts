import { createRequire } from 'node:module';
import type pino from 'pino';
import type { Logger } from 'pino';

export type { Logger } from 'pino';

export interface HostLoggerOptions {
  /** `warn` by default (quiet); `info` shows one line per request when request logging is on. */
  readonly level?: pino.LevelWithSilent;
  /** File descriptor to write to (default 2, stderr: stdout stays free for the CLI's own output). */
  readonly fd?: number;
}

/** pino's numeric levels (https://getpino.io/#/docs/api?id=loggerlevels-object). */
const LEVELS: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};
const ignore = () => {};

/**
 * eddy's structured logger: pino JSON lines, quiet by default. Written synchronously so that a
 * line logged just before exit is not lost.
 *
 * pino itself loads with the first line at an enabled level: below the level, the methods do
 * nothing without it. A quiet `eddy serve` and the test kit (silent) never load it, ~0.03 s of
 * CPU off every start (bench/startup.ts).
 */
export function createHostLogger(options: HostLoggerOptions = {}): Logger {
  const level = options.level ?? 'warn';
  const threshold = level === 'silent' ? Number.POSITIVE_INFINITY : (LEVELS[level] ?? 0);
  let real: Logger | undefined;
  const logger = (): Logger => {
    if (real === undefined) {
      const create = createRequire(import.meta.url)('pino') as typeof pino;
      real = create(
        { name: 'eddy', level, base: undefined },
        create.destination({ fd: options.fd ?? 2, sync: true }),
      );
    }
    return real;
  };
  return new Proxy({} as Logger, {
    get(_target, property) {
      const value = typeof property === 'string' ? LEVELS[property] : undefined;
      if (real === undefined && value !== undefined && value < threshold) return ignore;
      const target = logger();
      const member = Reflect.get(target, property, target) as unknown;
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}
