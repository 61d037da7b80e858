import type { DynamoDBRecord } from 'aws-lambda';
import type { InvocationLogEntry } from '../functions/invocationLog.js';
import type { ConsoleSources } from './sources.js';

/** One invocation in the console's lists: the log entry without the event's full records. */
export interface InvocationSummary {
  readonly requestId: string;
  readonly functionName: string;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly status: 'ok' | 'error';
  readonly error: unknown;
  readonly result: unknown;
  readonly logs: readonly string[];
  /** The stream the batch came from, for invocations by a mapping. */
  readonly eventSourceArn: string | undefined;
  /** Records in the batch, their first and last sequence numbers. */
  readonly records: number;
  readonly firstSequenceNumber: string | undefined;
  readonly lastSequenceNumber: string | undefined;
  /** Partial batch failures the handler answered (`batchItemFailures`). */
  readonly batchItemFailures: readonly string[];
}

/** Invocations a list answers at most (a function's log keeps the last 1,000). */
export const MAX_INVOCATIONS = 200;

/** The functions with their counters. */
export function listFunctions(sources: ConsoleSources) {
  return sources.functions
    .names()
    .sort()
    .map((name) => {
      const fn = sources.functions.get(name)!;
      const entries = fn.invocations;
      let errors = 0;
      for (const entry of entries) if (entry.status === 'error') errors++;
      return {
        FunctionName: name,
        FunctionArn: fn.functionArn,
        invocations: fn.log.total,
        retained: entries.length,
        errors,
        inFlight: fn.inFlight,
        lastInvokedAt: entries[entries.length - 1]?.startedAt,
      };
    });
}

/**
 * A function's invocations, newest first: all, or only `ok` / `error` ones, or only those whose
 * batch came from `eventSourceArn` (a mapping's batch history).
 */
export function listInvocations(
  sources: ConsoleSources,
  functionName: string,
  filter: { readonly outcome?: string; readonly eventSourceArn?: string; readonly limit?: number } = {},
): InvocationSummary[] | undefined {
  const fn = sources.functions.get(functionName);
  if (fn === undefined) return undefined;
  const limit = Math.max(1, Math.min(MAX_INVOCATIONS, filter.limit ?? 50));
  const entries = fn.invocations;
  const answer: InvocationSummary[] = [];
  for (let index = entries.length - 1; index >= 0 && answer.length < limit; index--) {
    const entry = entries[index]!;
    if (filter.outcome !== undefined && filter.outcome !== '' && entry.status !== filter.outcome) continue;
    const summary = summarize(entry);
    if (filter.eventSourceArn !== undefined && summary.eventSourceArn !== filter.eventSourceArn) continue;
    answer.push(summary);
  }
  return answer;
}

/** One invocation with its whole event (`GET /_eddy/api/invocations/{RequestId}?function=`). */
export function findInvocation(
  sources: ConsoleSources,
  functionName: string,
  requestId: string,
): (InvocationSummary & { readonly event: unknown }) | undefined {
  const entry = sources.functions
    .get(functionName)
    ?.invocations.find((candidate) => candidate.requestId === requestId);
  return entry === undefined ? undefined : { ...summarize(entry), event: entry.event };
}

export function summarize(entry: InvocationLogEntry): InvocationSummary {
  const records = recordsOf(entry.event);
  const failures = (entry.result as { batchItemFailures?: { itemIdentifier?: unknown }[] } | undefined)
    ?.batchItemFailures;
  return {
    requestId: entry.requestId,
    functionName: entry.functionName,
    startedAt: entry.startedAt,
    durationMs: entry.durationMs,
    status: entry.status,
    error: entry.error,
    result: entry.result,
    logs: entry.logs,
    eventSourceArn: records[0]?.eventSourceARN,
    records: records.length,
    firstSequenceNumber: records[0]?.dynamodb?.SequenceNumber,
    lastSequenceNumber: records[records.length - 1]?.dynamodb?.SequenceNumber,
    batchItemFailures: Array.isArray(failures)
      ? failures.map((failure) => String(failure.itemIdentifier))
      : [],
  };
}

function recordsOf(event: unknown): DynamoDBRecord[] {
  const records = (event as { Records?: unknown } | null | undefined)?.Records;
  return Array.isArray(records) ? (records as DynamoDBRecord[]) : [];
}

/**
 * Runs a function by hand with an event (the console's Invoke form), as Lambda's RequestResponse
 * invocation does: the answer says what the handler returned or threw.
 */
export async function invokeByHand(sources: ConsoleSources, functionName: string, event: unknown) {
  const fn = sources.functions.get(functionName);
  if (fn === undefined) return undefined;
  return fn.invoke(event);
}
