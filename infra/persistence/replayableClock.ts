import { type Clock, SystemClock, type TimerHandle } from '../../core/clock.js';

/**
 * The engine's clock, which recovery can hold at a logged time: replaying a commit through the
 * engine stamps its change events with the original commit time, and the change log makes its
 * stream decisions (new streams, closing shards) at the time they were first made. Outside
 * `at(...)` it is the clock it wraps.
 *
 * @example
 * ```ts
 * const clock = new ReplayableClock();
 * const engine = new Engine({ clock });
 * const persistence = await Persistence.open(engine, { dataDir: './.eddy' });
 * ```
 */
export class ReplayableClock implements Clock {
  private held: number | undefined;

  constructor(readonly base: Clock = new SystemClock()) {}

  now(): number {
    return this.held ?? this.base.now();
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    return this.base.setTimeout(callback, delayMs);
  }

  clearTimeout(handle: TimerHandle): void {
    this.base.clearTimeout(handle);
  }

  /** Runs `work` with `now()` answering `time`. */
  at<T>(time: number, work: () => T): T {
    const previous = this.held;
    this.held = time;
    try {
      return work();
    } finally {
      this.held = previous;
    }
  }
}
