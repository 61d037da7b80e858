import { randomUUID } from 'node:crypto';
import {
  concatMap,
  defer,
  EMPTY,
  from,
  groupBy,
  ignoreElements,
  map,
  mergeMap,
  type Observable,
  tap,
} from '../rxjs.js';
import { toDynamoDBRecord } from '../streamView.js';
import type { RecordCursor } from './cursors.js';
import { invocationRecord } from './failureRecord.js';
import { type InvocationResult, isThrottle } from './invoke.js';
import { batchRecords } from './operators/batchRecords.js';
import { delayRecords } from './operators/delayRecords.js';
import {
  type DeliveryAttempt,
  type DeliveryPolicy,
  type DeliveryReport,
  deliverBatches,
} from './operators/deliverBatches.js';
import { filterRecords } from './operators/filterRecords.js';
import { partitionByKey } from './operators/partitionByKey.js';
import { OutstandingRecords } from './outstanding.js';
import { readRecords } from './readRecords.js';
import {
  lambdaRecordOf,
  MAX_PAYLOAD_BYTES,
  type PendingRecord,
  pendingRecord,
  portRecord,
} from './records.js';
import { type AttemptOutcome, classifyResult, type ResponseRules } from './responses.js';
import type { MappingRuntime } from './runtime.js';
import { deliverWindows } from './windowDelivery.js';

/**
 * A batch being delivered, as the inspection API and the console show it: the part of it invoked
 * now (or waiting to be retried), and the bisections that split it.
 */
export interface BatchInFlight {
  readonly batchSize: number;
  readonly records: number;
  readonly firstSequenceNumber: string;
  readonly lastSequenceNumber: string;
  /** 1 for the first invocation of these records, 2 for their first retry, ... */
  readonly attempt: number;
  /** How many times these records were split off the batch (BisectBatchOnFunctionError). */
  readonly bisections: number;
  /** Parts of the batch waiting for their turn after these records. */
  readonly partsWaiting: number;
  /** The function runs now; otherwise the records wait for their retry. */
  readonly invoking: boolean;
}

/** Most records read per poll (GetRecords returns at most 1000, docs/streams-and-lambda.md §1.5.5). */
const CHUNK_SIZE = 1000;

/**
 * A mapping's work on one shard (docs/streams-and-lambda.md §2.2.3: a batch holds records of one shard): the
 * pipeline read → filter → (delay) → lanes → batch → invoke → settle, and the shard's checkpoint.
 */
export class ShardWork {
  readonly tracker = new OutstandingRecords<PendingRecord>();
  private readScheduled = false;
  /** A poll was refused for too many readers of the shard: the next waits for its back-off. */
  private readBackOff = false;
  private busy = 0;
  private wakeReader: (() => void) | undefined;
  private readonly roomLimit: number;
  /** The mapping stopped this work: late results must not move the (shared) checkpoint. */
  private detached = false;
  private skipsSeen = 0;
  /** The batches being delivered (one per lane), and the records being invoked. */
  private readonly deliveries = new Map<readonly PendingRecord[], DeliveryAttempt<PendingRecord>>();
  private readonly invoking = new Set<readonly PendingRecord[]>();

  constructor(
    readonly runtime: MappingRuntime,
    readonly cursor: RecordCursor,
  ) {
    const { batchSize, parallelizationFactor } = runtime.settings;
    this.roomLimit = Math.max(CHUNK_SIZE, batchSize * (parallelizationFactor + 1));
  }

  get shardId(): string {
    return this.cursor.shardId;
  }

  /** The checkpoint: every record up to this ordinal is done. */
  get committed(): number {
    const oldest = this.tracker.oldest;
    return oldest === undefined ? this.cursor.nextOrdinal - 1 : oldest.ordinal - 1;
  }

  /** Nothing read is unfinished, nothing is waiting to be read, nothing runs. */
  idle(): boolean {
    return (
      this.tracker.count === 0 && this.busy === 0 && !this.readScheduled && this.cursor.available() === 0
    );
  }

  /** Nothing runs and nothing can be read now: what is left waits for the clock. */
  waitingOnClock(): boolean {
    return (
      this.busy === 0 &&
      !this.readScheduled &&
      (this.readBackOff || this.cursor.available() === 0 || this.tracker.count >= this.roomLimit)
    );
  }

  /** Records not finished: unread plus read and in progress. */
  backlog(): number {
    return this.cursor.available() + this.tracker.count;
  }

  /** Commit time of the oldest unfinished record (for the iterator age). */
  oldestAt(): number | undefined {
    return this.tracker.oldest?.event.at ?? this.cursor.nextAt();
  }

  /** Runs the shard until it is closed, read to its end and every record is done. */
  run(): Observable<never> {
    const { settings, scheduler, counters, recordSource } = this.runtime;
    let chunks$ = readRecords(this.cursor, {
      chunkSize: CHUNK_SIZE,
      room: () => this.roomLimit - this.tracker.count,
      onRoom: (wake) => {
        this.wakeReader = wake;
        return () => {
          this.wakeReader = undefined;
        };
      },
      toRecord:
        this.runtime.eventOf === undefined
          ? (ordinal, event) => pendingRecord(ordinal, event, recordSource)
          : portRecord,
      onScheduled: (scheduled) => {
        this.readScheduled = scheduled;
      },
      // Too many readers of the shard (docs/capacity.md §5.1): poll again after the mapping's
      // back-off, as Lambda's poller does after a throttled GetRecords; records wait in the log.
      onThrottled: (attempt, wake) => {
        counters.readThrottles++;
        this.readBackOff = true;
        this.runtime.changed();
        const timer = scheduler.schedule(() => {
          this.readBackOff = false;
          wake();
        }, this.runtime.retryDelayMs(attempt));
        return () => {
          this.readBackOff = false;
          timer.unsubscribe();
        };
      },
    }).pipe(
      tap((chunk) => {
        counters.recordsRead += chunk.length;
        counters.retentionSkips += this.cursor.trimmedSkips - this.skipsSeen;
        this.skipsSeen = this.cursor.trimmedSkips;
      }),
    );
    const matches = settings.filter;
    if (matches !== undefined) {
      chunks$ = chunks$.pipe(
        filterRecords(
          (record) =>
            matches((record.built ??= toDynamoDBRecord(record.event, record.ordinal, recordSource))),
          () => counters.recordsFiltered++,
        ),
      );
    }
    chunks$ = chunks$.pipe(
      tap((chunk) => {
        for (const record of chunk) this.tracker.track(record);
      }),
    );
    const dueOf = this.runtime.dueOf;
    if (dueOf !== undefined) chunks$ = chunks$.pipe(delayRecords(dueOf, scheduler));
    // Tumbling windows keep one state per shard (docs/streams-and-lambda.md §2.6.2), so they run in one lane.
    const lanes = settings.tumblingWindowInSeconds > 0 ? 1 : settings.parallelizationFactor;
    const done$ =
      lanes === 1
        ? this.lane(chunks$)
        : chunks$.pipe(
            partitionByKey(lanes, (record) => record.event.itemKey),
            groupBy((chunk) => chunk.lane),
            mergeMap((lane$) => this.lane(lane$.pipe(map((chunk) => chunk.records)))),
          );
    return done$.pipe(ignoreElements());
  }

  /**
   * One lane: batch, then deliver batches one at a time (docs/streams-and-lambda.md §2.3.2: the lane waits on
   * retries).
   */
  private lane(chunks$: Observable<PendingRecord[]>): Observable<unknown> {
    const { settings, scheduler, counters } = this.runtime;
    const batches$ = chunks$.pipe(
      batchRecords(
        {
          maxRecords: settings.batchSize,
          windowMs: settings.maximumBatchingWindowInSeconds * 1000,
          maxBytes: MAX_PAYLOAD_BYTES,
          bytesOf: (record) => record.bytes,
        },
        scheduler,
      ),
      tap(() => counters.batches++),
    );
    if (settings.tumblingWindowInSeconds > 0) return deliverWindows(batches$, this);
    const rules: ResponseRules = {
      reportBatchItemFailures: settings.reportBatchItemFailures,
      requireState: false,
    };
    const eventOf =
      this.runtime.eventOf ??
      ((records: readonly PendingRecord[]) => ({
        Records: records.map((record) => lambdaRecordOf(record, this.runtime.recordSource)),
      }));
    return batches$.pipe(
      deliverBatches(this.policy((records) => defer(() => this.invoke(eventOf(records), records, rules)))),
      concatMap((report) => this.settle(report)),
    );
  }

  /** The retry policy of this mapping around an `attempt` function. */
  policy(attempt: DeliveryPolicy<PendingRecord>['attempt']): DeliveryPolicy<PendingRecord> {
    const { settings, scheduler, clock, maxRecordAgeMs } = this.runtime;
    return {
      attempt,
      maximumRetryAttempts: settings.maximumRetryAttempts,
      bisectOnError: settings.bisectBatchOnFunctionError,
      ...(maxRecordAgeMs === undefined
        ? {}
        : { isExpired: (record: PendingRecord) => clock.now() - record.event.at > maxRecordAgeMs }),
      retryDelayMs: (retry) => this.runtime.retryDelayMs(retry),
      scheduler,
      observe: (batch, attempt) => {
        if (attempt === undefined) this.deliveries.delete(batch);
        else this.deliveries.set(batch, attempt);
      },
    };
  }

  /** The batches being delivered now, oldest lane first. */
  inFlight(): BatchInFlight[] {
    return [...this.deliveries].map(([batch, attempt]) => ({
      batchSize: batch.length,
      records: attempt.records.length,
      firstSequenceNumber: attempt.records[0]?.sequenceNumber ?? '',
      lastSequenceNumber: attempt.records[attempt.records.length - 1]?.sequenceNumber ?? '',
      attempt: attempt.attempt,
      bisections: attempt.bisections,
      partsWaiting: attempt.partsWaiting,
      invoking: this.invoking.has(attempt.records),
    }));
  }

  /**
   * Invokes the function and classifies the result (docs/streams-and-lambda.md §2.3, §2.4). Not an
   * async function: its promise and await were one more of each per invocation, and while a
   * handler's console scope is on every promise runs async hooks (infra/functions/functionLogs.ts).
   */
  invoke(event: unknown, records: readonly PendingRecord[], rules: ResponseRules): Promise<AttemptOutcome> {
    const { counters, fn } = this.runtime;
    counters.invocations++;
    counters.inFlight++;
    this.busy++;
    this.invoking.add(records);
    const ended = () => {
      this.invoking.delete(records);
      counters.inFlight--;
      this.busy--;
      this.runtime.changed();
    };
    let pending: Promise<InvocationResult>;
    try {
      pending = fn.invoke(event);
    } catch (error) {
      ended();
      return Promise.reject(error);
    }
    return pending.then(
      (result) => {
        ended();
        return classifyResult(result, () => records.map((record) => record.sequenceNumber), rules);
      },
      (error: unknown) => {
        ended();
        throw error;
      },
    );
  }

  /** Accounts for a report: counters, checkpoint, destination (docs/streams-and-lambda.md §2.3.3, §2.5). */
  settle(report: DeliveryReport<PendingRecord>): Observable<never> {
    const { counters } = this.runtime;
    switch (report.kind) {
      case 'processed':
        counters.recordsProcessed += report.records.length;
        counters.lastProcessingResult = 'OK';
        this.finish(report.records);
        return EMPTY;
      case 'retry':
        counters.retries++;
        counters.lastProcessingResult = 'PROBLEM: Function call failed';
        this.runtime.changed();
        return EMPTY;
      case 'invokeError':
        // A throttle is the function's reserved concurrency at work, not a fault to report: the
        // batch waits and is retried, in order (docs/streams-and-lambda.md §2.3.4).
        if (isThrottle(report.error)) {
          counters.throttles++;
          this.runtime.changed();
          return EMPTY;
        }
        counters.invokeErrors++;
        this.runtime.reportError(report.error, `invoking ${this.runtime.fn.functionName}`);
        return EMPTY;
      case 'discarded':
        counters.recordsFailed += report.records.length;
        // The last invocation of these records failed (with no retries left, the failure is
        // not a 'retry' report first): that is the mapping's last processing result.
        if (report.last !== undefined) counters.lastProcessingResult = 'PROBLEM: Function call failed';
        return from(this.sendToDestination(report)).pipe(ignoreElements());
    }
  }

  /** The mapping stopped: whatever is still in flight here will be read and delivered again. */
  detach(): void {
    this.detached = true;
  }

  /** Records are done: the checkpoint may move (and the internal feed release them). */
  finish(records: readonly PendingRecord[]): void {
    if (this.detached) return;
    for (const record of records) this.tracker.finish(record);
    const committed = this.committed;
    this.cursor.commit(committed);
    this.runtime.checkpointed(this.shardId, committed);
    if (this.wakeReader !== undefined && this.cursor.available() > 0) this.wakeReader();
    this.runtime.changed();
  }

  private async sendToDestination(report: Extract<DeliveryReport<PendingRecord>, { kind: 'discarded' }>) {
    const { runtime } = this;
    const destination = runtime.destination();
    const records = report.records;
    if (destination !== undefined) {
      const first = records[0]!;
      const last = records[records.length - 1]!;
      const record = invocationRecord({
        requestId: report.last?.requestId ?? randomUUID(),
        functionArn: runtime.fn.functionArn,
        condition: report.condition,
        invokeCount: report.invokeCount,
        ...(report.last === undefined ? {} : { functionError: report.last.functionError }),
        at: runtime.clock.now(),
        shardId: this.shardId,
        streamArn: runtime.sourceArn,
        first: { sequenceNumber: first.sequenceNumber, at: first.event.at },
        last: { sequenceNumber: last.sequenceNumber, at: last.event.at },
        batchSize: records.length,
      });
      runtime.counters.inFlight++;
      this.busy++;
      try {
        await destination.send({
          record,
          mappingUuid: runtime.uuid,
          shardId: this.shardId,
          payload: () => ({
            Records: records.map((pending) =>
              toDynamoDBRecord(pending.event, pending.ordinal, runtime.recordSource),
            ),
          }),
        });
        runtime.counters.destinationCount++;
      } catch (error) {
        runtime.counters.destinationErrors++;
        runtime.reportError(error, `sending to ${runtime.settings.onFailureDestination}`);
      } finally {
        runtime.counters.inFlight--;
        this.busy--;
      }
    }
    this.finish(records);
  }
}
