import type { Clock } from '../../core/clock.js';
import type { InternalReader } from '../internalFeed.js';
import { childrenOf } from '../reader.js';
import {
  concatWith,
  defer,
  EMPTY,
  merge,
  type Observable,
  type SchedulerLike,
  type Subscription,
} from '../rxjs.js';
import { formatSequenceNumber, ordinalOf } from '../sequenceNumber.js';
import type { Shard } from '../shard.js';
import type { ShardReaders } from '../shardReaders.js';
import type { Stream } from '../stream.js';
import type { RecordSource } from '../streamView.js';
import { InternalFeedCursor, ShardCursor } from './cursors.js';
import type { DestinationResolver } from './failureRecord.js';
import type { MappedFunction } from './invoke.js';
import type { PendingRecord } from './records.js';
import { type MappingCounters, type MappingRuntime, newCounters } from './runtime.js';
import type { MappingSettings } from './settings.js';
import { type BatchInFlight, ShardWork } from './shardWork.js';

/** Where a mapping reads: a table's DynamoDB stream, or its internal feed (built-in functions). */
export type MappingSource =
  | { readonly kind: 'stream'; readonly stream: Stream }
  | {
      readonly kind: 'internal';
      readonly reader: InternalReader;
      /** The eventSourceARN its records carry: `<table ARN>/internal-feed`. */
      readonly arn: string;
      readonly region: string;
    };

/** `State` of EventSourceMappingConfiguration. */
export type MappingStateName =
  | 'Creating'
  | 'Enabling'
  | 'Enabled'
  | 'Disabling'
  | 'Disabled'
  | 'Updating'
  | 'Deleting';

/** One shard's progress, serialisable: the sequence number processed through, and whether done. */
export interface ShardCheckpoint {
  readonly processedThrough: string;
  readonly finished: boolean;
}

/** A mapping's checkpoint, serialisable (JSON), to resume a re-created mapping where it was. */
export interface MappingCheckpoint {
  readonly uuid: string;
  readonly eventSourceArn: string;
  readonly shards: Readonly<Record<string, ShardCheckpoint>>;
}

export interface MappingDependencies {
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  readonly destinations: DestinationResolver | undefined;
  /**
   * Stream retention (ms): without MaximumRecordAgeInSeconds, records expire with it
   * (docs/streams-and-lambda.md §2.1.7).
   */
  readonly retentionMs: number | undefined;
  readonly retryDelayMs: (retry: number) => number;
  readonly dueOf?: (record: PendingRecord) => number;
  readonly eventOf?: (records: readonly PendingRecord[]) => unknown;
  readonly changed: () => void;
  readonly reportError: (error: unknown, context: string) => void;
  /** A shard's checkpoint moved (records done, or the shard finished): stream mappings only. */
  readonly checkpointed?: (shardId: string, checkpoint: ShardCheckpoint) => void;
  /** The shards' readers, for the simultaneous-reader limit (docs/capacity.md §5.1). */
  readonly readers?: ShardReaders;
}

export interface MappingInit {
  readonly uuid: string;
  readonly fn: MappedFunction;
  readonly settings: MappingSettings;
  readonly source: MappingSource;
  readonly dependencies: MappingDependencies;
  readonly checkpoint?: MappingCheckpoint;
}

/**
 * One event source mapping at run time (docs/streams-and-lambda.md §2): it reads every shard of its stream,
 * parents before children (docs/streams-and-lambda.md §1.4.3), runs each shard's pipeline (`ShardWork`) and
 * keeps each shard's checkpoint. Disabling stops the pipelines and keeps the checkpoints; enabling resumes
 * from them (docs/streams-and-lambda.md §2.1.13): records in flight when it stopped are read and delivered
 * again (at least once, docs/streams-and-lambda.md §2.2.4).
 */
export class EventSourceMapping {
  readonly uuid: string;
  readonly source: MappingSource;
  fn: MappedFunction;
  settings: MappingSettings;
  state: MappingStateName = 'Creating';
  /**
   * StateTransitionReason: `User action` (what Lambda records for a DynamoDB mapping a user
   * created or changed, docs/streams-and-lambda.md §2.1.15) until Lambda itself changes the state.
   */
  stateTransitionReason = 'User action';
  /** LastModified, epoch ms. */
  lastModified: number;
  /**
   * A state the mapping reads until a moment of the clock (epoch ms): Creating, Enabling,
   * Disabling, Updating after a user's action (docs/lambda-api.md §4.7).
   */
  transition: { readonly state: MappingStateName; readonly until: number } | undefined;
  readonly counters: MappingCounters = newCounters();
  private readonly progress = new Map<string, { committed: number; finished: boolean }>();
  private readonly works = new Map<string, ShardWork>();
  private subscription: Subscription | undefined;
  private readonly dependencies: MappingDependencies;

  constructor(init: MappingInit) {
    this.uuid = init.uuid;
    this.fn = init.fn;
    this.settings = init.settings;
    this.source = init.source;
    this.dependencies = init.dependencies;
    this.lastModified = init.dependencies.clock.now();
    if (init.checkpoint !== undefined) {
      for (const [shardId, shard] of Object.entries(init.checkpoint.shards))
        this.progress.set(shardId, {
          committed: ordinalOf(shard.processedThrough),
          finished: shard.finished,
        });
    } else {
      this.startingPosition();
    }
  }

  /** The stream ARN (or the internal feed's ARN). */
  get eventSourceArn(): string {
    return this.source.kind === 'stream' ? this.source.stream.arn : this.source.arn;
  }

  get running(): boolean {
    return this.subscription !== undefined;
  }

  /**
   * StartingPosition (docs/streams-and-lambda.md §2.1.4): LATEST starts after the records already in each
   * shard.
   */
  private startingPosition(): void {
    const source = this.source;
    if (source.kind === 'internal') {
      this.progress.set('internal', { committed: source.reader.position, finished: false });
      return;
    }
    if (this.settings.startingPosition !== 'LATEST') return;
    const stream = source.stream;
    for (const shard of stream.shards) {
      if (shard.closed) this.progress.set(shard.id, { committed: 0, finished: true });
      else this.progress.set(shard.id, { committed: stream.nextOrdinal - 1, finished: false });
    }
  }

  /** Starts (or resumes) reading from the checkpoints. */
  start(): void {
    if (this.subscription !== undefined) return;
    const done$ = this.source.kind === 'stream' ? this.streamShards(this.source.stream) : this.internalFeed();
    this.subscription = done$.subscribe({
      error: (error) => {
        this.dependencies.reportError(error, `mapping ${this.uuid}`);
        this.stop();
      },
      complete: () => {
        if (this.source.kind === 'stream' && !this.source.stream.enabled) this.sourceGone();
        this.dependencies.changed();
      },
    });
  }

  /**
   * The stream was disabled (or its table deleted) and every record it held is done: nothing
   * more can come, so the mapping turns itself off, as Lambda does with a mapping whose source
   * is gone. Its state says so: `Disabled`, by `Lambda initiated` (the API reference's wording for
   * StateTransitionReason), with a PROBLEM result (eddy's wording after Lambda's `PROBLEM:` form,
   * docs/lambda-api.md §4.6).
   */
  private sourceGone(): void {
    this.subscription = undefined;
    this.transition = undefined;
    this.state = 'Disabled';
    this.stateTransitionReason = 'Lambda initiated';
    this.counters.lastProcessingResult =
      'PROBLEM: Stream not found (its table was deleted or its stream disabled)';
  }

  /**
   * The state to report: a disabled mapping reads `Disabling` while an invocation it started
   * is still running (Lambda's transitional state, docs/streams-and-lambda.md §2.1.13).
   */
  get reportedState(): MappingStateName {
    const transition = this.transition;
    if (transition !== undefined) {
      if (this.dependencies.clock.now() < transition.until) return transition.state;
      this.transition = undefined;
    }
    return this.state === 'Disabled' && this.counters.inFlight > 0 ? 'Disabling' : this.state;
  }

  /** Between states: Lambda refuses to update or delete it now (docs/lambda-api.md §4.7). */
  get busy(): boolean {
    const state = this.reportedState;
    return state !== 'Enabled' && state !== 'Disabled';
  }

  /** Stops reading; checkpoints stay (records in flight will be delivered again). */
  stop(): void {
    for (const work of this.works.values()) {
      this.saveProgress(work, false);
      work.detach();
    }
    this.works.clear();
    const subscription = this.subscription;
    this.subscription = undefined;
    subscription?.unsubscribe();
    this.dependencies.changed();
  }

  private saveProgress(work: ShardWork, finished: boolean): void {
    this.progress.set(work.shardId, { committed: work.committed, finished });
    if (finished && this.source.kind === 'stream')
      this.dependencies.checkpointed?.(work.shardId, {
        processedThrough: formatSequenceNumber(work.committed),
        finished,
      });
  }

  private runtime(recordSource: RecordSource): MappingRuntime {
    const { settings, dependencies } = this;
    const ageSeconds = settings.maximumRecordAgeInSeconds;
    return {
      uuid: this.uuid,
      settings,
      fn: this.fn,
      recordSource,
      sourceArn: this.eventSourceArn,
      clock: dependencies.clock,
      scheduler: dependencies.scheduler,
      counters: this.counters,
      maxRecordAgeMs: ageSeconds >= 0 ? ageSeconds * 1000 : dependencies.retentionMs,
      dueOf: dependencies.dueOf,
      eventOf: dependencies.eventOf,
      retryDelayMs: dependencies.retryDelayMs,
      destination: () => {
        const arn = settings.onFailureDestination;
        return arn === undefined ? undefined : dependencies.destinations?.resolve(arn);
      },
      changed: dependencies.changed,
      reportError: dependencies.reportError,
      checkpointed: (shardId, committed) =>
        dependencies.checkpointed?.(shardId, {
          processedThrough: formatSequenceNumber(committed),
          finished: false,
        }),
    };
  }

  private streamShards(stream: Stream): Observable<never> {
    const runtime = this.runtime({
      region: stream.region,
      viewType: stream.viewType,
      eventSourceArn: stream.arn,
      salt: stream.salt,
    });
    const finished = (id: string) => this.progress.get(id)?.finished === true;
    const retained = new Set(stream.shards.map((shard) => shard.id));
    // A shard that retention removed while the mapping was stopped is gone with its records.
    for (const [shardId, entry] of this.progress) {
      if (entry.finished || retained.has(shardId)) continue;
      this.progress.set(shardId, { ...entry, finished: true });
      this.counters.retentionSkips++;
    }
    const roots = stream.shards.filter(
      (shard) =>
        !finished(shard.id) &&
        (shard.parentId === undefined || !retained.has(shard.parentId) || finished(shard.parentId)),
    );
    const tree = (shard: Shard): Observable<never> =>
      defer(() => {
        const known = this.progress.get(shard.id);
        // A shard met for the first time is read from its oldest record (children, TRIM_HORIZON).
        const start = known === undefined ? shard.trimHorizonOrdinal : known.committed + 1;
        const place = this.dependencies.readers?.place(stream, shard.id, `mapping:${this.uuid}`);
        const work = new ShardWork(
          runtime,
          new ShardCursor(stream, shard, start, this.dependencies.clock, place),
        );
        this.works.set(shard.id, work);
        return work.run().pipe(
          concatWith(
            defer(() => {
              this.saveProgress(work, true);
              this.works.delete(shard.id);
              const children = childrenOf(stream, shard.id).filter((child) => !finished(child.id));
              return children.length === 0 ? EMPTY : merge(...children.map(tree));
            }),
          ),
        );
      });
    return merge(...roots.map(tree));
  }

  private internalFeed(): Observable<never> {
    const source = this.source as Extract<MappingSource, { kind: 'internal' }>;
    const known = this.progress.get('internal');
    if (known?.finished) return EMPTY;
    return defer(() => {
      const cursor = new InternalFeedCursor(source.reader);
      if (known !== undefined) cursor.resumeAfter(known.committed);
      const work = new ShardWork(
        this.runtime({
          region: source.region,
          viewType: 'NEW_AND_OLD_IMAGES',
          eventSourceArn: source.arn,
          salt: source.reader.feed.salt,
        }),
        cursor,
      );
      this.works.set('internal', work);
      return work.run().pipe(
        concatWith(
          defer(() => {
            this.saveProgress(work, true);
            this.works.delete('internal');
            source.reader.close();
            return EMPTY;
          }),
        ),
      );
    });
  }

  /** Every record committed so far is done (or the mapping is stopped). */
  drained(): boolean {
    if (this.subscription === undefined) return true;
    if (this.counters.inFlight > 0) return false;
    for (const work of this.works.values()) if (!work.idle()) return false;
    return true;
  }

  /** Nothing runs and nothing can proceed before a timer of the clock fires. */
  waitingOnClock(): boolean {
    if (this.subscription === undefined) return true;
    if (this.counters.inFlight > 0) return false;
    for (const work of this.works.values()) if (!work.waitingOnClock()) return false;
    return true;
  }

  /**
   * Iterator age as AWS reports it: how old (ms, by the clock) the oldest unfinished record is; 0
   * when caught up. A record stuck in retries keeps ageing even when nothing newer is written.
   */
  iteratorAgeMs(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const position of this.positions())
      oldest = Math.min(oldest, position.oldestAt ?? Number.POSITIVE_INFINITY);
    return oldest === Number.POSITIVE_INFINITY ? 0 : Math.max(0, this.dependencies.clock.now() - oldest);
  }

  /** How far (ms) the oldest unfinished record is behind the newest record of the source; 0 when caught up. */
  behindNewestMs(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const position of this.positions())
      oldest = Math.min(oldest, position.oldestAt ?? Number.POSITIVE_INFINITY);
    if (oldest === Number.POSITIVE_INFINITY) return 0;
    const log = this.source.kind === 'stream' ? this.source.stream.log : this.source.reader.feed.log;
    return log.end > log.head ? Math.max(0, log.at(log.end - 1).at - oldest) : 0;
  }

  /** Records committed and not yet done (unread plus in progress). */
  backlog(): number {
    let backlog = 0;
    for (const position of this.positions()) backlog += position.backlog;
    return backlog;
  }

  /** Where each unfinished shard stands: from its running work, or, stopped, from its checkpoint. */
  private positions(): { backlog: number; oldestAt: number | undefined }[] {
    if (this.subscription !== undefined) {
      return [...this.works.values()].map((work) => ({ backlog: work.backlog(), oldestAt: work.oldestAt() }));
    }
    const source = this.source;
    if (source.kind === 'internal') {
      const known = this.progress.get('internal');
      if (known === undefined || known.finished) return [];
      const log = source.reader.feed.log;
      const from = Math.max(known.committed, log.head);
      return [{ backlog: log.end - from, oldestAt: from < log.end ? log.at(from).at : undefined }];
    }
    const stream = source.stream;
    return stream.shards
      .filter((shard) => this.progress.get(shard.id)?.finished !== true)
      .map((shard) => {
        const known = this.progress.get(shard.id);
        const index = shard.indexAtOrdinal(
          known === undefined ? shard.trimHorizonOrdinal : known.committed + 1,
        );
        return {
          backlog: shard.size - index,
          oldestAt: index < shard.size ? stream.log.at(shard.positionAt(index)).at : undefined,
        };
      });
  }

  /** The serialisable checkpoint of every shard met so far. */
  checkpoint(): MappingCheckpoint {
    const shards: Record<string, ShardCheckpoint> = {};
    for (const [shardId, entry] of this.progress)
      shards[shardId] = { processedThrough: formatSequenceNumber(entry.committed), finished: entry.finished };
    for (const work of this.works.values())
      shards[work.shardId] = { processedThrough: formatSequenceNumber(work.committed), finished: false };
    return { uuid: this.uuid, eventSourceArn: this.eventSourceArn, shards };
  }

  /** Per-shard view for the inspection API. */
  shards(): {
    shardId: string;
    processedThrough: string;
    finished: boolean;
    inProgress: number;
    unread: number;
    inFlight: BatchInFlight[];
  }[] {
    const checkpoint = this.checkpoint().shards;
    return Object.entries(checkpoint).map(([shardId, entry]) => {
      const work = this.works.get(shardId);
      return {
        shardId,
        processedThrough: entry.processedThrough,
        finished: entry.finished,
        inProgress: work?.tracker.count ?? 0,
        unread: work?.cursor.available() ?? 0,
        inFlight: work?.inFlight() ?? [],
      };
    });
  }
}
