import type { Clock } from '../../core/clock.js';
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
  const cancel = () => {
    clock.clearTimeout(timer);
    clearTimeout(wall);
  };
  const fire = () => {
    if (fired) return;
    fired = true;
    cancel();
    onTimeout();
  };
  const timer = clock.setTimeout(fire, ms);
  const wall = setTimeout(fire, ms);
  wall.unref();
  return cancel;
}
