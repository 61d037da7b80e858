import type { InvocationResult } from './invoke.js';

/**
 * What an invocation's outcome means for the batch (docs/streams-and-lambda.md §2.3, §2.4, §2.6.2): a
 * success, a partial failure (checkpoint at the lowest failed record), or a whole-batch failure, which is
 * `Unhandled` when the function errored and `null` when it returned a response Lambda counts as a
 * failure (docs/streams-and-lambda.md §2.5.2).
 */
export type AttemptOutcome =
  | { readonly kind: 'success'; readonly requestId: string; readonly payload: unknown }
  | {
      readonly kind: 'partial';
      readonly requestId: string;
      /** Index (in the batch) of the lowest reported sequence number. */
      readonly failedIndex: number;
      readonly payload: unknown;
    }
  | { readonly kind: 'failure'; readonly requestId: string; readonly functionError: 'Unhandled' | null };

export interface ResponseRules {
  /** `FunctionResponseTypes` holds `ReportBatchItemFailures` (docs/streams-and-lambda.md §2.4.1). */
  readonly reportBatchItemFailures: boolean;
  /** Tumbling windows: the response must carry `state` (docs/streams-and-lambda.md §2.6.2). */
  readonly requireState: boolean;
}

const failure = (requestId: string): AttemptOutcome => ({ kind: 'failure', requestId, functionError: null });

/**
 * Classifies an invocation result.
 *
 * - A function error is a whole-batch failure, `Unhandled` (docs/streams-and-lambda.md §2.3.1).
 * - Without ReportBatchItemFailures the response is ignored: success
 *   (docs/streams-and-lambda.md §2.3.1, §2.4.1).
 * - Success responses (docs/streams-and-lambda.md §2.4.3): no value, `null`, `{}`, `[]`, `""`,
 *   `{"batchItemFailures": []}` and `{"batchItemFailures": null}`.
 * - Whole-batch failures, `functionError: null` (docs/streams-and-lambda.md §2.4.4): an `itemIdentifier` that
 *   is `""`, `null`, missing, or not a sequence number of the batch; a misspelt key (`{"foo": …}`); any other
 *   shape.
 * - Otherwise a partial failure at the lowest reported record (docs/streams-and-lambda.md §2.4.2).
 */
export function classifyResult(
  result: InvocationResult,
  sequenceNumbers: () => readonly string[],
  rules: ResponseRules,
): AttemptOutcome {
  const { requestId } = result;
  if (result.status === 'error') return { kind: 'failure', requestId, functionError: 'Unhandled' };
  const payload = result.payload;
  if (rules.requireState) {
    if (payload === null || typeof payload !== 'object' || !Object.hasOwn(payload, 'state'))
      return failure(requestId);
  }
  if (!rules.reportBatchItemFailures) return { kind: 'success', requestId, payload };
  if (payload === undefined || payload === null || payload === '')
    return { kind: 'success', requestId, payload };
  if (Array.isArray(payload))
    return payload.length === 0 ? { kind: 'success', requestId, payload } : failure(requestId);
  if (typeof payload !== 'object') return failure(requestId);
  const members = Object.keys(payload).filter((name) => !(rules.requireState && name === 'state'));
  if (members.length === 0) return { kind: 'success', requestId, payload };
  if (!Object.hasOwn(payload, 'batchItemFailures')) return failure(requestId);
  const failures = (payload as { batchItemFailures: unknown }).batchItemFailures;
  if (failures === null || (Array.isArray(failures) && failures.length === 0))
    return { kind: 'success', requestId, payload };
  if (!Array.isArray(failures)) return failure(requestId);
  const indexOf = new Map(sequenceNumbers().map((sequenceNumber, index) => [sequenceNumber, index]));
  let lowest = Number.POSITIVE_INFINITY;
  for (const item of failures) {
    const identifier = (item as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof identifier !== 'string' || identifier === '') return failure(requestId);
    const index = indexOf.get(identifier);
    if (index === undefined) return failure(requestId);
    lowest = Math.min(lowest, index);
  }
  return { kind: 'partial', requestId, failedIndex: lowest, payload };
}
