import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type Clock, SystemClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { type ChangeLog, StreamsService } from '../../streams/index.js';
import { MappingManager } from '../../streams/mapping/index.js';
import { archiverBinding, archiveSinkOf } from '../archive/index.js';
import { bindingsOf, type FunctionBinding } from '../bindings.js';
import type { EddyConfig } from '../config.js';
import { LocalDestinations } from '../destinations/localDestinations.js';
import { type GsiMaintainer, startGsiMaintainer } from '../functions/gsiMaintainer.js';
import { LocalFunctions } from '../functions/localFunctions.js';
import { createLocalClient } from '../host/localClient.js';
import { createHostLogger, type Logger } from '../host/logger.js';
import { RequestPipeline } from '../host/pipeline.js';
import { provisionTables } from '../host/provision.js';
import { type BoundAddress, EddyServer, type ServerOptions } from '../host/server.js';
import { type Schedule, scheduleFunction } from '../schedules/scheduleFunction.js';
import { startTtlExpirer, type TtlExpirer } from '../schedules/ttlExpirer.js';

/**
 * The local stack: everything a project's config declares, wired as DESIGN §1 draws it. The
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
}

export class LocalStack {
  private readonly closers: (() => Promise<void> | void)[] = [];

  private constructor(
    readonly config: EddyConfig,
    readonly engine: Engine,
    readonly streams: StreamsService,
    readonly functions: LocalFunctions,
    readonly destinations: LocalDestinations,
    readonly mappings: MappingManager,
    readonly gsi: GsiMaintainer,
    readonly logger: Logger,
  ) {}

  /** The ttl-expirer schedule. */
  ttl: TtlExpirer | undefined;
  /** The project's schedules, by function name. */
  readonly schedules = new Map<string, Schedule[]>();
  /** The bindings the stack runs (the same `eddy synth` deploys). */
  bindings: readonly FunctionBinding[] = [];

  get changeLog(): ChangeLog {
    return this.streams.changeLog;
  }

  /** Builds and starts the stack; tables exist and mappings run when it resolves. */
  static async start(config: EddyConfig, options: StackOptions = {}): Promise<LocalStack> {
    const clock = options.clock ?? new SystemClock();
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
    const functions = new LocalFunctions({ clock, accountId, region });
    const destinations = new LocalDestinations(
      config.destinationsDirectory === undefined
        ? {}
        : { directory: resolvePath(baseDirectory, config.destinationsDirectory) },
    );
    const mappings = new MappingManager({
      changeLog: streams.changeLog,
      functions,
      destinations,
      settler: engine,
      accountId,
      region,
      onError: (error, context) => logger.error({ err: error, context }, 'event source mapping error'),
    });
    const propagationDelay = config.globalIndexes?.propagationDelay;
    const gsi = startGsiMaintainer({
      engine,
      changeLog: streams.changeLog,
      manager: mappings,
      ...(propagationDelay === undefined ? {} : { propagationDelay }),
    });
    const stack = new LocalStack(config, engine, streams, functions, destinations, mappings, gsi, logger);
    stack.closers.push(
      () => gsi.close(),
      () => mappings.close(),
      () => functions.close(),
    );
    provisionTables(engine, config.tables ?? [], { accountId, region }, { logger });
    stack.bindings = bindingsOf(config, baseDirectory);
    stack.startFunctions(options);
    stack.startArchive(baseDirectory);
    const startSchedules = options.startSchedules !== false;
    const ttl = config.ttl ?? {};
    stack.ttl = startTtlExpirer(engine, {
      start: startSchedules,
      ...(ttl.rate === undefined ? {} : { rate: ttl.rate }),
      ...(ttl.maxDeletionDelay === undefined ? {} : { maxDeletionDelay: ttl.maxDeletionDelay }),
      ...(ttl.batchSize === undefined ? {} : { batchSize: ttl.batchSize }),
      onError: (error) => logger.error({ err: error }, 'ttl-expirer run failed'),
    });
    stack.closers.push(() => stack.ttl?.stop());
    return stack;
  }

  /** Defines the project's functions and starts their mappings and schedules. */
  private startFunctions(options: StackOptions): void {
    const { engine } = this;
    for (const binding of this.bindings) {
      const handler = options.handlers?.[binding.functionName];
      this.functions.define({
        name: binding.functionName,
        ...(handler ? { handler } : { module: binding.handlerPath, exportName: binding.exportName }),
        timeout: binding.timeout,
        memorySize: binding.memorySize,
        environment: binding.environment,
        isolation: handler ? 'in-process' : binding.isolation,
      });
      for (const stream of binding.streams) {
        const table = engine.region().tables.get(stream.table)!;
        if (table.stream?.enabled !== true) {
          throw new Error(
            `functions.${binding.functionName}: table '${stream.table}' has no enabled stream (add StreamSpecification to the table)`,
          );
        }
        this.mappings.create({
          ...(stream.settings as Record<string, unknown>),
          StartingPosition: stream.settings.StartingPosition ?? 'TRIM_HORIZON',
          EventSourceArn: table.stream.arn,
          FunctionName: binding.functionName,
        } as never);
      }
      const scheduled = binding.schedules
        .filter((schedule) => schedule.enabled && options.startSchedules !== false)
        .map((schedule) =>
          scheduleFunction(engine.clock, (event) => this.invokeScheduled(binding.functionName, event), {
            rate: schedule.rateMs,
            name: binding.functionName,
            accountId: engine.defaultAccountId,
            region: engine.defaultRegion,
            onError: (error) =>
              this.logger.error({ err: error, function: binding.functionName }, 'scheduled run failed'),
          }),
        );
      if (scheduled.length > 0) this.schedules.set(binding.functionName, scheduled);
      for (const schedule of scheduled) this.closers.push(() => schedule.stop());
    }
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
        throw new Error(
          `archive: table '${tableName}' needs a stream with old images (StreamViewType OLD_IMAGE or NEW_AND_OLD_IMAGES)`,
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
      this.mappings.create(mapping);
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
      this.requestPipeline = new RequestPipeline({ engine: this.engine, logger: this.logger });
      this.requestPipeline.registerService(this.streams.protocol);
    }
    return this.requestPipeline;
  }

  private server: EddyServer | undefined;

  /**
   * Serves the stack over HTTP (DynamoDB and DynamoDB Streams on one port). Options are the
   * server's (host, port, access keys...); the engine and logger are the stack's.
   */
  async listen(options: Omit<ServerOptions, 'engine'> = {}): Promise<BoundAddress> {
    if (this.server !== undefined) throw new Error('The stack is already listening');
    this.server = new EddyServer({ logger: this.logger, ...options, engine: this.engine });
    this.server.registerService(this.streams.protocol);
    const address = await this.server.listen();
    const server = this.server;
    this.closers.push(() => server.close());
    return address;
  }

  /** The HTTP server, once `listen` has been called. */
  get httpServer(): EddyServer | undefined {
    return this.server;
  }

  /** Resolves when indexes have caught up and mappings have drained. */
  settled(): Promise<void> {
    return this.engine.settled();
  }

  async close(): Promise<void> {
    for (const close of this.closers.reverse()) await close();
    this.streams.changeLog.close();
  }
}

function streamSettings(config: EddyConfig) {
  const streams = config.streams ?? {};
  return {
    ...(streams.shardCount === undefined ? {} : { shardCount: streams.shardCount }),
    ...(streams.rolloverPeriod === undefined ? {} : { rolloverPeriod: streams.rolloverPeriod }),
    ...(streams.retention === undefined ? {} : { retention: streams.retention }),
  };
}

function resolvePath(base: string, path: string): string {
  return path.startsWith('/') ? path : `${base}/${path}`;
}
