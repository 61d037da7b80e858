import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ReplayInputError } from '../../replay/recordFile.js';
import { ReplayError } from '../../replay/replaySetup.js';
import { ConfigError } from '../loadConfig.js';
import type { CliIo } from '../program.js';
import { loadProjectConfig, NoConfigError, withTemplateOptions } from './projectConfig.js';
import { parseDurationOption } from './serviceOptions.js';

/** Test seams of `eddy invoke`. */
export interface InvokeCommandHooks {
  /** Reads standard input (for `--events -`; default: process.stdin). */
  readonly readStdin?: () => Promise<string>;
}

interface InvokeOptions {
  readonly events: string;
  readonly config?: string;
  readonly table?: string;
  readonly json?: boolean;
  readonly until?: number;
  /** `--no-logs`: false. */
  readonly logs?: boolean;
}

const INVOKE_HELP = `
The records go through the function's stream binding exactly as the local stack runs it:
BatchSize, MaximumBatchingWindowInSeconds, FilterCriteria, FunctionResponseTypes
(ReportBatchItemFailures), MaximumRetryAttempts, BisectBatchOnFunctionError,
MaximumRecordAgeInSeconds, TumblingWindowInSeconds, ParallelizationFactor and the on-failure
destination, with the function's module, timeout, environment and isolation. Time is virtual:
each record is replayed at its ApproximateCreationDateTime, and windows and retry backoff pass
instantly. The handler sees the recorded eventIDs, sequence numbers and times; the replay's own
stream spreads the records over its shards by item key, as eddy does. Failed batches go to an
in-memory destination shown in the summary (nothing is written to the project's destinations).

Events file: JSON lines from \`eddy record\`, a Lambda event {"Records": [...]} (from
\`eddy event dynamodb\`, \`sam local generate-event dynamodb update\`, the Lambda console), or a
JSON array of records; - reads standard input.

Exit code: 0 when every record was processed or filtered out; 1 when records were discarded
(retries or record age exhausted, whether or not an on-failure destination took them), the
function could not be invoked, or records were unfinished at --until; 2 when the replay could
not run (bad events file, config, function or handler).

Examples:
  eddy invoke onOrder --events orders.jsonl
  eddy invoke onOrder --events event.json --json > report.json
  eddy event dynamodb --table Orders | eddy invoke onOrder --events -`;

/** Adds `eddy invoke`: replays recorded stream records through a function of the config. */
export function addInvokeCommand(program: Command, io: CliIo, hooks: InvokeCommandHooks = {}): Command {
  return withTemplateOptions(program.command('invoke'))
    .description("Replay stream records through a function with its stream binding's mapping settings.")
    .argument('<function>', 'the function (a key of `functions` in the config)')
    .requiredOption('-e, --events <file>', 'the records: JSON lines or {"Records": [...]}; - for stdin')
    .option('-c, --config <file>', 'config file (default: eddy.config.* in the working directory)')
    .option('-t, --table <name>', 'which stream binding, when the function reads several tables')
    .option('--json', 'print the whole report as JSON (invocations, destination records, summary)')
    .option(
      '--no-logs',
      "don't print the function's log lines (START, its console output, END, REPORT) on stderr",
    )
    .option(
      '--until <duration>',
      'how much virtual time may pass after the last record (default: stream retention + 1h)',
      parseDurationOption,
    )
    .addHelpText('after', INVOKE_HELP)
    .action(async (functionName: string, options: InvokeOptions) => {
      let code: number;
      try {
        code = await invoke(functionName, options, io, hooks);
      } catch (error) {
        const known = [NoConfigError, ConfigError, ReplayError, ReplayInputError].some(
          (type) => error instanceof type,
        );
        if (!known) throw error;
        io.printError(`eddy invoke: ${(error as Error).message}`);
        code = 2;
      }
      // Handler modules may hold handles (clients, timers): the command ends the process itself.
      io.exit(code);
    });
}

async function invoke(functionName: string, options: InvokeOptions, io: CliIo, hooks: InvokeCommandHooks) {
  const { config, baseDirectory } = await loadProjectConfig(io.cwd, options, io.printError);
  const { parseRecords, readRecordFile } = await import('../../replay/recordFile.js');
  const file = options.events === '-' ? 'stdin' : resolve(io.cwd, options.events);
  const records =
    options.events === '-'
      ? parseRecords(await (hooks.readStdin ?? readStdin)(), file)
      : readRecordFile(file);
  const { replay } = await import('../../replay/replay.js');
  const { formatSummary, invocationPrinter } = await import('../../replay/replayReport.js');
  const printer = invocationPrinter(io.print);
  const report = await replay({
    config,
    baseDirectory,
    functionName,
    records,
    file,
    ...(options.table === undefined ? {} : { table: options.table }),
    ...(options.until === undefined ? {} : { until: options.until }),
    ...(options.json ? {} : { onInvocation: printer.print }),
    // The handler's log goes to stderr, as `sam local invoke` prints it: stdout stays the report.
    ...(options.logs === false
      ? {}
      : { functionLogs: (line: string) => io.printError(`${functionName} | ${line}`) }),
  });
  printer.flush();
  if (options.json) io.print(JSON.stringify(report, null, 2));
  else for (const line of formatSummary(report)) io.print(line);
  return report.exitCode;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
