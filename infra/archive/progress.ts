import cliProgress from 'cli-progress';

/**
 * A progress bar for long archive work (cli-progress, on stderr so stdout stays pipeable). Quiet
 * when stderr is not a terminal (pipes, CI logs, tests) or when turned off.
 */
export interface Progress {
  /** Adds to the done count. */
  increment(by?: number): void;
  /** Raises the total (work discovered on the way, e.g. items of an object just read). */
  grow(by: number): void;
  stop(): void;
}

const QUIET: Progress = { increment() {}, grow() {}, stop() {} };

export function createProgress(options: {
  label: string;
  total: number;
  unit: string;
  enabled?: boolean;
  stream?: NodeJS.WriteStream;
}): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.enabled === false || !stream.isTTY) return QUIET;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${options.label} [{bar}] {percentage}% | {value}/{total} ${options.unit} | {duration_formatted}`,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let total = options.total;
  bar.start(total, 0);
  return {
    increment(by = 1) {
      bar.increment(by);
    },
    grow(by) {
      total += by;
      bar.setTotal(total);
    },
    stop() {
      bar.stop();
    },
  };
}
