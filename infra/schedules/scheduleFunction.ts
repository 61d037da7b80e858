import type { Context, ScheduledEvent } from 'aws-lambda';
import { type Clock, parseDuration, type TimerHandle } from '../../core/clock.js';
import { invocationContext, scheduledEvent } from './scheduledEvent.js';
import type { ScheduleTiming } from './scheduleExpression.js';

/** A handler a schedule can invoke (a `ScheduledHandler`, or a middy one, without the callback). */
export type ScheduledFunction = (event: ScheduledEvent, context: Context) => void | Promise<void>;

export interface ScheduleOptions {
  /** Time between runs: ms, or a duration such as `'10s'` (or give `timing`). */
  rate?: number | string;
  /**
   * When runs are due, for `cron(...)` and `at(...)` schedules (`parseScheduleExpression`): each
   * run is armed for the next due moment after the last one; a clock that jumps past several gets
   * one run.
   */
  timing?: ScheduleTiming;
  /** The rule's name, also the function name in the context (default `schedule`). */
  name?: string;
  accountId?: string;
  region?: string;
  /** Called with the error of a timer-driven run (default: ignored; `runNow` rejects instead). */
  onError?: (error: unknown) => void;
  /** Whether the timer starts at once (default true); `false` leaves only `runNow`. */
  start?: boolean;
}

export interface Schedule {
  /** The rate, ms (NaN for a cron or at schedule). */
  readonly rateMs: number;
  /** Runs started so far (timer-driven and on demand). */
  readonly runs: number;
  /** When the next timer-driven run is due (epoch ms), or undefined when stopped. */
  readonly nextRunAt: number | undefined;
  /** Runs the handler now (after any run in flight) and resolves when it has finished. */
  runNow(): Promise<void>;
  /** Resolves when no run is in flight. */
  settled(): Promise<void>;
  /** Stops the timer (runs in flight finish; `runNow` still works). */
  stop(): void;
}

/**
 * A schedule rule for the local host: invokes a scheduled handler with the EventBridge
 * "Scheduled Event" shape (docs/streams-and-lambda.md §4.9) every `rate` on the engine's clock
 * (docs/architecture.md §2.1: with a `VirtualClock` a run happens only when a test advances time past it),
 * and on demand with `runNow()`.
 *
 * Runs never overlap: a tick that comes while a run is in flight is skipped (the next tick comes
 * one rate later), and `runNow()` waits for the run in flight before starting its own. Ticks
 * keep a fixed rate from the start; a clock that jumps ahead gets one run, not a catch-up burst.
 *
 * @example
 * ```ts
 * const clock = new VirtualClock();
 * const schedule = scheduleFunction(clock, handler, { rate: '10s', name: 'ttl-expirer' });
 * await clock.advance('10s'); // one run, event.time = start + 10 s
 * await schedule.runNow();    // one more, now
 * schedule.stop();
 * ```
 */
export function scheduleFunction(
  clock: Clock,
  handler: ScheduledFunction,
  options: ScheduleOptions,
): Schedule {
  return new ClockSchedule(clock, handler, options);
}

class ClockSchedule implements Schedule {
  readonly rateMs: number;
  runs = 0;
  nextRunAt: number | undefined;
  private timer: TimerHandle | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly name: string;
  /** A cron or at schedule's next due moment after a time; undefined for a rate. */
  private readonly nextDue: ((afterMs: number) => number | undefined) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly handler: ScheduledFunction,
    private readonly options: ScheduleOptions,
  ) {
    const timing = options.timing;
    if (timing !== undefined && timing.kind !== 'rate') {
      this.rateMs = Number.NaN;
      this.nextDue = (afterMs) => timing.next(afterMs);
    } else {
      this.rateMs = timing?.kind === 'rate' ? timing.rateMs : parseDuration(options.rate ?? Number.NaN);
      if (!Number.isFinite(this.rateMs) || this.rateMs <= 0)
        throw new TypeError(`scheduleFunction: rate must be > 0, got ${options.rate}`);
      this.nextDue = undefined;
    }
    this.name = options.name ?? 'schedule';
    if (options.start ?? true) this.armNext(clock.now());
  }

  /** Arms the first run due after `afterMs` (a rate's: one rate later); none left: stopped. */
  private armNext(afterMs: number): void {
    if (this.nextDue === undefined) {
      this.arm(afterMs + this.rateMs);
      return;
    }
    const at = this.nextDue(afterMs);
    if (at !== undefined) this.arm(at);
  }

  runNow(): Promise<void> {
    return this.enqueue(() => this.clock.now());
  }

  async settled(): Promise<void> {
    while (this.inFlight !== undefined) await this.inFlight;
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.nextRunAt = undefined;
  }

  private arm(at: number): void {
    this.nextRunAt = at;
    this.timer = this.clock.setTimeout(() => this.tick(at), at - this.clock.now());
  }

  private tick(scheduledFor: number): void {
    this.timer = undefined;
    const now = this.clock.now();
    if (this.inFlight === undefined) {
      // The event carries when the rule fired: the due time, or later when the clock jumped.
      this.enqueue(() => now).catch((error) => this.options.onError?.(error));
    }
    if (this.nextDue !== undefined) {
      // The next due moment after now: a clock that jumped past several runs gets this one only.
      this.armNext(now);
      return;
    }
    const periods = Math.max(1, Math.floor((now - scheduledFor) / this.rateMs) + 1);
    this.arm(scheduledFor + periods * this.rateMs);
  }

  /** Chains a run after the one in flight; `timeOf` reads the event time when the run starts. */
  private enqueue(timeOf: () => number): Promise<void> {
    const previous = this.inFlight ?? Promise.resolve();
    const run = previous.then(() => this.invoke(timeOf()));
    const done = run.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight = done;
    void done.then(() => {
      if (this.inFlight === done) this.inFlight = undefined;
    });
    return run;
  }

  private async invoke(time: number): Promise<void> {
    const sequence = ++this.runs;
    const { accountId, region } = this.options;
    const common = {
      ...(accountId === undefined ? {} : { accountId }),
      ...(region === undefined ? {} : { region }),
    };
    const event = scheduledEvent({ time, ruleName: this.name, ...common });
    const context = invocationContext({
      functionName: this.name,
      requestId: `${event.id.slice(0, 24)}${sequence.toString(16).padStart(12, '0')}`,
      ...common,
    });
    await this.handler(event, context);
  }
}
