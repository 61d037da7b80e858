import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from '../../rxjs.js';

export interface BatchLimits<T> {
  /** BatchSize (docs/streams-and-lambda.md §2.1.1). */
  readonly maxRecords: number;
  /**
   * MaximumBatchingWindowInSeconds in ms (docs/streams-and-lambda.md §2.1.2); 0 invokes with what each poll
   * brought.
   */
  readonly windowMs: number;
  /** Payload limit (docs/streams-and-lambda.md §2.2.5), counted with `bytesOf`. */
  readonly maxBytes?: number;
  readonly bytesOf?: (record: T) => number;
}

/**
 * Gathers records into batches (docs/streams-and-lambda.md §2.1.2): a batch goes out when it is full
 * (BatchSize), when the next record would take it past the payload limit (6 MB,
 * docs/streams-and-lambda.md §2.2.5), or when the batching window, counted from the batch's first record on
 * the scheduler's clock, expires. With a window of 0 a batch goes out at the end of every chunk (poll), "as
 * soon as records are available, even if there is only one". What is left goes out when the source completes.
 *
 * Hand-written rather than `bufferTime` + `bufferCount`: the window starts with each batch, and
 * the three limits must cut the same buffer.
 *
 * ```
 * source:                                    -[a,b,c]---[d]---------|
 * batchRecords({maxRecords: 2, windowMs: 0}): -(xy)------z-----------|   x=[a,b] y=[c] z=[d]
 * batchRecords({maxRecords: 5, windowMs: 5}): ------x---------y------|   x=[a,b,c] (window from a) y=[d]
 * ```
 *
 * @example
 * ```ts
 * chunks$.pipe(batchRecords({ maxRecords: 100, windowMs: 0 }, clockScheduler(engine.clock)));
 * ```
 */
export function batchRecords<T>(
  limits: BatchLimits<T>,
  scheduler: SchedulerLike,
): OperatorFunction<readonly T[], T[]> {
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const bytesOf = limits.bytesOf ?? (() => 0);
  return (source) =>
    new Observable<T[]>((subscriber) => {
      let buffer: T[] = [];
      let bytes = 0;
      let timer: Subscription | undefined;
      const flush = () => {
        timer?.unsubscribe();
        timer = undefined;
        if (buffer.length === 0) return;
        const batch = buffer;
        buffer = [];
        bytes = 0;
        subscriber.next(batch);
      };
      const subscription = source.subscribe({
        next(chunk) {
          try {
            for (const record of chunk) {
              const size = bytesOf(record);
              if (buffer.length > 0 && bytes + size > maxBytes) flush();
              buffer.push(record);
              bytes += size;
              if (buffer.length >= limits.maxRecords) flush();
            }
          } catch (error) {
            subscriber.error(error);
            return;
          }
          if (buffer.length === 0) return;
          if (limits.windowMs <= 0) flush();
          else timer ??= scheduler.schedule(flush, limits.windowMs);
        },
        error: (error) => subscriber.error(error),
        complete() {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        timer?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
