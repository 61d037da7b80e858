import type { MiddlewareObj } from '@middy/core';
import type { PortsContext } from '../shared/middlewares/injectPorts.js';
import type { ArchiveBatch, ArchivedObject } from '../shared/ports.js';

/**
 * The archiver's wiring: the event filter that lets only TTL deletes through, the mapping
 * settings it is meant to run with, and its handler options.
 */

/**
 * AWS's filter for deletes made by Time to Live (docs/streams-and-lambda.md §3.14, from
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/time-to-live-ttl-streams.html):
 * only records whose `userIdentity` is the DynamoDB service principal.
 */
export const TTL_DELETE_PATTERN = {
  userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
} as const;

/**
 * `FilterCriteria` of the archiver's event source mapping (docs/streams-and-lambda.md §3.1: patterns are JSON
 * text).
 */
export const TTL_DELETE_FILTER_CRITERIA = {
  Filters: [{ Pattern: JSON.stringify(TTL_DELETE_PATTERN) }],
} as const;

/**
 * Recommended event source mapping settings (docs/streams-and-lambda.md §2.1) for the archiver:
 * - up to 1,000 records or 60 s per batch: objects of a useful size (~200 KB of JSON for
 *   200-byte items, ~15 KB gzipped) without holding expired items back for long;
 * - `ReportBatchItemFailures`: the archiver answers a sink failure with every record of the batch
 *   as failed. Without this setting Lambda ignores that answer and counts the batch as done
 *   (docs/streams-and-lambda.md §2.4.1), which would lose the batch;
 * - `TRIM_HORIZON`: a new mapping archives what the stream still holds (24 h);
 * - no bisection: a sink failure concerns the whole batch, halving it does not help, and a stable
 *   batch keeps the same object name on retry;
 * - 10 retries, then the on-failure destination (docs/streams-and-lambda.md §2.5) names the batch's shard and
 *   sequence range so it can be re-read while the stream still holds it.
 */
export const ARCHIVER_MAPPING_SETTINGS = {
  FilterCriteria: TTL_DELETE_FILTER_CRITERIA,
  BatchSize: 1_000,
  MaximumBatchingWindowInSeconds: 60,
  FunctionResponseTypes: ['ReportBatchItemFailures'],
  StartingPosition: 'TRIM_HORIZON',
  BisectBatchOnFunctionError: false,
  MaximumRetryAttempts: 10,
} as const;

/** Handler options (`createHandler(ports, options)`). */
export interface ArchiverOptions {
  /** Called after a batch was archived, with the objects written (none when nothing matched). */
  onArchived?: (objects: readonly ArchivedObject[], event: { skipped: number }) => void;
  /**
   * Called when a batch fails (sink error, record without an OldImage); the batch is then
   * reported as failed. Default: `console.error`, as a deployed function would log it.
   */
  onError?: (error: unknown, batches: readonly ArchiveBatch[]) => void;
}

/** The context the archiver runs with: its ports and its options. */
export interface ArchiverContext extends PortsContext {
  archiver?: ArchiverOptions;
}

const KNOWN_OPTIONS = new Set(['onArchived', 'onError']);

/**
 * Middy middleware: puts the archiver's options on `context.archiver`. Unknown options are
 * refused when the handler is built, so a typo fails at wiring time.
 */
export function archiverOptions(
  options: ArchiverOptions = {},
): MiddlewareObj<unknown, unknown, Error, ArchiverContext> {
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`archiver: unknown option "${key}"`);
  }
  const archiverOptionsBefore: MiddlewareObj<unknown, unknown, Error, ArchiverContext>['before'] = (
    request,
  ) => {
    request.context.archiver = options;
  };
  return { before: archiverOptionsBefore };
}
