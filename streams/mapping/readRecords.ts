import type { RecordMaker } from '../internalFeed.js';
import { Observable } from '../rxjs.js';
import type { RecordCursor } from './cursors.js';

export interface ReadOptions<T> {
  /** Most records per chunk (one "poll"). */
  readonly chunkSize: number;
  /** How many more records the mapping takes now (records in flight are bounded). */
  readonly room: () => number;
  /** Calls `wake` when room frees up. Returns the unsubscribe function. */
  readonly onRoom: (wake: () => void) => () => void;
  /** Makes each record read (the cursor calls it: no intermediate record). */
  readonly toRecord: RecordMaker<T>;
  /** Told whether a read is scheduled (the mapping is not idle while one is). */
  readonly onScheduled?: (scheduled: boolean) => void;
  /**
   * The cursor refused a read (the shard has too many readers, docs/capacity.md §5.1): calls
   * `wake` to poll again after the `attempt`-th refusal in a row's back-off. Returns the cancel.
   */
  readonly onThrottled?: (attempt: number, wake: () => void) => () => void;
}

/**
 * The records of one shard as chunks, read from the cursor when they arrive and while the
 * mapping has room for them: push on top of pull (docs/architecture.md §3.2). A mapping that is busy retrying
 * holds a bounded number of records in memory; the rest wait in the log, where retention keeps
 * them anyway. Completes when the shard is closed and read to its end.
 *
 * The first read of a turn of the event loop runs in a microtask after the write that woke it
 * (commit-to-invocation latency); writes later in the same turn are read together when the turn
 * ends (`setImmediate`), and so are all the writes of the turns that follow while they keep
 * coming. A server answers many requests in one turn (one poll of its sockets): read one by one,
 * each of them cost a whole invocation of the mapping's function. Measured (bench/workload.ts,
 * PutItem overwrites over HTTP at 16 clients, one GSI): the gsi-maintainer got 1.0 change per
 * invocation, ~60 µs of invocation (context, timeout timer, logs, the delivery pipeline) around
 * ~3 µs of index work, and the table kept 0.20–0.35× of its throughput without the GSI. A read
 * that stopped for lack of room or after a full budget continues in a later macrotask turn, so
 * a long backlog never starves writers and I/O. Polling 4 times a second
 * (docs/streams-and-lambda.md §2.1.16) would only add latency locally: appends wake the reader
 * instead.
 *
 * ```
 * log appends:    -a-b---c-d-|        (c and d in one turn after c was read; the shard closes after d)
 * readRecords:    -a-b---c---(d|)     [a], [b], [c] in a microtask each; [d] when the turn ends
 * ```
 *
 * @example
 * ```ts
 * readRecords(cursor, { chunkSize: 1000, room: () => 1000 - tracker.count, onRoom, toRecord })
 *   .subscribe((chunk) => console.log(chunk.length));
 * ```
 */
export function readRecords<T>(cursor: RecordCursor, options: ReadOptions<T>): Observable<T[]> {
  return new Observable<T[]>((subscriber) => {
    let scheduled = false;
    let immediate: NodeJS.Immediate | undefined;
    /** Set while a read ran in this turn of the event loop; cleared when the turn ends. */
    let turnEnd: NodeJS.Immediate | undefined;
    /** Refusals in a row, and the back-off waiting after the last one. */
    let refusals = 0;
    let backOff: (() => void) | undefined;
    const setScheduled = (value: boolean) => {
      scheduled = value;
      options.onScheduled?.(value);
    };
    const endTurn = () => {
      turnEnd = undefined;
    };
    const drain = () => {
      immediate = undefined;
      setScheduled(false);
      if (subscriber.closed) return;
      turnEnd ??= setImmediate(endTurn);
      // A mapping is a reader of its shard from its first poll, records or not (Lambda's poller
      // polls an idle shard too), until it stops (docs/capacity.md §5.1).
      if (cursor.admit !== undefined) {
        if (!cursor.admit()) {
          if (backOff === undefined && options.onThrottled !== undefined) {
            backOff = options.onThrottled(++refusals, () => {
              backOff = undefined;
              schedule(true);
            });
          }
          return;
        }
        refusals = 0;
      }
      let budget = 16;
      try {
        for (;;) {
          const room = options.room();
          if (room <= 0 || cursor.available() === 0) break;
          if (budget-- === 0) {
            schedule(true);
            return;
          }
          const records = cursor.read(Math.min(options.chunkSize, room), options.toRecord);
          if (records.length === 0) break;
          subscriber.next(records);
          if (subscriber.closed) return;
        }
        if (cursor.finished()) subscriber.complete();
      } catch (error) {
        subscriber.error(error);
      }
    };
    const schedule = (later: boolean) => {
      if (scheduled || subscriber.closed) return;
      setScheduled(true);
      if (later) immediate = setImmediate(drain);
      else queueMicrotask(drain);
    };
    // A write after this turn's read waits for the turn's end (queued after `endTurn`, so that
    // read marks the next turn in turn).
    const stopListening = cursor.listen(() => schedule(turnEnd !== undefined));
    const stopRoom = options.onRoom(() => schedule(true));
    schedule(false);
    return () => {
      stopListening();
      stopRoom();
      backOff?.();
      cursor.release?.();
      if (immediate !== undefined) clearImmediate(immediate);
      if (turnEnd !== undefined) clearImmediate(turnEnd);
      if (scheduled) setScheduled(false);
    };
  });
}
