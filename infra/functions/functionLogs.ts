import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';

/**
 * Function logs in Lambda's text format: what a handler writes with `console` during an
 * invocation becomes `<ISO time>\t<request id>\t<LEVEL>\t<message>`, framed by START, END and
 * REPORT lines, as CloudWatch Logs shows a Node.js function's output ("Log and monitor Node.js
 * Lambda functions", Lambda developer guide: console.log/info → INFO, warn → WARN, error →
 * ERROR, debug → DEBUG, trace → TRACE).
 *
 * Each invocation runs in an `AsyncLocalStorage` scope, so lines are attributed to the right
 * request even when invocations of several functions interleave in one thread; console output
 * outside any invocation (eddy's own, a test's) is left alone.
 *
 * The scope is enabled only while invocations run (and IDLE_MS after). On Node 20 an enabled
 * `AsyncLocalStorage` runs async hooks on every promise and callback of the thread, the HTTP
 * server's requests included (~15k instructions a PutItem over HTTP, ~4 %, bench/workload.ts with
 * BENCH_WORKLOAD_INSTRUCTIONS=1); once one function had been invoked, every later request paid
 * that for good. The price: a line a handler logs after invocations have stopped (a timer it left
 * behind) is printed unattributed, as eddy's own output is.
 */
export type LogLevel = 'INFO' | 'WARN' | 'ERROR' | 'DEBUG' | 'TRACE';

interface InvocationScope {
  readonly requestId: string;
  write(level: LogLevel, message: string): void;
}

const scope = new AsyncLocalStorage<InvocationScope>();

const CONSOLE_LEVELS: readonly [keyof Console & string, LogLevel][] = [
  ['log', 'INFO'],
  ['info', 'INFO'],
  ['warn', 'WARN'],
  ['error', 'ERROR'],
  ['debug', 'DEBUG'],
  ['trace', 'TRACE'],
];

let captured = false;

/** Routes `console` calls made inside an invocation scope to that invocation (once per thread). */
export function captureConsole(): void {
  if (captured) return;
  captured = true;
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const [method, level] of CONSOLE_LEVELS) {
    const original = target[method]!.bind(console);
    target[method] = (...args: unknown[]) => {
      const current = scope.getStore();
      if (current === undefined) original(...args);
      else current.write(level, format(...args));
    };
  }
}

/** Invocations running in a scope (in this thread). */
let running = 0;
/** When the last invocation started (performance.now()). */
let lastStarted = 0;
/** The check that disables the scope once invocations have stopped. */
let idleCheck: NodeJS.Timeout | undefined;

/**
 * How long the scope stays enabled after invocations stop (ms). Enabling and disabling it costs
 * about as much as a request pays while it is enabled (~15k instructions, bench/workload.ts with
 * BENCH_WORKLOAD_INSTRUCTIONS=1), so a busy stream handler keeps it on and it goes off once they
 * pause: not toggled per invocation.
 */
const IDLE_MS = 100;

function checkIdle(): void {
  idleCheck = undefined;
  const idleFor = performance.now() - lastStarted;
  if (running === 0 && idleFor >= IDLE_MS) scope.disable();
  else armIdleCheck(running === 0 ? IDLE_MS - idleFor : IDLE_MS);
}

function armIdleCheck(ms: number): void {
  idleCheck = setTimeout(checkIdle, ms);
  idleCheck.unref();
}

/** One invocation's console scope: `run` calls inside it, `end` (idempotent) closes it. */
export interface InvocationConsole {
  run<T>(work: () => T): T;
  end(): void;
}

/**
 * Opens an invocation's console scope: its handler's console output goes to `write` until `end`
 * (called when the invocation ends: its result, its error or its timeout). Once no invocation has
 * run for IDLE_MS the scope is disabled: a line logged later is printed unattributed.
 */
export function invocationConsole(
  requestId: string,
  write: (level: LogLevel, message: string) => void,
): InvocationConsole {
  captureConsole();
  running++;
  lastStarted = performance.now();
  if (idleCheck === undefined) armIdleCheck(IDLE_MS);
  const store: InvocationScope = { requestId, write };
  let open = true;
  return {
    run: (work) => scope.run(store, work),
    end: () => {
      if (!open) return;
      open = false;
      running--;
    },
  };
}

/** Runs `work` (a handler call) with its console output going to `write` until it settles. */
export async function inInvocation<T>(
  requestId: string,
  write: (level: LogLevel, message: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  const invocation = invocationConsole(requestId, write);
  try {
    return await invocation.run(work);
  } finally {
    invocation.end();
  }
}

/** A handler's line: `2026-01-01T00:00:00.000Z\t<request id>\tINFO\tmessage`. */
export function formatLogLine(at: number, requestId: string, level: LogLevel, message: string): string {
  return `${new Date(at).toISOString()}\t${requestId}\t${level}\t${message}`;
}

export const startLine = (requestId: string) => `START RequestId: ${requestId} Version: $LATEST`;
export const endLine = (requestId: string) => `END RequestId: ${requestId}`;

/** Lambda bills by the millisecond, rounded up (since December 2020). */
export function reportLine(requestId: string, durationMs: number, memorySize: number): string {
  return `REPORT RequestId: ${requestId}\tDuration: ${durationMs.toFixed(2)} ms\tBilled Duration: ${Math.max(1, Math.ceil(durationMs))} ms\tMemory Size: ${memorySize} MB`;
}
