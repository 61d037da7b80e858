/**
 * The program `eddy serve` runs: the program's own options and the serve command alone. The
 * other commands' modules (archive, build, synth, record, backups, exports, ...) are what
 * `createProgram` (program.ts) adds; `eddy serve` does not load them (main.ts picks this program
 * when the command line is serve's, see `servesOnly`), which saves evaluating ~100 KB of code at
 * every start.
 */
import { Command, InvalidArgumentError } from 'commander';
import { parseDuration } from '../../core/clock.js';
import { type CorsSetting, parseCorsSetting } from '../host/cors.js';
import { ListenError, PortInUseError } from '../host/errors.js';
import type { AllowedHosts } from '../host/hostCheck.js';
import { DEFAULT_MAX_BODY_BYTES } from '../host/pipeline.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../host/server.js';
import { eddyVersion } from '../package/packageInfo.js';
import { DURABILITY_MODES, type Durability } from '../persistence/durability.js';
import {
  CorruptDataError,
  DataDirectoryLockedError,
  DataLossError,
  IncompleteDataError,
} from '../persistence/errors.js';
import {
  CDK_OPTION,
  PARAMETERS_OPTION,
  STAGE_OPTION,
  TEMPLATE_OPTION,
  VAR_FILE_OPTION,
  VAR_OPTION,
} from './commands/stackOptions.js';
import { ConfigError, isAccountId, isRegion } from './loadConfig.js';
import { type RunningEddy, serve } from './serve.js';

export interface CliIo {
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
  readonly cwd: string;
  /** Called once the server is up (main.ts installs the signal handlers here). */
  readonly onStarted?: (running: RunningEddy) => void;
  /** Exit with a code (main.ts: process.exit); failures to start come through here. */
  readonly exit: (code: number) => void;
  /** Where progress is drawn (default: stderr; nothing is drawn unless it is a terminal). */
  readonly progress?: NodeJS.WriteStream;
  /** Whether what `print` writes shows on a terminal (default: whether stdout is one). */
  readonly printsToTerminal?: boolean;
}

export const CONFIG_HELP = `
Config file (eddy.config.ts, .mts, .mjs, .js or .json; looked for in the working directory
when --config is not given):

  // eddy.config.ts
  import { defineConfig } from 'eddy/config';
  export default defineConfig({
    server: { port: 8000, region: 'us-east-1' },
    tables: [{
      TableName: 'Orders',
      AttributeDefinitions: [{ AttributeName: 'orderId', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'orderId', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    }],
    functions: {
      onOrder: {
        handler: './src/onOrder.ts', timeout: 10,
        events: [{ stream: { table: 'Orders', StartingPosition: 'LATEST', BatchSize: 10 } }],
      },
    },
  });

  server:    port, host, region, accountId, maxBodySize (bytes), createDelay (ms or '2s'),
             mappingTransition (ms or '1s': how long a mapping's state change lasts),
             accessKeys: [{ accessKeyId, secretAccessKey, accountId? }] (turns on SigV4 verification),
             cors: ['https://app.example.com'] or '*', allowedHosts: ['dynamodb.local'] or '*'
             (browser pages and Host names served besides this machine's own)
  tables:    CreateTable requests, plus TimeToLiveSpecification; created at start, in order.
  functions: handler (module path), exportName, timeout, memorySize, environment, isolation
             ('in-process' or 'worker'), events: { stream: { table, ...CreateEventSourceMapping
             settings } } or { schedule: { rate: '5m' | 'rate(5 minutes)' } }.
  archive:   { tables: [...], sink: { type: 'files', directory } | { type: 's3', bucket, ... } }:
             TTL deletions of those tables, archived by the archiver.
  capacity:  { mode: 'enforce', tables?: [...], burstSeconds?, faults?: [{ table, fault, times }] }:
             throttling as DynamoDB does it, and injected faults (docs/capacity.md).
  ttl, globalIndexes, streams, destinationsDirectory: settings of the built-in functions.
  Command-line flags win over the file.

Templates (docs/templates.md): with no eddy.config.*, eddy runs the stack it finds in the working
directory — template.yaml|yml|json (SAM or CloudFormation), cdk.out/ (a CDK cloud assembly; --cdk
runs cdk synth first) — or the one --template names (a file or a folder):
  eddy serve --template template.yaml --parameter-overrides Env=dev BatchSize=10
  eddy serve --cdk                        # cdk synth, then run the assembly

Without a config or template, eddy serves an in-memory demo table "Demo" (key pk + sk, GSI "GSI1",
TTL on expiresAt, NEW_AND_OLD_IMAGES stream).

Examples:
  eddy serve                              # demo on http://127.0.0.1:8000
  eddy serve --port 0                     # any free port; the first line prints it
  eddy serve --config eddy.config.ts --verbose
  eddy serve --host 0.0.0.0 --region eu-west-1 --create-delay 2s
  eddy serve --data-dir ./.eddy --durability always   # survives restarts and crashes
  eddy serve --config examples/votes/eddy.config.ts --watch   # functions reload on save

Endpoints: POST / (DynamoDB_20120810.* and registered APIs such as DynamoDBStreams_20120810.*),
/2015-03-31/... (the Lambda API: functions, Invoke, event source mappings; SigV4 service lambda),
GET / (service health text), GET /_eddy/health (JSON, for scripts and containers),
GET /_eddy/api/mappings (the mappings' run-time state, as \`eddy mappings\` shows it).
Logs: JSON lines (pino) on stderr, warnings only unless --verbose. SIGINT/SIGTERM: graceful stop.`;

/**
 * Whether a command line (the arguments after `eddy`) is serve's, so that the serve-only program
 * parses it exactly as the whole one would: no arguments, `serve ...`, or options first (serve is
 * the default command, and the program's own options, -h/--help and -v/--version, take the
 * whole program). Anything else (`eddy record`, `eddy serv`, `eddy help`) takes the whole program.
 */
export function servesOnly(args: readonly string[]): boolean {
  const first = args[0];
  if (first === undefined || first === 'serve') return true;
  return first.startsWith('-') && !['-h', '--help', '-v', '--version'].includes(first);
}

/** The program itself: its name, description, output, and -v/--version. */
export function baseProgram(io: CliIo): Command {
  return (
    new Command('eddy')
      .description('A local DynamoDB whose every change flows on as a stream.')
      .showSuggestionAfterError(true)
      .configureOutput({
        writeOut: (text) => io.print(text.trimEnd()),
        writeErr: (text) => io.printError(text.trimEnd()),
      })
      .exitOverride()
      // Program options only before a command: `eddy serve -v` stays serve's --verbose.
      .enablePositionalOptions()
      .version(eddyVersion() ?? 'unknown', '-v, --version', "print eddy's version")
  );
}

/** The program of `eddy serve`: the program and its default command, serve, alone. */
export function createServeProgram(io: CliIo): Command {
  const program = baseProgram(io);
  addServeCommand(program, io);
  return program;
}

/** Adds `serve`, the default command, to `program`; returns it. */
export function addServeCommand(program: Command, io: CliIo): Command {
  return program
    .command('serve', { isDefault: true })
    .description('Run the DynamoDB-compatible HTTP endpoint (the default command).')
    .option(
      '-p, --port <number>',
      `port to listen on, 0 for any free port (default ${DEFAULT_PORT})`,
      parsePort,
    )
    .option('-H, --host <address>', `interface to bind (default ${DEFAULT_HOST}, this machine only)`)
    .option('-c, --config <file>', 'config file (default: eddy.config.* in the working directory)')
    .option('--no-config', 'ignore eddy.config.* in the working directory (serve the demo table)')
    .option(...TEMPLATE_OPTION)
    .option(...PARAMETERS_OPTION)
    .option(...CDK_OPTION)
    .option(...STAGE_OPTION)
    .option(...VAR_OPTION)
    .option(...VAR_FILE_OPTION)
    .option(
      '-r, --region <name>',
      "region of the config's tables and the demo table; each request uses its signature's (default us-east-1)",
      parseRegion,
    )
    .option('--account-id <digits>', 'account id in ARNs (default 000000000000)', parseAccountId)
    .option('-v, --verbose', 'debug logs and one log line per request')
    .option('-w, --watch', "rebuild and reload the config's handlers when their files change (esbuild)")
    .option(
      '--max-body-size <bytes>',
      `largest request body, e.g. 16777216 or 16MiB (default ${DEFAULT_MAX_BODY_BYTES}, as DynamoDB)`,
      parseByteSize,
    )
    .option(
      '--create-delay <duration>',
      'how long new tables stay CREATING, e.g. 2s or 500ms (default 0)',
      parseDelay,
    )
    .option(
      '--mapping-transition <duration>',
      'how long an event source mapping stays Creating/Updating/Enabling/Disabling/Deleting after a Lambda API call (default 1s)',
      parseDelay,
    )
    .option(
      '--cors <origins>',
      "web pages that may call eddy from a browser besides this machine's, comma-separated " +
        '(e.g. https://app.example.com,http://dev.lan:*), or "*" for any (default: localhost only)',
      parseCors,
    )
    .option(
      '--allowed-hosts <names>',
      'Host names served besides localhost while bound to loopback, comma-separated, or "*"',
      parseAllowedHosts,
    )
    .option('--no-console', 'do not serve the event-flow console at /_eddy/console (docs/console.md)')
    .option('--access-key-id <id>', 'verify SigV4 signatures: the accepted key id (with --secret-access-key)')
    .option('--secret-access-key <secret>', 'verify SigV4 signatures: the secret of --access-key-id')
    .option(
      '-d, --data-dir <path>',
      'keep tables, streams and checkpoints in this directory (default: in memory)',
    )
    .option(
      '--durability <mode>',
      'with --data-dir: always (answer writes after fsync), everysec (default) or no',
      parseDurability,
    )
    .option(
      '--snapshot-log-size <bytes>',
      'with --data-dir: snapshot after this much log, e.g. 64MiB (default)',
      parseByteSize,
    )
    .option(
      '--snapshot-interval <duration>',
      'with --data-dir: snapshot at least this often while writes happen (default 1h)',
      parseDelay,
    )
    .option(
      '--buckets-dir <path>',
      'exports and imports: a folder with one sub-folder per bucket (default <data-dir>/buckets or .eddy/buckets)',
    )
    .option(
      '--s3-endpoint <url>',
      'exports and imports: an S3 endpoint instead (keys: EDDY_ARCHIVE_ACCESS_KEY_ID/...)',
    )
    .option(
      '--kinesis-endpoint <url>',
      'Kinesis streaming destinations: the Kinesis endpoint tables write their changes to (keys: EDDY_ARCHIVE_ACCESS_KEY_ID/...)',
    )
    .option(
      '--accept-data-loss',
      'with --data-dir: start even if the log lost written records, with what is left (see `eddy data check`)',
    )
    .option(
      '--capacity <mode>',
      'enforce: throttle as DynamoDB does past provisioned or on-demand capacity (docs/capacity.md); off (default)',
      parseCapacityMode,
    )
    .addHelpText('after', CONFIG_HELP)
    .action(async (options: Record<string, unknown>) => {
      if ((options.accessKeyId === undefined) !== (options.secretAccessKey === undefined)) {
        io.printError('eddy: --access-key-id and --secret-access-key go together');
        io.exit(2);
        return;
      }
      const persistenceFlags = ['durability', 'snapshotLogSize', 'snapshotInterval', 'acceptDataLoss'].filter(
        (name) => options[name] !== undefined,
      );
      if (options.dataDir === undefined && persistenceFlags.length > 0) {
        io.printError('eddy: --durability, --snapshot-* and --accept-data-loss need --data-dir');
        io.exit(2);
        return;
      }
      try {
        const running = await serve(options, { print: io.print, cwd: io.cwd });
        io.onStarted?.(running);
      } catch (error) {
        if (
          error instanceof ConfigError ||
          error instanceof PortInUseError ||
          error instanceof ListenError ||
          error instanceof DataDirectoryLockedError ||
          error instanceof CorruptDataError ||
          error instanceof IncompleteDataError ||
          error instanceof DataLossError
        ) {
          io.printError(`eddy: ${error.message}`);
          io.exit(1);
          return;
        }
        throw error;
      }
    });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError('must be an integer from 0 to 65535.');
  return port;
}

function parseDurability(value: string): Durability {
  if (!(DURABILITY_MODES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${DURABILITY_MODES.join(', ')}.`);
  return value as Durability;
}

function parseCapacityMode(value: string): 'enforce' | 'off' {
  if (value !== 'enforce' && value !== 'off') throw new InvalidArgumentError('must be enforce or off.');
  return value;
}

export function parseRegion(value: string): string {
  if (!isRegion(value)) throw new InvalidArgumentError('must be a region name such as us-east-1.');
  return value;
}

function parseCors(value: string): CorsSetting {
  try {
    return parseCorsSetting(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function parseAllowedHosts(value: string): AllowedHosts {
  if (value.trim() === '*') return '*';
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new InvalidArgumentError('must list host names, or be "*".');
  return names;
}

function parseAccountId(value: string): string {
  if (!isAccountId(value)) throw new InvalidArgumentError('must be 12 digits.');
  return value;
}

function parseDelay(value: string): number {
  try {
    return parseDuration(/^\d+$/.test(value) ? Number(value) : value);
  } catch {
    throw new InvalidArgumentError('must be milliseconds or a duration such as 500ms, 2s, 1m.');
  }
}

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** `16777216`, `16MiB`, `512KiB`, `16mb`: a positive whole number of bytes. */
export function parseByteSize(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(value);
  const unit = BYTE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
  const bytes = match === null || unit === undefined ? Number.NaN : Math.floor(Number(match[1]) * unit);
  if (!(bytes > 0))
    throw new InvalidArgumentError('must be a positive size such as 16777216, 16MiB or 512KiB.');
  return bytes;
}
