import { Retry, StandardRetryStrategy } from '@smithy/core/retry';
import type { RetryErrorInfo, RetryStrategyV2, StandardRetryToken } from '@smithy/types';
import type { VirtualClock } from '../../core/clock.js';

/** The SDK's ceiling on one backoff (`MAXIMUM_RETRY_DELAY` in @smithy/core's util-retry). */
const MAXIMUM_RETRY_DELAY_MS = 20_000;

/**
 * The SDK's full-jitter backoff, `random × min(base × 2^attempt, 20 s)` with the base the
 * standard strategy sets (50 ms, 1 s after a throttling error), remembered instead of slept.
 */
class RememberedBackoff {
  private base = Retry.delay();
  last = 0;

  computeNextBackoffDelay(attempt: number): number {
    this.last = Math.floor(Math.random() * Math.min(this.base * 2 ** attempt, MAXIMUM_RETRY_DELAY_MS));
    return 0;
  }

  setDelayBase(delay: number): void {
    this.base = delay;
  }
}

export interface VirtualRetryOptions {
  /** Attempts per call, the first included (default 3, the SDK's standard mode). */
  readonly maxAttempts?: number;
  /** Told of each retry: the backoff the SDK chose (now virtual time) and the error it retries. */
  readonly onRetry?: (delayMs: number, error: RetryErrorInfo) => void;
}

/**
 * The AWS SDK's standard retry strategy (its attempt count, retry quota, error classes and
 * jittered backoff) waiting on a virtual clock: each backoff moves virtual time instead of
 * sleeping, so throttled calls retry as against AWS, at test speed (docs/capacity.md §8).
 *
 * @example
 * ```ts
 * const client = new DynamoDBClient({ endpoint, region, retryStrategy: virtualClockRetries(stack.clock) });
 * ```
 */
export function virtualClockRetries(clock: VirtualClock, options: VirtualRetryOptions = {}): RetryStrategyV2 {
  const backoff = new RememberedBackoff();
  const standard = new StandardRetryStrategy({ maxAttempts: options.maxAttempts ?? 3, backoff });
  return {
    acquireInitialRetryToken: (scope: string) => standard.acquireInitialRetryToken(scope),
    async refreshRetryTokenForRetry(token: StandardRetryToken, error: RetryErrorInfo) {
      const next = await standard.refreshRetryTokenForRetry(token, error);
      options.onRetry?.(backoff.last, error);
      await clock.advance(backoff.last);
      return next;
    },
    recordSuccess: (token: StandardRetryToken) => standard.recordSuccess(token),
  };
}
