import type { Engine } from '../engine.js';
import type { Region } from '../store/region.js';
import type { Table } from '../store/table.js';

/**
 * Kinesis Data Streams destinations of tables (docs/kinesis-destinations.md): the state machine
 * the four *KinesisStreamingDestination operations drive, kept on the table (`Table.kinesis`,
 * persisted with its definition). Whether a stream can be written is asked of a port
 * (`KinesisStreamCheck`) that infra provides over a Kinesis endpoint; the changes themselves are
 * written by a consumer of the change log (`infra/kinesis/`), like the archiver.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/kds.html
 */

export type DestinationStatus =
  | 'ENABLING'
  | 'ACTIVE'
  | 'DISABLING'
  | 'DISABLED'
  | 'ENABLE_FAILED'
  | 'UPDATING';
export type CreationDateTimePrecision = 'MILLISECOND' | 'MICROSECOND';

export interface KinesisDestination {
  readonly streamArn: string;
  status: DestinationStatus;
  /** Why an Enable failed (DestinationStatusDescription). */
  description?: string | undefined;
  /** Absent until set (the service then means MILLISECOND; docs/kinesis-destinations.md §2.3). */
  precision?: CreationDateTimePrecision | undefined;
}

/** States that hold the table's one live destination (docs/kinesis-destinations.md §2.1). */
const LIVE: ReadonlySet<DestinationStatus> = new Set(['ENABLING', 'ACTIVE', 'UPDATING', 'DISABLING']);

/** Whether a destination is the live one (changes are or will be written to it). */
export function isLive(destination: KinesisDestination): boolean {
  return LIVE.has(destination.status);
}

/**
 * Texts of the service, recorded against DynamoDB on 2026-10-09 (the ack-api-quirks lab's
 * findings DDB-TABLE-268, -299, -300, -301, -302, -318 on Kinesis destinations;
 * docs/kinesis-destinations.md §2). Where the recording cut a text short, the end is eddy's and
 * marked.
 */
const NOT_VALID = 'Table is not in a valid state to enable Kinesis Streaming Destination: ';
export const KinesisMessages = {
  enableNotAllowed: `${NOT_VALID}EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation.`,
  disableNotActive: `${NOT_VALID}KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.`,
  updateNotActive: (table: string) =>
    `${NOT_VALID}Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE state. TableName: ${table}`,
  // Recorded up to the ARN's account; the ARN in full is eddy's ending.
  updateUnknown: (streamArn: string) => `${NOT_VALID}No streaming destination with streamArn: ${streamArn}`,
  // Recorded up to `kdsArn: arn:aws:kines`; the ARN in full is eddy's ending.
  precisionAlreadySet: (precision: string, tableId: string, streamArn: string) =>
    `Invalid Request: Precision is already set to the desired value of ${precision} for tableId: ${tableId}, kdsArn: ${streamArn}`,
  updateWithoutConfiguration:
    'Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be null or contain only null values',
  disableWithConfiguration: 'Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters',
  // DestinationStatusDescription of an Enable that failed (DDB-TABLE-318): a missing stream, a
  // malformed or non-stream ARN read as a permission problem; another region or account.
  noPermission: 'User does not have a permission to use kinesis stream',
  otherRegion:
    'The kinesis Arn used to enable kinesis replication belongs to a stream which is not in the current region',
  notActive:
    'The kinesis Arn used to enable kinesis replication belongs to a stream which is not in Active state',
} as const;

/**
 * Whether a stream can be written, asked when an Enable completes: `undefined` when it can, else
 * the DestinationStatusDescription of the failure.
 */
export type KinesisStreamCheck = (
  streamArn: string,
  table: { readonly accountId: string; readonly region: string },
) => Promise<string | undefined>;

/** What an engine without a Kinesis endpoint answers (eddy's text: the service always has one). */
export const NO_ENDPOINT =
  'eddy has no Kinesis endpoint to write to: start it with --kinesis-endpoint <url> (or the kinesis block of eddy.config.ts, or the test kit kinesis option)';

/** The ARN's parts when it names a Kinesis data stream (`arn:aws:kinesis:<region>:<account>:stream/<name>`). */
export function parseStreamArn(
  streamArn: string,
): { readonly region: string; readonly accountId: string; readonly streamName: string } | undefined {
  const match = /^arn:aws[a-z-]*:kinesis:([a-z0-9-]+):(\d{12}):stream\/([a-zA-Z0-9_.-]{1,128})$/.exec(
    streamArn,
  );
  if (match === null) return undefined;
  return { region: match[1]!, accountId: match[2]!, streamName: match[3]! };
}

/**
 * The checks the service makes of an ARN before it asks Kinesis (DDB-TABLE-318): the region
 * first, then the account, then that it names a stream at all.
 */
export function arnFailure(
  streamArn: string,
  table: { accountId: string; region: string },
): string | undefined {
  const parts = /^arn:aws[a-z-]*:kinesis:([a-z0-9-]*):(\d*):stream\//.exec(streamArn);
  if (parts !== null && parts[1] !== table.region) return KinesisMessages.otherRegion;
  if (parts !== null && parts[2] !== table.accountId) return KinesisMessages.notActive;
  if (parseStreamArn(streamArn) === undefined) return KinesisMessages.noPermission;
  return undefined;
}

/** The table's destinations, newest first, as DescribeKinesisStreamingDestination lists them. */
export function destinationsOf(table: Table): KinesisDestination[] {
  return table.kinesisDestinations;
}

/** The table's live destination, if any. */
export function liveDestination(table: Table): KinesisDestination | undefined {
  return table.kinesisDestinations.find(isLive);
}

/** The wire shape of one destination (KinesisDataStreamDestination). */
export function describeDestination(destination: KinesisDestination): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    StreamArn: destination.streamArn,
    DestinationStatus: destination.status,
  };
  if (destination.description !== undefined) wire.DestinationStatusDescription = destination.description;
  if (destination.precision !== undefined) wire.ApproximateCreationDateTimePrecision = destination.precision;
  return wire;
}

/**
 * Completes a transition after the engine's transient delay (0: at once), then announces the
 * table change so the consumer and the data directory follow. A table deleted meanwhile keeps
 * nothing.
 */
function later(engine: Engine, region: Region, table: Table, step: () => void | Promise<void>): void {
  const run = () => {
    if (region.tables.get(table.name) !== table) return;
    const done = step();
    const announce = () => {
      if (region.tables.get(table.name) === table) engine.tableChanged(region, table, 'updated');
    };
    if (!(done instanceof Promise)) {
      announce();
      return;
    }
    const pending = pendingOf(engine);
    const settled = done.then(announce, (error) => engine.onInternalError(error, 'kinesis'));
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
  };
  const delay = engine.transientStatusDelayMs;
  if (delay <= 0) queueMicrotask(run);
  else engine.clock.setTimeout(run, delay);
}

/** Stream checks under way, per engine. */
const pendingChecks = new WeakMap<Engine, Set<Promise<void>>>();

function pendingOf(engine: Engine): Set<Promise<void>> {
  let pending = pendingChecks.get(engine);
  if (pending === undefined) pendingChecks.set(engine, (pending = new Set()));
  return pending;
}

/**
 * Resolves when the stream checks of Enables completing now are done (the test kit's `settled`).
 * An Enable whose transient delay has not passed yet is not waited for.
 */
export async function checksSettled(engine: Engine): Promise<void> {
  // A microtask first: an Enable with no delay starts its check in one.
  await Promise.resolve();
  for (let pending = pendingOf(engine); pending.size > 0; ) await Promise.all([...pending]);
}

/** ENABLING → ACTIVE, or ENABLE_FAILED with the check's description. */
export function completeEnabling(
  engine: Engine,
  region: Region,
  table: Table,
  destination: KinesisDestination,
) {
  later(engine, region, table, async () => {
    const account = { accountId: region.accountId, region: region.name };
    let failure = arnFailure(destination.streamArn, account);
    if (failure === undefined) {
      try {
        failure = await engine.kinesisStreamCheck(destination.streamArn, account);
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
    }
    if (destination.status !== 'ENABLING') return;
    if (failure === undefined) {
      destination.status = 'ACTIVE';
      destination.description = undefined;
    } else {
      destination.status = 'ENABLE_FAILED';
      destination.description = failure;
    }
  });
}

/** DISABLING → DISABLED (the entry stays listed, as the service's does). */
export function completeDisabling(
  engine: Engine,
  region: Region,
  table: Table,
  destination: KinesisDestination,
) {
  later(engine, region, table, () => {
    if (destination.status === 'DISABLING') destination.status = 'DISABLED';
  });
}

/** UPDATING → ACTIVE. */
export function completeUpdating(
  engine: Engine,
  region: Region,
  table: Table,
  destination: KinesisDestination,
) {
  later(engine, region, table, () => {
    if (destination.status === 'UPDATING') destination.status = 'ACTIVE';
  });
}

/** Transitions a stop cut short complete at start (the data directory's recovery). */
export function resumeTransitions(engine: Engine, region: Region, table: Table): void {
  for (const destination of table.kinesisDestinations) {
    if (destination.status === 'ENABLING') completeEnabling(engine, region, table, destination);
    else if (destination.status === 'DISABLING') completeDisabling(engine, region, table, destination);
    else if (destination.status === 'UPDATING') completeUpdating(engine, region, table, destination);
  }
}
