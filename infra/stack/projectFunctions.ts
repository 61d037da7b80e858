import type { Engine } from '../../core/engine.js';
import { BindingError, type FunctionBinding, runsLocally, type StreamBinding } from '../bindings.js';
import type { FunctionDefinition, LocalFunction } from '../functions/localFunction.js';
import type { LocalFunctions } from '../functions/localFunctions.js';
import type { Logger } from '../host/logger.js';
import { parseScheduleExpression } from '../schedules/scheduleExpression.js';
import { type Schedule, scheduleFunction } from '../schedules/scheduleFunction.js';
import { buildFunctions } from './functionBuilds.js';
import { handlerProblem } from './handlerCheck.js';
import type { StreamBindings } from './streamBindings.js';

/**
 * The project's own functions in the local stack: defined from the stack's bindings (bundled
 * first when the stack asks for a build), their handlers loaded up front, their stream mappings
 * and schedules started, their code replaced by `--watch` builds, and functions added, changed and
 * removed when `--watch` reconciles a changed stack file (`reconcile.ts`).
 *
 * A function eddy does not run (another runtime than Node.js, docs/templates.md §3.5) is defined
 * as one whose invocations fail saying so; its mappings exist, disabled, and its schedules do not
 * run.
 */
export interface ProjectFunctionsOptions {
  readonly bindings: readonly FunctionBinding[];
  readonly engine: Engine;
  readonly functions: LocalFunctions;
  readonly streamBindings: StreamBindings;
  readonly logger: Logger;
  readonly settings: ProjectSettings;
}

/** What the project's functions take from the stack's options. */
export interface ProjectSettings {
  readonly handlers?: Readonly<Record<string, (event: never, context: never) => unknown>>;
  readonly startSchedules?: boolean;
  readonly missingHandlers?: 'fail' | 'wait';
  /** Where handlers with build settings are bundled. */
  readonly buildDirectory: string;
}

type Code = { readonly handler: (event: never, context: never) => unknown } | { readonly module: string };

export class ProjectFunctions {
  private current: readonly FunctionBinding[];
  /** Functions whose handler does not load yet, with the reason (`missingHandlers: 'wait'`). */
  readonly waiting = new Map<string, string>();
  /** The running schedules, by function name. */
  readonly schedules = new Map<string, Schedule[]>();
  /** Undoes a schedule: stops its timer and its settler. */
  private readonly scheduleStops = new Map<Schedule, () => void>();
  /** Bundles of functions with build settings, by function name (what runs instead of the source). */
  private readonly bundles = new Map<string, string>();

  constructor(private readonly options: ProjectFunctionsOptions) {
    this.current = options.bindings;
  }

  /** The bindings the stack runs (the same `eddy synth` deploys). */
  get bindings(): readonly FunctionBinding[] {
    return this.current;
  }

  /** The bindings after `--watch` reconciled a changed stack file. */
  adopt(bindings: readonly FunctionBinding[]): void {
    this.current = bindings;
  }

  /**
   * Bundles the functions and loads their handlers now, so that a missing file or export (or a
   * bundle that does not build) is found at start rather than by every record failing with
   * Runtime.ImportModuleError.
   * @throws HandlerMissingError, or BindingError for a failed bundle (unless `missingHandlers: 'wait'`).
   */
  async load(): Promise<void> {
    const wait = this.options.settings.missingHandlers === 'wait';
    const failedBuilds = new Map<string, BindingError>();
    if (wait) {
      // Each bundle on its own: one that fails waits for a fix, as a missing handler does.
      await Promise.all(
        this.bindings.map((binding) =>
          this.buildFunctions([binding]).catch((error: unknown) => {
            if (!(error instanceof BindingError)) throw error;
            failedBuilds.set(binding.functionName, error);
          }),
        ),
      );
    } else await this.buildFunctions(this.bindings);
    for (const binding of this.bindings) {
      const failedBuild = failedBuilds.get(binding.functionName);
      // Defined all the same (its mappings need it), to wait for a build that loads.
      if (failedBuild !== undefined) this.defineProjectFunction(binding);
      const problem = failedBuild ?? (await this.check(binding));
      if (problem === undefined) continue;
      if (!wait) throw problem;
      this.wait(binding.functionName, problem.reason);
    }
  }

  /** Starts the functions' stream mappings (held for those waiting) and schedules. */
  start(): void {
    for (const binding of this.bindings) {
      if (this.waiting.has(binding.functionName)) this.options.streamBindings.hold(binding.functionName);
      for (const stream of binding.streams) this.bindStream(binding, stream);
      this.startSchedules(binding);
    }
  }

  /**
   * Defines a function added under `--watch`, loads its handler and starts its mappings and
   * schedules. A handler that does not load holds its mappings (`missingHandlers: 'wait'`) or
   * throws.
   */
  async startFunction(binding: FunctionBinding): Promise<void> {
    const name = binding.functionName;
    const problem = await this.check(binding);
    if (problem !== undefined) {
      if (this.options.settings.missingHandlers !== 'wait') {
        this.options.functions.remove(name);
        throw problem;
      }
      this.wait(name, problem.reason);
      this.options.streamBindings.hold(name);
    }
    // Listed before its first `--watch` build can reload it.
    this.current = [...this.current.filter((candidate) => candidate.functionName !== name), binding];
    for (const stream of binding.streams) this.bindStream(binding, stream);
    this.startSchedules(binding);
  }

  /** Stops a function that is gone: its mappings are deleted, its schedules stop, it is removed. */
  removeFunction(functionName: string): void {
    this.options.streamBindings.unbindFunction(functionName);
    this.stopSchedules(functionName);
    this.waiting.delete(functionName);
    this.options.functions.remove(functionName);
    this.current = this.current.filter((binding) => binding.functionName !== functionName);
  }

  /** (Re)defines a project function: its bundle, its module, or the test's in-process handler. */
  defineProjectFunction(binding: FunctionBinding): LocalFunction {
    const handler = runsLocally(binding)
      ? this.options.settings.handlers?.[binding.functionName]
      : notRunHandler(binding);
    return this.define(
      binding,
      handler ? { handler } : { module: this.bundles.get(binding.functionName) ?? binding.handlerPath },
    );
  }

  /** Bundles the handlers whose stack asks for a build (`FunctionBinding.build`). */
  async buildFunctions(bindings: readonly FunctionBinding[]): Promise<void> {
    const { settings } = this.options;
    const toBuild = bindings.filter(
      (binding) =>
        binding.build !== undefined && runsLocally(binding) && !settings.handlers?.[binding.functionName],
    );
    for (const binding of bindings) this.bundles.delete(binding.functionName);
    for (const [name, module] of await buildFunctions(toBuild, settings.buildDirectory))
      this.bundles.set(name, module);
  }

  /**
   * Starts the mapping of one stream binding. A function eddy does not run keeps its mapping,
   * paused where it starts.
   */
  bindStream(binding: FunctionBinding, stream: StreamBinding): void {
    this.options.streamBindings.bind({
      functionName: binding.functionName,
      tableName: stream.table,
      settings: settingsOf(binding, stream),
      where: `functions.${binding.functionName}`,
    });
  }

  /**
   * Applies changed settings to a stream binding's mapping, as UpdateEventSourceMapping does (from
   * where it stopped). `changes` holds the settings that differ, dropped ones at their defaults.
   */
  updateStream(binding: FunctionBinding, stream: StreamBinding, changes: Record<string, unknown>): void {
    const { Enabled, ...rest } = changes;
    // A function eddy does not run stays paused, whatever the stack says.
    const applied = runsLocally(binding) && Enabled !== undefined ? { ...rest, Enabled } : rest;
    this.options.streamBindings.update(
      binding.functionName,
      stream.table,
      settingsOf(binding, stream),
      applied,
    );
  }

  /** Deletes the mapping of one stream binding (gone from the stack, or its stream replaced). */
  unbindStream(functionName: string, tableName: string): void {
    this.options.streamBindings.unbind(functionName, tableName);
  }

  /**
   * Starts a function's schedules (replacing any it had). `settled()` (and the test kit's
   * `advance`) waits for a scheduled run in flight, as it does for the ttl-expirer.
   */
  startSchedules(binding: FunctionBinding): void {
    const { engine, logger, settings } = this.options;
    const name = binding.functionName;
    this.stopSchedules(name);
    const scheduled = binding.schedules
      .filter((schedule) => runsLocally(binding) && schedule.enabled && settings.startSchedules !== false)
      .map((schedule) =>
        // A target's Input is the event itself, in place of the Scheduled Event (API_Target).
        scheduleFunction(
          engine.clock,
          (event) =>
            this.invokeScheduled(name, schedule.input === undefined ? event : JSON.parse(schedule.input)),
          {
            ...(schedule.rateMs !== undefined
              ? { rate: schedule.rateMs }
              : { timing: parseScheduleExpression(schedule.expression, schedule.timezone) }),
            name,
            accountId: engine.defaultAccountId,
            region: engine.defaultRegion,
            onError: (error) => logger.error({ err: error, function: name }, 'scheduled run failed'),
          },
        ),
      );
    if (scheduled.length === 0) return;
    this.schedules.set(name, scheduled);
    for (const schedule of scheduled) {
      const unregister = engine.addSettler(() => schedule.settled());
      this.scheduleStops.set(schedule, () => {
        unregister();
        schedule.stop();
      });
    }
  }

  /** Stops a function's schedules, or every function's. */
  stopSchedules(functionName?: string): void {
    const names = functionName === undefined ? [...this.schedules.keys()] : [functionName];
    for (const name of names) {
      for (const schedule of this.schedules.get(name) ?? []) {
        this.scheduleStops.get(schedule)?.();
        this.scheduleStops.delete(schedule);
      }
      this.schedules.delete(name);
    }
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

  /** Defines a function and loads its handler: what stops it, or `undefined` when it runs. */
  private async check(binding: FunctionBinding): Promise<BindingError | undefined> {
    const fn = this.defineProjectFunction(binding);
    const module = fn.definition.module;
    return module === undefined ? undefined : handlerProblem(binding, fn, module);
  }

  private wait(functionName: string, reason: string): void {
    this.waiting.set(functionName, reason);
    this.options.logger.warn({ function: functionName }, `${reason}; waiting for a fix`);
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

/** A stream binding's mapping settings: a function eddy does not run has its mapping disabled. */
function settingsOf(binding: FunctionBinding, stream: StreamBinding): Record<string, unknown> {
  return {
    ...(stream.settings as Record<string, unknown>),
    ...(runsLocally(binding) ? {} : { Enabled: false }),
  };
}

/** The handler of a function eddy does not run: every invocation fails, saying why. */
function notRunHandler(binding: FunctionBinding): () => never {
  return () => {
    throw new Error(
      `eddy does not run ${binding.runtime ?? 'this'} functions: ${binding.functionName} is listed, not run`,
    );
  };
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
