import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type Clock, SystemClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { MemoryCheckpointStore } from '../../core/persistence/checkpointStore.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import {
  type CreateEventSourceMappingInput,
  type EventSourceMappingConfiguration,
  MappingManager,
} from '../../streams/mapping/index.js';
import { StreamsService } from '../../streams/streamsApi/streamsService.js';
import { archiverBinding, archiveSinkOf } from '../archive/binding.js';
import { BindingError, bindingsOf, type FunctionBinding } from '../bindings.js';
import type { EddyConfig } from '../config.js';
import { LocalDestinations } from '../destinations/localDestinations.js';
import { type GsiMaintainer, startGsiMaintainer } from '../functions/gsiMaintainer.js';
import { LocalFunctions } from '../functions/localFunctions.js';
import { createLocalClient } from '../host/localClient.js';
import { createHostLogger, type Logger } from '../host/logger.js';
import { RequestPipeline } from '../host/pipeline.js';
import { provisionTables } from '../host/provision.js';
import { type BoundAddress, EddyServer, type ServerOptions } from '../host/server.js';
// By file, not the barrel: the barrel brings the SDK's LambdaClient, which `eddy serve` never uses.
import { LambdaBackend } from '../lambda-api/backend.js';
import { lambdaReadService } from '../lambda-api/readService.js';
import { lambdaService } from '../lambda-api/service.js';
import { type Durability, Persistence, ReplayableClock } from '../persistence/index.js';
import { type Schedule, scheduleFunction } from '../schedules/scheduleFunction.js';
import { startTtlExpirer, type TtlExpirer } from '../schedules/ttlExpirer.js';
import { durableFunctions } from './durableFunctions.js';
import { bindingUuid, MappingCheckpoints } from './mappingCheckpoints.js';
import { streamSettings } from './streamSettings.js';

/**
 * The local stack: everything a project's config declares, wired as docs/architecture.md §1.1 draws it. The
 * engine (global indexes kept by the gsi-maintainer, eventually consistent as in DynamoDB), the
 * change log and the Streams API, the project's functions with their stream mappings and
 * schedules, the built-in ttl-expirer and (when configured) archiver. `eddy serve` puts a server
 * in front of it; the test kit drives it in process.
 */
export interface StackOptions {
  /** The one clock (default: the system clock; the test kit passes a virtual one). */
  readonly clock?: Clock;
  readonly accountId?: string;
  readonly region?: string;
  /** How long tables and indexes stay CREATING, in ms (default 0). */
  readonly transientStatusDelayMs?: number;
  /** Where relative paths of the config start (the config file's folder). */
  readonly baseDirectory?: string;
  readonly logger?: Logger;
  /**
   * In-process handlers that replace the config's handler modules, by function name (tests, or
   * functions defined in code rather than in files).
   */
  readonly handlers?: Readonly<Record<string, (event: never, context: never) => unknown>>;
  /** Whether the ttl-expirer and schedules run on their timers (default true). */
  readonly startSchedules?: boolean;
  /**
   * Where the project's functions' log lines go as they are written, in Lambda's format (START,
   * the handler's console lines, END, REPORT). Default: kept per invocation only.
   */
  readonly functionLogs?: (functionName: string, line: string) => void;
  /**
   * Invocations each function's log keeps for `invocations(name)` (default 1000). A server
   * nobody inspects in process (`eddy serve`) keeps none: see `LocalFunctionsOptions.logLimit`.
   */
  readonly invocationLogLimit?: number;
  /**
   * Keep everything in a data directory (`eddy serve --data-dir`): tables, streams, mapping
   * checkpoints and destinations survive restarts. Needs the system clock.
   */
  readonly dataDir?: DataDirOptions;
}

export interface DataDirOptions {
  readonly path: string;
  readonly durability?: Durability;
  readonly snapshotLogBytes?: number;
  readonly snapshotInterval?: number | string;
}

/** What the stack was started with that `reset` needs again. */
interface Wiring {
  readonly accountId: string;
  readonly region: string;
  readonly baseDirectory: string;
  readonly startSchedules: boolean;
}

export class LocalStack {
  private readonly closers: (() => Promise<void> | void)[] = [];
  /** Stops the ttl-expirer and the schedules (`reset` starts them again). */
  private stoppers: (() => void)[] = [];
  private gsiMaintainer: GsiMaintainer | undefined;

  private constructor(
    readonly config: EddyConfig,
    readonly engine: Engine,
    readonly streams: StreamsService,
    readonly functions: LocalFunctions,
    readonly destinations: LocalDestinations,
    readonly mappings: MappingManager,
    readonly logger: Logger,
    /** The data directory, when started with `dataDir`. */
    readonly persistence: Persistence | undefined,
    private readonly checkpoints: MappingCheckpoints,
    private readonly wiring: Wiring,
  ) {}

  /** The gsi-maintainer: global indexes follow their tables through it. */
  get gsi(): GsiMaintainer {
    return this.gsiMaintainer!;
  }

  /**
   * The Lambda API's side of the stack (its functions, asynchronous invocations, what a data
   * directory keeps of its changes), served with the DynamoDB API on the same port.
   */
  lambdaApi!: LambdaBackend;

  /** The ttl-expirer schedule. */
  ttl: TtlExpirer | undefined;
  /** The project's schedules, by function name. */
  readonly schedules = new Map<string, Schedule[]>();
  /** The bindings the stack runs (the same `eddy synth` deploys). */
  bindings: readonly FunctionBinding[] = [];

  get changeLog(): ChangeLog {
    return this.streams.changeLog;
  }

  /**
   * Builds and starts the stack; tables exist and mappings run when it resolves. With a data
   * directory, its state is recovered first: tables it holds are kept as they are (not declared
   * again), and mappings resume from their saved checkpoints.
   */
  static async start(config: EddyConfig, options: StackOptions = {}): Promise<LocalStack> {
    if (options.dataDir !== undefined && options.clock !== undefined)
      throw new Error('A data directory runs on the system clock: pass either dataDir or clock');
    const clock =
      options.clock ?? (options.dataDir === undefined ? new SystemClock() : new ReplayableClock());
    const logger = options.logger ?? createHostLogger({ level: 'warn' });
    const accountId = options.accountId ?? config.server?.accountId ?? '000000000000';
    const region = options.region ?? config.server?.region ?? 'us-east-1';
    const baseDirectory = options.baseDirectory ?? process.cwd();
    const onInternalError = (error: unknown, operation: string) =>
      logger.error({ err: error, operation }, 'internal error');
    const engine = new Engine({
      clock,
      accountId,
      region,
      globalIndexes: 'external',
      transientStatusDelayMs: options.transientStatusDelayMs ?? 0,
      onInternalError,
    });
    // The change log attaches before any table exists: it sees every write.
    const streams = new StreamsService(engine, { ...streamSettings(config), onInternalError });
    const persistence =
      options.dataDir === undefined ? undefined : await openDataDir(engine, streams, options.dataDir, logger);
    const functions = new LocalFunctions({
      clock,
      accountId,
      region,
      ...(options.functionLogs === undefined ? {} : { logSink: options.functionLogs }),
      ...(options.invocationLogLimit === undefined ? {} : { logLimit: options.invocationLogLimit }),
    });
    const destinationsDirectory =
      config.destinationsDirectory === undefined
        ? persistence?.destinationsDir
        : resolvePath(baseDirectory, config.destinationsDirectory);
    const destinations = new LocalDestinations(
      destinationsDirectory === undefined ? {} : { directory: destinationsDirectory },
    );
    const checkpoints = new MappingCheckpoints(persistence?.checkpoints ?? new MemoryCheckpointStore());
    const mappings = new MappingManager({
      changeLog: streams.changeLog,
      // Only a data directory outlives the process: without one, positions need not be saved.
      ...(persistence === undefined ? {} : { onCheckpoint: checkpoints.record }),
      // With a data directory, functions see a change only once it is durable.
      functions:
        persistence === undefined ? functions : durableFunctions(functions, () => persistence.acknowledge()),
      destinations,
      settler: engine,
      accountId,
      region,
      onError: (error, context) => logger.error({ err: error, context }, 'event source mapping error'),
    });
    const stack = new LocalStack(
      config,
      engine,
      streams,
      functions,
      destinations,
      mappings,
      logger,
      persistence,
      checkpoints,
      {
        accountId,
        region,
        baseDirectory,
        startSchedules: options.startSchedules !== false,
      },
    );
    // Closed in reverse: mappings stop, their positions are saved, then the data directory closes.
    stack.closers.push(
      () => persistence?.close(),
      () => functions.close(),
      () => stack.gsiMaintainer?.close(),
      () => checkpoints.flush(),
      () => mappings.close(),
      () => stack.stopTimers(),
    );
    try {
      stack.startGsiMaintainer();
      stack.lambdaApi = new LambdaBackend({
        functions,
        mappings,
        destinations,
        clock,
        accountId,
        region,
        ...(persistence === undefined ? {} : { directory: join(persistence.directory.path, 'lambda') }),
        createMapping: (input, uuid) => stack.createMapping(input, uuid),
        forgetMapping: (uuid) => checkpoints.forget(uuid),
        settler: engine,
        onError: (error, context) => logger.error({ err: error, context }, 'lambda api error'),
        onWarning: (message) => logger.warn(message),
      });
      stack.closers.push(() => stack.lambdaApi.close());
      const held = engine.region(accountId, region).tables;
      const declared = (config.tables ?? []).filter((table) => !held.has(table.TableName ?? ''));
      provisionTables(engine, declared, { accountId, region }, { logger });
      stack.bindings = bindingsOf(config, baseDirectory);
      stack.defineFunctions(options);
      stack.bindFunctions();
      stack.startArchive(baseDirectory);
      // What the Lambda API created before a restart, once the config's functions exist.
      stack.lambdaApi.restore();
    } catch (error) {
      await stack.close();
      throw error;
    }
    stack.startTimers();
    return stack;
  }

  /**
   * Takes the stack back to where `start` left it, for the next test: every table declared again
   * and empty (tables created since are gone), streams and on-failure destinations empty,
   * mappings at their starting positions, global indexes following again (not paused),
   * invocation logs and injected faults forgotten, the ttl-expirer and schedules started again,
   * what the Lambda API created (functions, mappings) gone.
   * Functions keep their definitions and their loaded code, and a server keeps its port; what the
   * archiver wrote to its sink stays there (a bucket or folder outside the stack). The clock is
   * the caller's: the test kit rewinds its virtual clock first. In-memory stacks only.
   */
  reset(): void {
    if (this.persistence !== undefined) throw new Error('reset() is for stacks without a data directory');
    const { accountId, region, baseDirectory } = this.wiring;
    this.stopTimers();
    this.gsiMaintainer?.close();
    this.mappings.clear();
    this.lambdaApi.reset();
    this.engine.reset();
    this.streams.changeLog.reset();
    this.functions.reset();
    this.destinations.clear();
    this.startGsiMaintainer();
    provisionTables(this.engine, this.config.tables ?? [], { accountId, region }, { logger: this.logger });
    this.bindFunctions();
    this.startArchive(baseDirectory);
    this.startTimers();
  }

  /** The gsi-maintainer, reading every table's change feed (tables held so far, and new ones). */
  private startGsiMaintainer(): void {
    const propagationDelay = this.config.globalIndexes?.propagationDelay;
    this.gsiMaintainer = startGsiMaintainer({
      engine: this.engine,
      changeLog: this.streams.changeLog,
      manager: this.mappings,
      ...(propagationDelay === undefined ? {} : { propagationDelay }),
    });
  }

  /** The ttl-expirer and the project's schedules, on the stack's clock. */
  private startTimers(): void {
    const { startSchedules } = this.wiring;
    const ttl = this.config.ttl ?? {};
    this.ttl = startTtlExpirer(this.engine, {
      start: startSchedules,
      ...(ttl.rate === undefined ? {} : { rate: ttl.rate }),
      ...(ttl.maxDeletionDelay === undefined ? {} : { maxDeletionDelay: ttl.maxDeletionDelay }),
      ...(ttl.batchSize === undefined ? {} : { batchSize: ttl.batchSize }),
      onError: (error) => this.logger.error({ err: error }, 'ttl-expirer run failed'),
    });
    const ttlExpirer = this.ttl;
    this.stoppers.push(() => ttlExpirer.stop());
    this.schedules.clear();
    for (const binding of this.bindings) {
      const scheduled = binding.schedules
        .filter((schedule) => schedule.enabled && startSchedules)
        .map((schedule) =>
          scheduleFunction(this.engine.clock, (event) => this.invokeScheduled(binding.functionName, event), {
            rate: schedule.rateMs,
            name: binding.functionName,
            accountId: this.engine.defaultAccountId,
            region: this.engine.defaultRegion,
            onError: (error) =>
              this.logger.error({ err: error, function: binding.functionName }, 'scheduled run failed'),
          }),
        );
      if (scheduled.length > 0) this.schedules.set(binding.functionName, scheduled);
      for (const schedule of scheduled) this.stoppers.push(() => schedule.stop());
    }
  }

  private stopTimers(): void {
    for (let stop = this.stoppers.pop(); stop !== undefined; stop = this.stoppers.pop()) stop();
  }

  /**
   * A config binding's mapping: its UUID is derived from the function and table, so after a
   * restart with a data directory it resumes from its saved checkpoint.
   */
  private createBinding(
    functionName: string,
    tableName: string,
    input: Record<string, unknown>,
    /** Where in the config the binding is (for errors). */
    where: string,
  ): void {
    const uuid = bindingUuid(functionName, tableName);
    // A config mapping the Lambda API disabled before a restart stays disabled.
    const enabled = this.lambdaApi.configMappingEnabled(uuid);
    try {
      this.createMapping(
        (enabled === undefined
          ? input
          : { ...input, Enabled: enabled }) as unknown as CreateEventSourceMappingInput,
        uuid,
      );
    } catch (error) {
      // Settings Lambda would refuse (BatchSize 0, an unknown FunctionResponseType...): Lambda's message.
      throw new BindingError(where, `stream binding on '${tableName}': ${(error as Error).message}`);
    }
  }

  /**
   * Creates a mapping (the config's, or the Lambda API's) with its UUID: with a data directory,
   * one that existed before a restart resumes from its saved checkpoint, and a new one saves
   * where it starts.
   */
  private createMapping(input: CreateEventSourceMappingInput, uuid: string): EventSourceMappingConfiguration {
    const checkpoint = this.checkpoints.restore(uuid, input.EventSourceArn);
    const answer = this.mappings.create(input, checkpoint === undefined ? { uuid } : { checkpoint });
    if (checkpoint === undefined && this.persistence !== undefined) {
      const start = this.mappings.checkpoints().find((candidate) => candidate.uuid === uuid);
      if (start !== undefined) this.checkpoints.begin(start);
    }
    return answer;
  }

  /** Defines the project's functions (their code loads on first invocation). */
  private defineFunctions(options: StackOptions): void {
    for (const binding of this.bindings) {
      const handler = options.handlers?.[binding.functionName];
      this.defineFunction(binding, handler ? { handler } : { module: binding.handlerPath });
    }
  }

  /** Starts the project's stream bindings: one event source mapping per function and table. */
  private bindFunctions(): void {
    const { engine } = this;
    for (const binding of this.bindings) {
      for (const stream of binding.streams) {
        const table = engine.region().tables.get(stream.table)!;
        if (table.stream?.enabled !== true) {
          throw new BindingError(
            `functions.${binding.functionName}`,
            `table '${stream.table}' has no enabled stream (add StreamSpecification to the table)`,
          );
        }
        this.createBinding(
          binding.functionName,
          stream.table,
          {
            ...(stream.settings as Record<string, unknown>),
            StartingPosition: stream.settings.StartingPosition ?? 'TRIM_HORIZON',
            EventSourceArn: table.stream.arn,
            FunctionName: binding.functionName,
          },
          `functions.${binding.functionName}`,
        );
      }
    }
  }

  /**
   * Replaces a function's code (as UpdateFunctionCode does) with a module file, e.g. a fresh
   * build under `--watch`. Its mappings keep their checkpoints: the next batch runs the new code.
   */
  reloadFunction(functionName: string, modulePath: string): void {
    const binding = this.bindings.find((candidate) => candidate.functionName === functionName);
    if (binding === undefined) throw new Error(`No function named ${functionName} in the config`);
    this.defineFunction(binding, { module: modulePath });
  }

  private defineFunction(
    binding: FunctionBinding,
    code: { readonly handler: (event: never, context: never) => unknown } | { readonly module: string },
  ): void {
    this.functions.define({
      name: binding.functionName,
      ...('handler' in code
        ? { handler: code.handler }
        : { module: code.module, exportName: binding.exportName }),
      timeout: binding.timeout,
      memorySize: binding.memorySize,
      environment: binding.environment,
      isolation: 'handler' in code ? 'in-process' : binding.isolation,
    });
  }

  /** Runs a scheduled function the way its own invocations run (context, timeout, log). */
  private async invokeScheduled(functionName: string, event: unknown): Promise<void> {
    const result = await this.functions.get(functionName)!.invoke(event);
    if (result.status === 'error') {
      throw new Error(`${functionName} failed: ${result.error?.errorType}: ${result.error?.errorMessage}`);
    }
  }

  /** TTL archival: the archiver bound with the TTL filter to each archived table's stream. */
  private startArchive(baseDirectory: string): void {
    const archive = this.config.archive;
    if (archive === undefined) return;
    const sink = archiveSinkOf(archive.sink as never, baseDirectory);
    for (const tableName of archive.tables) {
      const table = this.engine.region().tables.get(tableName);
      const viewType = table?.stream?.enabled ? table.stream.viewType : undefined;
      if (viewType !== 'OLD_IMAGE' && viewType !== 'NEW_AND_OLD_IMAGES') {
        throw new BindingError(
          'archive.tables',
          `table '${tableName}' needs a stream with old images (StreamViewType OLD_IMAGE or NEW_AND_OLD_IMAGES)`,
        );
      }
      const functionName = archive.tables.length === 1 ? 'archiver' : `archiver-${tableName}`;
      const { definition, mapping } = archiverBinding({
        eventSourceArn: table!.stream!.arn,
        sink,
        functionName,
        ...(archive.onFailure === undefined ? {} : { onFailureDestination: archive.onFailure }),
      });
      this.functions.define(definition);
      this.createBinding(functionName, tableName, mapping as unknown as Record<string, unknown>, 'archive');
    }
  }

  /** A real DynamoDBClient answered in process (no socket). */
  client(): DynamoDBClient {
    return createLocalClient({ pipeline: this.pipeline() });
  }

  private requestPipeline: RequestPipeline | undefined;

  /** The request pipeline over this stack (the server and in-process clients share it). */
  pipeline(): RequestPipeline {
    if (this.requestPipeline === undefined) {
      this.requestPipeline = new RequestPipeline({
        engine: this.engine,
        logger: this.logger,
        ...(this.persistence === undefined ? {} : { afterCall: this.persistence.afterCall }),
      });
      this.requestPipeline.registerService(this.streams.protocol);
      this.requestPipeline.registerRestService(lambdaService(this.lambdaApi));
      this.requestPipeline.registerRestService(lambdaReadService(this.lambdaApi));
    }
    return this.requestPipeline;
  }

  private server: EddyServer | undefined;

  /**
   * Serves the stack over HTTP (DynamoDB, DynamoDB Streams and the Lambda API on one port). Options are the
   * server's (host, port, access keys...); the engine and logger are the stack's.
   *
   * The project's functions then reach this stack with the AWS SDK as written, as a function in
   * Lambda reaches DynamoDB: the SDK reads `AWS_ENDPOINT_URL_DYNAMODB` (and `_STREAMS`, `_LAMBDA`) from the
   * environment ("Service-specific endpoints", AWS SDKs and Tools reference guide), which this
   * sets, with the region and, when none are set, credentials the server accepts.
   */
  async listen(options: Omit<ServerOptions, 'engine'> = {}): Promise<BoundAddress> {
    if (this.server !== undefined) throw new Error('The stack is already listening');
    this.server = new EddyServer({
      logger: this.logger,
      ...options,
      engine: this.engine,
      ...(this.persistence === undefined ? {} : { afterCall: this.persistence.afterCall }),
    });
    this.server.registerService(this.streams.protocol);
    this.server.registerRestService(lambdaService(this.lambdaApi));
    this.server.registerRestService(lambdaReadService(this.lambdaApi));
    const address = await this.server.listen();
    const server = this.server;
    this.closers.push(() => server.close());
    this.pointFunctionsAt(address.url, options.accessKeys?.[0]);
    return address;
  }

  private pointFunctionsAt(
    url: string,
    accessKey: { accessKeyId: string; secretAccessKey: string } | undefined,
  ) {
    process.env.AWS_ENDPOINT_URL_DYNAMODB = url;
    process.env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS = url;
    process.env.AWS_ENDPOINT_URL_LAMBDA = url;
    process.env.AWS_REGION ??= this.engine.defaultRegion;
    if (process.env.AWS_ACCESS_KEY_ID === undefined || accessKey !== undefined) {
      process.env.AWS_ACCESS_KEY_ID = accessKey?.accessKeyId ?? 'eddy';
      process.env.AWS_SECRET_ACCESS_KEY = accessKey?.secretAccessKey ?? 'eddy';
    }
    // Worker threads copied the environment when they were defined: define them again.
    for (const binding of this.bindings) {
      const current = this.functions.get(binding.functionName)?.definition;
      if (current?.isolation === 'worker' && current.module !== undefined)
        this.reloadFunction(binding.functionName, current.module);
    }
  }

  /** The HTTP server, once `listen` has been called. */
  get httpServer(): EddyServer | undefined {
    return this.server;
  }

  /** Resolves when indexes have caught up and mappings have drained. */
  settled(): Promise<void> {
    return this.engine.settled();
  }

  /** Stops everything, last started first (the server, schedules, mappings, the data directory). */
  async close(): Promise<void> {
    for (let close = this.closers.pop(); close !== undefined; close = this.closers.pop()) await close();
    this.streams.changeLog.close();
  }
}

/** `dataDir`: takes the directory's lock and recovers the engine's state from it. */
function openDataDir(engine: Engine, streams: StreamsService, dataDir: DataDirOptions, logger: Logger) {
  return Persistence.open(engine, {
    dataDir: dataDir.path,
    durability: dataDir.durability ?? 'everysec',
    changeLog: streams.changeLog,
    ...(dataDir.snapshotLogBytes === undefined ? {} : { snapshotLogBytes: dataDir.snapshotLogBytes }),
    ...(dataDir.snapshotInterval === undefined ? {} : { snapshotInterval: dataDir.snapshotInterval }),
    logger,
  });
}

function resolvePath(base: string, path: string): string {
  return path.startsWith('/') ? path : `${base}/${path}`;
}
