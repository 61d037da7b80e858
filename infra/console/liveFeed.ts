import type { ResponseStream } from '../host/wire.js';
import { type InvocationSummary, summarize } from './lambdaSide.js';
import type { ConsoleSources } from './sources.js';
import { recordAt } from './streamRecords.js';

/** How often the feed looks for new records and invocations, ms. */
export const FEED_INTERVAL_MS = 250;
/**
 * Records sent per table per look, at most: the newest ones. Past that the tail samples: it
 * skips the older records of the interval and says how many (`skipped`). 4 looks a second × 25
 * records keeps a tail at ≤100 records/s per table, whatever the write rate.
 */
export const MAX_RECORDS_PER_LOOK = 25;
/** Invocations sent per function per look, at most (the newest; the rest counted as skipped). */
export const MAX_INVOCATIONS_PER_LOOK = 10;
/** A `tick` event (the clock's time) every this many looks: views refresh their lists on it. */
const LOOKS_PER_TICK = 4;

/**
 * One open `GET /_eddy/api/live` (server-sent events). It adds nothing to the write path: no
 * listener on any stream or function. Every 250 ms it compares each stream's end and each
 * function's invocation count with what it last sent, and sends the newest of what is new:
 *
 * - `records`: `{ table, streamArn, records: DynamoDBRecord[], skipped }`
 * - `invocations`: `{ functionName, invocations: InvocationSummary[], skipped }`
 * - `tick`: `{ now, virtual }` once a second (views re-read their lists)
 *
 * The cost is per look, not per write: bench/console.ts measures it.
 */
export function openLiveFeed(sources: ConsoleSources, out: ResponseStream): () => void {
  const streamPositions = new Map<string, number>();
  const invocationCounts = new Map<string, number>();
  // Start at the present: what came before is in the JSON lists.
  lookAtStreams(sources, streamPositions, undefined);
  for (const name of sources.functions.names())
    invocationCounts.set(name, sources.functions.get(name)?.log.total ?? 0);
  let looks = 0;
  const send = (event: string, data: unknown) =>
    out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('tick', tickOf(sources));
  const timer = setInterval(() => {
    try {
      lookAtStreams(sources, streamPositions, send);
      lookAtFunctions(sources, invocationCounts, send);
      if (++looks % LOOKS_PER_TICK === 0) send('tick', tickOf(sources));
    } catch (error) {
      send('problem', { message: error instanceof Error ? error.message : String(error) });
    }
  }, FEED_INTERVAL_MS);
  timer.unref();
  const stop = () => clearInterval(timer);
  out.onClose(stop);
  return stop;
}

function tickOf(sources: ConsoleSources) {
  return { now: sources.clock.now(), virtual: sources.advance !== undefined };
}

function lookAtStreams(
  sources: ConsoleSources,
  positions: Map<string, number>,
  send: ((event: string, data: unknown) => void) | undefined,
): void {
  const names = sources.engine.region(sources.accountId, sources.region).tables.keys();
  for (const tableName of names) {
    const stream = sources.changeLog.tableStream(sources.accountId, sources.region, tableName);
    if (stream === undefined) continue;
    const log = stream.log;
    const seen = positions.get(stream.arn);
    positions.set(stream.arn, log.end);
    if (send === undefined) continue;
    // A stream first seen now (its table or stream is new) is new from its first record; a log
    // that went back (the test kit's reset) starts again from its head.
    const last = seen === undefined || seen > log.end ? log.head : seen;
    if (log.end <= last) continue;
    const from = Math.max(last, log.head, log.end - MAX_RECORDS_PER_LOOK);
    const records = [];
    for (let position = from; position < log.end; position++) records.push(recordAt(stream, position));
    send('records', { table: tableName, streamArn: stream.arn, records, skipped: from - last });
  }
}

function lookAtFunctions(
  sources: ConsoleSources,
  counts: Map<string, number>,
  send: (event: string, data: unknown) => void,
): void {
  for (const name of sources.functions.names()) {
    const fn = sources.functions.get(name);
    if (fn === undefined) continue;
    const total = fn.log.total;
    const last = counts.get(name) ?? 0;
    counts.set(name, total);
    if (total <= last) continue;
    const fresh = Math.min(total - last, MAX_INVOCATIONS_PER_LOOK);
    const entries = fn.invocations;
    const invocations: InvocationSummary[] = entries.slice(-fresh).map(summarize);
    send('invocations', { functionName: name, invocations, skipped: total - last - invocations.length });
  }
}
