import { operations } from './actions/index.js';
import { resolveTableName } from './actions/shared/tableName.js';
import { DataProtection } from './backups/dataProtection.js';
import { ChangeEvent, type ChangeListener, type ServiceIdentity } from './changeEvent.js';
import { type Clock, SystemClock } from './clock.js';
import {
  DynamoDbError,
  InternalServerError,
  ResourceNotFoundException,
  SerializationException,
  UnknownOperationException,
  ValidationException,
} from './errors/index.js';
import { type GlobalIndexMode, IndexMaintenance } from './indexes/maintenance.js';
import { type KinesisStreamCheck, NO_ENDPOINT } from './kinesis/destinations.js';
import type { Item } from './model/attributeValue.js';
import { itemKeyOf } from './model/keyCodec.js';
import type { ActionContext, OperationDefinition, RequestContext } from './operation.js';
import { Replication, type ReplicationOptions } from './replication/replication.js';
import { Region } from './store/region.js';
import type { StoredItem } from './store/storedItem.js';
import type { Table } from './store/table.js';
import { CapacityGovernor, type CapacityOptions } from './throttling/capacityGovernor.js';
import { deserialize } from './validations/deserialize.js';
import type { ExtractedKey } from './validations/keys.js';
import { collectConstraintErrors, type Shape, throwConstraintErrors } from './validations/shape.js';
import { materialize } from './wire.js';

export interface EngineOptions {
  /** The clock every timestamp and timer reads (default: the system clock). */
  clock?: Clock;
  /** Account id for ARNs when the caller names none (default `000000000000`). */
  accountId?: string;
  /** Region for requests that carry none (default `us-east-1`). */
  region?: string;
  /**
   * How long new tables (and indexes) stay CREATING, in ms. 0 (default) makes them ACTIVE as soon
   * as CreateTable returns; a delay lets users test waiters.
   */
  transientStatusDelayMs?: number;
  /** Called with errors that are eddy's bugs (answered as InternalServerError). */
  onInternalError?: (error: unknown, operation: string) => void;
  /**
   * Who maintains global secondary indexes: `'synchronous'` (default for a bare engine) updates
   * them inside each commit; `'external'` leaves them to the gsi-maintainer function reading the
   * change feed, eventually consistent as in DynamoDB (the local stack wires that).
   */
  globalIndexes?: GlobalIndexMode;
  /**
   * After an UpdateTimeToLive, further changes fail for this long, in ms (default 1 hour, as
   * documented; about 30 minutes was observed: docs/streams-and-lambda.md §5.4).
   */
  ttlChangeLockoutMs?: number;
  /** Capacity enforcement (docs/capacity.md): off by default. */
  capacity?: CapacityOptions;
  /** Global tables: how long a write takes to reach the other replicas (docs/global-tables.md §3). */
  replication?: ReplicationOptions;
}

export type TableChangeKind = 'created' | 'updated' | 'deleted';
export interface TableChange {
  readonly region: Region;
  readonly table: Table;
  readonly kind: TableChangeKind;
}
export type TableChangeListener = (change: TableChange) => void;

/** One write the commit point applies: an item key and what the item becomes. */
export interface ItemWrite {
  readonly key: ExtractedKey;
  /** The item as the action read it (undefined if absent). */
  readonly previous: StoredItem | undefined;
  /** The new item, or undefined to delete. */
  readonly next: StoredItem | undefined;
  /**
   * The new item as the action built it, when it has one at hand: commit-time upkeep reads it
   * instead of decoding `next`. Read during the commit only, never kept: it may share objects
   * with the caller's request.
   */
  readonly nextItem?: Item;
}

/**
 * The engine façade: `execute(operation, input)` takes the DynamoDB operation name and its
 * wire-format (JSON) input and returns the wire-format output, or throws a `DynamoDbError`
 * carrying the service's error. The HTTP host and the in-process SDK client are thin layers over
 * it. Every write goes through `commit`, which emits change events to `onCommit` listeners.
 *
 * @example
 * ```ts
 * const engine = new Engine();
 * engine.execute('CreateTable', {
 *   TableName: 'GameScores',
 *   AttributeDefinitions: [{ AttributeName: 'UserId', AttributeType: 'S' }],
 *   KeySchema: [{ AttributeName: 'UserId', KeyType: 'HASH' }],
 *   BillingMode: 'PAY_PER_REQUEST',
 * });
 * engine.execute('PutItem', { TableName: 'GameScores', Item: { UserId: { S: '101' } } });
 * ```
 */
export class Engine {
  readonly clock: Clock;
  readonly defaultAccountId: string;
  readonly defaultRegion: string;
  readonly transientStatusDelayMs: number;
  readonly ttlChangeLockoutMs: number;
  private readonly regions = new Map<string, Map<string, Region>>();
  private readonly listeners = new Set<ChangeListener>();
  /** Reports an error that is not the service's (answered as InternalServerError, or a listener's). */
  readonly onInternalError: (error: unknown, operation: string) => void;
  /**
   * Whether a Kinesis stream can be written, asked when EnableKinesisStreamingDestination
   * completes (docs/kinesis-destinations.md §3). infra sets it over its Kinesis endpoint; without
   * one, every Enable fails with a description saying how to configure it.
   */
  kinesisStreamCheck: KinesisStreamCheck = async () => NO_ENDPOINT;
  private sequence = 0;
  private commitCounter = 0;
  /** Secondary index upkeep (local indexes in the commit; global ones per `globalIndexes`). */
  readonly indexes: IndexMaintenance;
  /** The capacity model: throttling when enforced, injected faults (docs/capacity.md). */
  readonly capacity: CapacityGovernor;
  private readonly capacityOptions: CapacityOptions | undefined;
  private readonly settlers = new Set<() => Promise<void>>();
  private readonly tableListeners = new Set<TableChangeListener>();
  /** Backups, point-in-time recovery, exports and imports (docs/backups.md). */
  readonly dataProtection: DataProtection;
  /** Replication between the replicas of global tables (docs/global-tables.md). */
  readonly replication: Replication;

  constructor(options: EngineOptions = {}) {
    this.clock = options.clock ?? new SystemClock();
    this.defaultAccountId = options.accountId ?? '000000000000';
    this.defaultRegion = options.region ?? 'us-east-1';
    this.transientStatusDelayMs = options.transientStatusDelayMs ?? 0;
    this.ttlChangeLockoutMs = options.ttlChangeLockoutMs ?? 3_600_000;
    this.onInternalError = options.onInternalError ?? (() => {});
    this.indexes = new IndexMaintenance(options.globalIndexes ?? 'synchronous');
    this.dataProtection = new DataProtection(this);
    this.capacityOptions = options.capacity;
    this.capacity = new CapacityGovernor(this.clock, options.capacity);
    this.replication = new Replication(this, options.replication);
    this.settlers.add(() => this.replication.settle());
    // Capacity changes apply from the moment UpdateTable applies them (docs/capacity.md §2.1).
    this.tableListeners.add(({ table }) => {
      if (this.capacity.active) this.capacity.tableChanged(table);
    });
  }

  /**
   * Registers background work that `settled()` waits for (index maintenance, mappings...).
   * Returns the unregister function.
   */
  addSettler(settle: () => Promise<void>): () => void {
    this.settlers.add(settle);
    return () => this.settlers.delete(settle);
  }

  /**
   * Resolves when background work has caught up with every commit made so far: global indexes
   * reflect the table, mappings have drained. Loops until nothing is left to do.
   */
  async settled(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      const before = this.sequence;
      for (const settle of [...this.settlers]) await settle();
      if (this.sequence === before) return;
    }
  }

  /**
   * The tables of one account and region. A region the engine does not know yet comes back
   * empty and is kept only once something is put in it (a table, a stream label, a token):
   * requests for region names that hold nothing leave nothing behind.
   */
  region(accountId = this.defaultAccountId, regionName = this.defaultRegion): Region {
    // Every request asks: answer a repeat of the last pair without the two Map lookups.
    const last = this.lastRegion;
    if (last !== undefined && last.accountId === accountId && last.name === regionName) return last;
    let region = this.regions.get(accountId)?.get(regionName);
    if (region === undefined) {
      const unkept = this.unkeptRegion;
      region =
        unkept !== undefined && unkept.accountId === accountId && unkept.name === regionName
          ? unkept
          : new Region(accountId, regionName, this.keepRegion);
      // At most one region that holds nothing is remembered (the last asked for).
      this.unkeptRegion = region;
    }
    this.lastRegion = region;
    return region;
  }

  private lastRegion: Region | undefined;
  private unkeptRegion: Region | undefined;

  private readonly keepRegion = (region: Region): void => {
    let account = this.regions.get(region.accountId);
    if (account === undefined) {
      account = new Map();
      this.regions.set(region.accountId, account);
    }
    if (!account.has(region.name)) account.set(region.name, region);
    if (this.unkeptRegion === region) this.unkeptRegion = undefined;
  };

  /**
   * Forgets every table with its items, indexes, stream labels and transaction tokens, as a new
   * engine would have none. Nothing is emitted: this is for the test kit's `reset`, which stops
   * what listens (mappings, the gsi-maintainer), clears the change log and declares its tables
   * again.
   */
  reset(): void {
    this.regions.clear();
    this.dataProtection.reset();
    this.lastRegion = undefined;
    this.unkeptRegion = undefined;
    this.lastActionContext = undefined;
    this.capacity.reset(this.capacityOptions);
    this.replication.reset();
  }

  /** Every region that holds (or held) something. */
  *allRegions(): Iterable<Region> {
    for (const account of this.regions.values()) yield* account.values();
  }

  /** Whether an operation name is one the engine answers. */
  supports(operation: string): boolean {
    return Object.hasOwn(operations, operation);
  }

  /**
   * Runs one operation. Input and output are the wire JSON (as parsed objects).
   * @throws DynamoDbError with the service's name, `__type` and message.
   */
  execute(operation: string, input: unknown, context: Partial<RequestContext> = {}): Record<string, unknown> {
    return materialize(this.executeRaw(operation, input, context));
  }

  /**
   * Like `execute`, but stored items in the output stay as `StoredItem`s, for transports that
   * serialise with `toWireJson` (their text is spliced into the body as stored).
   */
  executeRaw(
    operation: string,
    input: unknown,
    context: Partial<RequestContext> = {},
  ): Record<string, unknown> {
    const definition = Object.hasOwn(operations, operation)
      ? (operations[operation] as OperationDefinition<
          Record<string, unknown>,
          Record<string, unknown>,
          unknown
        >)
      : undefined;
    if (definition === undefined) throw new UnknownOperationException();
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw new SerializationException();
    const accountId = context.accountId ?? this.defaultAccountId;
    const regionName = context.region ?? this.defaultRegion;
    try {
      const deserialized = deserialize(input as Record<string, unknown>, definition.shape);
      const typedInput = deserialized.input;
      if (definition.controlPlaneTableName)
        checkControlPlaneTableName(typedInput.TableName, definition.controlPlaneTableName === true);
      throwConstraintErrors(collectConstraintErrors(typedInput, definition.shape));
      // A TableName that may be an ARN (a name-or-ARN shape) is resolved to the name once, here:
      // the actions and the table-change bookkeeping below see names only (docs/table-arns.md).
      const sentTableName = typedInput.TableName;
      if (typeof sentTableName === 'string' && takesTableArn(definition.shape))
        typedInput.TableName = resolveTableName(sentTableName, { accountId, region: regionName }, operation);
      let prepared: unknown;
      if (definition.validate) {
        try {
          prepared = definition.validate(typedInput, deserialized, { accountId, region: regionName });
        } catch (error) {
          if (definition.prefixStatelessErrors && error instanceof ValidationException) {
            throw new ValidationException(`1 validation error detected: ${error.message}`);
          }
          throw error;
        }
      }
      const shared = this.actionContext(accountId, regionName);
      const actionContext =
        definition.readsHost && context.host !== undefined
          ? { ...shared, request: { ...shared.request, host: context.host } }
          : shared;
      const tableName = typedInput.TableName;
      // Only control-plane operations that change tables need the table as it was.
      const before =
        definition.changesTables && typeof tableName === 'string'
          ? actionContext.region.tables.get(tableName)
          : undefined;
      const output = definition.execute(actionContext, typedInput, prepared);
      if (sentTableName !== typedInput.TableName) answerAsSent(output, sentTableName as string);
      if (definition.changesTables) {
        const table = typeof tableName === 'string' ? actionContext.region.tables.get(tableName) : undefined;
        if (table !== undefined)
          this.tableChanged(actionContext.region, table, before === undefined ? 'created' : 'updated');
        else if (before !== undefined) this.tableChanged(actionContext.region, before, 'deleted');
      }
      return output;
    } catch (error) {
      if (error instanceof DynamoDbError) throw error;
      this.onInternalError(error, operation);
      throw new InternalServerError('Internal server error');
    }
  }

  /** The context actions see: one per region, made once (it holds nothing per request). */
  private actionContext(accountId: string, regionName: string): ActionContext {
    const region = this.region(accountId, regionName);
    const last = this.lastActionContext;
    if (last !== undefined && last.region === region) return last;
    const request: RequestContext = { accountId, region: regionName };
    this.lastActionContext = { engine: this, region, request };
    return this.lastActionContext;
  }

  private lastActionContext: ActionContext | undefined;

  /**
   * Finds a table for a data-plane call. Missing and CREATING tables answer
   * `Requested resource not found` (docs/dynamodb.md §4.1.5).
   */
  dataPlaneTable(region: Region, tableName: string, operation?: string): Table {
    // A TableName is resolved before the action runs; a batch key or a transaction action's
    // TableName may still be the table's ARN (docs/table-arns.md).
    const name =
      operation === undefined
        ? tableName
        : resolveTableName(tableName, { accountId: region.accountId, region: region.name }, operation);
    const table = region.tables.get(name);
    if (table === undefined || !table.readable) throw new ResourceNotFoundException();
    return table;
  }

  /**
   * Subscribes to table changes: created, updated (settings, status, indexes, streams, TTL,
   * tags) and deleted. Listeners see the table after the change. Returns the unsubscribe function.
   */
  onTableChange(listener: TableChangeListener): () => void {
    this.tableListeners.add(listener);
    return () => this.tableListeners.delete(listener);
  }

  /** Announces a table change (control-plane actions and status transitions call this). */
  tableChanged(region: Region, table: Table, kind: TableChangeKind): void {
    for (const listener of this.tableListeners) {
      try {
        listener({ region, table, kind });
      } catch (error) {
        this.onInternalError(error, 'table change listener');
      }
    }
  }

  /** Subscribes to committed changes (the commit port). Returns the unsubscribe function. */
  onCommit(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The commit point: applies the writes of one operation on one table and emits one change
   * event per changed item, in order, synchronously. A write that changes nothing emits nothing.
   */
  commit(
    region: Region,
    table: Table,
    writes: readonly ItemWrite[],
    identity?: ServiceIdentity,
  ): ChangeEvent[] {
    // The loop of commitAcross without an entry object per write (every single-item write
    // comes here).
    const commitId = ++this.commitCounter;
    const at = this.clock.now();
    const events: ChangeEvent[] = [];
    for (const write of writes) this.apply(region, table, write, commitId, at, identity, events);
    for (const event of events) this.emit(event);
    return events;
  }

  /**
   * Commits writes that may span tables (a transaction) as one unit: all are applied, then their
   * events are emitted together, in order, sharing one commit id.
   */
  commitAcross(
    region: Region,
    entries: readonly { table: Table; write: ItemWrite }[],
    identity?: ServiceIdentity,
  ): ChangeEvent[] {
    const commitId = ++this.commitCounter;
    const at = this.clock.now();
    const events: ChangeEvent[] = [];
    for (const { table, write } of entries) this.apply(region, table, write, commitId, at, identity, events);
    for (const event of events) this.emit(event);
    return events;
  }

  /** Applies one write of a commit; pushes its event unless it changes nothing. */
  private apply(
    region: Region,
    table: Table,
    write: ItemWrite,
    commitId: number,
    at: number,
    identity: ServiceIdentity | undefined,
    events: ChangeEvent[],
  ): void {
    const { key, previous, next } = write;
    if (previous === undefined && next === undefined) return;
    if (previous !== undefined && next !== undefined && previous.sameAs(next)) return;
    if (next === undefined) table.items.delete(key.hashKey, key.rangeKey);
    else table.items.set(key.hashKey, key.rangeKey, next);
    const eventName = previous === undefined ? 'INSERT' : next === undefined ? 'REMOVE' : 'MODIFY';
    const event = new ChangeEvent(
      ++this.sequence,
      commitId,
      table.ref(region.accountId, region.name),
      eventName,
      key.keys,
      itemKeyOf(key.hashKey, key.rangeKey),
      previous,
      next,
      at,
      identity,
    );
    // TTL upkeep (docs/streams-and-lambda.md §5.5): a single field check on tables without TTL.
    if (table.expiryIndex !== undefined) table.expiryIndex.onCommit(write, event.itemKey);
    // Asked first, so writes that touch no engine-kept index make no closures (~0.15 KB a PutItem
    // with GSIs kept by the gsi-maintainer, heap sampling).
    if (this.indexes.maintainsOnWrite(table))
      this.indexes.onWrite(
        table,
        write,
        () => event.oldImage,
        () => event.newImage,
      );
    // Global tables (docs/global-tables.md §3): a single field check on regional tables.
    if (table.replication !== undefined) table.replication.onCommit(region, key, event);
    events.push(event);
  }

  /**
   * The commit of a write that arrived by replication: the item as the other replica wrote it,
   * applied over what this replica holds (docs/global-tables.md §3). No caller identity: the
   * service's replication writes carry none in the replica's stream.
   */
  commitReplicated(region: Region, table: Table, key: ExtractedKey, next: StoredItem | undefined): void {
    const previous = table.items.get(key.hashKey, key.rangeKey);
    this.commit(region, table, [{ key, previous, next }]);
  }

  private emit(event: ChangeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // A listener's bug must never undo or block a committed write.
        this.onInternalError(error, 'commit listener');
      }
    }
  }
}

/**
 * "If you had specified the Amazon Resource Name (ARN) of a table in the input, you'll see the
 * table ARN in the response" (ConsumedCapacity.TableName,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ConsumedCapacity.html).
 */
function answerAsSent(output: Record<string, unknown>, sentTableName: string): void {
  const consumed = output.ConsumedCapacity as { TableName?: string } | undefined;
  if (consumed !== undefined && !Array.isArray(consumed) && consumed.TableName !== undefined)
    consumed.TableName = sentTableName;
}

/** Whether an operation's TableName may be a table's ARN (a name-or-ARN shape, `common.ts`). */
function takesTableArn(shape: Record<string, Shape>): boolean {
  const tableName = shape.TableName;
  return tableName !== undefined && tableName.kind === 'string' && tableName.names !== undefined;
}

/** Control-plane TableName checks come before the constraint list (docs/dynamodb.md §2.5.2). */
function checkControlPlaneTableName(tableName: unknown, checkLength: boolean): void {
  if (tableName === undefined) {
    throw new ValidationException("The parameter 'TableName' is required but was not present in the request");
  }
  // An ARN's length (up to 1024) is a constraint-list entry (docs/table-arns.md).
  if (!checkLength || (tableName as string).startsWith('arn:')) return;
  const length = (tableName as string).length;
  if (length < 3 || length > 255) {
    throw new ValidationException(
      'TableName must be at least 3 characters long and at most 255 characters long',
    );
  }
}
