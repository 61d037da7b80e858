import type { Stream } from '../../streams/stream.js';
import type { ResponseStream } from '../host/wire.js';
import { type InvocationSummary, summarize } from './invocations.js';
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
 * The JSON of the records each stream's feeds sent last, by position: feeds that look at the same
 * moment (every open page's) send the same newest records, made and serialised once for all of
 * them. One range per stream (≤ `MAX_RECORDS_PER_LOOK`), so it holds no history; a position whose
 * stored change is another object (the test kit's reset numbers from the start again) is made anew.
 */
const lastSent = new WeakMap<Stream, { from: number; changes: unknown[]; json: string[] }>();

function recordsJson(stream: Stream, from: number, end: number): string[] {
  const cached = lastSent.get(stream);
  const changes: unknown[] = [];
  const json: string[] = [];
  for (let position = from; position < end; position++) {
    const change = stream.log.at(position);
    const index = cached === undefined ? -1 : position - cached.from;
    json.push(
      index >= 0 && index < cached!.changes.length && cached!.changes[index] === change
        ? cached!.json[index]!
        : JSON.stringify(recordAt(stream, position)),
    );
    changes.push(change);
  }
  // Keyed by the stream itself: a deleted table's stream takes its entry with it, and two stacks
  // in one process (same ARNs) keep theirs apart.
  lastSent.set(stream, { from, changes, json });
  return json;
}

/**
 * What one open `GET /_eddy/api/live` has sent, and the next look. It adds nothing to the write
 * path: no listener on any stream or function. Each `look()` compares each stream's end and each
 * function's invocation count with what it last sent, and writes the newest of what is new as
 * server-sent events:
 *
 * - `records`: `{ table, streamArn, records: DynamoDBRecord[], skipped }`
 * - `invocations`: `{ functionName, invocations: InvocationSummary[], skipped }`
 * - `tick`: `{ now, virtual }` every fourth look (views re-read their lists)
 *
 * Its cost is per look, not per write: bench/console.ts measures it.
 */
export class LiveFeed {
  private readonly streamPositions = new Map<string, number>();
  private readonly invocationCounts = new Map<string, number>();
  private looks = 0;

  constructor(
    private readonly sources: ConsoleSources,
    private readonly write: (chunk: string) => void,
  ) {
    // Start at the present: what came before is in the JSON lists.
    this.lookAtStreams(false);
    for (const name of sources.functions.names())
      this.invocationCounts.set(name, sources.functions.get(name)?.log.total ?? 0);
    this.send('tick', this.tick());
  }

  look(): void {
    try {
      this.lookAtStreams(true);
      this.lookAtFunctions();
      if (++this.looks % LOOKS_PER_TICK === 0) this.send('tick', this.tick());
    } catch (error) {
      this.send('problem', { message: error instanceof Error ? error.message : String(error) });
    }
  }

  private send(event: string, data: unknown): void {
    this.event(event, JSON.stringify(data));
  }

  /** One server-sent event whose data is `json`. */
  private event(name: string, json: string): void {
    this.write(`event: ${name}\ndata: ${json}\n\n`);
  }

  private tick() {
    return { now: this.sources.clock.now(), virtual: this.sources.advance !== undefined };
  }

  private lookAtStreams(sending: boolean): void {
    const { sources, streamPositions } = this;
    for (const tableName of sources.engine.region(sources.accountId, sources.region).tables.keys()) {
      const stream = sources.changeLog.tableStream(sources.accountId, sources.region, tableName);
      if (stream === undefined) continue;
      const log = stream.log;
      const seen = streamPositions.get(stream.arn);
      streamPositions.set(stream.arn, log.end);
      if (!sending) continue;
      // A stream first seen now (its table or stream is new) is new from its first record; a log
      // that went back (the test kit's reset) starts again from its head.
      const last = seen === undefined || seen > log.end ? log.head : seen;
      if (log.end <= last) continue;
      const from = Math.max(last, log.head, log.end - MAX_RECORDS_PER_LOOK);
      const records = recordsJson(stream, from, log.end);
      // JSON.stringify({ table, streamArn, records, skipped }), the records' JSON made once.
      this.event(
        'records',
        `{"table":${JSON.stringify(tableName)},"streamArn":${JSON.stringify(stream.arn)},"records":[${records.join(',')}],"skipped":${from - last}}`,
      );
    }
  }

  private lookAtFunctions(): void {
    const { sources, invocationCounts } = this;
    for (const name of sources.functions.names()) {
      const fn = sources.functions.get(name);
      if (fn === undefined) continue;
      const total = fn.log.total;
      const last = invocationCounts.get(name) ?? 0;
      invocationCounts.set(name, total);
      if (total <= last) continue;
      const fresh = Math.min(total - last, MAX_INVOCATIONS_PER_LOOK);
      const invocations: InvocationSummary[] = fn.invocations.slice(-fresh).map(summarize);
      this.send('invocations', {
        functionName: name,
        invocations,
        skipped: total - last - invocations.length,
      });
    }
  }
}

/**
 * Serves one live feed on an open response: a look every 250 ms until the client leaves. A
 * client that does not read (its socket's buffer full) is skipped: the next look it takes sends
 * the newest records and counts the rest as skipped, so eddy never holds more than one look's
 * worth for it.
 */
export function openLiveFeed(sources: ConsoleSources, out: ResponseStream): () => void {
  const feed = new LiveFeed(sources, (chunk) => {
    out.write(chunk);
  });
  const timer = setInterval(() => {
    if (out.ready) feed.look();
  }, FEED_INTERVAL_MS);
  timer.unref();
  const stop = () => clearInterval(timer);
  out.onClose(stop);
  return stop;
}
