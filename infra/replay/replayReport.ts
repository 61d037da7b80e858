import type { StreamBinding } from '../bindings.js';
import type { ReplayReport } from './replay.js';
import type { ReplayInvocation } from './replayFunctions.js';

/**
 * The text of a replay report: one line per invocation as it ends, then a summary. The JSON form
 * is the `ReplayReport` itself.
 *
 * ```
 * #1  2026-01-01T00:00:00Z  2 records            ok       1.2 ms
 * #2  2026-01-01T00:00:01Z  2 records            partial  0.3 ms  failed items: 100000000000000000004
 * #3  2026-01-01T00:00:02Z  1 record   (retry)   ok       0.2 ms
 * ```
 */
export function formatInvocation(invocation: ReplayInvocation): string {
  const count = invocation.eventIds.length;
  const cells = [
    `#${invocation.index}`.padEnd(4),
    isoSeconds(invocation.at),
    `${count} ${count === 1 ? 'record' : 'records'}`.padEnd(11),
    (invocation.retry ? '(retry)' : '').padEnd(7),
    invocation.outcome.padEnd(7),
    `${invocation.durationMs.toFixed(1)} ms`,
  ];
  if (invocation.window !== undefined) {
    const { start, end, final } = invocation.window;
    cells.push(`window ${start}..${end}${final ? ' (final)' : ''}`);
  }
  if (invocation.outcome === 'partial')
    cells.push(`failed items: ${invocation.batchItemFailures.join(', ')}`);
  if (invocation.error !== undefined)
    cells.push(`${invocation.error.errorType}: ${invocation.error.errorMessage}`);
  else if (invocation.outcome === 'invalid-response')
    cells.push('the response is not a valid batchItemFailures answer: the whole batch failed');
  return cells.join('  ');
}

/**
 * Prints invocation lines as they end, folding a batch's long run of identical attempts (a
 * function that keeps failing is retried until the records expire: MaximumRetryAttempts -1,
 * docs/streams-and-lambda.md §2.1.7, thousands of attempts over a day of virtual time) into one line at
 * `flush`.
 *
 * @example
 * ```ts
 * const printer = invocationPrinter((line) => console.log(line));
 * await replay({ ...options, onInvocation: printer.print });
 * printer.flush();
 * ```
 */
export function invocationPrinter(
  print: (line: string) => void,
  shown = 3,
): { print(invocation: ReplayInvocation): void; flush(): void } {
  interface Run {
    signature: string;
    attempts: number;
    hidden: number;
    lastShown: number;
    lastAt: number;
  }
  const runs = new Map<string, Run>();
  const fold = (run: Run) => {
    if (run.hidden > 0)
      print(
        `      ... ${plural(run.hidden, 'more attempt')} like #${run.lastShown} (same records, same outcome), ` +
          `the last at ${isoSeconds(run.lastAt)}`,
      );
    run.hidden = 0;
  };
  return {
    print(invocation) {
      const key = invocation.eventIds.join(',');
      const signature = [
        invocation.outcome,
        invocation.error?.errorType,
        invocation.error?.errorMessage,
        invocation.batchItemFailures.join(','),
      ].join('|');
      const run = runs.get(key);
      if (run !== undefined && run.signature === signature && invocation.retry) {
        run.attempts++;
        run.lastAt = invocation.at;
        if (run.attempts > shown) {
          run.hidden++;
          return;
        }
      } else {
        if (run !== undefined) fold(run);
        runs.set(key, {
          signature,
          attempts: 1,
          hidden: 0,
          lastShown: invocation.index,
          lastAt: invocation.at,
        });
      }
      const shownRun = runs.get(key)!;
      shownRun.lastShown = invocation.index;
      print(formatInvocation(invocation));
    },
    flush() {
      for (const run of runs.values()) fold(run);
    },
  };
}

/** The summary lines after the invocations. */
export function formatSummary(report: ReplayReport): string[] {
  const { summary } = report;
  const lines = [
    `${report.functionName} <- ${report.tableName} (${report.streamViewType}) ${describeSettings(report.settings)}`.trimEnd(),
    `${plural(summary.records, 'record')}: ${summary.filtered} filtered, ${summary.processed} processed, ` +
      `${summary.failed} failed${summary.unfinished > 0 ? `, ${summary.unfinished} unfinished` : ''}`,
    `${plural(summary.batches, 'batch', 'batches')}, ${plural(summary.invocations, 'invocation')} ` +
      `(${summary.retries} retried, ${summary.failedInvocations} failed, ${summary.partialFailures} partial` +
      `${summary.windowsClosed > 0 ? `, ${plural(summary.windowsClosed, 'window')} closed` : ''})`,
  ];
  for (const delivery of report.destinations) {
    const info = delivery.record.DDBStreamBatchInfo;
    lines.push(
      `on-failure ${delivery.destination}: ${plural(info.batchSize, 'record')} ` +
        `${info.startSequenceNumber}..${info.endSequenceNumber} (${delivery.record.requestContext.condition}, ` +
        `${plural(delivery.record.requestContext.approximateInvokeCount, 'attempt')})`,
    );
  }
  if (summary.failed > 0 && report.destinations.length === 0)
    lines.push(`${plural(summary.failed, 'record')} discarded with no on-failure destination`);
  lines.push(`virtual time ${summary.from} -> ${summary.to}, ${summary.wallMs.toFixed(0)} ms`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  return lines;
}

/** The binding's settings as `Name=value` pairs, the way CreateEventSourceMapping spells them. */
export function describeSettings(settings: StreamBinding['settings']): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined || name === 'StartingPosition' || name === 'Enabled') continue;
    if (name === 'FilterCriteria') {
      const count = (value as { Filters?: unknown[] }).Filters?.length ?? 0;
      parts.push(`FilterCriteria=${plural(count, 'pattern')}`);
    } else if (name === 'DestinationConfig') {
      const arn = (value as { OnFailure?: { Destination?: string } }).OnFailure?.Destination;
      if (arn) parts.push(`OnFailure=${arn}`);
    } else if (Array.isArray(value)) parts.push(`${name}=${value.join(',')}`);
    else parts.push(`${name}=${String(value)}`);
  }
  return parts.join(' ');
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function isoSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
