import type { FunctionError } from './runHandler.js';

/** One invocation as the local runtime saw it (inspect with `invocations(functionName)`). */
export interface InvocationLogEntry {
  readonly requestId: string;
  readonly functionName: string;
  /** Engine-clock time the invocation started, epoch ms. */
  readonly startedAt: number;
  /** Wall-clock duration, ms. */
  readonly durationMs: number;
  /** The event as passed (by reference: a handler that mutates its event is seen mutated). */
  readonly event: unknown;
  readonly status: 'ok' | 'error';
  readonly result?: unknown;
  readonly error?: FunctionError;
  /** What the invocation logged, in Lambda's text format (START, the handler's lines, END, REPORT). */
  readonly logs: readonly string[];
}

/** The last `limit` invocations of a function (a ring: a busy function's log stays bounded). */
export class InvocationLog {
  private entries: InvocationLogEntry[] = [];
  /** Invocations ever recorded (the log keeps the last `limit`). */
  total = 0;

  constructor(readonly limit = 1000) {}

  add(entry: InvocationLogEntry): void {
    this.total++;
    if (this.limit <= 0) return;
    this.entries.push(entry);
    if (this.entries.length > this.limit * 2) this.entries = this.entries.slice(-this.limit);
  }

  /** The retained invocations, oldest first. */
  list(): readonly InvocationLogEntry[] {
    if (this.entries.length > this.limit) this.entries = this.entries.slice(-this.limit);
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
