import type { Clock, TimerHandle } from '../core/clock.js';
import { type SchedulerAction, type SchedulerLike, Subscription } from './rxjs.js';

/**
 * An RxJS scheduler over the engine's `Clock` (docs/architecture.md §2.1): `now()` is the clock's
 * time and delayed work runs on the clock's timers, so with a `VirtualClock` the time operators
 * of a pipeline (`delay`, `bufferTime`, `debounceTime`, `timeout`...) move only when the test
 * advances the clock, and exactly as far.
 *
 * Marble diagram (virtual clock, `clock.advance('1s')` at each tick):
 * ```
 * source:                  a-b-c|
 * delay(1000, scheduler):  -a-b-c|     (each value one clock second later)
 * ```
 *
 * @example
 * ```ts
 * const clock = new VirtualClock();
 * const scheduler = clockScheduler(clock);
 * const seen: number[] = [];
 * timer(60_000, scheduler).subscribe(() => seen.push(clock.now()));
 * await clock.advance('1m'); // seen = [start + 60_000]
 * ```
 */
export function clockScheduler(clock: Clock): SchedulerLike {
  return new ClockScheduler(clock);
}

class ClockScheduler implements SchedulerLike {
  constructor(readonly clock: Clock) {}

  now(): number {
    return this.clock.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, delay = 0, state?: T): Subscription {
    return new ClockAction<T>(this.clock, work).schedule(state, delay);
  }
}

/** One scheduled piece of work; `this.schedule(...)` inside the work reschedules it (RxJS contract). */
class ClockAction<T> extends Subscription implements SchedulerAction<T> {
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly work: (this: SchedulerAction<T>, state: T) => void,
  ) {
    super();
  }

  override unsubscribe(): void {
    this.cancel();
    super.unsubscribe();
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.cancel();
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        if (this.closed) return;
        try {
          this.work.call(this, state as T);
        } catch (error) {
          this.unsubscribe();
          throw error;
        }
        // Work that did not reschedule itself is done.
        if (this.timer === undefined) this.unsubscribe();
      },
      Math.max(0, delay),
    );
    return this;
  }

  private cancel(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
