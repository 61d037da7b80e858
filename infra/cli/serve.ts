import { readFileSync } from 'node:fs';
import { parseDuration } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import { StreamsService } from '../../streams/index.js';
import type { EddyConfig, TableConfig } from '../config.js';
import { createHostLogger, type Logger } from '../host/logger.js';
import { provisionTables, TableSetupError } from '../host/provision.js';
import { type BoundAddress, DEFAULT_HOST, DEFAULT_PORT, EddyServer } from '../host/server.js';
import { type Durability, Persistence, ReplayableClock } from '../persistence/index.js';
import { createDemoTable } from './demoTable.js';
import { ConfigError, findConfigFile, loadConfig } from './loadConfig.js';

/** `eddy serve` options as commander parsed them (flags win over the config file). */
export interface ServeOptions {
  readonly port?: number;
  readonly host?: string;
  /** A config file; `false` (`--no-config`) skips looking for `eddy.config.*` (so: the demo). */
  readonly config?: string | false;
  readonly region?: string;
  readonly accountId?: string;
  readonly verbose?: boolean;
  readonly maxBodySize?: number;
  readonly createDelay?: number;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  /** Keep everything in this directory across restarts (default: in memory only). */
  readonly dataDir?: string;
  /** With `dataDir`: when writes are durable (default `everysec`). */
  readonly durability?: Durability;
  /** With `dataDir`: snapshot after this many bytes of log (default 64 MiB). */
  readonly snapshotLogSize?: number;
  /** With `dataDir`: snapshot at least this often while writes happen, in ms (default 1 h). */
  readonly snapshotInterval?: number;
}

/** A running `eddy serve`. */
export interface RunningEddy {
  readonly server: EddyServer;
  readonly engine: Engine;
  readonly address: BoundAddress;
  readonly logger: Logger;
  /** The data directory, when serving with `--data-dir`. */
  readonly persistence: Persistence | undefined;
  /** Graceful shutdown (in-flight requests finish; with a data directory, a last snapshot). */
  close(): Promise<void>;
}

export interface ServeIo {
  /** Where the human-readable banner goes (default: process.stdout). */
  readonly print: (line: string) => void;
  readonly cwd: string;
}

/**
 * Starts eddy: loads the config (from `--config`, or `eddy.config.*` in the working directory),
 * builds the engine, creates the declared tables (or the demo table when there is no config),
 * listens, and prints the endpoint with a command to paste.
 * @throws ConfigError for a bad config; PortInUseError / ListenError when it cannot bind.
 */
export async function serve(options: ServeOptions, io: ServeIo): Promise<RunningEddy> {
  const logger = createHostLogger({ level: options.verbose ? 'debug' : 'warn' });
  const configFile = options.config === false ? undefined : (options.config ?? findConfigFile(io.cwd));
  const config: EddyConfig = configFile === undefined ? {} : await loadConfig(configFile);
  const settings = config.server ?? {};
  const region = options.region ?? settings.region ?? 'us-east-1';
  const accountId = options.accountId ?? settings.accountId ?? '000000000000';
  const createDelayMs =
    options.createDelay ?? (settings.createDelay === undefined ? 0 : parseDuration(settings.createDelay));
  const accessKeys =
    options.accessKeyId !== undefined && options.secretAccessKey !== undefined
      ? [{ accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }]
      : (settings.accessKeys ?? []);

  const engine = new Engine({
    accountId,
    region,
    transientStatusDelayMs: createDelayMs,
    onInternalError: (error, operation) => logger.error({ err: error, operation }, 'internal error'),
    // A data directory replays its log through the engine with the clock held at logged times.
    ...(options.dataDir === undefined ? {} : { clock: new ReplayableClock() }),
  });
  // Before any table exists, so the change log sees every write, the demo's included.
  const streams = new StreamsService(engine, {
    onInternalError: (error, operation) =>
      logger.error({ err: error, operation }, 'internal error (streams)'),
  });
  // Recovery first: tables the data directory holds are kept as they are, not declared again.
  const persistence =
    options.dataDir === undefined ? undefined : await openDataDir(engine, streams, options, logger);
  const context = { accountId, region };
  const existing = engine.region(accountId, region).tables;
  let demo: TableConfig | undefined;
  if (configFile === undefined) {
    if (persistence === undefined || persistence.recovery.lastLsn === 0)
      demo = createDemoTable(engine, context, logger);
  } else {
    try {
      const missing = (config.tables ?? []).filter((table) => !existing.has(table.TableName ?? ''));
      provisionTables(engine, missing, context, { logger });
    } catch (error) {
      await persistence?.close();
      if (!(error instanceof TableSetupError)) throw error;
      throw new ConfigError(configFile, `tables[${error.index}]`, error.message, { cause: error });
    }
  }

  const server = new EddyServer({
    engine,
    host: options.host ?? settings.host ?? DEFAULT_HOST,
    port: options.port ?? settings.port ?? DEFAULT_PORT,
    region,
    accountId,
    accessKeys,
    logger,
    logRequests: options.verbose ?? false,
    version: packageVersion(),
    ...((options.maxBodySize ?? settings.maxBodySize)
      ? { maxBodyBytes: options.maxBodySize ?? settings.maxBodySize }
      : {}),
    ...(persistence === undefined ? {} : { afterCall: persistence.afterCall }),
  });
  server.registerService(streams.protocol);
  const address = await server.listen().catch(async (error: unknown) => {
    await persistence?.close();
    throw error;
  });
  const storage =
    persistence === undefined
      ? 'in memory'
      : `data dir ${persistence.directory.path} (durability ${persistence.durability})`;
  const tables = config.tables ?? [];
  printBanner(io.print, address, { region, accountId, configFile, demo, tables, storage });
  logger.info({ url: address.url, region, accountId, config: configFile ?? null }, 'listening');
  const close = async () => {
    await server.close();
    await persistence?.close();
  };
  return { server, engine, address, logger, persistence, close };
}

/** `--data-dir`: takes the directory's lock and recovers the engine's state from it. */
function openDataDir(engine: Engine, streams: StreamsService, options: ServeOptions, logger: Logger) {
  return Persistence.open(engine, {
    dataDir: options.dataDir!,
    durability: options.durability ?? 'everysec',
    changeLog: streams.changeLog,
    ...(options.snapshotLogSize === undefined ? {} : { snapshotLogBytes: options.snapshotLogSize }),
    ...(options.snapshotInterval === undefined ? {} : { snapshotInterval: options.snapshotInterval }),
    logger,
  });
}

interface BannerFacts {
  readonly region: string;
  readonly accountId: string;
  readonly configFile: string | undefined;
  readonly demo: TableConfig | undefined;
  readonly tables: readonly TableConfig[];
  readonly storage: string;
}

function printBanner(print: (line: string) => void, address: BoundAddress, facts: BannerFacts): void {
  // The first line is stable on purpose: scripts (and eddy's own tests) read the port from it.
  print(`eddy listening on ${address.url}`);
  print(`  region ${facts.region}, account ${facts.accountId}, ${facts.storage}`);
  if (facts.configFile !== undefined) {
    const names = facts.tables.map((table) => table.TableName).join(', ');
    print(`  config ${facts.configFile}${names === '' ? '' : ` (tables: ${names})`}`);
  }
  const exampleTable = facts.demo?.TableName ?? facts.tables[0]?.TableName;
  if (facts.demo !== undefined) print(`  demo table ${describeDemo(facts.demo)}`);
  print('');
  print('Try it (any credentials are accepted):');
  const credentials = 'AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local';
  const endpoint = `--endpoint-url ${address.url} --region ${facts.region}`;
  print(
    exampleTable === undefined
      ? `  ${credentials} aws dynamodb list-tables ${endpoint}`
      : `  ${credentials} aws dynamodb scan --table-name ${exampleTable} ${endpoint}`,
  );
  print('');
  print('Press Ctrl+C to stop.');
}

function describeDemo(table: TableConfig): string {
  const parts = [`${table.TableName} (key pk + sk`];
  const index = table.GlobalSecondaryIndexes?.[0]?.IndexName;
  if (index !== undefined) parts.push(`GSI ${index}`);
  if (table.TimeToLiveSpecification !== undefined)
    parts.push(`TTL on ${table.TimeToLiveSpecification.AttributeName}`);
  if (table.StreamSpecification?.StreamViewType !== undefined) {
    parts.push(`${table.StreamSpecification.StreamViewType} stream`);
  }
  return `${parts.join(', ')})`;
}

let cachedVersion: string | undefined;
function packageVersion(): string | undefined {
  if (cachedVersion !== undefined) return cachedVersion;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    cachedVersion = pkg.version;
  } catch {
    cachedVersion = undefined;
  }
  return cachedVersion;
}
