import { join, relative, resolve } from 'node:path';
import { parseDuration } from '../../core/clock.js';
import type { Engine } from '../../core/engine.js';
import { ARCHIVE_CREDENTIALS_ENVIRONMENT } from '../archive/binding.js';
import { BindingError, runsLocally } from '../bindings.js';
import type { EddyConfig, TableConfig } from '../config.js';
import { describeBackfill } from '../functions/gsiMaintainer.js';
import type { CorsSetting } from '../host/cors.js';
import { type AllowedHosts, isLoopbackAddress } from '../host/hostCheck.js';
import { createHostLogger, type Logger } from '../host/logger.js';
import { TableSetupError } from '../host/provision.js';
import { type BoundAddress, DEFAULT_HOST, DEFAULT_PORT, type EddyServer } from '../host/server.js';
import { eddyVersion } from '../package/packageInfo.js';
import type { Durability, Persistence } from '../persistence/index.js';
import { type DataDirOptions, LocalStack } from '../stack/localStack.js';
import {
  describeOrigin,
  loadStack,
  type StackDefinition,
  type StackRequest,
} from '../stack/sources/index.js';
import { type FormatCliOptions, formatOptionsOf } from './commands/stackOptions.js';
import { createDemoTable } from './demoTable.js';

/** `eddy serve` options as commander parsed them (flags win over the config file). */
export interface ServeOptions extends FormatCliOptions {
  readonly port?: number;
  readonly host?: string;
  /** A config file; `false` (`--no-config`) skips looking for `eddy.config.*` (so: the demo). */
  readonly config?: string | false;
  /** A SAM/CloudFormation template, a CDK app or cloud assembly: a file or a folder (`--template`). */
  readonly template?: string;
  /** Template parameter values (`--parameter-overrides Key=Value ...`). */
  readonly parameterOverrides?: Readonly<Record<string, string>>;
  /** Run the CDK app's synth first (`--cdk`). */
  readonly cdk?: boolean;
  readonly region?: string;
  readonly accountId?: string;
  readonly verbose?: boolean;
  readonly maxBodySize?: number;
  readonly createDelay?: number;
  /** `--mapping-transition`, ms. */
  readonly mappingTransition?: number;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  /** Browser origins served besides this machine's, or `*` (`--cors`). */
  readonly cors?: CorsSetting;
  /** Host names served besides this machine's while bound to loopback, or `*`. */
  readonly allowedHosts?: AllowedHosts;
  /** Keep everything in this directory across restarts (default: in memory only). */
  readonly dataDir?: string;
  /** With `dataDir`: when writes are durable (default `everysec`). */
  readonly durability?: Durability;
  /** With `dataDir`: snapshot after this many bytes of log (default 64 MiB). */
  readonly snapshotLogSize?: number;
  /** With `dataDir`: snapshot at least this often while writes happen, in ms (default 1 h). */
  readonly snapshotInterval?: number;
  /** Exports and imports: a folder of buckets (default `<data dir>/buckets` or `.eddy/buckets`). */
  readonly bucketsDir?: string;
  /** Exports and imports: an S3 endpoint instead (credentials as the archive sink takes them). */
  readonly s3Endpoint?: string;
  /** Where Kinesis streaming destinations write (credentials as the archive sink takes them). */
  readonly kinesisEndpoint?: string;
  /** With `dataDir`: start from what is left of a log that lost written records. */
  readonly acceptDataLoss?: boolean;
  /** Rebuild (esbuild) and reload the project's handlers when their files change. */
  readonly watch?: boolean;
  /** `false` (`--no-console`): no event-flow console at /_eddy/console. */
  readonly console?: boolean;
  /** `--capacity enforce`: throttle as DynamoDB does (docs/capacity.md); wins over the config. */
  readonly capacity?: 'enforce' | 'off';
}

/** A running `eddy serve`. */
export interface RunningEddy {
  readonly stack: LocalStack;
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
 * Starts eddy: loads the stack (`--config`, `--template`, or what it finds in the working
 * directory: eddy.config.*, a SAM/CloudFormation template, a CDK app), starts the local stack (tables, the project's functions with their stream mappings and
 * schedules, the gsi-maintainer, ttl-expirer and archiver; the demo table when there is no
 * config), listens, and prints the endpoint with a command to paste.
 * @throws ConfigError for a bad config; PortInUseError / ListenError when it cannot bind.
 */
export async function serve(options: ServeOptions, io: ServeIo): Promise<RunningEddy> {
  const logger = createHostLogger({ level: options.verbose ? 'debug' : 'warn' });
  const request: StackRequest = {
    cwd: io.cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.template === undefined ? {} : { template: options.template }),
    ...(options.parameterOverrides === undefined ? {} : { parameters: options.parameterOverrides }),
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.accountId === undefined ? {} : { accountId: options.accountId }),
    ...(options.cdk === undefined ? {} : { cdk: options.cdk }),
    ...formatOptionsOf(options),
  };
  const definition = await loadStack(request);
  const config: EddyConfig = definition?.config ?? {};
  const configFile = definition?.origin.file;
  const settings = config.server ?? {};
  const region = options.region ?? settings.region ?? 'us-east-1';
  const accountId = options.accountId ?? settings.accountId ?? '000000000000';
  const createDelayMs =
    options.createDelay ?? (settings.createDelay === undefined ? 0 : parseDuration(settings.createDelay));
  const mappingTransitionMs =
    options.mappingTransition ??
    (settings.mappingTransition === undefined ? undefined : parseDuration(settings.mappingTransition));
  const accessKeys =
    options.accessKeyId !== undefined && options.secretAccessKey !== undefined
      ? [{ accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }]
      : (settings.accessKeys ?? []);
  const baseDirectory = definition?.baseDirectory ?? io.cwd;

  let stack: LocalStack;
  try {
    stack = await LocalStack.start(config, {
      accountId,
      region,
      transientStatusDelayMs: createDelayMs,
      ...(mappingTransitionMs === undefined ? {} : { mappingTransitionMs }),
      // Global tables replicate "usually within a second" (docs/global-tables.md §3).
      replicationLagMs: 1000,
      baseDirectory,
      logger,
      // Function logs as CloudWatch shows them, each line prefixed with its function's name.
      functionLogs: (functionName, line) => io.print(`${functionName} | ${line}`),
      // Nothing reads a server's invocation logs (`invocations(name)` is the in-process API):
      // its lines are printed above, and a kept log would hold the last 1000 events of each
      // function in memory (bench/workload.ts: stream with a handler).
      invocationLogLimit: 0,
      // A handler that does not load stops the start; under --watch, its function waits for a fix.
      missingHandlers: options.watch === true ? 'wait' : 'fail',
      // A GSI added to a table with items is built in the background: say how far it is.
      onBackfill: (progress) => io.print(`gsi-maintainer | ${describeBackfill(progress)}`),
      ...(options.dataDir === undefined ? {} : { dataDir: dataDirOptions(options) }),
      ...bucketsOptions(options, io.cwd),
      ...kinesisOptions(options),
      ...(options.capacity === undefined ? {} : { capacity: { mode: options.capacity } }),
    });
  } catch (error) {
    if (definition !== undefined && error instanceof TableSetupError)
      throw definition.errorAt(`tables[${error.index}]`, error.message, { cause: error });
    if (definition !== undefined && error instanceof BindingError)
      throw definition.errorAt(error.path, error.reason, { cause: error });
    throw error;
  }
  const { engine, persistence } = stack;
  let demo: TableConfig | undefined;
  // The demo table comes with no config, and only into an empty data directory.
  if (configFile === undefined && (persistence === undefined || persistence.recovery.lastLsn === 0))
    demo = createDemoTable(engine, { accountId, region }, logger);

  const watcher =
    options.watch === true
      ? // esbuild is loaded only to watch (bench/startup.ts: it is not on `eddy serve`'s path).
        (await import('../stack/watchFunctions.js')).watchFunctions(stack, {
          outDirectory: join(baseDirectory, '.eddy', 'watch'),
          print: io.print,
        })
      : undefined;
  await watcher?.ready;
  // The stack's file too: read again and reconciled on change (a CDK app is not synthesized again:
  // eddy follows its cdk.out as `cdk synth` or `cdk watch` rewrites it).
  const stackWatcher =
    watcher !== undefined && definition !== undefined
      ? (await import('../stack/watchStack.js')).watchStack(stack, definition, {
          reload: async () =>
            (await loadStack({
              ...request,
              config: undefined,
              template: undefined,
              ...definitionSource(definition),
              cdk: false,
            }))!,
          print: io.print,
          functions: watcher,
          cwd: io.cwd,
        })
      : undefined;
  const address = await stack
    .listen({
      host: options.host ?? settings.host ?? DEFAULT_HOST,
      port: options.port ?? settings.port ?? DEFAULT_PORT,
      region,
      accountId,
      accessKeys,
      cors: options.cors ?? settings.cors ?? [],
      allowedHosts: options.allowedHosts ?? settings.allowedHosts ?? [],
      logRequests: options.verbose ?? false,
      version: eddyVersion(),
      ...((options.maxBodySize ?? settings.maxBodySize)
        ? { maxBodyBytes: options.maxBodySize ?? settings.maxBodySize }
        : {}),
    })
    .catch(async (error: unknown) => {
      stackWatcher?.close();
      await watcher?.close();
      await stack.close();
      throw error;
    });
  // The console is for this machine's browser: served only while bound to loopback (docs/console.md).
  const consoleUrl =
    options.console !== false && isLoopbackAddress(address.host) ? stack.openConsole() : undefined;
  const storage =
    persistence === undefined
      ? 'in memory'
      : `data dir ${persistence.directory.path} (durability ${persistence.durability})`;
  const tables = config.tables ?? [];
  printBanner(io.print, address, {
    region,
    accountId,
    source: definition === undefined ? undefined : sourceLine(definition, io.cwd),
    notices: definition?.notices ?? [],
    demo,
    tables,
    storage,
    functions: functionLines(stack),
    watching: watcher !== undefined,
    consoleUrl,
  });
  logger.info({ url: address.url, region, accountId, config: configFile ?? null }, 'listening');
  const close = async () => {
    stackWatcher?.close();
    await watcher?.close();
    await stack.close();
  };
  return { stack, server: stack.httpServer!, engine, address, logger, persistence, close };
}

/** `--buckets-dir` or `--s3-endpoint` (S3 keys from EDDY_ARCHIVE_ACCESS_KEY_ID/..., as the archive's). */
function bucketsOptions(options: ServeOptions, cwd: string) {
  if (options.s3Endpoint !== undefined) {
    const env = process.env;
    const accessKeyId = env[ARCHIVE_CREDENTIALS_ENVIRONMENT.accessKeyId];
    const secretAccessKey = env[ARCHIVE_CREDENTIALS_ENVIRONMENT.secretAccessKey];
    return {
      buckets: {
        s3: {
          endpoint: options.s3Endpoint,
          ...(accessKeyId !== undefined && secretAccessKey !== undefined
            ? { credentials: { accessKeyId, secretAccessKey } }
            : {}),
        },
      },
    };
  }
  if (options.bucketsDir !== undefined) return { buckets: { directory: resolve(cwd, options.bucketsDir) } };
  return {};
}

/** `--kinesis-endpoint` (keys from EDDY_ARCHIVE_ACCESS_KEY_ID/..., as the archive's). */
function kinesisOptions(options: ServeOptions) {
  if (options.kinesisEndpoint === undefined) return {};
  const env = process.env;
  const accessKeyId = env[ARCHIVE_CREDENTIALS_ENVIRONMENT.accessKeyId];
  const secretAccessKey = env[ARCHIVE_CREDENTIALS_ENVIRONMENT.secretAccessKey];
  const sessionToken = env[ARCHIVE_CREDENTIALS_ENVIRONMENT.sessionToken];
  return {
    kinesis: {
      endpoint: options.kinesisEndpoint,
      ...(accessKeyId !== undefined && secretAccessKey !== undefined
        ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } }
        : {}),
    },
  };
}

/** The file a stack came from, as the request that reads it again names it. */
function definitionSource(definition: StackDefinition): Pick<StackRequest, 'config' | 'template'> {
  return definition.origin.format === 'eddy-config'
    ? { config: definition.origin.file }
    : { template: definition.origin.file };
}

/** `config /path/eddy.config.ts`, or `template template.yaml (SAM template, found in the working folder)`. */
function sourceLine(definition: StackDefinition, cwd: string): string {
  if (definition.origin.format === 'eddy-config') return `config ${definition.origin.file}`;
  return `template ${describeOrigin(definition, (path) => relative(cwd, path) || '.')}`;
}

function dataDirOptions(options: ServeOptions): DataDirOptions {
  return {
    path: options.dataDir!,
    durability: options.durability ?? 'everysec',
    ...(options.snapshotLogSize === undefined ? {} : { snapshotLogBytes: options.snapshotLogSize }),
    ...(options.snapshotInterval === undefined ? {} : { snapshotInterval: options.snapshotInterval }),
    acceptDataLoss: options.acceptDataLoss === true,
  };
}

/** `tally ← Votes stream`, `archiver ← Sessions stream (TTL deletions)`, `report ← every 5m`. */
function functionLines(stack: LocalStack): string[] {
  const lines: string[] = [];
  for (const binding of stack.bindings) {
    const triggers = [
      ...binding.streams.map((stream) => `${stream.table} stream`),
      ...binding.schedules.map((schedule) => schedule.expression),
    ];
    const notRun = runsLocally(binding) ? '' : ` (not running: ${binding.runtime})`;
    lines.push(`${binding.functionName} ← ${triggers.join(', ') || 'nothing (invoke only)'}${notRun}`);
    const waiting = stack.waiting.get(binding.functionName);
    if (waiting !== undefined) lines.push(`  ✗ ${waiting}; waiting for a fix (its mappings start then)`);
  }
  for (const tableName of stack.config.archive?.tables ?? [])
    lines.push(`archiver ← ${tableName} stream (TTL deletions)`);
  return lines;
}

interface BannerFacts {
  readonly region: string;
  readonly accountId: string;
  /** `config eddy.config.ts`, `template template.yaml (SAM template, found in the working folder)`. */
  readonly source: string | undefined;
  /** What the stack holds that eddy does not run. */
  readonly notices: readonly string[];
  readonly demo: TableConfig | undefined;
  readonly tables: readonly TableConfig[];
  readonly storage: string;
  readonly functions: readonly string[];
  readonly watching: boolean;
  readonly consoleUrl: string | undefined;
}

function printBanner(print: (line: string) => void, address: BoundAddress, facts: BannerFacts): void {
  // The first line is stable on purpose: scripts (and eddy's own tests) read the port from it.
  print(`eddy listening on ${address.url}`);
  print(`  region ${facts.region}, account ${facts.accountId}, ${facts.storage}`);
  if (facts.source !== undefined) {
    const names = facts.tables.map((table) => table.TableName).join(', ');
    print(`  ${facts.source}${names === '' ? '' : ` (tables: ${names})`}`);
  }
  const exampleTable = facts.demo?.TableName ?? facts.tables[0]?.TableName;
  if (facts.demo !== undefined) print(`  demo table ${describeDemo(facts.demo)}`);
  for (const line of facts.functions) print(`  function ${line}`);
  for (const line of facts.notices) print(`  ${line}`);
  if (facts.watching)
    print('  watching handlers and the stack file: a change rebuilds and reloads what it touches');
  if (facts.consoleUrl !== undefined) print(`  console ${facts.consoleUrl}`);
  print('');
  print('Try it (any credentials are accepted):');
  const credentials = 'AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local';
  const endpoint = `--endpoint-url ${address.url} --region ${facts.region}`;
  print(
    exampleTable === undefined
      ? `  ${credentials} aws dynamodb list-tables ${endpoint}`
      : `  ${credentials} aws dynamodb scan --table-name ${exampleTable} ${endpoint}`,
  );
  // The Lambda API answers on the same port (docs/lambda-api.md).
  if (facts.functions.length > 0) print(`  ${credentials} aws lambda list-event-source-mappings ${endpoint}`);
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
