import {
  catchError,
  concatMap,
  defer,
  EMPTY,
  ignoreElements,
  map,
  type Observable,
  of,
  retry,
  tap,
  timer,
} from '../rxjs.js';
import { isoSeconds } from './failureRecord.js';
import { deliverBatch } from './operators/deliverBatches.js';
import { type TimeWindow, tumblingWindows } from './operators/tumblingWindows.js';
import { lambdaRecordOf, type PendingRecord } from './records.js';
import type { AttemptOutcome, ResponseRules } from './responses.js';
import type { ShardWork } from './shardWork.js';

/**
 * State beyond this ends the window early (docs/streams-and-lambda.md §2.6.2: "capped at 1 MB per shard").
 */
export const MAX_WINDOW_STATE_BYTES = 1024 * 1024;

/** The window's final invocation failed until the retry policy gave up. */
class FinalInvocationFailed extends Error {
  override readonly name = 'FinalInvocationFailed';
}

/**
 * Tumbling windows (docs/streams-and-lambda.md §2.6) on one shard: every batch of a window is invoked with
 * the window, the `state` the previous invocation returned, `shardId` and `eventSourceARN`; a response
 * without `state` is a failed invocation (docs/streams-and-lambda.md §2.6.2) and the retry policies apply
 * (docs/streams-and-lambda.md §2.6.3). When the window ends a final invocation carries
 * `isFinalInvokeForWindow: true` (and no records); when it succeeds the window's records are checkpointed and
 * the state dropped, and until it succeeds the shard waits. State over 1 MB ends the window early
 * (`isWindowTerminatedEarly`).
 */
export function deliverWindows(batches$: Observable<PendingRecord[]>, work: ShardWork): Observable<unknown> {
  const { settings, scheduler, counters, recordSource, sourceArn } = work.runtime;
  let state: unknown = {};
  let held: PendingRecord[] = [];
  const rules: ResponseRules = {
    reportBatchItemFailures: settings.reportBatchItemFailures,
    requireState: true,
  };

  const eventOf = (
    records: readonly PendingRecord[],
    window: TimeWindow,
    final: boolean,
    early: boolean,
  ) => ({
    Records: records.map((record) => lambdaRecordOf(record, recordSource)),
    window: { start: isoSeconds(window.start), end: isoSeconds(window.end) },
    state,
    shardId: work.shardId,
    eventSourceARN: sourceArn,
    isFinalInvokeForWindow: final,
    isWindowTerminatedEarly: early,
  });

  const attempt = (window: TimeWindow) => (records: readonly PendingRecord[]) =>
    defer(async (): Promise<AttemptOutcome> => {
      const outcome = await work.invoke(eventOf(records, window, false, false), records, rules);
      if (outcome.kind !== 'failure') state = (outcome.payload as { state: unknown }).state;
      return outcome;
    });

  /** The window's final invocation; retried per the policy, then the window is let go. */
  const finalInvoke = (window: TimeWindow, early: boolean): Observable<never> => {
    if (held.length === 0 && early === false && isEmptyState(state)) return EMPTY;
    const max = settings.maximumRetryAttempts;
    const finalRules: ResponseRules = { ...rules, requireState: false, reportBatchItemFailures: false };
    return defer(() => work.invoke(eventOf([], window, true, early), [], finalRules)).pipe(
      map((outcome) => {
        if (outcome.kind !== 'success') throw new FinalInvocationFailed('final window invocation failed');
        return outcome;
      }),
      retry({
        count: max < 0 ? Number.POSITIVE_INFINITY : max,
        delay: (_error, retryCount) => {
          counters.retries++;
          return timer(work.runtime.retryDelayMs(retryCount), scheduler);
        },
      }),
      catchError(() => of(undefined)),
      tap(() => {
        counters.windowsClosed++;
        const done = held;
        held = [];
        state = {};
        work.finish(done);
      }),
      ignoreElements(),
    );
  };

  return batches$.pipe(
    tumblingWindows(
      {
        windowMs: settings.tumblingWindowInSeconds * 1000,
        timeOf: (record) => record.event.at,
        closeDelayMs: settings.maximumBatchingWindowInSeconds * 1000,
      },
      scheduler,
    ),
    concatMap((item) => {
      if (item.kind === 'final') return finalInvoke(item.window, false);
      return deliverBatch(item.records, work.policy(attempt(item.window))).pipe(
        concatMap((report) => {
          if (report.kind !== 'processed') return work.settle(report);
          counters.recordsProcessed += report.records.length;
          counters.lastProcessingResult = 'OK';
          held.push(...report.records);
          work.runtime.changed();
          return stateSize(state) > MAX_WINDOW_STATE_BYTES ? finalInvoke(item.window, true) : EMPTY;
        }),
      );
    }),
  );
}

function isEmptyState(state: unknown): boolean {
  return (
    state === null || state === undefined || (typeof state === 'object' && Object.keys(state).length === 0)
  );
}

function stateSize(state: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(state) ?? '');
  } catch {
    return 0;
  }
}
