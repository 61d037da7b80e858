import { type Clock, SystemClock, type TimerHandle } from '../../core/clock.js';
import type { FunctionError } from './runHandler.js';

/**
 * Invocation timeouts (Lambda's `Timeout` setting: "the amount of time that Lambda allows a
 * function to run before stopping it", https://docs.aws.amazon.com/lambda/latest/dg/configuration-timeout.html).
 */

export const TIMED_OUT = 'Sandbox.Timedout';

/** The error of an invocation that ran out of time, worded as Lambda words it. */
export function timedOut(timeoutMs: number): FunctionError {
  return {
    errorType: TIMED_OUT,
    errorMessage: `Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`,
  };
}

/**
 * Arms an invocation's timeout on the engine clock and in real time, whichever passes first, and
 * returns the cancel function. The engine clock lets a test advance past a timeout; real time
 * bounds what the handler itself spends, as Lambda's timeout does. Without it, a handler stuck in
 * a loop or waiting for ever under a virtual clock would hold `settled()` for ever, and with it
 * `stack.advance()`, which settles before it fires the next timer. The real timer is unref'd: it
 * never keeps a process alive on its own.
 */
export function startTimeout(clock: Clock, ms: number, onTimeout: () => void): () => void {
  let fired = false;
  let timer: TimerHandle | undefined;
  const cancel = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    clearTimeout(wall);
  };
  const fire = () => {
    if (fired) return;
    fired = true;
    cancel();
    onTimeout();
  };
  const wall = setTimeout(fire, ms);
  wall.unref();
  // On the system clock the engine clock's timer would be a second real timer for the same
  // moment: the real one alone fires then (one timer armed and cleared per invocation, not two;
  // each mapping invocation pays it, and at 16 clients the stream handler's batches are ~3
  // records, bench/workload.ts).
  if (!(clock instanceof SystemClock)) timer = clock.setTimeout(fire, ms);
  return cancel;
}
