import { randomUUID } from 'node:crypto';
import type { SchedulerLike } from 'rxjs';
import type { ChangeLog } from '../changeLog.js';
import { clockScheduler } from '../clockScheduler.js';
import type { InternalReader } from '../internalFeed.js';
import { configurationOf, type EventSourceMappingConfiguration } from './configuration.js';
import {
  InvalidParameterValueException,
  LambdaResourceNotFoundException,
  ResourceConflictException,
  ResourceInUseException,
  validationError,
} from './errors.js';
import {
  EventSourceMapping,
  type MappingCheckpoint,
  type MappingSource,
  type MappingStateName,
  type ShardCheckpoint,
} from './eventSourceMapping.js';
import type { DestinationResolver } from './failureRecord.js';
import { inspect, type MappingInspection } from './inspection.js';
import { type FunctionResolver, functionNameOf, type MappedFunction } from './invoke.js';
import { listMappings, type MappingListFilter, type MappingListPage } from './listing.js';
import type { PendingRecord } from './records.js';
import {
  type CreateEventSourceMappingInput,
  type EventSourceMappingSettingsInput,
  type MappingSettings,
  resolveCreateSettings,
  resolveUpdateSettings,
  type UpdateEventSourceMappingInput,
} from './settings.js';

export interface MappingManagerOptions {
  readonly changeLog: ChangeLog;
  readonly functions: FunctionResolver;
  readonly destinations?: DestinationResolver;
  /** Account and region of the mappings' ARNs (default: the engine's). */
  readonly accountId?: string;
  readonly region?: string;
  /**
   * Wait before retrying a failed batch: `initialMs` × 2^(retry − 1), capped at `maxMs`, on the
   * engine clock (default 1 s doubling up to 1 min; AWS documents no figure). 0 retries at once.
   */
  readonly retryBackoff?: { readonly initialMs?: number; readonly maxMs?: number };
  /** Registers `drained()` with `engine.settled()` (pass the engine). */
  readonly settler?: { addSettler(settle: () => Promise<void>): () => void };
  /**
   * Whether `drained()` waits for clock timers (retry backoff, batching windows, delays). Default:
   * yes on a real clock, no on a virtual clock (its timers fire only when the test advances it).
   */
  readonly waitForTimers?: boolean;
  readonly onError?: (error: unknown, context: string) => void;
  /**
   * How long (ms, on the change log's clock) a mapping stays in the state a user's action puts it
   * in (Creating, Enabling, Disabling, Updating, Deleting) before it reads Enabled or Disabled, or
   * is gone (docs/lambda-api.md §4.7). Default 0: at once.
   */
  readonly transitionMs?: number;
  /**
   * A stream mapping's shard checkpoint moved (after each batch is done, and when a shard is
   * finished): where a host with a data directory saves it, to resume there after a restart.
   */
  readonly onCheckpoint?: (
    uuid: string,
    eventSourceArn: string,
    shardId: string,
    checkpoint: ShardCheckpoint,
  ) => void;
}

/** An internal mapping: a built-in function over a table's internal feed (docs/architecture.md §4). */
export interface InternalMappingOptions {
  readonly tableName: string;
  readonly accountId?: string;
  readonly region?: string;
  readonly fn: MappedFunction;
  /** Settings as CreateEventSourceMapping takes them (StartingPosition LATEST by default). */
  readonly settings?: EventSourceMappingSettingsInput & {
    readonly StartingPosition?: 'LATEST' | 'TRIM_HORIZON';
  };
  /** An already registered reader of the table's feed (default: one registered now). */
  readonly reader?: InternalReader;
  /** When each record may be delivered (a propagation delay), epoch ms. */
  readonly dueOf?: (record: PendingRecord) => number;
  /**
   * The event each batch is invoked with (default: a DynamoDBStreamEvent of Lambda records). A
   * built-in function that takes the feed's changes through a typed port builds its own, and is
   * spared building (and decoding) a Lambda record per change.
   */
  readonly eventOf?: (records: readonly PendingRecord[]) => unknown;
}

const NOT_FOUND = 'The resource you requested does not exist.';

/**
 * Event source mappings of one eddy (docs/streams-and-lambda.md §2): the Lambda API's
 * Create/Get/List/Update/Delete with its validation and messages, the mappings' run time, and the inspection
 * view.
 *
 * @example
 * ```ts
 * const manager = new MappingManager({ changeLog, functions, destinations, settler: engine });
 * const { UUID } = manager.create({ FunctionName: 'audit', EventSourceArn: streamArn, StartingPosition: 'TRIM_HORIZON' });
 * await engine.settled(); // the mapping has caught up
 * manager.inspect(UUID).recordsProcessed;
 * ```
 */
export class MappingManager {
  readonly accountId: string;
  readonly region: string;
  readonly scheduler: SchedulerLike;
  private readonly mappings = new Map<string, EventSourceMapping>();
  private readonly internal = new Map<string, EventSourceMapping>();
  private readonly unregister: (() => void) | undefined;
  private readonly waitForTimers: boolean;
  private version = 0;
  private waiters: (() => void)[] = [];
  /** Creation order of the API's mappings (ListEventSourceMappings pages by it). */
  private readonly sequence = new Map<string, number>();
  private created = 0;
  /** Mappings deleted by a user, still listed as Deleting until their moment passes. */
  private readonly deleting = new Map<
    string,
    { readonly mapping: EventSourceMapping; readonly until: number; readonly sequence: number }
  >();

  constructor(private readonly options: MappingManagerOptions) {
    const source = options.changeLog.source;
    this.accountId = options.accountId ?? source.defaultAccountId ?? '000000000000';
    this.region = options.region ?? source.defaultRegion ?? 'us-east-1';
    this.scheduler = clockScheduler(source.clock);
    this.waitForTimers =
      options.waitForTimers ?? typeof (source.clock as { advance?: unknown }).advance !== 'function';
    this.unregister = options.settler?.addSettler(() => this.drained());
  }

  private get where() {
    return { accountId: this.accountId, region: this.region };
  }

  /**
   * CreateEventSourceMapping. Answers the configuration with `State: "Creating"`
   * (docs/streams-and-lambda.md §2.1.15); the mapping starts at once.
   * @throws LambdaValidationException, InvalidParameterValueException, ResourceConflictException,
   *   LambdaResourceNotFoundException with Lambda's messages (docs/streams-and-lambda.md §2.1.14).
   */
  create(
    input: CreateEventSourceMappingInput,
    options: {
      readonly checkpoint?: MappingCheckpoint;
      /** The UUID of a new mapping (default: random); a checkpoint brings its own. */
      readonly uuid?: string;
    } = {},
  ): EventSourceMappingConfiguration {
    const missing = (['FunctionName', 'EventSourceArn'] as const).filter(
      (name) => typeof input[name] !== 'string',
    );
    if (missing.length > 0)
      throw validationError(
        missing.map((name) => ({
          value: 'null',
          member: name[0]!.toLowerCase() + name.slice(1),
          constraint: 'Member must not be null',
        })),
      );
    const settings = resolveCreateSettings(input);
    const stream = this.options.changeLog.stream(input.EventSourceArn);
    if (stream === undefined)
      throw new InvalidParameterValueException(`Stream not found: ${input.EventSourceArn}`);
    const fn = this.resolveFunction(input.FunctionName);
    for (const existing of [...this.mappings.values(), ...this.deletingMappings()]) {
      if (existing.eventSourceArn === stream.arn && existing.fn.functionName === fn.functionName)
        throw new ResourceConflictException(
          `The event source arn (" ${stream.arn} ") and function (" ${fn.functionName} ") provided mapping already exists. Please update or delete the existing mapping with UUID ${existing.uuid}`,
        );
    }
    const mapping = this.newMapping(
      options.checkpoint?.uuid ?? options.uuid ?? randomUUID(),
      fn,
      settings,
      {
        kind: 'stream',
        stream,
      },
      options.checkpoint,
    );
    this.mappings.set(mapping.uuid, mapping);
    this.sequence.set(mapping.uuid, ++this.created);
    const answer = configurationOf(mapping, this.where, 'Creating');
    this.applyEnabled(mapping);
    return answer;
  }

  /** A mapping over a table's internal feed, for built-in functions (not listed by `list`). */
  createInternal(options: InternalMappingOptions): EventSourceMapping {
    const accountId = options.accountId ?? this.accountId;
    const region = options.region ?? this.region;
    const feed = this.options.changeLog.internalFeed(accountId, region, options.tableName);
    const settings = resolveCreateSettings({
      FunctionName: options.fn.functionName,
      EventSourceArn: 'internal',
      StartingPosition: 'LATEST',
      ...options.settings,
    });
    const reader = options.reader ?? feed.register(settings.startingPosition);
    const tableArn = `arn:aws:dynamodb:${region}:${accountId}:table/${options.tableName}`;
    const source: MappingSource = { kind: 'internal', reader, arn: `${tableArn}/internal-feed`, region };
    const mapping = this.newMapping(randomUUID(), options.fn, settings, source, undefined, {
      dueOf: options.dueOf,
      eventOf: options.eventOf,
    });
    this.internal.set(mapping.uuid, mapping);
    this.applyEnabled(mapping);
    return mapping;
  }

  private newMapping(
    uuid: string,
    fn: MappedFunction,
    settings: MappingSettings,
    source: MappingSource,
    checkpoint: MappingCheckpoint | undefined,
    internal: Pick<InternalMappingOptions, 'dueOf' | 'eventOf'> = {},
  ): EventSourceMapping {
    const { dueOf, eventOf } = internal;
    const { initialMs = 1000, maxMs = 60_000 } = this.options.retryBackoff ?? {};
    return new EventSourceMapping({
      uuid,
      fn,
      settings,
      source,
      ...(checkpoint === undefined ? {} : { checkpoint }),
      dependencies: {
        clock: this.options.changeLog.source.clock,
        scheduler: this.scheduler,
        destinations: this.options.destinations,
        retentionMs: source.kind === 'stream' ? this.options.changeLog.settings.retentionMs : undefined,
        ...(source.kind === 'stream' ? { readers: this.options.changeLog.readers } : {}),
        retryDelayMs: (retry) => Math.min(maxMs, initialMs * 2 ** (retry - 1)),
        ...(dueOf === undefined ? {} : { dueOf }),
        ...(eventOf === undefined ? {} : { eventOf }),
        changed: () => this.changed(),
        reportError: (error, context) => this.options.onError?.(error, context),
        ...(source.kind === 'stream' && this.options.onCheckpoint !== undefined
          ? {
              checkpointed: (shardId: string, checkpoint: ShardCheckpoint) =>
                this.options.onCheckpoint!(uuid, source.stream.arn, shardId, checkpoint),
            }
          : {}),
      },
    });
  }

  private resolveFunction(nameOrArn: string): MappedFunction {
    const fn = this.options.functions.resolve(nameOrArn);
    if (fn === undefined)
      throw new LambdaResourceNotFoundException(
        `Function not found: arn:aws:lambda:${this.region}:${this.accountId}:function:${functionNameOf(nameOrArn)}`,
      );
    return fn;
  }

  private applyEnabled(mapping: EventSourceMapping): void {
    if (mapping.settings.enabled) {
      mapping.state = 'Enabled';
      mapping.start();
    } else {
      mapping.state = 'Disabled';
      mapping.stop();
    }
  }

  /** A mapping's run-time handle (internal mappings included). */
  mapping(uuid: string): EventSourceMapping {
    const mapping = this.mappings.get(uuid) ?? this.internal.get(uuid);
    if (mapping === undefined) throw new LambdaResourceNotFoundException(NOT_FOUND);
    return mapping;
  }

  /** GetEventSourceMapping. */
  get(uuid: string): EventSourceMappingConfiguration {
    const mapping = this.mappings.get(uuid);
    if (mapping !== undefined) return configurationOf(mapping, this.where);
    const deleting = this.deletingMappings().find((candidate) => candidate.uuid === uuid);
    if (deleting === undefined) throw new LambdaResourceNotFoundException(NOT_FOUND);
    return configurationOf(deleting, this.where, 'Deleting');
  }

  /**
   * What a user's action does to a mapping between states: Lambda refuses it with
   * ResourceInUseException, 400 (docs/lambda-api.md §4.7). The update message is Lambda's as
   * clients record it; the delete message is eddy's, worded after it.
   * @throws ResourceInUseException, LambdaResourceNotFoundException
   */
  assertSettled(uuid: string, action: 'update' | 'delete'): void {
    const mapping = this.mappings.get(uuid);
    const deleting =
      mapping === undefined && this.deletingMappings().some((candidate) => candidate.uuid === uuid);
    if (mapping === undefined && !deleting) throw new LambdaResourceNotFoundException(NOT_FOUND);
    if (deleting || mapping!.busy)
      throw new ResourceInUseException(`Cannot ${action} the event source mapping because it is in use.`);
  }

  /**
   * Puts a mapping in the state a user's action answered (Creating, Enabling, Disabling,
   * Updating) for `transitionMs`; nothing when the transition is instant.
   */
  beginTransition(uuid: string, state: MappingStateName): void {
    const transitionMs = this.options.transitionMs ?? 0;
    const mapping = this.mappings.get(uuid);
    if (mapping === undefined || transitionMs <= 0) return;
    if (state === 'Enabled' || state === 'Disabled') return;
    mapping.transition = { state, until: this.options.changeLog.source.clock.now() + transitionMs };
  }

  /** The mappings still Deleting (those whose moment passed are forgotten now). */
  private deletingMappings(): EventSourceMapping[] {
    const now = this.options.changeLog.source.clock.now();
    for (const [uuid, entry] of this.deleting) if (now >= entry.until) this.deleting.delete(uuid);
    return [...this.deleting.values()].map((entry) => entry.mapping);
  }

  /**
   * ListEventSourceMappings, optionally by stream ARN and/or function, in creation order, paged
   * as Lambda pages it (`listing.ts`).
   * @throws InvalidParameterValueException for a marker this manager did not issue.
   */
  list(filter: MappingListFilter = {}): MappingListPage {
    this.deletingMappings();
    const entries = [
      ...[...this.mappings.values()].map((mapping) => ({
        mapping,
        sequence: this.sequence.get(mapping.uuid)!,
      })),
      ...[...this.deleting.values()].map(({ mapping, sequence }) => ({ mapping, sequence })),
    ].sort((a, b) => a.sequence - b.sequence);
    return listMappings(entries, filter, (mapping) =>
      configurationOf(mapping, this.where, this.deleting.has(mapping.uuid) ? 'Deleting' : undefined),
    );
  }

  /**
   * UpdateEventSourceMapping: new settings apply from the checkpoint on; `Enabled: false` pauses
   * (the checkpoint is kept), `Enabled: true` resumes (docs/streams-and-lambda.md §2.1.13).
   */
  update(input: UpdateEventSourceMappingInput): EventSourceMappingConfiguration {
    const mapping = this.mappings.get(input.UUID) ?? this.internal.get(input.UUID);
    if (mapping === undefined) throw new LambdaResourceNotFoundException(NOT_FOUND);
    const settings = resolveUpdateSettings(mapping.settings, input);
    const fn = input.FunctionName === undefined ? mapping.fn : this.resolveFunction(input.FunctionName);
    const transition =
      settings.enabled === mapping.settings.enabled
        ? 'Updating'
        : settings.enabled
          ? 'Enabling'
          : 'Disabling';
    mapping.stop();
    mapping.settings = settings;
    mapping.fn = fn;
    mapping.stateTransitionReason = 'User action';
    mapping.lastModified = this.options.changeLog.source.clock.now();
    const answer = configurationOf(mapping, this.where, transition);
    this.applyEnabled(mapping);
    return answer;
  }

  /** Pauses a mapping, keeping its checkpoint. */
  disable(uuid: string): EventSourceMappingConfiguration {
    return this.update({ UUID: uuid, Enabled: false });
  }

  /** Resumes a mapping from its checkpoint. */
  enable(uuid: string): EventSourceMappingConfiguration {
    return this.update({ UUID: uuid, Enabled: true });
  }

  /**
   * DeleteEventSourceMapping: answers the configuration with `State: "Deleting"`. The mapping
   * stops at once; with `linger` (a user's action) it is still listed as Deleting for
   * `transitionMs`, as Lambda lists it until the deletion is done.
   */
  delete(uuid: string, options: { readonly linger?: boolean } = {}): EventSourceMappingConfiguration {
    const mapping = this.mappings.get(uuid) ?? this.internal.get(uuid);
    if (mapping === undefined) throw new LambdaResourceNotFoundException(NOT_FOUND);
    mapping.stop();
    mapping.transition = undefined;
    if (mapping.source.kind === 'internal') mapping.source.reader.close();
    const sequence = this.sequence.get(uuid);
    const transitionMs = this.options.transitionMs ?? 0;
    if (options.linger === true && transitionMs > 0 && sequence !== undefined)
      this.deleting.set(uuid, {
        mapping,
        until: this.options.changeLog.source.clock.now() + transitionMs,
        sequence,
      });
    this.mappings.delete(uuid);
    this.internal.delete(uuid);
    this.sequence.delete(uuid);
    return configurationOf(mapping, this.where, 'Deleting');
  }

  /** The state of one mapping, or of all (internal ones included). */
  inspect(uuid: string): MappingInspection;
  inspect(): MappingInspection[];
  inspect(uuid?: string): MappingInspection | MappingInspection[] {
    if (uuid !== undefined) return inspect(this.mapping(uuid));
    return [...this.mappings.values(), ...this.internal.values()].map(inspect);
  }

  /** Serialisable checkpoints of the API's mappings (restore with `create(input, { checkpoint })`). */
  checkpoints(): MappingCheckpoint[] {
    return [...this.mappings.values()].map((mapping) => mapping.checkpoint());
  }

  private changed(): void {
    this.version++;
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => {
      // A safety net: state can also move without a notification (e.g. a table's feed ending).
      // Not unref'd: someone awaits `drained()` (a test's `settled()` or `advance()`), and with
      // nothing else pending (an in-process handler waiting on the clock) Node would end the
      // program mid-await, exit code 13 ("unsettled top-level await").
      const timer = setTimeout(resolve, 25);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Resolves when every mapping has handled every record committed so far, or, when not waiting
   * for timers, when what is left can only move after the clock does (advance a virtual clock).
   */
  async drained(options: { readonly waitForTimers?: boolean } = {}): Promise<void> {
    const waitForTimers = options.waitForTimers ?? this.waitForTimers;
    const all = () => [...this.mappings.values(), ...this.internal.values()];
    for (;;) {
      if (all().every((mapping) => mapping.drained())) return;
      if (!waitForTimers && all().every((mapping) => mapping.waitingOnClock())) {
        // Stable across a macrotask turn: no promise reaction was about to move anything.
        const version = this.version;
        await new Promise((resolve) => setImmediate(resolve));
        if (version === this.version && all().every((mapping) => mapping.waitingOnClock())) return;
        continue;
      }
      await this.nextChange();
    }
  }

  /** Deletes every mapping, internal ones too, and stays usable (the test kit's `reset`). */
  clear(): void {
    for (const uuid of [...this.mappings.keys(), ...this.internal.keys()]) this.delete(uuid);
    this.deleting.clear();
  }

  /** Stops every mapping and unregisters from the engine. */
  close(): void {
    for (const mapping of [...this.mappings.values(), ...this.internal.values()]) mapping.stop();
    this.unregister?.();
  }
}
