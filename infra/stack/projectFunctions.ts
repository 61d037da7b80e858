import type { Engine } from '../../core/engine.js';
import type { FunctionBinding } from '../bindings.js';
import type { FunctionDefinition, LocalFunction } from '../functions/localFunction.js';
import type { LocalFunctions } from '../functions/localFunctions.js';
import type { Logger } from '../host/logger.js';
import { type Schedule, scheduleFunction } from '../schedules/scheduleFunction.js';
import { handlerProblem } from './handlerCheck.js';
import type { StreamBindings } from './streamBindings.js';

/**
 * The project's own functions in the local stack: defined from the config's bindings, their
 * handlers loaded up front, their stream mappings and schedules started, and their code replaced
 * by `--watch` builds.
 */
export interface ProjectFunctionsOptions {
  readonly bindings: readonly FunctionBinding[];
  readonly engine: Engine;
  readonly functions: LocalFunctions;
  readonly streamBindings: StreamBindings;
  readonly logger: Logger;
}

/** What `load` and `start` take from the stack's options. */
export interface ProjectStartOptions {
  readonly handlers?: Readonly<Record<string, (event: never, context: never) => unknown>>;
  readonly startSchedules?: boolean;
  readonly missingHandlers?: 'fail' | 'wait';
}

type Code = { readonly handler: (event: never, context: never) => unknown } | { readonly module: string };

export class ProjectFunctions {
  readonly bindings: readonly FunctionBinding[];
  /** Functions whose handler does not load yet, with the reason (`missingHandlers: 'wait'`). */
  readonly waiting = new Map<string, string>();
  /** The running schedules, by function name. */
  readonly schedules = new Map<string, Schedule[]>();

  constructor(private readonly options: ProjectFunctionsOptions) {
    this.bindings = options.bindings;
  }

  /**
   * Defines the functions and loads their handlers now, so that a missing file or export is
   * found at start rather than by every record failing with Runtime.ImportModuleError.
   * @throws HandlerMissingError (unless `missingHandlers: 'wait'`).
   */
  async load(options: ProjectStartOptions): Promise<void> {
    for (const binding of this.bindings) {
      const handler = options.handlers?.[binding.functionName];
      if (handler !== undefined) {
        this.define(binding, { handler });
        continue;
      }
      const fn = this.define(binding, { module: binding.handlerPath });
      const problem = await handlerProblem(binding, fn);
      if (problem === undefined) continue;
      if (options.missingHandlers !== 'wait') throw problem;
      this.waiting.set(binding.functionName, problem.reason);
      this.options.logger.warn({ function: binding.functionName }, `${problem.reason}; waiting for a fix`);
    }
  }

  /** Starts the functions' stream mappings (held for those waiting) and schedules. */
  start(options: ProjectStartOptions): void {
    const { engine, streamBindings, logger } = this.options;
    for (const binding of this.bindings) {
      const name = binding.functionName;
      if (this.waiting.has(name)) streamBindings.hold(name);
      for (const stream of binding.streams) {
        streamBindings.bind({
          functionName: name,
          tableName: stream.table,
          settings: stream.settings as Record<string, unknown>,
          where: `functions.${name}`,
        });
      }
      const scheduled = binding.schedules
        .filter((schedule) => schedule.enabled && options.startSchedules !== false)
        .map((schedule) =>
          scheduleFunction(engine.clock, (event) => this.invokeScheduled(name, event), {
            rate: schedule.rateMs,
            name,
            accountId: engine.defaultAccountId,
            region: engine.defaultRegion,
            onError: (error) => logger.error({ err: error, function: name }, 'scheduled run failed'),
          }),
        );
      if (scheduled.length > 0) this.schedules.set(name, scheduled);
    }
  }

  stopSchedules(): void {
    for (const scheduled of this.schedules.values()) for (const schedule of scheduled) schedule.stop();
    this.schedules.clear();
  }

  /**
   * Replaces a function's code with a module file once its handler loads; a function that was
   * waiting for a handler starts.
   * @throws HandlerMissingError when the new module has no such handler: the running code stays.
   */
  async reload(functionName: string, modulePath: string): Promise<void> {
    const binding = this.bindings.find((candidate) => candidate.functionName === functionName);
    if (binding === undefined) throw new Error(`No function named ${functionName} in the config`);
    const fn = this.options.functions.create(definitionOf(binding, { module: modulePath }));
    const problem = await handlerProblem(binding, fn, modulePath);
    if (problem !== undefined) {
      void fn.close();
      throw problem;
    }
    this.options.functions.install(fn);
    this.waiting.delete(functionName);
    this.options.streamBindings.release(functionName);
  }

  /** Defines the worker-isolated functions again (their threads copy the environment at start). */
  redefineWorkers(): void {
    for (const binding of this.bindings) {
      const current = this.options.functions.get(binding.functionName)?.definition;
      if (current?.isolation === 'worker' && current.module !== undefined)
        this.define(binding, { module: current.module });
    }
  }

  private define(binding: FunctionBinding, code: Code): LocalFunction {
    return this.options.functions.define(definitionOf(binding, code));
  }

  /** Runs a scheduled function the way its own invocations run (context, timeout, log). */
  private async invokeScheduled(functionName: string, event: unknown): Promise<void> {
    const result = await this.options.functions.get(functionName)!.invoke(event);
    if (result.status === 'error') {
      throw new Error(`${functionName} failed: ${result.error?.errorType}: ${result.error?.errorMessage}`);
    }
  }
}

function definitionOf(binding: FunctionBinding, code: Code): FunctionDefinition {
  return {
    name: binding.functionName,
    ...('handler' in code
      ? { handler: code.handler }
      : { module: code.module, exportName: binding.exportName }),
    timeout: binding.timeout,
    memorySize: binding.memorySize,
    environment: binding.environment,
    isolation: 'handler' in code ? 'in-process' : binding.isolation,
  };
}
