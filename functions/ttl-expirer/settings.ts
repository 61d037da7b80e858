import type { MiddlewareObj } from '@middy/core';
import { parseDuration } from '../../core/clock.js';
import type { PortsContext } from '../shared/middlewares/injectPorts.js';

/** What one run of the ttl-expirer did. */
export interface ExpiryRun {
  /** Items deleted as the TTL process. */
  deleted: number;
  /** Expired candidates looked at (deleted, not yet due, or lost to a concurrent write). */
  examined: number;
  /**
   * Candidates that were no longer expired when deleted: a write moved their TTL
   * (docs/streams-and-lambda.md §5.9).
   */
  rescued: number;
  /** Whether the run stopped at a budget before the end: the next run has work left. */
  more: boolean;
}

/** The expirer's settings, resolved. */
export interface ExpirerSettings {
  /** Most deletions per run, so a large backlog never blocks the host (default 1,000). */
  readonly batchSize: number;
  /**
   * Simulated service lag in ms (default 0): each expired item is deleted at a fixed point
   * between its expiry and expiry + this delay, chosen by a hash of its table and key, so
   * virtual-clock runs are reproducible (docs/streams-and-lambda.md §5.8: "within 48 hours" documented).
   */
  readonly maxDeletionDelayMs: number;
  /** Most candidates looked at per run, not-yet-due ones included (default 10 × batchSize). */
  readonly examineLimit: number;
}

export interface ExpirerOptions {
  batchSize?: number;
  /** Milliseconds, or a duration such as `'48h'`. */
  maxDeletionDelay?: number | string;
  examineLimit?: number;
  /** Called after each run with what it did (the host's inspection and CLI read it). */
  onRun?: (run: ExpiryRun) => void;
}

export const DEFAULT_BATCH_SIZE = 1_000;

/** The context the expirer runs with: its ports and its settings. */
export interface ExpirerContext extends PortsContext {
  ttlExpirer?: { settings: ExpirerSettings; onRun: ((run: ExpiryRun) => void) | undefined };
}

const KNOWN_OPTIONS = new Set(['batchSize', 'maxDeletionDelay', 'examineLimit', 'onRun']);

/** Resolves and checks options; throws TypeError on unknown or out-of-range ones. */
export function resolveSettings(options: ExpirerOptions = {}): ExpirerSettings {
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`ttl-expirer: unknown option "${key}"`);
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new TypeError(`ttl-expirer: batchSize must be a positive integer, got ${batchSize}`);
  const maxDeletionDelayMs = parseDuration(options.maxDeletionDelay ?? 0);
  if (!Number.isFinite(maxDeletionDelayMs) || maxDeletionDelayMs < 0)
    throw new TypeError(`ttl-expirer: maxDeletionDelay must be ≥ 0, got ${options.maxDeletionDelay}`);
  const examineLimit = options.examineLimit ?? batchSize * 10;
  if (!Number.isInteger(examineLimit) || examineLimit < batchSize)
    throw new TypeError(`ttl-expirer: examineLimit must be an integer ≥ batchSize, got ${examineLimit}`);
  return { batchSize, maxDeletionDelayMs, examineLimit };
}

/**
 * Middy middleware: puts the expirer's settings on `context.ttlExpirer` before the handler runs.
 * Options are checked when the handler is built, so a typo fails at wiring time.
 */
export function expirerSettings(
  options: ExpirerOptions = {},
): MiddlewareObj<unknown, unknown, Error, ExpirerContext> {
  const settings = resolveSettings(options);
  const onRun = options.onRun;
  const expirerSettingsBefore: MiddlewareObj<unknown, unknown, Error, ExpirerContext>['before'] = (
    request,
  ) => {
    request.context.ttlExpirer = { settings, onRun };
  };
  return { before: expirerSettingsBefore };
}
