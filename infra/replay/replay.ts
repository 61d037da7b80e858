import { join } from 'node:path';
import { parseDuration, SystemClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import type { StreamViewType } from '../../core/store/table.js';
import { ChangeLog } from '../../streams/changeLog.js';
import { LambdaServiceError, MappingManager } from '../../streams/mapping/index.js';
import { formatSequenceNumber } from '../../streams/sequenceNumber.js';
import { bindingsOf, runsLocally, type StreamBinding } from '../bindings.js';
import type { EddyConfig } from '../config.js';
import { loadHandler } from '../functions/handlerModule.js';
import { LocalFunctions } from '../functions/localFunctions.js';
import { createHostLogger } from '../host/logger.js';
import { provisionTables, TableSetupError } from '../host/provision.js';
import { buildFunctions } from '../stack/functionBuilds.js';
import { streamSettings } from '../stack/streamSettings.js';
import { type RecordedChange, recordedChange } from './recordedChange.js';
import { RecordedIdentities } from './recordedIdentities.js';
import { type RecordedRecord, ReplayInputError } from './recordFile.js';
import { ReplayClock } from './replayClock.js';
import { type DestinationDelivery, ReplayDestinations } from './replayDestinations.js';
import { ReplayFunctions, type ReplayInvocation } from './replayFunctions.js';
import { chooseBinding, ReplayError, replayViewType } from './replaySetup.js';
import { ReplayKeyError, ReplaySource } from './replaySource.js';

export interface ReplayOptions {
  readonly config: EddyConfig;
  /** Where the config's relative paths start (the config file's folder). */
  readonly baseDirectory: string;
  readonly functionName: string;
  /** The recorded records, in file order (`readRecordFile`). */
  readonly records: readonly RecordedRecord[];
  /** The events file, for messages. */
  readonly file: string;
  /** The stream binding to use when the function has several: its table. */
  readonly table?: string;
  /** How far virtual time may run past the last record (default: stream retention + 1 h). */
  readonly until?: number | string;
  /** An in-process handler instead of the config's module (programmatic use, tests). */
  readonly handler?: (event: never, context: never) => unknown;
  /** Each invocation as it ends. */
  readonly onInvocation?: (invocation: ReplayInvocation) => void;
  /** The function's log lines as they are written, in Lambda's format (START, INFO..., END, REPORT). */
  /** Where a function with build settings is bundled (default `<baseDirectory>/.eddy/build-invoke`). */
  readonly buildDirectory?: string;
  readonly functionLogs?: (line: string) => void;
}

export interface ReplaySummary {
  /** Records in the file. */
  readonly records: number;
  readonly filtered: number;
  readonly processed: number;
  /** Records discarded after the retry or age limit (sent to the destination when there is one). */
  readonly failed: number;
  /** Records still in progress when `until` ran out. */
  readonly unfinished: number;
  readonly batches: number;
  readonly invocations: number;
  readonly retries: number;
  /** Invocations that failed as a whole (error, timeout, a response Lambda rejects). */
  readonly failedInvocations: number;
  readonly partialFailures: number;
  /** Times the function could not be invoked at all. */
  readonly invokeErrors: number;
  readonly windowsClosed: number;
  /** Invocation records sent to the on-failure destination. */
  readonly destinationRecords: number;
  /** Virtual time span of the replay (ISO-8601). */
  readonly from: string;
  readonly to: string;
  /** Wall-clock duration of the replay, ms. */
  readonly wallMs: number;
}

export interface ReplayReport {
  readonly functionName: string;
  readonly tableName: string;
  readonly streamViewType: StreamViewType;
  /** The binding's CreateEventSourceMapping settings. */
  readonly settings: StreamBinding['settings'];
  readonly invocations: readonly ReplayInvocation[];
  readonly destinations: readonly DestinationDelivery[];
  readonly summary: ReplaySummary;
  /** Things worth knowing (a view type other than the table's, mapping errors...). */
  readonly notes: readonly string[];
  /**
   * 0 when every record was processed or filtered out; 1 when records were discarded (with or
   * without a destination), the function could not be invoked, or records were left unfinished.
   */
  readonly exitCode: 0 | 1;
}

const HOUR = 3_600_000;

/**
 * Replays recorded stream records through a function of the config with its stream binding's
 * mapping settings, by running the real machinery: a change log fed by a `ReplaySource`, the
 * `MappingManager` with the binding's settings, and the function from `LocalFunctions` with its
 * module, timeout and isolation. The records are committed in file order on a virtual clock set to
 * each record's ApproximateCreationDateTime, so batching windows, retry backoff, record ages and
 * tumbling windows run in virtual time: deterministic and instant. After the last record the
 * clock jumps from timer to timer until the mapping is done (or `until` runs out).
 *
 * The replay's stream redistributes the records to its shards by item key, as eddy does for a
 * live table, and numbers them itself; the handler sees each record's recorded eventID,
 * SequenceNumber and times (`RecordedIdentities`). The function's own timeout runs in real time.
 *
 * @example
 * ```ts
 * const report = await replay({ config, baseDirectory: '.', functionName: 'onOrder',
 *   records: readRecordFile('events.jsonl'), file: 'events.jsonl' });
 * report.summary.processed;
 * ```
 * @throws ReplayError (config problems), ReplayInputError (records the table cannot hold).
 */
export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  // The replay waits on promises between its drains (a handler's, the virtual clock's) that hold
  // nothing open themselves: with no socket or file open, Node would take the empty event loop
  // for the end of the program and exit mid-replay. Hold it open meanwhile.
  const keepAlive = setInterval(() => {}, 60_000);
  try {
    return await run(options);
  } finally {
    clearInterval(keepAlive);
  }
}

async function run(options: ReplayOptions): Promise<ReplayReport> {
  const wallStart = performance.now();
  const { config, records, file } = options;
  const chosen = chooseBinding(
    bindingsOf(config, options.baseDirectory),
    options.functionName,
    options.table,
    records,
  );
  const { fn, stream: binding } = chosen;
  const tableConfig = (config.tables ?? []).find((table) => table.TableName === binding.table)!;
  const changes = readChanges(records, file);
  const notes: string[] = [];
  const { viewType, note } = replayViewType(tableConfig, changes);
  if (note !== undefined) notes.push(note);
  if (binding.settings.Enabled === false)
    notes.push('the binding is disabled (Enabled: false): replaying anyway');

  // What runs is what `eddy serve` runs: a function with build settings (SAM's esbuild
  // BuildProperties) is bundled with them first (docs/templates.md §3.4), into a folder of its
  // own so a running `eddy serve` keeps its bundle; packages left external resolve from the
  // project's node_modules, as in serve.
  let module = fn.handlerPath;
  if (options.handler === undefined && fn.build !== undefined && runsLocally(fn)) {
    const built = await buildFunctions(
      [fn],
      options.buildDirectory ?? join(options.baseDirectory, '.eddy', 'build-invoke'),
    ).catch((error: unknown) => {
      throw new ReplayError(`cannot build the handler of '${fn.functionName}': ${messageOf(error)}`, {
        cause: error,
      });
    });
    module = built.get(fn.functionName) ?? module;
  }

  if (options.handler === undefined && fn.isolation === 'in-process') {
    // A handler that cannot load would fail every invocation, retried for a day of virtual time.
    await loadHandler(module, fn.exportName).catch((error: unknown) => {
      throw new ReplayError(`cannot load the handler of '${fn.functionName}': ${messageOf(error)}`, {
        cause: error,
      });
    });
  }

  const accountId = config.server?.accountId ?? '000000000000';
  const region = config.server?.region ?? 'us-east-1';
  const clock = new ReplayClock(changes[0]?.at ?? Math.floor(Date.now() / 1000) * 1000);
  const engine = new Engine({ clock, accountId, region, globalIndexes: 'external' });
  const source = new ReplaySource(engine, (error) => notes.push(`change log: ${messageOf(error)}`));
  const changeLog = new ChangeLog(source, streamSettings(config));
  try {
    provisionTables(
      engine,
      [{ ...tableConfig, StreamSpecification: { StreamEnabled: true, StreamViewType: viewType } }],
      { accountId, region },
      { logger: createHostLogger({ level: 'silent' }) },
    );
  } catch (error) {
    if (error instanceof TableSetupError) throw new ReplayError(`tables: ${error.message}`, { cause: error });
    throw error;
  }
  const table = engine.region(accountId, region).tables.get(binding.table)!;
  const stream = changeLog.tableStream(accountId, region, binding.table)!;

  // The handler runs in real time: its timeout limits real work (the records' time is virtual).
  const functionLogs = options.functionLogs;
  const localFunctions = new LocalFunctions({
    clock: new SystemClock(),
    accountId,
    region,
    ...(functionLogs === undefined ? {} : { logSink: (_name: string, line: string) => functionLogs(line) }),
  });
  localFunctions.define({
    name: fn.functionName,
    ...(options.handler ? { handler: options.handler } : { module, exportName: fn.exportName }),
    timeout: fn.timeout,
    memorySize: fn.memorySize,
    environment: fn.environment,
    isolation: options.handler ? 'in-process' : fn.isolation,
  });
  const identities = new RecordedIdentities();
  const invocations: ReplayInvocation[] = [];
  const destinations = new ReplayDestinations(identities);
  const manager = new MappingManager({
    changeLog,
    functions: new ReplayFunctions(localFunctions, {
      clock,
      identities,
      reportBatchItemFailures:
        binding.settings.FunctionResponseTypes?.includes('ReportBatchItemFailures') ?? false,
      recordedStreamArn: records.find(({ record }) => record.eventSourceARN !== undefined)?.record
        .eventSourceARN,
      onInvocation: (invocation) => {
        invocations.push(invocation);
        options.onInvocation?.(invocation);
      },
    }),
    destinations,
    accountId,
    region,
    // A function that cannot be invoked fails every attempt alike: one note per distinct message.
    onError: (error, context) => {
      const note = `${context}: ${messageOf(error)}`;
      if (!notes.includes(note)) notes.push(note);
    },
  });
  const settle = () => manager.drained();
  try {
    let uuid: string;
    try {
      uuid = manager.create({
        ...(binding.settings as Record<string, unknown>),
        Enabled: true,
        StartingPosition: 'TRIM_HORIZON',
        EventSourceArn: stream.arn,
        FunctionName: fn.functionName,
      } as never).UUID!;
    } catch (error) {
      if (!(error instanceof LambdaServiceError)) throw error;
      const path = `functions.${fn.functionName}.events[${chosen.index}].stream`;
      throw new ReplayError(`${path}: ${error.name}: ${error.message}`, { cause: error });
    }
    const from = clock.now();
    for (const [index, change] of changes.entries()) {
      // A record older than the one before it is replayed at the later time: time only moves on.
      if (change.at > clock.now()) await clock.advance(change.at - clock.now(), settle);
      try {
        source.replay(table, change);
      } catch (error) {
        if (!(error instanceof ReplayKeyError)) throw error;
        throw new ReplayInputError(file, records[index]!.where, error.message, { cause: error });
      }
      identities.remember(formatSequenceNumber(stream.nextOrdinal - 1), records[index]!.record);
    }
    const until =
      options.until === undefined ? changeLog.settings.retentionMs + HOUR : parseDuration(options.until);
    const deadline = clock.now() + until;
    const mapping = manager.mapping(uuid);
    for (;;) {
      await settle();
      if (mapping.drained()) break;
      const next = clock.nextTimerAt();
      if (next === undefined || next > deadline) break;
      await clock.advance(Math.max(0, next - clock.now()), settle);
    }
    const inspection = manager.inspect(uuid);
    const summary: ReplaySummary = {
      records: records.length,
      filtered: inspection.recordsFiltered,
      processed: inspection.recordsProcessed,
      failed: inspection.recordsFailed,
      unfinished: inspection.backlog,
      batches: inspection.batches,
      invocations: inspection.invocations,
      retries: invocations.filter((invocation) => invocation.retry).length,
      failedInvocations: invocations.filter(
        (invocation) => invocation.outcome === 'error' || invocation.outcome === 'invalid-response',
      ).length,
      partialFailures: invocations.filter((invocation) => invocation.outcome === 'partial').length,
      invokeErrors: inspection.invokeErrors,
      windowsClosed: inspection.windowsClosed,
      destinationRecords: destinations.deliveries.length,
      from: new Date(from).toISOString(),
      to: new Date(clock.now()).toISOString(),
      wallMs: performance.now() - wallStart,
    };
    if (summary.unfinished > 0)
      notes.push(`${summary.unfinished} records were still in progress when virtual time reached --until`);
    return {
      functionName: fn.functionName,
      tableName: binding.table,
      streamViewType: viewType,
      settings: binding.settings,
      invocations,
      destinations: destinations.deliveries,
      summary,
      notes,
      exitCode: summary.failed > 0 || summary.invokeErrors > 0 || summary.unfinished > 0 ? 1 : 0,
    };
  } finally {
    manager.close();
    await localFunctions.close();
    changeLog.close();
  }
}

/** Every record checked and read into a change (a record without a time takes the previous one's). */
function readChanges(records: readonly RecordedRecord[], file: string): RecordedChange[] {
  let previousAt = Math.floor(Date.now() / 1000) * 1000;
  const firstTimed = records.find(
    ({ record }) => typeof record.dynamodb?.ApproximateCreationDateTime === 'number',
  );
  if (firstTimed !== undefined)
    previousAt = (firstTimed.record.dynamodb!.ApproximateCreationDateTime as number) * 1000;
  return records.map(({ record, where }) => {
    const change = recordedChange(record, where, file, previousAt);
    previousAt = change.at;
    return change;
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
