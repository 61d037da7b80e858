import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamViewType } from '../core/store/table.js';
import { ChangeLog } from './changeLog.js';
import type { ChangeSource } from './changeSource.js';
import { StreamUnavailableError, ViewTypeError } from './errors.js';
import type { InternalReader } from './internalFeed.js';
import { type StreamPosition, startPosition, trimmed } from './reader.js';
import {
  asapScheduler,
  type Observable,
  Observable as RxObservable,
  type SchedulerLike,
  Subscription,
} from './rxjs.js';
import type { Stream } from './stream.js';
import { type RecordSource, toDynamoDBRecord, viewIncludes } from './streamView.js';

export interface ChangesOptions {
  /**
   * Where to start. Absent: live (hot), from the next change after subscribing. Otherwise a
   * replay (cold) from that position; each subscription reads the log on its own.
   */
  readonly from?: StreamPosition;
  /** Records shaped by this view type (default: the stream's; must not show more images). */
  readonly viewType?: StreamViewType;
  /**
   * Keep following new changes once caught up (default true). With false the Observable
   * completes at the last change committed before it was subscribed.
   */
  readonly follow?: boolean;
  /**
   * `'stream'` (default): the table's DynamoDB stream, exactly what GetRecords and Lambda see.
   * `'internal'`: the internal feed, which exists whatever the StreamSpecification (live only).
   */
  readonly feed?: 'stream' | 'internal';
  /** Read this stream (e.g. a disabled one, readable for 24 hours) instead of the table's current. */
  readonly streamArn?: string;
  readonly accountId?: string;
  readonly region?: string;
  /**
   * Where deliveries run (default `asapScheduler`: right after the committing call returns).
   * Pass `clockScheduler(engine.clock)` to deliver only when a virtual clock moves.
   */
  readonly scheduler?: SchedulerLike;
  /**
   * Most records built per delivery turn (default 256). A subscriber that falls behind holds no
   * records: it holds a position in the log and takes at most this many per turn, yielding to
   * writers and I/O in between.
   */
  readonly bufferSize?: number;
  /** While it last emitted true, delivery stops (records wait in the log, none are lost). */
  readonly pause?: Observable<boolean>;
  /** Decode Keys and images on first read rather than when a record is built (large items). */
  readonly lazyImages?: boolean;
}

/**
 * The changes of a table as `DynamoDBRecord`s (docs/streams-and-lambda.md §1.1, §1.2), in commit order: "push
 * on top" of the change log (docs/architecture.md §3.2).
 *
 * Live by default: each subscriber sees the changes committed after it subscribed, delivered
 * asynchronously so writers never wait for subscribers. With `from`, a replay from any position
 * (TRIM_HORIZON, LATEST, a sequence number, a time), then live. Records of one item arrive in
 * commit order; the stream's records arrive in commit order overall (a valid order of its shards
 * that reads parents before children). A subscriber that falls behind more than the retention
 * (24 h) errors with `TrimmedDataAccessException` rather than silently skipping records. Every
 * subscriber completes when the change log closes (`stack.close()`), after what it had not yet
 * delivered.
 *
 * @example
 * ```ts
 * const changeLog = ChangeLog.attach(engine);
 * changes$(changeLog, 'Orders')
 *   .pipe(inserts(), unmarshallImages<Order>())
 *   .subscribe(({ newImage }) => console.log('new order', newImage?.id));
 * ```
 */
export function changes$(
  source: ChangeLog | ChangeSource,
  tableName: string,
  options: ChangesOptions = {},
): Observable<DynamoDBRecord> {
  const changeLog = source instanceof ChangeLog ? source : ChangeLog.attach(source);
  return new RxObservable<DynamoDBRecord>((subscriber) => {
    let cursor: Cursor;
    try {
      cursor =
        options.feed === 'internal'
          ? internalCursor(changeLog, tableName, options)
          : streamCursor(changeLog, tableName, options);
    } catch (error) {
      subscriber.error(error);
      return;
    }
    const scheduler = options.scheduler ?? asapScheduler;
    const bufferSize = Math.max(1, options.bufferSize ?? 256);
    const teardown = new Subscription();
    let scheduled = false;
    // The last scheduled drain, cancelled on teardown (a synchronous scheduler may have run it).
    let handle: Subscription | NodeJS.Immediate | undefined;
    let paused = false;

    const schedule = (later: boolean) => {
      if (scheduled || paused || subscriber.closed) return;
      scheduled = true;
      // Continuations of a long catch-up yield a full macrotask turn to writers and I/O.
      if (later && options.scheduler === undefined) handle = setImmediate(drain);
      else handle = scheduler.schedule(drain);
    };
    const drain = () => {
      scheduled = false;
      if (paused || subscriber.closed) return;
      try {
        cursor.check();
        let budget = bufferSize;
        while (budget-- > 0 && !paused && !subscriber.closed && cursor.available() > 0)
          subscriber.next(cursor.next());
        cursor.commit();
      } catch (error) {
        subscriber.error(error);
        return;
      }
      if (paused || subscriber.closed) return;
      if (cursor.available() > 0) schedule(true);
      else if (cursor.finished() || changeLog.closed) subscriber.complete();
    };

    teardown.add(cursor.listen(() => schedule(false)));
    // A closed log (the stack closed) files nothing more: live readers complete.
    teardown.add(
      changeLog.onClose(() => {
        if (paused) subscriber.complete();
        else schedule(false);
      }),
    );
    if (options.pause !== undefined) {
      teardown.add(
        options.pause.subscribe((value) => {
          paused = value;
          if (!value) schedule(false);
        }),
      );
    }
    teardown.add(() => {
      if (handle instanceof Subscription) handle.unsubscribe();
      else if (handle !== undefined) clearImmediate(handle);
      cursor.close();
    });
    schedule(false);
    return teardown;
  });
}

/** A reader's position in a log, as the delivery loop sees it. */
interface Cursor {
  /** Throws when the position fell behind trimming. */
  check(): void;
  available(): number;
  /** Builds the record at the position and moves past it. */
  next(): DynamoDBRecord;
  /** Tells the log what was delivered. */
  commit(): void;
  /** Nothing more will ever come. */
  finished(): boolean;
  listen(wake: () => void): () => void;
  close(): void;
}

function streamCursor(changeLog: ChangeLog, tableName: string, options: ChangesOptions): Cursor {
  const accountId = options.accountId ?? changeLog.source.defaultAccountId ?? '000000000000';
  const regionName = options.region ?? changeLog.source.defaultRegion ?? 'us-east-1';
  const stream: Stream | undefined =
    options.streamArn !== undefined
      ? changeLog.stream(options.streamArn)
      : changeLog.tableStream(accountId, regionName, tableName);
  if (stream === undefined) {
    throw new StreamUnavailableError(
      options.streamArn !== undefined
        ? `No stream ${options.streamArn} (never enabled, or disabled more than the retention ago)`
        : `Table ${tableName} has no enabled stream in ${accountId}/${regionName}: enable one with StreamSpecification, or read feed: 'internal'`,
    );
  }
  const viewType = options.viewType ?? stream.viewType;
  if (!viewIncludes(stream.viewType, viewType))
    throw new ViewTypeError(`Stream ${stream.arn} is ${stream.viewType}: it has no ${viewType} records`);
  const recordSource: RecordSource = {
    region: stream.region,
    viewType,
    eventSourceArn: stream.arn,
    salt: stream.salt,
  };
  const imageOptions = { lazyImages: options.lazyImages === true };
  const clock = changeLog.source.clock;
  const log = stream.log;
  let position = startPosition(stream, options.from ?? 'LATEST');
  const stopAt = options.follow === false ? log.end : Number.POSITIVE_INFINITY;
  return {
    check() {
      stream.tick(clock.now());
      if (position < log.head) throw trimmed();
    },
    available: () => Math.min(log.end, stopAt) - position,
    next() {
      const record = toDynamoDBRecord(log.at(position), position + 1, recordSource, imageOptions);
      position++;
      return record;
    },
    commit() {},
    finished: () => position >= stopAt || (!stream.enabled && position >= log.end),
    listen: (wake) => stream.onChange(wake),
    close() {},
  };
}

function internalCursor(changeLog: ChangeLog, tableName: string, options: ChangesOptions): Cursor {
  if (options.from !== undefined && options.from !== 'LATEST')
    throw new StreamUnavailableError('The internal feed keeps no history: read it live (from LATEST)');
  const accountId = options.accountId ?? changeLog.source.defaultAccountId ?? '000000000000';
  const regionName = options.region ?? changeLog.source.defaultRegion ?? 'us-east-1';
  let reader: InternalReader;
  try {
    reader = changeLog.internalFeed(accountId, regionName, tableName).register('LATEST');
  } catch (error) {
    throw new StreamUnavailableError(`No table ${tableName} in ${accountId}/${regionName}`, { cause: error });
  }
  const recordSource: RecordSource = {
    region: regionName,
    viewType: options.viewType ?? 'NEW_AND_OLD_IMAGES',
    eventSourceArn: undefined,
    salt: reader.feed.salt,
  };
  const imageOptions = { lazyImages: options.lazyImages === true };
  const log = reader.feed.log;
  const stopAt = options.follow === false ? log.end : Number.POSITIVE_INFINITY;
  return {
    check() {},
    available: () => Math.min(log.end, stopAt) - reader.position,
    next() {
      const position = reader.position;
      const record = toDynamoDBRecord(log.at(position), position + 1, recordSource, imageOptions);
      reader.position = position + 1;
      return record;
    },
    commit: () => reader.commit(),
    finished: () => reader.position >= stopAt || reader.done,
    listen: (wake) => reader.onAvailable(wake),
    close: () => reader.close(),
  };
}
