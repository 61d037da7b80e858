/**
 * The one clock (docs/architecture.md §2.1): creation times, TTL, retention, iterator expiry, batching
 * windows and schedules all read it. Tests use `VirtualClock` and move time themselves.
 */
export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Real time, real timers. Timers are unref'd so they never keep a process alive on their own. */
export class SystemClock implements Clock {
  private nextId = 1;
  private readonly timers = new Map<number, NodeJS.Timeout>();

  now(): number {
    return Date.now();
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    const timer = setTimeout(
      () => {
        this.timers.delete(id);
        callback();
      },
      Math.max(0, delayMs),
    );
    timer.unref?.();
    this.timers.set(id, timer);
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    const timer = this.timers.get(handle.id);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.timers.delete(handle.id);
    }
  }
}

interface VirtualTimer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * Time that moves only when told. `advance` fires due timers in time order (ties in creation
 * order) and lets promise chains run between them, so async work scheduled by a timer (an
 * invocation, a retry) completes before the next timer fires.
 */
export class VirtualClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly pending = new Map<number, VirtualTimer>();

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.pending.set(id, { id, at: this.current + Math.max(0, delayMs), callback });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending.delete(handle.id);
  }

  /**
   * Back to `start`, with no timer waiting (the test kit's `reset`: whatever was scheduled belongs
   * to the stack being reset, which schedules again what it needs).
   */
  reset(start: number | Date): void {
    this.pending.clear();
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  /** Number of timers waiting to fire. */
  get pendingTimers(): number {
    return this.pending.size;
  }

  private nextDue(until: number): VirtualTimer | undefined {
    let next: VirtualTimer | undefined;
    for (const timer of this.pending.values()) {
      if (timer.at > until) continue;
      if (next === undefined || timer.at < next.at || (timer.at === next.at && timer.id < next.id))
        next = timer;
    }
    return next;
  }

  /**
   * Moves time forward by `ms` (a number or a duration such as `'48h'`), firing due timers.
   *
   * Between timers it lets promise chains run, and awaits `settle` when given: work a timer starts
   * that waits on real I/O (a worker thread, a socket) then finishes, and the timers it schedules
   * (a retry's backoff) fire within the same advance.
   */
  async advance(duration: number | string, settle: () => Promise<void> = flushMicrotasks): Promise<void> {
    const target = this.current + parseDuration(duration);
    await settle();
    for (;;) {
      const timer = this.nextDue(target);
      if (timer === undefined) break;
      this.pending.delete(timer.id);
      this.current = Math.max(this.current, timer.at);
      timer.callback();
      await flushMicrotasks();
      await settle();
    }
    // Never backwards: work run in between (an SDK retry's backoff) may have advanced it further.
    this.current = Math.max(this.current, target);
    await settle();
  }

  /** Sets the time without firing timers in between (timers now due fire on the next advance). */
  set(time: number | Date): void {
    this.current = typeof time === 'number' ? time : time.getTime();
  }
}

/** Lets queued promise reactions and I/O callbacks run. */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Parses `'250ms'`, `'15s'`, `'10m'`, `'48h'`, `'2d'` (or a number of milliseconds). */
export function parseDuration(duration: number | string): number {
  if (typeof duration === 'number') return duration;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(duration);
  if (!match) throw new Error(`Not a duration: ${duration} (use e.g. 500ms, 15s, 10m, 48h, 2d)`);
  return Number(match[1]) * DURATION_UNITS[match[2]!]!;
}
