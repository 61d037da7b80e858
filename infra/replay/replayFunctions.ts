import type { DynamoDBRecord } from 'aws-lambda';
import type { Clock } from '../../core/clock.js';
import {
  classifyResult,
  type FunctionResolver,
  type InvocationResult,
  type MappedFunction,
} from '../../streams/mapping/index.js';
import type { RecordedIdentities } from './recordedIdentities.js';

/** What one invocation of a replay looked like, for the report. */
export interface ReplayInvocation {
  /** 1-based, in the order invocations started. */
  readonly index: number;
  readonly requestId: string;
  /** Virtual time the invocation started, epoch ms (the records' time line). */
  readonly at: number;
  /** Wall-clock duration of the handler, ms. */
  readonly durationMs: number;
  /** The eventIDs the handler received, in order. */
  readonly eventIds: readonly string[];
  /** Some of these records were delivered before: a retry or a bisected half. */
  readonly retry: boolean;
  /** For tumbling windows: the window, and whether this was its final invocation. */
  readonly window?: { readonly start: string; readonly end: string; readonly final: boolean };
  /**
   * `ok`; `partial` (batchItemFailures named records); `error` (the handler threw, timed out or
   * crashed); `invalid-response` (a response Lambda counts as a failed batch,
   * docs/streams-and-lambda.md §2.4.4); `not-invoked` (the function could not be run at all,
   * docs/streams-and-lambda.md §2.3.4).
   */
  readonly outcome: 'ok' | 'partial' | 'error' | 'invalid-response' | 'not-invoked';
  /** The sequence numbers the handler reported as failed (as it named them). */
  readonly batchItemFailures: readonly string[];
  readonly error?: { readonly errorType: string; readonly errorMessage: string };
}

export interface ReplayFunctionsOptions {
  readonly clock: Clock;
  readonly identities: RecordedIdentities;
  /** The mapping's FunctionResponseTypes holds ReportBatchItemFailures. */
  readonly reportBatchItemFailures: boolean;
  /** The stream ARN the recording came from (window events name it). */
  readonly recordedStreamArn: string | undefined;
  readonly onInvocation: (invocation: ReplayInvocation) => void;
}

/**
 * The functions a replay's mapping invokes: the real ones (`LocalFunctions`), seen through a
 * door that gives records their recorded identity (`RecordedIdentities`) and reports every
 * invocation as it ends. The mapping still decides everything (batching, retries, bisecting,
 * checkpoints) from the outcome it gets back.
 *
 * @example
 * ```ts
 * const functions = new ReplayFunctions(localFunctions, { clock, identities, reportBatchItemFailures: true,
 *   recordedStreamArn, onInvocation: (invocation) => console.log(invocation.outcome) });
 * new MappingManager({ changeLog, functions });
 * ```
 */
export class ReplayFunctions implements FunctionResolver {
  private readonly delivered = new Set<string>();
  private invocations = 0;

  constructor(
    private readonly functions: FunctionResolver,
    private readonly options: ReplayFunctionsOptions,
  ) {}

  resolve(nameOrArn: string): MappedFunction | undefined {
    const fn = this.functions.resolve(nameOrArn);
    if (fn === undefined) return undefined;
    return {
      functionName: fn.functionName,
      functionArn: fn.functionArn,
      invoke: (event) => this.invoke(fn, event as Record<string, unknown>),
    };
  }

  private async invoke(fn: MappedFunction, event: Record<string, unknown>): Promise<InvocationResult> {
    const { clock, identities } = this.options;
    const index = ++this.invocations;
    const at = clock.now();
    const records = (Array.isArray(event.Records) ? event.Records : []) as DynamoDBRecord[];
    const replaySequences = records.map((record) => record.dynamodb?.SequenceNumber ?? '');
    const retry = replaySequences.some((sequence) => this.delivered.has(sequence));
    for (const sequence of replaySequences) this.delivered.add(sequence);
    const recordedToReplay = new Map<string, string>();
    records.forEach((record, position) => {
      identities.restore(record);
      const recorded = record.dynamodb?.SequenceNumber;
      // Two records with one recorded number (a hand-made file): the earlier one answers for both.
      if (recorded !== undefined && !recordedToReplay.has(recorded))
        recordedToReplay.set(recorded, replaySequences[position]!);
    });
    const window = windowOf(event);
    if (window !== undefined && this.options.recordedStreamArn !== undefined)
      event.eventSourceARN = this.options.recordedStreamArn;
    const started = performance.now();
    const report = (fields: Pick<ReplayInvocation, 'outcome' | 'requestId'> & Partial<ReplayInvocation>) =>
      this.options.onInvocation({
        index,
        at,
        durationMs: performance.now() - started,
        eventIds: records.map((record) => record.eventID ?? ''),
        retry,
        ...(window === undefined ? {} : { window }),
        batchItemFailures: [],
        ...fields,
      });
    let result: InvocationResult;
    try {
      result = await fn.invoke(event);
    } catch (error) {
      report({
        outcome: 'not-invoked',
        requestId: '',
        error: {
          errorType: 'InvokeError',
          errorMessage: error instanceof Error ? error.message : String(error),
        },
      });
      throw error;
    }
    const outcome = classifyResult(
      result,
      () => records.map((record) => record.dynamodb?.SequenceNumber ?? ''),
      {
        reportBatchItemFailures: this.options.reportBatchItemFailures && window?.final !== true,
        requireState: window !== undefined && !window.final,
      },
    );
    report({
      requestId: result.requestId,
      outcome:
        outcome.kind === 'success'
          ? 'ok'
          : outcome.kind === 'partial'
            ? 'partial'
            : outcome.functionError === 'Unhandled'
              ? 'error'
              : 'invalid-response',
      batchItemFailures: failuresOf(result),
      ...(result.error === undefined ? {} : { error: result.error }),
    });
    if (result.status !== 'ok') return result;
    return { ...result, payload: identities.responseForMapping(result.payload, recordedToReplay) };
  }
}

function windowOf(event: Record<string, unknown>): ReplayInvocation['window'] {
  const window = event.window as { start?: string; end?: string } | undefined;
  if (window === undefined || typeof window !== 'object') return undefined;
  return { start: window.start ?? '', end: window.end ?? '', final: event.isFinalInvokeForWindow === true };
}

function failuresOf(result: InvocationResult): string[] {
  if (result.status !== 'ok') return [];
  const failures = (result.payload as { batchItemFailures?: unknown } | null | undefined)?.batchItemFailures;
  if (!Array.isArray(failures)) return [];
  return failures
    .map((failure: unknown) => (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier)
    .filter((identifier): identifier is string => typeof identifier === 'string');
}
