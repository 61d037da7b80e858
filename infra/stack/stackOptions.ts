import type { Clock } from '../../core/clock.js';
import type { CapacityOptions } from '../../core/throttling/capacityGovernor.js';
import type { BucketsOptions } from '../backups/index.js';
import type { BackfillProgress } from '../functions/gsiMaintainer.js';
import type { Logger } from '../host/logger.js';
import type { KinesisEndpointOptions } from '../kinesis/kinesisClient.js';
import type { Durability } from '../persistence/index.js';

/** How a local stack starts (`LocalStack.start`): `eddy serve` and the test kit each pass theirs. */
export interface StackOptions {
  /** The one clock (default: the system clock; the test kit passes a virtual one). */
  readonly clock?: Clock;
  readonly accountId?: string;
  readonly region?: string;
  /** How long tables and indexes stay CREATING, in ms (default 0). */
  readonly transientStatusDelayMs?: number;
  /**
   * How long an event source mapping stays Creating, Enabling, Disabling, Updating or Deleting
   * after a Lambda API call, in ms (default `DEFAULT_MAPPING_TRANSITION_MS`; the test kit's
   * default is 0). Meanwhile Update and Delete answer ResourceInUseException
   * (docs/lambda-api.md §4.7).
   */
  readonly mappingTransitionMs?: number;
  /**
   * Replication lag of global tables when the config sets none, in ms
   * (docs/global-tables.md §3): `eddy serve` passes 1000, the test kit 0 (the default).
   */
  readonly replicationLagMs?: number;
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
   * A function whose handler file or export is missing: `'fail'` (default) fails the start,
   * naming the function, path and export; `'wait'` (`eddy serve --watch`) starts anyway with
   * that function's mappings held (disabled, keeping their starting position) until
   * `reloadFunction` brings a handler that loads. `waiting` lists them.
   */
  readonly missingHandlers?: 'fail' | 'wait';
  /**
   * How the backfill of a GSI added to an existing table goes (`eddy serve` prints it). Default:
   * info lines in the log.
   */
  readonly onBackfill?: (progress: BackfillProgress) => void;
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
  /**
   * Where ExportTableToPointInTime writes and ImportTable reads: a folder holding one sub-folder
   * per bucket (default `<data dir>/buckets`, or `.eddy/buckets` under the base directory), or an
   * S3 endpoint (docs/backups.md §6).
   */
  readonly buckets?: BucketsOptions;
  /** Where handlers with build settings are bundled (default `<baseDirectory>/.eddy/build`). */
  readonly buildDirectory?: string;
  /**
   * Capacity enforcement (docs/capacity.md), over the config's `capacity` block: `eddy serve
   * --capacity enforce` sets the mode, the test kit may name tables.
   */
  readonly capacity?: CapacityOptions;
  /**
   * Where tables with a Kinesis streaming destination write their changes (a Kinesis-compatible
   * endpoint such as kinesalite), over the config's `kinesis` block (docs/kinesis-destinations.md §3).
   */
  readonly kinesis?: KinesisEndpointOptions;
}

export interface DataDirOptions {
  readonly path: string;
  readonly durability?: Durability;
  /** Start from what is left of a damaged log (`--accept-data-loss`, see `PersistenceOptions`). */
  readonly acceptDataLoss?: boolean;
  readonly snapshotLogBytes?: number;
  readonly snapshotInterval?: number | string;
}

/**
 * A mapping's state change lasts this long by default (docs/lambda-api.md §4.7): Lambda's take
 * seconds; one second makes a script that does not wait for `Enabled` meet the same
 * ResourceInUseException it would meet in AWS, without slowing anyone down much.
 */
export const DEFAULT_MAPPING_TRANSITION_MS = 1000;
