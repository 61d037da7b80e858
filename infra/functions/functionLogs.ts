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

/** Runs `work` (a handler call) with its console output going to `write`. */
export function inInvocation<T>(
  requestId: string,
  write: (level: LogLevel, message: string) => void,
  work: () => T,
): T {
  captureConsole();
  return scope.run({ requestId, write }, work);
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
