import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { InvocationResult } from '../../streams/mapping/invoke.js';
import type { LocalDestinations } from '../destinations/localDestinations.js';
import { FunctionThrottledError } from '../functions/concurrencyLimits.js';
import type { LocalFunctions } from '../functions/localFunctions.js';
import type { FunctionCatalog } from './functionCatalog.js';
import { functionErrorPayload } from './invocationPayload.js';

/**
 * Asynchronous invocations (`InvocationType: Event`), as Lambda runs them ("Asynchronous
 * invocation" and "Error handling and automatic retries", Lambda developer guide): the event is
 * queued and answered 202; a function error is retried twice by default, one minute after the
 * first attempt and two minutes after the second (`MaximumRetryAttempts` 0..2 and
 * `MaximumEventAgeInSeconds` 60..21600, default 6 hours, from the function's event invoke
 * config); an event that fails for good goes to the on-failure destination and the dead-letter
 * queue, a success to the on-success destination. Waits run on the engine clock, so a test
 * advances a virtual clock through the retries.
 */

/** Default retries and age limit of asynchronous events. */
export const ASYNC_DEFAULTS = { maximumRetryAttempts: 2, maximumEventAgeInSeconds: 21_600 } as const;
/** The wait before retry n (1-based): one minute, then two. */
const RETRY_DELAYS_MS = [60_000, 120_000];

export type AsyncCondition = 'Success' | 'RetriesExhausted' | 'EventAgeExceeded';

/**
 * The record a destination receives ("Capturing records of Lambda asynchronous invocations"):
 * members in the documented order.
 */
export interface AsyncInvocationRecord {
  readonly version: '1.0';
  readonly timestamp: string;
  readonly requestContext: {
    readonly requestId: string;
    readonly functionArn: string;
    readonly condition: AsyncCondition;
    readonly approximateInvokeCount: number;
  };
  readonly requestPayload: unknown;
  readonly responseContext?: {
    readonly statusCode: number;
    readonly executedVersion: string;
    readonly functionError?: string;
  };
  readonly responsePayload?: unknown;
}

interface QueuedEvent {
  readonly functionName: string;
  readonly requestId: string;
  readonly event: unknown;
  readonly queuedAt: number;
  attempts: number;
  /** Times the function was throttled for this event (not attempts: it did not run). */
  throttles: number;
}

/**
 * The wait after a throttle: 1 s after the first, doubling up to 5 minutes ("For throttling
 * errors (429) and system errors (500-series), Lambda returns the event to the queue and attempts
 * to run the function again for up to 6 hours. The retry interval increases exponentially from 1
 * second after the first attempt to a maximum of 5 minutes.", "How Lambda handles errors and
 * retries with asynchronous invocation", Lambda developer guide). The event's maximum age still
 * ends it (`EventAgeExceeded`).
 */
export function throttleRetryDelayMs(throttles: number): number {
  return Math.min(300_000, 1000 * 2 ** (throttles - 1));
}

export interface AsyncInvocationsOptions {
  readonly clock: Clock;
  readonly functions: LocalFunctions;
  readonly catalog: FunctionCatalog;
  readonly destinations: LocalDestinations;
  /** Whether `drained()` waits for retry timers (default: yes on a real clock, no on a virtual one). */
  readonly waitForTimers?: boolean;
  readonly onError?: (error: unknown, context: string) => void;
}

export class AsyncInvocations {
  private running = 0;
  private readonly timers = new Set<TimerHandle>();
  private waiters: (() => void)[] = [];
  private readonly waitForTimers: boolean;
  private closed = false;

  constructor(private readonly options: AsyncInvocationsOptions) {
    this.waitForTimers =
      options.waitForTimers ?? typeof (options.clock as { advance?: unknown }).advance !== 'function';
  }

  /** Queues one event (Invoke with `InvocationType: Event`); it runs on the next turn. */
  enqueue(functionName: string, event: unknown, requestId: string = randomUUID()): void {
    const queued: QueuedEvent = {
      functionName,
      requestId,
      event,
      queuedAt: this.options.clock.now(),
      attempts: 0,
      throttles: 0,
    };
    this.running++;
    queueMicrotask(() => void this.attempt(queued));
  }

  /** Drops the retries waiting for their time (the test kit's `reset`). */
  clear(): void {
    for (const timer of this.timers) this.options.clock.clearTimeout(timer);
    this.timers.clear();
  }

  /** Events being invoked now, and retries waiting for their time. */
  get pending(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.timers.size };
  }

  private async attempt(queued: QueuedEvent): Promise<void> {
    try {
      if (this.closed) return;
      const fn = this.options.functions.get(queued.functionName);
      // A function deleted meanwhile: its queued events are dropped with it.
      if (fn === undefined) return;
      const config = this.options.catalog.get(queued.functionName)?.eventInvokeConfig;
      const maxAgeMs = (config?.maximumEventAgeInSeconds ?? ASYNC_DEFAULTS.maximumEventAgeInSeconds) * 1000;
      const retried = queued.attempts > 0 || queued.throttles > 0;
      if (retried && this.options.clock.now() - queued.queuedAt > maxAgeMs) {
        await this.discard(queued, 'EventAgeExceeded', undefined);
        return;
      }
      let result: InvocationResult;
      try {
        result = await fn.invoke(queued.event, { requestId: queued.requestId });
      } catch (error) {
        if (!(error instanceof FunctionThrottledError)) throw error;
        // Throttled: back to the queue, not an attempt (docs/lambda-api.md §8.3).
        queued.throttles++;
        this.retryLater(queued, throttleRetryDelayMs(queued.throttles));
        return;
      }
      queued.attempts++;
      if (result.status === 'ok') {
        await this.deliver(queued, 'Success', result);
        return;
      }
      const retries = config?.maximumRetryAttempts ?? ASYNC_DEFAULTS.maximumRetryAttempts;
      if (queued.attempts <= retries) {
        this.retryLater(queued, RETRY_DELAYS_MS[queued.attempts - 1] ?? RETRY_DELAYS_MS.at(-1)!);
        return;
      }
      await this.discard(queued, 'RetriesExhausted', result);
    } catch (error) {
      this.options.onError?.(error, `asynchronous invocation of ${queued.functionName}`);
    } finally {
      this.running--;
      this.wake();
    }
  }

  private retryLater(queued: QueuedEvent, delayMs: number): void {
    const timer = this.options.clock.setTimeout(() => {
      this.timers.delete(timer);
      this.running++;
      void this.attempt(queued);
    }, delayMs);
    this.timers.add(timer);
  }

  /** A failure for good: the on-failure destination and the dead-letter queue, if any. */
  private async discard(
    queued: QueuedEvent,
    condition: AsyncCondition,
    result: InvocationResult | undefined,
  ): Promise<void> {
    await this.deliver(queued, condition, result);
    const target = this.options.catalog.get(queued.functionName)?.deadLetterTarget;
    // The dead-letter queue receives the event itself ("Dead-letter queues", Lambda developer guide).
    if (target !== undefined)
      await this.options.destinations.queue(target).enqueue(JSON.stringify(queued.event));
  }

  /** Sends the invocation record to the destination configured for the outcome. */
  private async deliver(
    queued: QueuedEvent,
    condition: AsyncCondition,
    result: InvocationResult | undefined,
  ): Promise<void> {
    const catalog = this.options.catalog;
    const config = catalog.get(queued.functionName)?.eventInvokeConfig;
    const destination = condition === 'Success' ? config?.onSuccess : config?.onFailure;
    if (destination === undefined) return;
    const record = this.record(queued, condition, result);
    const body = JSON.stringify(record);
    const service = destination.split(':')[2];
    if (service === 'sqs' || service === 'sns')
      await this.options.destinations.queue(destination).enqueue(body);
    else if (service === 's3')
      await this.options.destinations
        .bucket(destination)
        .put(asyncObjectKey(queued.functionName, record.timestamp), body);
    else if (service === 'lambda') {
      const target = destination
        .slice(destination.indexOf(':function:') + ':function:'.length)
        .split(':')[0]!;
      this.enqueue(target, record);
    }
  }

  private record(
    queued: QueuedEvent,
    condition: AsyncCondition,
    result: InvocationResult | undefined,
  ): AsyncInvocationRecord {
    const record: Record<string, unknown> = {
      version: '1.0',
      timestamp: new Date(this.options.clock.now()).toISOString(),
      requestContext: {
        requestId: queued.requestId,
        functionArn: `${this.options.catalog.arn(queued.functionName)}:$LATEST`,
        condition,
        approximateInvokeCount: queued.attempts,
      },
      requestPayload: queued.event,
    };
    if (result !== undefined) {
      record.responseContext =
        result.status === 'ok'
          ? { statusCode: 200, executedVersion: '$LATEST' }
          : { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' };
      record.responsePayload =
        result.status === 'ok' ? (result.payload ?? null) : functionErrorPayload(result);
    }
    return record as unknown as AsyncInvocationRecord;
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when no event is running (and, on a real clock, none waits for a retry). */
  async drained(): Promise<void> {
    while (this.running > 0 || (this.waitForTimers && this.timers.size > 0)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 25);
        timer.unref?.();
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Drops queued retries. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) this.options.clock.clearTimeout(timer);
    this.timers.clear();
  }
}

/** Lambda's key for asynchronous records in S3: `aws/lambda/async/<function>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<uuid>`. */
export function asyncObjectKey(functionName: string, timestamp: string): string {
  const iso = new Date(timestamp).toISOString();
  const [year, month, day] = iso.slice(0, 10).split('-') as [string, string, string];
  const time = iso.slice(11, 19).replaceAll(':', '.');
  return `aws/lambda/async/${functionName}/${year}/${month}/${day}/${year}-${month}-${day}T${time}-${randomUUID()}`;
}
