import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { InvocationResult, MappedFunction } from '../../streams/mapping/invoke.js';
import type { ConcurrencyLimits } from './concurrencyLimits.js';
import {
  endLine,
  formatLogLine,
  invocationConsole,
  type LogLevel,
  reportLine,
  startLine,
} from './functionLogs.js';
import { HandlerLoadError, loadHandler } from './handlerModule.js';
import { InvocationLog, type InvocationLogEntry } from './invocationLog.js';
import { lambdaContext, logStreamName } from './lambdaContext.js';
import { type FunctionError, functionErrorOf, type LambdaHandler, runHandler } from './runHandler.js';
import { startTimeout, TIMED_OUT, timedOut } from './timeouts.js';
import { type WorkerOutcome, WorkerPool } from './workerPool.js';

/** How a local function is defined (the host's config file maps onto this). */
export interface FunctionDefinition {
  /** FunctionName. */
  readonly name: string;
  /** An in-process handler `(event, context) => Promise<result>`... */
  readonly handler?: LambdaHandler | ((event: never, context: never) => unknown);
  /** ...or a handler module: a `.ts` file (run through tsx) or a bundle (`.mjs`, `.js`). */
  readonly module?: string;
  /** The module's export (default `handler`). */
  readonly exportName?: string;
  /** Directory relative module paths start from (default: the working directory). */
  readonly cwd?: string;
  /** `in-process` (default) or `worker`: a module runs in worker threads (crash and loop proof). */
  readonly isolation?: 'in-process' | 'worker';
  /** Timeout in seconds (Lambda's default: 3). */
  readonly timeout?: number;
  /** MemorySize in MB, reported in the context (default 128). */
  readonly memorySize?: number;
  /** Worker threads at most (isolation `worker`; default 4). */
  readonly maxWorkers?: number;
  /** Invocations the log keeps (default 1000; 0 keeps none). */
  readonly logLimit?: number;
  /**
   * Environment variables. A worker-isolated function gets its own copy of the environment;
   * in-process functions share the host's `process.env`, so theirs are added to it.
   */
  readonly environment?: Readonly<Record<string, string>>;
}

/** The variables Lambda sets for every function, plus the function's own. */
export function lambdaEnvironment(
  definition: FunctionDefinition,
  environment: LocalFunctionEnvironment,
): Record<string, string> {
  return {
    AWS_LAMBDA_FUNCTION_NAME: definition.name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(definition.memorySize ?? 128),
    AWS_REGION: environment.region,
    AWS_DEFAULT_REGION: environment.region,
    ...definition.environment,
  };
}

export interface LocalFunctionEnvironment {
  readonly clock: Clock;
  readonly accountId: string;
  readonly region: string;
  /** Where log lines go as they are written (`eddy serve` prints them); they are also kept per invocation. */
  readonly logSink?: (functionName: string, line: string) => void;
  /** Invocations the log keeps when the definition does not say (default 1000). */
  readonly logLimit?: number;
  /**
   * Sets an in-process function's environment variables in `process.env` (default: assigns
   * them); the local stack passes its own, which it undoes when it closes.
   */
  readonly setEnvironment?: (variables: Readonly<Record<string, string>>) => void;
  /** Reserved concurrency of the stack's functions (docs/lambda-api.md §8); none: unlimited. */
  readonly concurrency?: ConcurrencyLimits;
}

/** Lines one invocation keeps in its log entry (the sink sees them all). */
const KEPT_LOG_LINES = 1000;

/**
 * A Lambda function run locally (docs/streams-and-lambda.md §2.2.1: invoked synchronously). Each invocation
 * gets a Lambda `Context` and a timeout on the engine clock; a handler that throws, rejects, times out
 * or crashes its worker is a failed invocation (`status: 'error'`, docs/streams-and-lambda.md §2.3.1). Every
 * invocation is logged (`invocations`).
 */
export class LocalFunction implements MappedFunction {
  readonly functionName: string;
  readonly functionArn: string;
  readonly log: InvocationLog;
  private readonly timeoutMs: number;
  private readonly memory: number;
  private handlerPromise: Promise<LambdaHandler> | undefined;
  /** The in-process handler once loaded: later invocations call it without awaiting a promise. */
  private loaded: LambdaHandler | undefined;
  private readonly pool: WorkerPool | undefined;
  /** When this execution environment started: its log stream is named after that day. */
  private readonly startedAt = Date.now();
  private logStreamName: string | undefined;
  private running = 0;

  /** Named at the first invocation (a stack's reset makes functions that may never run). */
  private logStream(): string {
    return (this.logStreamName ??= logStreamName(this.startedAt));
  }

  constructor(
    readonly definition: FunctionDefinition,
    private readonly environment: LocalFunctionEnvironment,
  ) {
    if ((definition.handler === undefined) === (definition.module === undefined))
      throw new TypeError(`Function ${definition.name}: give either a handler or a module`);
    if (definition.isolation === 'worker' && definition.module === undefined)
      throw new TypeError(`Function ${definition.name}: worker isolation needs a module file`);
    this.functionName = definition.name;
    this.functionArn = `arn:aws:lambda:${environment.region}:${environment.accountId}:function:${definition.name}`;
    this.timeoutMs = (definition.timeout ?? 3) * 1000;
    this.memory = definition.memorySize ?? 128;
    this.log = new InvocationLog(definition.logLimit ?? environment.logLimit);
    if (definition.handler !== undefined) {
      this.loaded = definition.handler as LambdaHandler;
      this.handlerPromise = Promise.resolve(this.loaded);
    }
    if (definition.isolation !== 'worker' && definition.environment !== undefined) {
      if (environment.setEnvironment !== undefined) environment.setEnvironment(definition.environment);
      else Object.assign(process.env, definition.environment);
    }
    if (definition.isolation === 'worker') {
      const clock = environment.clock;
      this.pool = new WorkerPool({
        env: { ...process.env, ...lambdaEnvironment(definition, environment) },
        module: definition.module!,
        exportName: definition.exportName ?? 'handler',
        cwd: definition.cwd ?? process.cwd(),
        ...(definition.maxWorkers === undefined ? {} : { maxWorkers: definition.maxWorkers }),
        startTimeout: (ms, onTimeout) => startTimeout(clock, ms, onTimeout),
      });
    }
  }

  /** Invocations in progress. */
  get inFlight(): number {
    return this.running;
  }

  /** The logged invocations, oldest first. */
  get invocations(): readonly InvocationLogEntry[] {
    return this.log.list();
  }

  private injectedFailures = 0;
  private injectedFailureMessage = 'Injected failure';
  private injectedDuplicates = 0;

  /**
   * Fault injection: the next `count` invocations fail as if the handler had thrown `message`
   * (the handler does not run). For testing retries, bisect and on-failure destinations.
   */
  failNext(count: number, message = 'Injected failure'): void {
    this.injectedFailures = count;
    this.injectedFailureMessage = message;
  }

  /**
   * Fault injection: the next `count` events are delivered twice in a row, as at-least-once
   * delivery may do (docs/streams-and-lambda.md §2.2.4). For testing that a handler is idempotent.
   */
  duplicateNext(count: number): void {
    this.injectedDuplicates = count;
  }

  /** Forgets the logged invocations and the injected faults; the loaded handler stays. */
  reset(): void {
    this.log.clear();
    this.injectedFailures = 0;
    this.injectedDuplicates = 0;
  }

  /**
   * Runs the handler once with `event`. `requestId` gives the invocation its id (the Lambda API's
   * Invoke answers with it, and an asynchronous event keeps one id across its retries); by
   * default a fresh one.
   */
  invoke(event: unknown, options: { readonly requestId?: string } = {}): Promise<InvocationResult> {
    // Counted in before the first await, so invocations started together see each other; a
    // function at its reserved concurrency rejects with FunctionThrottledError, unrun.
    let release: (() => void) | undefined;
    try {
      release = this.environment.concurrency?.acquire(this.functionName);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.injectedDuplicates > 0) return this.invokeTwice(event, options, release);
    // Not an async function around invokeOnce: its promise and await were one more of each per
    // invocation (see `inProcess`). Released before the caller hears of the result, as a
    // `finally` would.
    const result = this.invokeOnce(event, options.requestId ?? randomUUID());
    if (release !== undefined) result.then(release, release);
    return result;
  }

  /** An invocation whose event is delivered twice (`duplicateNext`). */
  private async invokeTwice(
    event: unknown,
    options: { readonly requestId?: string },
    release: (() => void) | undefined,
  ): Promise<InvocationResult> {
    try {
      this.injectedDuplicates--;
      await this.invokeOnce(event, randomUUID());
      return await this.invokeOnce(event, options.requestId ?? randomUUID());
    } finally {
      release?.();
    }
  }

  private async invokeOnce(event: unknown, requestId: string): Promise<InvocationResult> {
    const clock = this.environment.clock;
    const startedAt = clock.now();
    const started = performance.now();
    const logs: string[] = [];
    const sink = this.environment.logSink;
    const emit = (line: string) => {
      if (logs.length < KEPT_LOG_LINES) logs.push(line);
      sink?.(this.functionName, line);
    };
    // The engine clock's time, as every other time eddy shows (virtual in the test kit).
    const write = (level: LogLevel, message: string) =>
      emit(formatLogLine(clock.now(), requestId, level, message));
    // Nothing keeps the lines of a function without an invocation log or a sink (the
    // gsi-maintainer): it runs without them, and without the console scope that would route its
    // output into them. That scope is an AsyncLocalStorage, and once one is entered Node 20 runs
    // async hooks on every promise and callback of the process, requests included.
    const observed = this.log.limit > 0 || sink !== undefined;
    if (observed) emit(startLine(requestId));
    this.running++;
    let outcome: WorkerOutcome;
    try {
      if (this.injectedFailures > 0) {
        this.injectedFailures--;
        outcome = { ok: false, error: { errorType: 'Error', errorMessage: this.injectedFailureMessage } };
      } else {
        outcome =
          this.pool !== undefined
            ? await this.inWorker(event, requestId, write)
            : await this.inProcess(event, requestId, startedAt, observed ? write : undefined);
      }
    } finally {
      this.running--;
    }
    // A timed-out invocation ran for its whole timeout, as Lambda's REPORT line says; on a virtual
    // clock the wall time it took says nothing about that.
    const durationMs = isTimeout(outcome) ? this.timeoutMs : performance.now() - started;
    // The runtime logs a failed invocation's error as an ERROR line (Lambda's "Invoke Error").
    if (observed) {
      if (!outcome.ok) {
        const { errorType, errorMessage } = outcome.error;
        write('ERROR', `Invoke Error \t${JSON.stringify({ errorType, errorMessage })}`);
      }
      emit(endLine(requestId));
      emit(reportLine(requestId, durationMs, this.memory));
    }
    const entry: InvocationLogEntry = outcome.ok
      ? {
          requestId,
          functionName: this.functionName,
          startedAt,
          durationMs,
          event,
          status: 'ok',
          result: outcome.result,
          logs,
        }
      : {
          requestId,
          functionName: this.functionName,
          startedAt,
          durationMs,
          event,
          status: 'error',
          error: outcome.error,
          logs,
        };
    this.log.add(entry);
    return outcome.ok
      ? { requestId, status: 'ok', payload: outcome.result, logs }
      : { requestId, status: 'error', error: outcome.error, logs };
  }

  /**
   * Runs the handler in this thread. A loaded handler is called from a microtask, not awaited:
   * awaiting its settled promise in an async function cost every invocation that function's
   * promise, the await and
   * the adoption of the promise it returned (three promises, each run through the console
   * scope's async hooks while invocations run: functionLogs.ts). Measured with 160,000
   * invocations of a no-op async handler under callgrind (node --no-memory-reducer): 9.08 → 6.54
   * G instructions, and 5.76 G with `invoke` no longer an async function; the rest of the gain is
   * the young-generation collections that fewer promises no longer trigger, each of which copies
   * the invocation log's recent entries.
   */
  private inProcess(
    event: unknown,
    requestId: string,
    startedAt: number,
    write: ((level: LogLevel, message: string) => void) | undefined,
  ): Promise<WorkerOutcome> {
    const loaded = this.loaded;
    return loaded !== undefined
      ? this.runInProcess(loaded, event, requestId, startedAt, write)
      : this.loadAndRun(event, requestId, startedAt, write);
  }

  private async loadAndRun(
    event: unknown,
    requestId: string,
    startedAt: number,
    write: ((level: LogLevel, message: string) => void) | undefined,
  ): Promise<WorkerOutcome> {
    let handler: LambdaHandler;
    try {
      this.handlerPromise ??= loadHandler(
        this.definition.module!,
        this.definition.exportName,
        this.definition.cwd,
      );
      handler = await this.handlerPromise;
    } catch (error) {
      this.handlerPromise = undefined;
      return { ok: false, error: functionErrorOf(error) };
    }
    this.loaded = handler;
    return this.runInProcess(handler, event, requestId, startedAt, write);
  }

  private runInProcess(
    handler: LambdaHandler,
    event: unknown,
    requestId: string,
    startedAt: number,
    write: ((level: LogLevel, message: string) => void) | undefined,
  ): Promise<WorkerOutcome> {
    const clock = this.environment.clock;
    const context = lambdaContext({
      functionName: this.functionName,
      requestId,
      accountId: this.environment.accountId,
      region: this.environment.region,
      memoryLimitInMB: this.memory,
      remainingTimeMs: () => startedAt + this.timeoutMs - clock.now(),
      logStreamName: this.logStream(),
    });
    return new Promise<WorkerOutcome>((resolve) => {
      // The invocation's console scope ends with it: on its result, its error or its timeout.
      const scope = write === undefined ? undefined : invocationConsole(requestId, write);
      const finish = (outcome: WorkerOutcome) => {
        scope?.end();
        resolve(outcome);
      };
      // An in-process handler cannot be stopped: on timeout its result is ignored.
      const cancel = startTimeout(clock, this.timeoutMs, () =>
        finish({ ok: false, error: timedOut(this.timeoutMs) }),
      );
      const run = () => runHandler(handler, event, context);
      // The handler starts in a microtask of its own, never inside the caller's stack: a handler
      // that writes to a table synchronously (the test kit's engine) would otherwise re-enter the
      // delivery that invoked it, and the first invocation (which waits for the module) and the
      // next ones would start at different moments. `queueMicrotask` makes no promise.
      queueMicrotask(() =>
        (scope === undefined ? run() : scope.run(run)).then(
          (result) => {
            cancel();
            finish({ ok: true, result });
          },
          (error: unknown) => {
            cancel();
            finish({ ok: false, error: functionErrorOf(error) });
          },
        ),
      );
    });
  }

  private inWorker(
    event: unknown,
    requestId: string,
    write: (level: LogLevel, message: string) => void,
  ): Promise<WorkerOutcome> {
    return this.pool!.run(
      event,
      {
        functionName: this.functionName,
        requestId,
        accountId: this.environment.accountId,
        region: this.environment.region,
        memoryLimitInMB: this.memory,
        timeoutMs: this.timeoutMs,
        logStreamName: this.logStream(),
      },
      write,
    );
  }

  /**
   * Loads the handler now rather than at the first invocation (in a worker thread for `worker`
   * isolation), so a missing file or export is known up front.
   * @throws HandlerLoadError (`Runtime.ImportModuleError`, `Runtime.HandlerNotFound`) as the
   *   first invocation would have failed.
   */
  async load(): Promise<void> {
    if (this.pool !== undefined) {
      const error = await this.pool.check();
      if (error !== undefined) throw handlerLoadErrorOf(error);
      return;
    }
    try {
      this.handlerPromise ??= loadHandler(
        this.definition.module!,
        this.definition.exportName,
        this.definition.cwd,
      );
      this.loaded = await this.handlerPromise;
    } catch (error) {
      this.handlerPromise = undefined;
      throw error;
    }
  }

  /** Terminates the function's worker threads, if any. */
  async close(): Promise<void> {
    await this.pool?.close();
  }
}

function isTimeout(outcome: WorkerOutcome): boolean {
  return !outcome.ok && outcome.error.errorType === TIMED_OUT;
}

/** A worker's load failure as the error `loadHandler` throws in process. */
function handlerLoadErrorOf(error: FunctionError): HandlerLoadError {
  const type =
    error.errorType === 'Runtime.HandlerNotFound' ? 'Runtime.HandlerNotFound' : 'Runtime.ImportModuleError';
  return new HandlerLoadError(type, error.errorMessage);
}
