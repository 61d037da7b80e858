import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from '../../rxjs.js';

/** A tumbling window: [start, end) in epoch ms. */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

/** A batch of one window, or the window's end (its final invocation, docs/streams-and-lambda.md §2.6.3). */
export type WindowItem<T> =
  | { readonly kind: 'batch'; readonly window: TimeWindow; readonly records: T[] }
  | { readonly kind: 'final'; readonly window: TimeWindow };

export interface WindowOptions<T> {
  /** TumblingWindowInSeconds in ms. */
  readonly windowMs: number;
  /** A record's insertion time (its approximate creation time), epoch ms: it picks the window. */
  readonly timeOf: (record: T) => number;
  /** How long after a window's end to close it (the batching window: its last batch may wait). */
  readonly closeDelayMs?: number;
}

/**
 * Tumbling windows (docs/streams-and-lambda.md §2.6): splits batches at window boundaries, which follow each
 * record's insertion time, and ends a window with a `final` item when a record of a later window arrives,
 * when the window's end (plus `closeDelayMs`) passes on the scheduler's clock, or when the source
 * completes. Windows are epoch-aligned: [k·W, (k+1)·W).
 *
 * ```
 * source (W = 10, times in brackets): -[a0,b4]----[c12]---|
 * tumblingWindows:                    -x----------(fy)----(g|)   x = batch [0,10) [a,b]; f = final [0,10);
 *                                                                y = batch [10,20) [c]; g = final [10,20)
 * ```
 *
 * @example
 * ```ts
 * batches$.pipe(tumblingWindows({ windowMs: 60_000, timeOf: (r) => r.event.at }, scheduler));
 * ```
 */
export function tumblingWindows<T>(
  options: WindowOptions<T>,
  scheduler: SchedulerLike,
): OperatorFunction<readonly T[], WindowItem<T>> {
  const { windowMs, timeOf } = options;
  const closeDelay = options.closeDelayMs ?? 0;
  return (source) =>
    new Observable<WindowItem<T>>((subscriber) => {
      let current: TimeWindow | undefined;
      let timer: Subscription | undefined;
      const close = () => {
        timer?.unsubscribe();
        timer = undefined;
        if (current === undefined) return;
        const window = current;
        current = undefined;
        subscriber.next({ kind: 'final', window });
      };
      const open = (window: TimeWindow) => {
        current = window;
        timer = scheduler.schedule(close, Math.max(0, window.end + closeDelay - scheduler.now()));
      };
      const subscription = source.subscribe({
        next(batch) {
          try {
            let run: T[] = [];
            let runWindow: TimeWindow | undefined;
            const emitRun = () => {
              if (runWindow === undefined || run.length === 0) return;
              if (current !== undefined && current.start !== runWindow.start) close();
              if (current === undefined) open(runWindow);
              subscriber.next({ kind: 'batch', window: runWindow, records: run });
              run = [];
            };
            for (const record of batch) {
              const start = Math.floor(timeOf(record) / windowMs) * windowMs;
              if (runWindow === undefined || runWindow.start !== start) {
                emitRun();
                runWindow = { start, end: start + windowMs };
              }
              run.push(record);
            }
            emitRun();
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error) => subscriber.error(error),
        complete() {
          close();
          subscriber.complete();
        },
      });
      return () => {
        timer?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
