import cliProgress from 'cli-progress';

/**
 * Progress for long CLI work (cli-progress), on stderr so stdout stays pipeable. Nothing is drawn
 * when stderr is not a terminal (pipes, CI logs, tests) or when turned off (`--no-progress`).
 *
 * A bar knows its total before it starts (an archive's manifests say how many items it holds); a
 * counter is for work whose end is unknown (`eddy record --follow`). Either is stopped before
 * the command prints its summary, so the summary never lands in the middle of a bar.
 */
export interface Progress {
  /** Adds to the done count. */
  increment(by?: number): void;
  /** Ends the bar (its last state stays on its own line). Further calls do nothing. */
  stop(): void;
}

const QUIET: Progress = { increment() {}, stop() {} };

interface ProgressOptions {
  readonly label: string;
  readonly unit: string;
  readonly enabled?: boolean;
  readonly stream?: NodeJS.WriteStream;
}

/** A bar from 0 to `total`: `restoring [████░░] 40% | 400/1000 items | 2s`. */
export function createProgress(options: ProgressOptions & { readonly total: number }): Progress {
  return draw(
    options,
    `${options.label} [{bar}] {percentage}% | {value}/{total} ${options.unit} | {duration_formatted}`,
    options.total,
  );
}

/** A live count without a total: `recording 1234 records | 12s`. */
export function createCounter(options: ProgressOptions): Progress {
  return draw(options, `${options.label} {value} ${options.unit} | {duration_formatted}`, 0);
}

function draw(options: ProgressOptions, format: string, total: number): Progress {
  const stream = options.stream ?? process.stderr;
  if (options.enabled === false || !stream.isTTY) return QUIET;
  const bar = new cliProgress.SingleBar(
    { stream, format, hideCursor: true, clearOnComplete: false, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  let stopped = false;
  return {
    increment(by = 1) {
      if (!stopped) bar.increment(by);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
