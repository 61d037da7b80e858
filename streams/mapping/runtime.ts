import type { SchedulerLike } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { RecordSource } from '../streamView.js';
import type { FailureDestination } from './failureRecord.js';
import type { MappedFunction } from './invoke.js';
import type { PendingRecord } from './records.js';
import type { MappingSettings } from './settings.js';

/**
 * Counters of one mapping (the inspection API shows them, docs/streams-and-lambda.md §2 "state of each
 * mapping").
 */
export interface MappingCounters {
  /** Records read from the stream (or feed), filtered ones included. */
  recordsRead: number;
  /** Records the filter dropped (consumed, never delivered, docs/streams-and-lambda.md §3.15). */
  recordsFiltered: number;
  /** Records delivered to a successful invocation. */
  recordsProcessed: number;
  /** Records discarded after the retry or age limit (sent to the destination if any). */
  recordsFailed: number;
  /**
   * Times the mapping fell behind retention and skipped to the oldest record still held: the
   * records in between were trimmed before it read them (docs/streams-and-lambda.md §1.4.6).
   */
  retentionSkips: number;
  /** Batches formed (bisected halves and retries not counted). */
  batches: number;
  /** Function invocations. */
  invocations: number;
  /** Invocations that were retries of a failed or partly failed batch. */
  retries: number;
  /** Invocation records delivered to the on-failure destination. */
  destinationCount: number;
  destinationErrors: number;
  /** Times the function could not be invoked at all (docs/streams-and-lambda.md §2.3.4). */
  invokeErrors: number;
  /** Invocations refused because the function was throttled (retried, never counted as attempts). */
  throttles: number;
  /**
   * Polls refused because the shard had as many other readers as its table allows (GetRecords'
   * LimitExceededException, docs/capacity.md §5.1): each is retried after a back-off.
   */
  readThrottles: number;
  /** Tumbling windows closed by a final invocation. */
  windowsClosed: number;
  /** Invocations and destination deliveries running now. */
  inFlight: number;
  /** LastProcessingResult of the configuration. */
  lastProcessingResult: string;
}

export function newCounters(): MappingCounters {
  return {
    recordsRead: 0,
    recordsFiltered: 0,
    recordsProcessed: 0,
    recordsFailed: 0,
    retentionSkips: 0,
    batches: 0,
    invocations: 0,
    retries: 0,
    destinationCount: 0,
    destinationErrors: 0,
    invokeErrors: 0,
    throttles: 0,
    readThrottles: 0,
    windowsClosed: 0,
    inFlight: 0,
    lastProcessingResult: 'No records processed',
  };
}

/** What a mapping gives the work on each of its shards. */
export interface MappingRuntime {
  readonly uuid: string;
  readonly settings: MappingSettings;
  readonly fn: MappedFunction;
  /** How records of this source are built (region, view type, eventSourceARN, eventID salt). */
  readonly recordSource: RecordSource;
  /** The stream ARN in DDBStreamBatchInfo and window events. */
  readonly sourceArn: string;
  readonly clock: Clock;
  /** The engine clock as an RxJS scheduler (windows, retries, delays). */
  readonly scheduler: SchedulerLike;
  readonly counters: MappingCounters;
  /** Records older than this (ms) are discarded as RecordAgeExceeded; undefined: no limit. */
  readonly maxRecordAgeMs: number | undefined;
  /** When a record may be delivered (a propagation delay), epoch ms; undefined: at once. */
  readonly dueOf: ((record: PendingRecord) => number) | undefined;
  /**
   * The event a batch is invoked with, when not a DynamoDBStreamEvent of Lambda records (internal
   * mappings whose built-in function reads changes through a typed port, `InternalMappingOptions`).
   */
  readonly eventOf: ((records: readonly PendingRecord[]) => unknown) | undefined;
  /** Wait before retry `n` (1-based), ms. */
  retryDelayMs(retry: number): number;
  /** The on-failure destination, if one is configured and known. */
  destination(): FailureDestination | undefined;
  /** Something changed (a record finished, an invocation ended): wakes `drained()` waiters. */
  changed(): void;
  /** Every record of the shard up to `committed` (an ordinal) is done: its checkpoint moved. */
  checkpointed(shardId: string, committed: number): void;
  reportError(error: unknown, context: string): void;
}
