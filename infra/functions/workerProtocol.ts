import type { LogLevel } from './functionLogs.js';
import type { FunctionError } from './runHandler.js';

/** Messages between the main thread and a function's worker thread. */
export interface WorkerInit {
  readonly module: string;
  readonly exportName: string;
  readonly cwd: string;
  /** The worker's own environment (Lambda's variables and the function's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface WorkerInvoke {
  readonly id: number;
  readonly event: unknown;
  readonly context: {
    readonly functionName: string;
    readonly requestId: string;
    readonly accountId: string;
    readonly region: string;
    readonly memoryLimitInMB: number;
    readonly timeoutMs: number;
    readonly logStreamName: string;
  };
}

export type WorkerReply =
  /** The module loaded (or could not: `error`, which every invocation then answers). */
  | { readonly type: 'ready'; readonly error?: FunctionError }
  | { readonly type: 'started'; readonly id: number }
  /** A `console` call of the handler during invocation `id`. */
  | { readonly type: 'log'; readonly id: number; readonly level: LogLevel; readonly message: string }
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly type: 'result'; readonly id: number; readonly ok: false; readonly error: FunctionError };
