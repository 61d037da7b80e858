import type { EventSourceMapping, MappingStateName } from './eventSourceMapping.js';

/**
 * The state of one mapping as the inspection API and CLI show it: where it is (iterator age,
 * backlog, per-shard checkpoints) and what it did (counters). Counts add up (a restart reads
 * the records in flight again, and counts them again):
 * `recordsRead = recordsFiltered + recordsProcessed + recordsFailed + inProgress`.
 */
export interface MappingInspection {
  readonly uuid: string;
  readonly functionName: string;
  readonly eventSourceArn: string;
  readonly state: MappingStateName;
  readonly lastProcessingResult: string;
  /** How old (ms, by the clock) the oldest unfinished record is; 0 when caught up (AWS IteratorAge). */
  readonly iteratorAgeMs: number;
  /** How far (ms) the oldest unfinished record is behind the newest record committed; 0 when caught up. */
  readonly behindNewestMs: number;
  /** Records committed but not yet done (unread plus in progress). */
  readonly backlog: number;
  readonly batches: number;
  readonly invocations: number;
  readonly recordsRead: number;
  readonly recordsProcessed: number;
  readonly recordsFiltered: number;
  readonly recordsFailed: number;
  readonly retentionSkips: number;
  /** Records read and not yet done. */
  readonly inProgress: number;
  readonly retries: number;
  readonly destinationCount: number;
  readonly destinationErrors: number;
  readonly invokeErrors: number;
  /** Invocations refused by the function's reserved concurrency (retried). */
  readonly throttles: number;
  /** Polls refused for too many readers of a shard (docs/capacity.md §5.1), retried. */
  readonly readThrottles: number;
  readonly windowsClosed: number;
  readonly inFlight: number;
  readonly shards: ReturnType<EventSourceMapping['shards']>;
}

export function inspect(mapping: EventSourceMapping): MappingInspection {
  const counters = mapping.counters;
  const shards = mapping.shards();
  return {
    uuid: mapping.uuid,
    functionName: mapping.fn.functionName,
    eventSourceArn: mapping.eventSourceArn,
    state: mapping.reportedState,
    lastProcessingResult: counters.lastProcessingResult,
    iteratorAgeMs: mapping.iteratorAgeMs(),
    behindNewestMs: mapping.behindNewestMs(),
    backlog: mapping.backlog(),
    batches: counters.batches,
    invocations: counters.invocations,
    recordsRead: counters.recordsRead,
    recordsProcessed: counters.recordsProcessed,
    recordsFiltered: counters.recordsFiltered,
    recordsFailed: counters.recordsFailed,
    retentionSkips: counters.retentionSkips,
    inProgress: shards.reduce((sum, shard) => sum + shard.inProgress, 0),
    retries: counters.retries,
    destinationCount: counters.destinationCount,
    destinationErrors: counters.destinationErrors,
    invokeErrors: counters.invokeErrors,
    throttles: counters.throttles,
    readThrottles: counters.readThrottles,
    windowsClosed: counters.windowsClosed,
    inFlight: counters.inFlight,
    shards,
  };
}
