import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LogLevel } from './functionLogs.js';
import type { FunctionError } from './runHandler.js';
import { timedOut } from './timeouts.js';
import type { WorkerInit, WorkerInvoke, WorkerReply } from './workerProtocol.js';

/** The outcome of one isolated invocation. */
export type WorkerOutcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: FunctionError };

export interface WorkerPoolOptions extends WorkerInit {
  /** Most invocations running at once (one worker each; default 4). */
  readonly maxWorkers?: number;
  /**
   * Starts the invocation's timeout when the handler starts (after the module loaded, as Lambda
   * counts init apart): `onTimeout` after `ms` on the engine clock. Returns the cancel function.
   */
  readonly startTimeout: (ms: number, onTimeout: () => void) => () => void;
}

// From the sources, the worker boots through tsx so `workerEntry.ts` runs as written.
const require = createRequire(import.meta.url);
// tsx's ESM API (its package exports map `tsx/esm/api` to this file for `import`).
const TSX_API = pathToFileURL(
  join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
).href;
const ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './workerEntry.ts' : './workerEntry.js',
  import.meta.url,
).href;
// The compiled entry (dist/workerEntry.js) is imported as it is; tsx loads it only when eddy runs
// from its sources (tests). Handler modules in TypeScript go through tsx either way (handlerModule.ts).
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.entry.endsWith('.ts'))
  import(workerData.tsxApi).then(({ tsImport }) => tsImport(workerData.entry, workerData.entry));
else import(workerData.entry);
`;

interface Pending {
  readonly id: number;
  readonly timeoutMs: number;
  readonly settle: (outcome: WorkerOutcome) => void;
  readonly onLog: ((level: LogLevel, message: string) => void) | undefined;
  cancelTimeout?: () => void;
}

/** One worker thread running one invocation at a time. */
class FunctionWorker {
  readonly worker: Worker;
  current: Pending | undefined;
  dead = false;
  /** Resolves once the module loaded: with its load error, if any. */
  readonly ready: Promise<FunctionError | undefined>;
  private markReady: (error: FunctionError | undefined) => void = () => {};

  constructor(
    init: WorkerInit,
    private readonly pool: WorkerPool,
  ) {
    const workerData = {
      module: init.module,
      exportName: init.exportName,
      cwd: init.cwd,
      tsxApi: TSX_API,
      entry: ENTRY,
    };
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
    this.worker = new Worker(BOOTSTRAP, { eval: true, workerData, ...(init.env ? { env: init.env } : {}) });
    this.worker.unref();
    this.worker.on('message', (message: WorkerReply) => this.onMessage(message));
    this.worker.on('error', (error) =>
      this.die({ errorType: error.name || 'Error', errorMessage: error.message }),
    );
    this.worker.on('exit', (code) =>
      this.die({
        errorType: 'Runtime.ExitError',
        errorMessage: `RequestId: ${this.current?.id ?? '-'} Error: Runtime exited with error: exit status ${code}`,
      }),
    );
  }

  run(pending: Pending, message: WorkerInvoke): void {
    this.current = pending;
    this.worker.ref();
    this.worker.postMessage(message);
  }

  private onMessage(message: WorkerReply): void {
    if (message.type === 'ready') {
      this.markReady(message.error);
      return;
    }
    const current = this.current;
    if (current === undefined || message.id !== current.id) return;
    if (message.type === 'log') {
      current.onLog?.(message.level, message.message);
      return;
    }
    if (message.type === 'started') {
      current.cancelTimeout = this.pool.options.startTimeout(current.timeoutMs, () => {
        // A handler stuck in a loop cannot be stopped in place: the worker goes (Lambda resets the environment).
        this.dead = true;
        void this.worker.terminate();
        this.finish({ ok: false, error: timedOut(current.timeoutMs) });
      });
      return;
    }
    this.finish(message.ok ? { ok: true, result: message.result } : { ok: false, error: message.error });
  }

  private finish(outcome: WorkerOutcome): void {
    const current = this.current;
    if (current === undefined) return;
    this.current = undefined;
    current.cancelTimeout?.();
    if (!this.dead) this.worker.unref();
    current.settle(outcome);
    this.pool.released(this);
  }

  /** The thread crashed or exited: the invocation in it failed. */
  private die(error: FunctionError): void {
    this.dead = true;
    this.markReady(error);
    if (this.current !== undefined) this.finish({ ok: false, error });
    else this.pool.released(this);
  }
}

/**
 * Runs a handler module in worker threads (`node:worker_threads`), so a crash, `process.exit`
 * or an endless loop in a user handler is a failed invocation, not a dead host: on timeout the
 * worker is terminated, and the next invocation starts a fresh one.
 */
export class WorkerPool {
  private readonly idle: FunctionWorker[] = [];
  private readonly all = new Set<FunctionWorker>();
  private readonly queue: { pending: Pending; message: WorkerInvoke }[] = [];
  private nextId = 1;

  constructor(readonly options: WorkerPoolOptions) {}

  /** Worker threads alive now. */
  get size(): number {
    return this.all.size;
  }

  run(
    event: unknown,
    context: WorkerInvoke['context'],
    onLog?: (level: LogLevel, message: string) => void,
  ): Promise<WorkerOutcome> {
    return new Promise((settle) => {
      const id = this.nextId++;
      const pending: Pending = { id, timeoutMs: context.timeoutMs, settle, onLog };
      this.queue.push({ pending, message: { id, event, context } });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.idle.pop();
      if (worker === undefined) {
        if (this.all.size >= (this.options.maxWorkers ?? 4)) return;
        worker = new FunctionWorker(this.options, this);
        this.all.add(worker);
      }
      const next = this.queue.shift()!;
      worker.run(next.pending, next.message);
    }
  }

  /**
   * Starts a worker (or takes an idle one) and answers how its module loaded: `undefined`, or the
   * error every invocation would answer (Runtime.ImportModuleError, Runtime.HandlerNotFound). The
   * worker stays, ready for the first invocation.
   */
  async check(): Promise<FunctionError | undefined> {
    let worker = this.idle.pop();
    if (worker === undefined) {
      worker = new FunctionWorker(this.options, this);
      this.all.add(worker);
    }
    const error = await worker.ready;
    this.released(worker);
    return error;
  }

  /** @internal A worker finished its invocation (or died). */
  released(worker: FunctionWorker): void {
    if (worker.dead) this.all.delete(worker);
    else if (!this.idle.includes(worker)) this.idle.push(worker);
    this.dispatch();
  }

  /** Terminates every worker. */
  async close(): Promise<void> {
    const workers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.worker.terminate()));
  }
}
