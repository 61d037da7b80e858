/**
 * Reserved concurrency (docs/lambda-api.md §8): how many invocations of a function may run at
 * once. A function with reserved concurrency N runs at most N invocations together; the next one
 * is throttled, and 0 throttles every invocation ("Lambda reserved concurrency", Lambda developer
 * guide: "reserving concurrency ... prevents it from scaling beyond that level"; "set reserved
 * concurrency to 0 ... throttles all invocations"). Functions without reserved concurrency share
 * the account's pool, which eddy does not limit.
 *
 * Limits are kept by function name, so a function's code and settings can be replaced (a new
 * `LocalFunction`) without losing its limit or its count of running invocations.
 *
 * @example
 * ```ts
 * const limits = new ConcurrencyLimits();
 * limits.set('audit', 1);
 * const release = limits.acquire('audit'); // a second acquire now throws FunctionThrottledError
 * release();
 * ```
 */
export class ConcurrencyLimits {
  private readonly reserved = new Map<string, number>();
  private readonly running = new Map<string, number>();

  /** Sets (a number) or removes (undefined) a function's reserved concurrency. */
  set(functionName: string, reserved: number | undefined): void {
    if (reserved === undefined) this.reserved.delete(functionName);
    else this.reserved.set(functionName, reserved);
  }

  /** The function's reserved concurrency, if it has one. */
  get(functionName: string): number | undefined {
    return this.reserved.get(functionName);
  }

  /** Every function's reserved concurrency (what a data directory keeps). */
  entries(): [string, number][] {
    return [...this.reserved];
  }

  /** Invocations of the function running now. */
  inFlight(functionName: string): number {
    return this.running.get(functionName) ?? 0;
  }

  /**
   * Counts one invocation in, synchronously (two invocations started in the same turn see each
   * other); the returned function counts it out.
   * @throws FunctionThrottledError when the function already runs its reserved concurrency.
   */
  acquire(functionName: string): () => void {
    const limit = this.reserved.get(functionName);
    const running = this.running.get(functionName) ?? 0;
    if (limit !== undefined && running >= limit) throw new FunctionThrottledError(functionName, limit);
    this.running.set(functionName, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.running.get(functionName) ?? 1) - 1;
      if (now === 0) this.running.delete(functionName);
      else this.running.set(functionName, now);
    };
  }

  /** Forgets every limit (the test kit's `reset`). */
  clear(): void {
    this.reserved.clear();
  }
}

/**
 * An invocation refused because the function runs its reserved concurrency: the Lambda API
 * answers it as `TooManyRequestsException` (429, Reason
 * `ReservedFunctionConcurrentInvocationLimitExceeded`); an event source mapping retries the batch
 * and an asynchronous event goes back to the queue (docs/lambda-api.md §8.3, §8.4).
 */
export class FunctionThrottledError extends Error {
  override readonly name = 'FunctionThrottledError';
  /** How a mapping tells a throttle from other failures to invoke (`isThrottle`). */
  readonly throttled = true;

  constructor(
    readonly functionName: string,
    readonly reservedConcurrency: number,
  ) {
    super(`Rate Exceeded.`);
  }
}
