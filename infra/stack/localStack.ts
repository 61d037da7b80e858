import { join, resolve } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { parseDuration, SystemClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import type { ChangeLog } from '../../streams/changeLog.js';
import { MappingManager } from '../../streams/mapping/index.js';
import { StreamsService } from '../../streams/streamsApi/streamsService.js';
import { attachBuckets } from '../backups/index.js';
import { bindingsOf, type FunctionBinding } from '../bindings.js';
import { capacityOptions, injectConfiguredFaults } from '../capacity/capacityConfig.js';
import { capacityMetricsService } from '../capacity/metricsService.js';
import type { EddyConfig } from '../config.js';
import { CONSOLE_PATH, type ConsoleService, consoleService } from '../console/index.js';
import { stackConsoleSources } from '../console/stackSources.js';
import { LocalDestinations } from '../destinations/localDestinations.js';
import { describeBackfill, type GsiMaintainer, startGsiMaintainer } from '../functions/gsiMaintainer.js';
import { LocalFunctions } from '../functions/localFunctions.js';
import { isLoopbackAddress } from '../host/hostCheck.js';
import { createLocalClient } from '../host/localClient.js';
import { createHostLogger, type Logger } from '../host/logger.js';
import { RequestPipeline } from '../host/pipeline.js';
import { provisionTables } from '../host/provision.js';
import { type BoundAddress, EddyServer, type ServerOptions } from '../host/server.js';
import type { KinesisDestinations } from '../kinesis/index.js';
// By file, not the barrel: the barrel brings the SDK's LambdaClient, which `eddy serve` never uses.
import { LambdaBackend } from '../lambda-api/backend.js';
import { lambdaReadService } from '../lambda-api/readService.js';
import { lambdaService } from '../lambda-api/service.js';
import type { Persistence } from '../persistence/persistence.js';
import { ReplayableClock } from '../persistence/replayableClock.js';
import type { Schedule } from '../schedules/scheduleFunction.js';
import { startTtlExpirer, type TtlExpirer } from '../schedules/ttlExpirer.js';
import { durableFunctions } from './durableFunctions.js';
import { MappingCheckpoints } from './mappingCheckpoints.js';
import { EnvironmentLayer, setSdkEndpoints } from './processEnvironment.js';
import { ProjectFunctions } from './projectFunctions.js';
import type { startArchive } from './stackArchive.js';
import { type DataDirOptions, DEFAULT_MAPPING_TRANSITION_MS, type StackOptions } from './stackOptions.js';
import { StreamBindings } from './streamBindings.js';
import { streamSettings } from './streamSettings.js';

export type { DataDirOptions, StackOptions } from './stackOptions.js';

/** What the stack was started with that `reset` needs again. */
interface Wiring {
  readonly accountId: string;
  readonly region: string;
  readonly baseDirectory: string;
  readonly options: StackOptions;
}

/**
 * The local stack: everything a project's config declares, wired as docs/architecture.md §1.1 draws it. The
 * engine (global indexes kept by the gsi-maintainer, eventually consistent as in DynamoDB), the
 * change log and the Streams API, the project's functions with their stream mappings and
 * schedules, the built-in ttl-expirer and (when configured) archiver. `eddy serve` puts a server
 * in front of it; the test kit drives it in process.
 */
export class LocalStack {
  private readonly closers: (() => Promise<void> | void)[] = [];
  /** Stops the ttl-expirer and the schedules (`reset` starts them again). */
  private stoppers: (() => void)[] = [];
  private gsiMaintainer: GsiMaintainer | undefined;

  private constructor(
    /** The stack's config (replaced when `--watch` reconciles a changed stack file). */
    public config: EddyConfig,
    readonly engine: Engine,
    readonly streams: StreamsService,
    readonly functions: LocalFunctions,
    readonly destinations: LocalDestinations,
    readonly mappings: MappingManager,
    readonly logger: Logger,
    /** The data directory, when started with `dataDir`. */
    readonly persistence: Persistence | undefined,
    checkpoints: MappingCheckpoints,
    private readonly environment: EnvironmentLayer,
    private readonly wiring: Wiring,
  ) {
    this.streamBindings = new StreamBindings({
      engine,
      mappings,
      createMapping: (input, uuid) => checkpoints.createMapping(mappings, input, uuid),
      // A config mapping the Lambda API disabled before a restart stays disabled.
      enabledByApi: (uuid) => this.lambdaApi.configMappingEnabled(uuid),
      logger,
    });
  }

  private readonly streamBindings: StreamBindings;
  private project!: ProjectFunctions;

  /** The project's functions (`--watch` adds, changes and removes them: reconcile.ts). */
  get projectFunctions(): ProjectFunctions {
    return this.project;
  }

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

  /** Kinesis streaming destinations, when a Kinesis endpoint is configured (docs/kinesis-destinations.md). */
  kinesis: KinesisDestinations | undefined;

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
      replication: { lagMs: replicationLagOf(config, options) },
      onInternalError,
      capacity: { ...capacityOptions(config.capacity), ...options.capacity },
    });
    injectConfiguredFaults(engine, config.capacity);
    // The change log attaches before any table exists: it sees every write.
    const streams = new StreamsService(engine, { ...streamSettings(config), onInternalError });
    // The backup store's code loads only with a data directory, and before anything attaches: from
    // the Kinesis writers to the replay, the start runs in one go, as it did with a static import.
    const backupStoreModule =
      options.dataDir === undefined ? undefined : await import('../backups/backupStore.js');
    // Kinesis destinations (docs/kinesis-destinations.md §3): attached before recovery, which
    // completes their transitions through the stream check; their code loads only when used.
    const kinesisOptions = options.kinesis ?? config.kinesis;
    const kinesis =
      kinesisOptions === undefined
        ? undefined
        : (await import('../kinesis/index.js')).attachKinesis(
            engine,
            streams.changeLog,
            kinesisOptions,
            (level, line) => logger[level](line),
          );
    // Backups and PITR histories load first: the log's replay adds to the histories.
    const backupStore =
      options.dataDir === undefined
        ? undefined
        : backupStoreModule!.BackupStore.open(engine, join(resolve(options.dataDir.path), 'backups'), logger);
    // Kinesis writers gather what the log replays, and write what the last run had not
    // (docs/kinesis-destinations.md §3.3).
    if (options.dataDir !== undefined) kinesis?.hold();
    const persistence =
      options.dataDir === undefined
        ? undefined
        : await openDataDir(engine, streams, options.dataDir, logger, () => kinesis?.register());
    kinesis?.resume(persistence?.checkpoints);
    if (kinesis !== undefined) persistence?.holdSnapshotsWhile(() => kinesis.hasUnsent());
    if (persistence !== undefined && backupStore !== undefined) {
      backupStore.recovered(persistence.recovery.snapshotLsn);
      persistence.onSnapshot((lsn) => backupStore.snapshotTaken(lsn));
    }
    attachBuckets(
      engine,
      options.buckets ?? {
        directory:
          persistence === undefined
            ? resolvePath(baseDirectory, '.eddy/buckets')
            : join(persistence.directory.path, 'buckets'),
      },
      { log: (line) => logger.warn(line) },
    );
    // What the stack sets in process.env for its functions, undone by `close`.
    const environment = new EnvironmentLayer();
    const functions = new LocalFunctions({
      clock,
      accountId,
      region,
      ...(options.functionLogs === undefined ? {} : { logSink: options.functionLogs }),
      ...(options.invocationLogLimit === undefined ? {} : { logLimit: options.invocationLogLimit }),
      setEnvironment: (variables) => environment.assign(variables),
    });
    const destinationsDirectory =
      config.destinationsDirectory === undefined
        ? persistence?.destinationsDir
        : resolvePath(baseDirectory, config.destinationsDirectory);
    const destinations = new LocalDestinations(
      destinationsDirectory === undefined ? {} : { directory: destinationsDirectory },
    );
    const checkpoints = new MappingCheckpoints(persistence?.checkpoints);
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
      transitionMs: options.mappingTransitionMs ?? DEFAULT_MAPPING_TRANSITION_MS,
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
      environment,
      { accountId, region, baseDirectory, options },
    );
    stack.kinesis = kinesis;
    // Closed in reverse: mappings stop, their positions are saved, then the data directory closes.
    stack.closers.push(
      () => kinesis?.close(),
      () => backupStore?.close(),
      () => persistence?.close(),
      () => functions.close(),
      () => stack.gsiMaintainer?.close(),
      () => checkpoints.flush(),
      () => mappings.close(),
      () => stack.streamBindings.close(),
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
        createMapping: (input, uuid) => checkpoints.createMapping(mappings, input, uuid),
        forgetMapping: (uuid) => checkpoints.forget(uuid),
        settler: engine,
        onError: (error, context) => logger.error({ err: error, context }, 'lambda api error'),
        onWarning: (message) => logger.warn(message),
      });
      stack.closers.push(() => stack.lambdaApi.close());
      const held = engine.region(accountId, region).tables;
      const declared = (config.tables ?? []).filter((table) => !held.has(table.TableName ?? ''));
      provisionTables(engine, declared, { accountId, region }, { logger });
      stack.project = new ProjectFunctions({
        bindings: bindingsOf(config, baseDirectory),
        engine,
        functions,
        streamBindings: stack.streamBindings,
        logger,
        settings: {
          ...options,
          buildDirectory: options.buildDirectory ?? join(baseDirectory, '.eddy', 'build'),
        },
      });
      await stack.project.load();
      stack.project.start();
      stack.stoppers.push(() => stack.project.stopSchedules());
      // The archiver's code (sinks, S3, manifests) loads only for a stack that archives.
      if (config.archive !== undefined) stack.archiving = await import('./stackArchive.js');
      stack.startArchive(baseDirectory);
      // What the Lambda API created before a restart, once the config's functions exist.
      stack.lambdaApi.restore();
    } catch (error) {
      await stack.close();
      throw error;
    }
    stack.startTtlExpirer();
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
    this.streamBindings.reset();
    this.lambdaApi.reset();
    this.kinesis?.reset();
    this.engine.reset();
    injectConfiguredFaults(this.engine, this.config.capacity);
    this.streams.changeLog.reset();
    this.functions.reset();
    this.destinations.clear();
    this.startGsiMaintainer();
    provisionTables(this.engine, this.config.tables ?? [], { accountId, region }, { logger: this.logger });
    this.project.start();
    this.stoppers.push(() => this.project.stopSchedules());
    this.startArchive(baseDirectory);
    this.startTtlExpirer();
    // The console's rate history: the test kit rewound the clock and dropped its timer.
    this.console?.history.reset();
  }

  /** The gsi-maintainer, reading every table's change feed (tables held so far, and new ones). */
  private startGsiMaintainer(): void {
    const { options } = this.wiring;
    const propagationDelay = this.config.globalIndexes?.propagationDelay;
    this.gsiMaintainer = startGsiMaintainer({
      engine: this.engine,
      changeLog: this.streams.changeLog,
      manager: this.mappings,
      ...(propagationDelay === undefined ? {} : { propagationDelay }),
      onBackfill:
        options.onBackfill ?? ((progress) => this.logger.info(progress, describeBackfill(progress))),
    });
  }

  /** The ttl-expirer, on the stack's clock. */
  private startTtlExpirer(): void {
    const ttl = this.config.ttl ?? {};
    const expirer = startTtlExpirer(this.engine, {
      start: this.wiring.options.startSchedules !== false,
      ...(ttl.rate === undefined ? {} : { rate: ttl.rate }),
      ...(ttl.maxDeletionDelay === undefined ? {} : { maxDeletionDelay: ttl.maxDeletionDelay }),
      ...(ttl.batchSize === undefined ? {} : { batchSize: ttl.batchSize }),
      onError: (error) => this.logger.error({ err: error }, 'ttl-expirer run failed'),
    });
    this.ttl = expirer;
    this.stoppers.push(() => expirer.stop());
  }

  private stopTimers(): void {
    for (let stop = this.stoppers.pop(); stop !== undefined; stop = this.stoppers.pop()) stop();
  }

  /**
   * Replaces a function's code (as UpdateFunctionCode does) with a module file, e.g. a fresh
   * build under `--watch`, once its handler loads; a function that was waiting for a handler
   * starts. Its mappings keep their checkpoints: the next batch runs the new code.
   * @throws HandlerMissingError when the new module has no such handler: the running code stays.
   */
  reloadFunction(functionName: string, modulePath: string): Promise<void> {
    return this.project.reload(functionName, modulePath);
  }

  /** The bindings the stack runs (the same `eddy synth` deploys). */
  get bindings(): readonly FunctionBinding[] {
    return this.project.bindings;
  }

  /**
   * Functions whose handler does not load yet (`missingHandlers: 'wait'`), with the reason; their
   * mappings are held until `reloadFunction` brings one that loads.
   */
  get waiting(): ReadonlyMap<string, string> {
    return this.project.waiting;
  }

  /** The project's schedules, by function name. */
  get schedules(): ReadonlyMap<string, readonly Schedule[]> {
    return this.project.schedules;
  }

  /** stackArchive.ts, once `start` has loaded it (when the config archives). */
  private archiving: { startArchive: typeof startArchive } | undefined;

  /** The archive's sink and tables, while the config archives (the console's Archive view). */
  archive: ReturnType<typeof startArchive>;

  /** TTL archival (stackArchive.ts), on the config's archived tables. */
  private startArchive(baseDirectory: string): void {
    const { engine, functions, streamBindings, environment } = this;
    this.archive = this.archiving?.startArchive(this.config.archive, {
      engine,
      functions,
      streamBindings,
      environment,
      baseDirectory,
    });
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
        ...this.persistenceHooks(),
      });
      this.requestPipeline.registerService(this.streams.protocol);
      this.requestPipeline.registerRestService(lambdaService(this.lambdaApi));
      this.requestPipeline.registerRestService(lambdaReadService(this.lambdaApi));
      this.requestPipeline.registerRestService(capacityMetricsService(this.engine));
    }
    return this.requestPipeline;
  }

  /** With a data directory: answers wait for its log, and its failure makes the host unhealthy. */
  private persistenceHooks(): Pick<ServerOptions, 'afterCall' | 'healthChecks'> {
    const persistence = this.persistence;
    if (persistence === undefined) return {};
    return { afterCall: persistence.afterCall, healthChecks: [() => persistence.problem] };
  }

  private server: EddyServer | undefined;

  /**
   * Serves the stack over HTTP (DynamoDB, DynamoDB Streams and the Lambda API on one port). Options are the
   * server's (host, port, access keys...); the engine and logger are the stack's.
   *
   * The project's functions then reach this stack with the AWS SDK as written, as a function in
   * Lambda reaches DynamoDB: this sets the SDK's endpoint variables (`setSdkEndpoints`).
   */
  async listen(options: Omit<ServerOptions, 'engine'> = {}): Promise<BoundAddress> {
    if (this.server !== undefined) throw new Error('The stack is already listening');
    this.server = new EddyServer({
      logger: this.logger,
      ...options,
      engine: this.engine,
      ...this.persistenceHooks(),
    });
    this.server.registerService(this.streams.protocol);
    this.server.registerRestService(lambdaService(this.lambdaApi));
    this.server.registerRestService(lambdaReadService(this.lambdaApi));
    this.server.registerRestService(capacityMetricsService(this.engine));
    const address = await this.server.listen();
    const server = this.server;
    this.closers.push(() => server.close());
    setSdkEndpoints(this.environment, address.url, this.engine.defaultRegion, options.accessKeys?.[0]);
    // Worker threads copied the environment when they were defined: define them again.
    this.project.redefineWorkers();
    return address;
  }

  private console: ConsoleService | undefined;

  /**
   * Serves the event-flow console (docs/console.md) at `<url>/_eddy/console` on the server
   * `listen` started; `advance` gives it a virtual clock's buttons (the test kit). Answers the
   * page's URL. Loopback only: refused when the server is bound to another interface.
   */
  openConsole(advance?: (ms: number) => Promise<void>): string {
    const server = this.server;
    const address = server?.address;
    if (server === undefined || address === undefined)
      throw new Error('listen() first: the console is served over HTTP');
    if (!isLoopbackAddress(address.host))
      throw new Error(`The console is served on loopback only, not on ${address.host}`);
    if (this.console === undefined) {
      const service = consoleService(stackConsoleSources(this, advance));
      this.console = service;
      server.registerRestService(service);
      this.closers.push(async () => service.history.stop());
    }
    return `${address.url}${CONSOLE_PATH}`;
  }

  /** The HTTP server, once `listen` has been called. */
  get httpServer(): EddyServer | undefined {
    return this.server;
  }

  /** Resolves when indexes have caught up and mappings have drained. */
  async settled(): Promise<void> {
    await this.engine.settled();
    // Kinesis destinations: their Enable checks and the changes committed so far are written.
    if (this.kinesis !== undefined) await this.kinesis.settled();
  }

  /**
   * Stops everything, last started first (the server, schedules, mappings, the data directory),
   * completes every `changes$` of the stack and puts back the environment variables it set.
   */
  async close(): Promise<void> {
    for (let close = this.closers.pop(); close !== undefined; close = this.closers.pop()) await close();
    this.streams.changeLog.close();
    this.environment.close();
  }
}

/**
 * `dataDir`: takes the directory's lock and recovers the engine's state from it. The data
 * directory's code is loaded here, when a stack has one: a start without it does not compile it.
 */
async function openDataDir(
  engine: Engine,
  streams: StreamsService,
  dataDir: DataDirOptions,
  logger: Logger,
  beforeReplay: () => void,
) {
  const { Persistence } = await import('../persistence/persistence.js');
  return Persistence.open(engine, {
    dataDir: dataDir.path,
    durability: dataDir.durability ?? 'everysec',
    changeLog: streams.changeLog,
    ...(dataDir.snapshotLogBytes === undefined ? {} : { snapshotLogBytes: dataDir.snapshotLogBytes }),
    ...(dataDir.snapshotInterval === undefined ? {} : { snapshotInterval: dataDir.snapshotInterval }),
    acceptDataLoss: dataDir.acceptDataLoss === true,
    logger,
    beforeReplay,
  });
}

function resolvePath(base: string, path: string): string {
  return path.startsWith('/') ? path : `${base}/${path}`;
}

/** The global tables' replication lag: the config's, else the host's default (docs/global-tables.md §3). */
function replicationLagOf(config: EddyConfig, options: StackOptions): number {
  const lag = config.globalTables?.replicationLag;
  return lag === undefined ? (options.replicationLagMs ?? 0) : parseDuration(lag);
}
