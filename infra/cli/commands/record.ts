import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { RecordingStart } from '../../replay/recordStream.js';
import type { CliIo } from '../program.js';
import {
  checkCredentialFlags,
  EndpointError,
  optionalConfig,
  parseCount,
  parseDurationOption,
  type ServiceCliOptions,
  UsageError,
  withServiceOptions,
} from './serviceOptions.js';

/** Test seams of `eddy record`. */
export interface RecordCommandHooks {
  /**
   * Calls `stop` when the user interrupts; returns the function that uninstalls it (default: the
   * process's SIGINT, so Ctrl+C ends a `--follow` recording with the file complete).
   */
  readonly onInterrupt?: (stop: () => void) => () => void;
}

interface RecordOptions extends ServiceCliOptions {
  readonly table?: string;
  readonly streamArn?: string;
  readonly out: string;
  readonly from?: RecordingStart;
  readonly follow?: boolean;
  readonly duration?: number;
  readonly limit?: number;
  readonly pollInterval?: number;
  /** `--no-progress`: false. */
  readonly progress?: boolean;
}

const RECORD_HELP = `
Each line of the output is one record exactly as a Lambda handler receives it in
event.Records[i] (eventID, eventName, eventVersion, eventSource, awsRegion, dynamodb,
userIdentity on TTL deletes, eventSourceARN): replay it with \`eddy invoke <fn> --events <file>\`,
or edit it by hand. Records of one shard stay in sequence order; across shards they are ordered
by ApproximateCreationDateTime, then sequence number. The count goes to stderr.

Without --follow the recording reads every shard to its current end and stops (from the oldest
record by default). With --follow it keeps polling (from the newest record by default) until
--limit, --duration or Ctrl+C; the file is complete either way.

Examples:
  eddy record --table Orders --out orders.jsonl
  eddy record --table Orders --follow --duration 5m --out orders.jsonl
  eddy record --table Orders --limit 10 | jq .dynamodb.NewImage
  eddy record --aws --region eu-west-1 --table orders-prod --from latest --follow --out prod.jsonl`;

/** Adds `eddy record`: captures a table's DynamoDB stream as Lambda records, one JSON line each. */
export function addRecordCommand(program: Command, io: CliIo, hooks: RecordCommandHooks = {}): Command {
  return withServiceOptions(
    program
      .command('record')
      .description("Record a table's DynamoDB stream as Lambda event records (JSON lines).")
      .option('-t, --table <name>', 'the table whose stream to record')
      .option('--stream-arn <arn>', "a stream by ARN instead of the table's latest stream")
      .option('-o, --out <file>', 'where the records go, - for stdout', '-')
      .addOption(
        new Option(
          '--from <position>',
          'trim-horizon (oldest retained) or latest (default: latest with --follow)',
        ).choices(['trim-horizon', 'latest']),
      )
      .option('-f, --follow', 'keep polling for new records')
      .option(
        '--duration <duration>',
        'stop after this long, e.g. 30s or 5m (implies --follow)',
        parseDurationOption,
      )
      .option('-n, --limit <count>', 'stop after this many records', parseCount)
      .option(
        '--poll-interval <duration>',
        'pause between polls when following (default 250ms, as Lambda polls 4 times a second)',
        parseDurationOption,
      )
      .option('--no-progress', 'no live count while following (there is none when stderr is not a terminal)'),
  )
    .addHelpText('after', RECORD_HELP)
    .action(async (options: RecordOptions) => {
      try {
        await record(options, io, hooks);
      } catch (error) {
        io.printError(`eddy record: ${error instanceof Error ? error.message : String(error)}`);
        io.exit(error instanceof UsageError || error instanceof InvalidArgumentError ? 2 : 1);
      }
    });
}

async function record(options: RecordOptions, io: CliIo, hooks: RecordCommandHooks): Promise<void> {
  checkCredentialFlags(options);
  if ((options.table === undefined) === (options.streamArn === undefined))
    throw new UsageError('name the stream: --table <name> or --stream-arn <arn>');
  const follow = options.follow === true || options.duration !== undefined;
  const from: RecordingStart = options.from ?? (follow ? 'latest' : 'trim-horizon');
  const { config } = await optionalConfig(options, io.cwd);
  const { clientConfig, serviceTarget } = await import('../../replay/serviceTarget.js');
  const target = serviceTarget(options, config);
  const { DynamoDBClient, DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBStreamsClient } = await import('@aws-sdk/client-dynamodb-streams');
  const { recordStream } = await import('../../replay/recordStream.js');
  const dynamodb = new DynamoDBClient(clientConfig(target));
  const streams = new DynamoDBStreamsClient(clientConfig(target));
  const controller = new AbortController();
  const timer =
    options.duration === undefined ? undefined : setTimeout(() => controller.abort(), options.duration);
  const uninstall = (hooks.onInterrupt ?? onSigint)(() => controller.abort());
  let sink: LineSink | undefined;
  let stopCounter = () => {};
  try {
    let streamArn = options.streamArn;
    if (streamArn === undefined) {
      const { Table } = await dynamodb
        .send(new DescribeTableCommand({ TableName: options.table }))
        .catch((error: unknown) => {
          throw new EndpointError(error, target.endpoint);
        });
      streamArn = Table?.LatestStreamArn;
      if (streamArn === undefined) throw new NoStreamError(options.table!);
    }
    sink = lineSink(options.out, io);
    // Following can last minutes: a live count on the terminal, unless the records show there.
    const { createCounter } = await import('../progress.js');
    const counter = createCounter({
      label: 'recording',
      unit: 'records',
      enabled:
        follow &&
        options.progress !== false &&
        (options.out !== '-' || !(io.printsToTerminal ?? process.stdout.isTTY === true)),
      ...(io.progress === undefined ? {} : { stream: io.progress }),
    });
    stopCounter = () => counter.stop();
    const result = await recordStream({
      client: streams,
      streamArn,
      from,
      follow,
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      signal: controller.signal,
      ...(options.pollInterval === undefined ? {} : { pollIntervalMs: options.pollInterval }),
      onRecords: (records) => {
        sink!.write(records.map((each) => JSON.stringify(each)));
        counter.increment(records.length);
      },
      onWarning: (message) => io.printError(`eddy record: warning: ${message}`),
    });
    counter.stop();
    const where = options.out === '-' ? '' : ` to ${options.out}`;
    const why =
      result.stoppedBy === 'limit' ? ' (limit)' : result.stoppedBy === 'stopped' ? ' (stopped)' : '';
    io.printError(
      `recorded ${result.count} ${result.count === 1 ? 'record' : 'records'} from ${result.shards} ` +
        `${result.shards === 1 ? 'shard' : 'shards'} of ${streamArn}${where}${why}`,
    );
  } finally {
    stopCounter();
    sink?.close();
    uninstall();
    if (timer !== undefined) clearTimeout(timer);
    dynamodb.destroy();
    streams.destroy();
  }
}

/** The table has never had a stream (DescribeTable names no LatestStreamArn). */
export class NoStreamError extends Error {
  override readonly name = 'NoStreamError';
  constructor(readonly tableName: string) {
    super(`table ${tableName} has no stream (enable it with StreamSpecification)`);
  }
}

interface LineSink {
  write(lines: readonly string[]): void;
  close(): void;
}

/**
 * Lines to stdout, or to a file written synchronously round by round: whatever was recorded is
 * on disk when the recording is interrupted.
 */
function lineSink(out: string, io: CliIo): LineSink {
  if (out === '-')
    return {
      write: (lines) => {
        for (const line of lines) io.print(line);
      },
      close: () => {},
    };
  const fd = openSync(resolve(io.cwd, out), 'w');
  return {
    write: (lines) => {
      if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
    },
    close: () => closeSync(fd),
  };
}

function onSigint(stop: () => void): () => void {
  process.on('SIGINT', stop);
  return () => process.off('SIGINT', stop);
}
