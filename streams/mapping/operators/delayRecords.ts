import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from '../../rxjs.js';

/**
 * Holds each record until its due time on the scheduler's clock, keeping their order: a record
 * is never released before one that came earlier (its due time is at least the previous one's).
 * Records already due pass through at once, in the chunk they came in. The source's completion
 * waits for the held records. The gsi-maintainer uses it for its propagation delay
 * (docs/architecture.md §2.5: a configurable propagation delay to test stale reads).
 *
 * ```
 * source:                          -[a,b]-[c]------|
 * delayRecords(r => now + 3):      ----[a,b]-[c]---|
 * ```
 *
 * @example
 * ```ts
 * chunks$.pipe(delayRecords((record) => record.event.at + 250, clockScheduler(engine.clock)));
 * ```
 */
export function delayRecords<T>(
  dueOf: (record: T) => number,
  scheduler: SchedulerLike,
): OperatorFunction<readonly T[], T[]> {
  return (source) =>
    new Observable<T[]>((subscriber) => {
      const held: { record: T; due: number }[] = [];
      let lastDue = Number.NEGATIVE_INFINITY;
      let timer: Subscription | undefined;
      let sourceDone = false;
      const release = () => {
        timer?.unsubscribe();
        timer = undefined;
        const now = scheduler.now();
        let count = 0;
        while (count < held.length && held[count]!.due <= now) count++;
        if (count > 0) subscriber.next(held.splice(0, count).map((entry) => entry.record));
        if (held.length > 0) timer = scheduler.schedule(release, held[0]!.due - scheduler.now());
        else if (sourceDone) subscriber.complete();
      };
      const subscription = source.subscribe({
        next(chunk) {
          try {
            for (const record of chunk) {
              lastDue = Math.max(lastDue, dueOf(record));
              held.push({ record, due: lastDue });
            }
          } catch (error) {
            subscriber.error(error);
            return;
          }
          if (timer === undefined) release();
        },
        error: (error) => subscriber.error(error),
        complete() {
          sourceDone = true;
          if (held.length === 0) subscriber.complete();
        },
      });
      return () => {
        timer?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
