import { type TimerHandle, VirtualClock } from '../../core/clock.js';

/**
 * The virtual clock of a replay, which also tells when its next timer is due: once every record
 * is in, the replay jumps from timer to timer (a batching window closing, a retry's backoff, a
 * tumbling window ending) instead of stepping through hours of virtual time.
 *
 * @example
 * ```ts
 * const clock = new ReplayClock(Date.UTC(2026, 0, 1));
 * clock.setTimeout(() => {}, 1000);
 * clock.nextTimerAt(); // Date.UTC(2026, 0, 1) + 1000
 * ```
 */
export class ReplayClock extends VirtualClock {
  private readonly dueAt = new Map<number, number>();

  override setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle = super.setTimeout(() => {
      this.dueAt.delete(handle.id);
      callback();
    }, delayMs);
    this.dueAt.set(handle.id, this.now() + Math.max(0, delayMs));
    return handle;
  }

  override clearTimeout(handle: TimerHandle): void {
    this.dueAt.delete(handle.id);
    super.clearTimeout(handle);
  }

  /** When the earliest pending timer fires, epoch ms; undefined when none is pending. */
  nextTimerAt(): number | undefined {
    let next: number | undefined;
    for (const at of this.dueAt.values()) if (next === undefined || at < next) next = at;
    return next;
  }
}
