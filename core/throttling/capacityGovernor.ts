import type { Clock } from '../clock.js';
import {
  type CancellationReason,
  type DynamoDbError,
  InternalServerError,
  TransactionCanceledException,
} from '../errors/index.js';
import { countKey } from '../insights/contributorInsights.js';
import type { SecondaryIndex, Table } from '../store/table.js';
import { FaultInjector, type FaultKind } from './faults.js';
import { CapacityLimits } from './limits.js';
import { CapacityMetrics } from './metrics.js';
import { OnDemandLimiter, ProvisionedLimiter } from './resourceLimiters.js';
import {
  type Access,
  type Throttle,
  type ThrottleLimit,
  throttleCancellation,
  throttleError,
} from './throttle.js';

/** How capacity is enforced (`eddy serve --capacity enforce`, the config's `capacity` block). */
export interface CapacityOptions {
  /** `'enforce'` throttles as DynamoDB does; `'off'` (default) never throttles. */
  readonly mode?: 'off' | 'enforce';
  /** With `enforce`: only these tables (default: every table). */
  readonly tables?: readonly string[];
  /** Unused capacity a provisioned table or GSI keeps, in seconds (default 300, as DynamoDB). */
  readonly burstSeconds?: number;
}

/** A read to charge: units as ConsumedCapacity reports them, and where it read. */
export interface ReadCharge {
  readonly units: number;
  /** The encoded partition key value a GetItem or table Query read (Scan: none). */
  readonly hashKey?: string | undefined;
  /** The index a Query or Scan read (a GSI has its own capacity; an LSI shares the table's). */
  readonly index?: SecondaryIndex | undefined;
}

/** A write to charge: the table's units (LSIs included) and each GSI's, by name. */
export interface WriteCharge {
  readonly units: number;
  readonly hashKey: string;
  readonly globalIndexes?: Readonly<Record<string, number>> | undefined;
}

export type Charge =
  | { readonly access: 'Read'; readonly charge: ReadCharge }
  | {
      readonly access: 'Write';
      readonly charge: WriteCharge;
    };

interface TableState {
  readonly billingMode: Table['billingMode'];
  readonly limiter: ProvisionedLimiter | OnDemandLimiter;
  readonly indexes: Map<SecondaryIndex, ProvisionedLimiter | OnDemandLimiter>;
}

/** One resource's share of a request. */
interface Share {
  readonly table: Table;
  readonly index: SecondaryIndex | undefined;
  readonly access: Access;
  readonly units: number;
  readonly hashKey: string | undefined;
}

/**
 * The capacity model (docs/capacity.md): token buckets per table and GSI, consulted by the data-
 * plane actions just before their commit (writes) or after their read (reads), with the exact
 * units ConsumedCapacity reports. Off by default: `active` is false and the actions skip it.
 *
 * Entry points for other request paths (PartiQL, ...): `read` / `write` throw the service's
 * throttling exception; `readOutcome` / `writeOutcome` return it instead (batches put the item in
 * UnprocessedItems); `transaction` cancels a whole transaction.
 *
 * @example
 * ```ts
 * const engine = new Engine({ capacity: { mode: 'enforce' } });
 * // in an action, before engine.commit(...):
 * if (engine.capacity.active) engine.capacity.write(table, { units: 1, hashKey: write.key.hashKey });
 * ```
 */
export class CapacityGovernor {
  /** Whether any request must be charged: enforcement is on, or a fault is waiting. */
  active = false;
  readonly metrics = new CapacityMetrics();
  private readonly faults = new FaultInjector();
  private readonly states = new WeakMap<Table, TableState>();
  private mode: 'off' | 'enforce';
  private tables: ReadonlySet<string> | undefined;
  private readonly burstSeconds: number;
  /** Some table or index counts its keys for Contributor Insights (core/insights/). */
  private insights = false;

  constructor(
    private readonly clock: Clock,
    options: CapacityOptions = {},
  ) {
    this.mode = options.mode ?? 'off';
    this.tables = options.tables === undefined ? undefined : new Set(options.tables);
    this.burstSeconds = options.burstSeconds ?? CapacityLimits.burstSeconds;
    this.refresh();
  }

  /** Enforces capacity on these tables too (none named: on every table). */
  enforce(tableNames?: readonly string[]): void {
    if (tableNames === undefined) this.tables = undefined;
    else if (this.mode === 'off') this.tables = new Set(tableNames);
    else if (this.tables !== undefined) this.tables = new Set([...this.tables, ...tableNames]);
    this.mode = 'enforce';
    this.refresh();
  }

  /** Back to no enforcement and no faults; buckets and figures are forgotten. */
  reset(options: CapacityOptions = {}): void {
    this.mode = options.mode ?? 'off';
    this.tables = options.tables === undefined ? undefined : new Set(options.tables);
    this.faults.clear();
    this.metrics.clear();
    this.refresh();
  }

  /** Whether capacity is enforced on a table. */
  enforces(table: Table): boolean {
    return this.mode === 'enforce' && (this.tables === undefined || this.tables.has(table.name));
  }

  /** Fault injection: the next `times` requests on the table meet `kind`. */
  injectFault(tableName: string, kind: FaultKind, times = 1): void {
    this.faults.add(tableName, kind, times);
    this.refresh();
  }

  /**
   * A table's settings changed (UpdateTable): provisioned buckets take their new rates from now
   * on, having filled at the old ones until now.
   */
  tableChanged(table: Table): void {
    const state = this.states.get(table);
    if (state === undefined) return;
    const now = this.clock.now();
    if (state.billingMode !== table.billingMode) {
      this.states.delete(table);
      return;
    }
    const retune = (
      limiter: ProvisionedLimiter | OnDemandLimiter,
      throughput: Table['throughput'] | undefined,
    ) => {
      if (limiter instanceof ProvisionedLimiter)
        limiter.retune(throughput?.readCapacityUnits ?? 0, throughput?.writeCapacityUnits ?? 0, now);
    };
    retune(state.limiter, table.throughput);
    for (const [index, limiter] of state.indexes) {
      if (table.globalSecondaryIndexes.get(index.name) !== index) state.indexes.delete(index);
      else retune(limiter, index.throughput);
    }
  }

  read(table: Table, charge: ReadCharge): void {
    const error = this.readOutcome(table, charge);
    if (error !== undefined) throw error;
  }

  /**
   * `read` of one table's item by its partition key (GetItem, a keyed PartiQL SELECT): the same
   * charge with no charge object made per request (docs/capacity.md §9).
   */
  readItem(table: Table, units: number, hashKey: string): void {
    const error = this.readKeyed(table, undefined, units, hashKey);
    if (error !== undefined) throw error;
  }

  write(table: Table, charge: WriteCharge): void {
    const error = this.writeOutcome(table, charge);
    if (error !== undefined) throw error;
  }

  readOutcome(table: Table, charge: ReadCharge): DynamoDbError | undefined {
    // An LSI reads the table's capacity (docs/dynamodb.md §4.3.3).
    const gsi = charge.index?.kind === 'GSI' ? charge.index : undefined;
    return this.readKeyed(table, gsi, charge.units, charge.hashKey);
  }

  /** An injected fault, else the admission of `units` (a GSI's partitions are not modelled). */
  private readKeyed(
    table: Table,
    gsi: SecondaryIndex | undefined,
    units: number,
    hashKey: string | undefined,
  ): DynamoDbError | undefined {
    const outcome =
      this.fault(table, 'Read') ??
      (this.enforces(table)
        ? this.admitOne(table, gsi, 'Read', units, gsi ? undefined : hashKey)
        : undefined);
    if (this.insights) countKey(table, gsi?.name, hashKey, outcome !== undefined);
    return outcome;
  }

  writeOutcome(table: Table, charge: WriteCharge): DynamoDbError | undefined {
    const outcome = this.writeAdmission(table, charge);
    if (this.insights) countKey(table, undefined, charge.hashKey, outcome !== undefined);
    return outcome;
  }

  private writeAdmission(table: Table, charge: WriteCharge): DynamoDbError | undefined {
    const fault = this.fault(table, 'Write');
    if (fault !== undefined) return fault;
    if (!this.enforces(table)) return undefined;
    if (charge.globalIndexes === undefined)
      return this.admitOne(table, undefined, 'Write', charge.units, charge.hashKey);
    return this.admit(writeShares(table, charge));
  }

  /**
   * Capacity a request consumed after it was answered, without admission: the prepare phase of a
   * cancelled transaction (docs/capacity.md §5). The buckets may go below zero; metrics count it.
   */
  consume(table: Table, access: Access, units: number, hashKey?: string): void {
    if (!this.enforces(table) || units <= 0) return;
    this.take([{ table, index: undefined, access, units, hashKey }], this.clock.now());
  }

  /**
   * A transaction (units already doubled) is admitted or cancelled as a whole: every action of a
   * throttled table or GSI carries ProvisionedThroughputExceeded or ThrottlingError, the others
   * None (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
   */
  transaction(actions: readonly { readonly table: Table; readonly charge: Charge }[]): void {
    const now = this.clock.now();
    const reasons: CancellationReason[] = actions.map(() => ({ Code: 'None' }));
    let cancelled = false;
    const admitted: Share[] = [];
    actions.forEach(({ table, charge }, position) => {
      const fault = this.fault(table, charge.access);
      if (fault instanceof InternalServerError) throw fault;
      const shares = this.enforces(table) ? sharesOf(table, charge) : [];
      const throttles =
        fault === undefined ? this.check(shares, now) : [injectedThrottle(table, charge.access)];
      if (throttles !== NONE) {
        reasons[position] = throttleCancellation(throttles);
        cancelled = true;
      } else admitted.push(...shares);
    });
    if (this.insights)
      actions.forEach(({ table, charge }, position) => {
        const throttled = reasons[position]!.Code !== 'None';
        if (throttled || !cancelled) countKey(table, undefined, charge.charge.hashKey, throttled);
      });
    if (cancelled) throw new TransactionCanceledException(reasons);
    this.take(admitted, now);
  }

  private refresh(): void {
    this.active = this.mode === 'enforce' || this.faults.pending || this.insights;
  }

  /**
   * Contributor Insights counts keys on some table or none: while some do, every request passes
   * here, so tables without insights pay nothing when no table has them.
   */
  insightsChanged(counting: boolean): void {
    this.insights = counting;
    this.refresh();
  }

  private fault(table: Table, access: Access): DynamoDbError | undefined {
    if (!this.faults.pending) return undefined;
    const kind = this.faults.take(table.name);
    this.refresh();
    if (kind === undefined) return undefined;
    if (kind === 'InternalServerError') return new InternalServerError('Internal server error');
    this.metrics.throttled(table.arn, table.name, undefined, access, this.clock.now());
    return throttleError([injectedThrottle(table, access)]);
  }

  /** `admit` for a request that only one resource serves (most): no arrays, one limiter lookup. */
  private admitOne(
    table: Table,
    index: SecondaryIndex | undefined,
    access: Access,
    units: number,
    hashKey: string | undefined,
  ): DynamoDbError | undefined {
    const now = this.clock.now();
    const limiter = this.limiter(table, index, now);
    const limit: ThrottleLimit | undefined =
      limiter instanceof ProvisionedLimiter
        ? limiter.admit(access, provisionedRate(table, index, access), units, now)
        : limiter.admit(access, units, hashKey, onDemandMaximum(table, index, access), now);
    const arn = index?.arn ?? table.arn;
    if (limit === undefined) {
      this.metrics.consumed(arn, table.name, index?.name, access, units, now);
      return undefined;
    }
    this.metrics.throttled(arn, table.name, index?.name, access, now);
    return throttleError([{ resource: index ? 'Index' : 'Table', access, limit, arn }]);
  }

  private admit(shares: readonly Share[]): DynamoDbError | undefined {
    const now = this.clock.now();
    const throttles = this.check(shares, now);
    if (throttles !== NONE) return throttleError(throttles);
    this.take(shares, now);
    return undefined;
  }

  /** Every resource that cannot serve its share now (`NONE`: all can). */
  private check(shares: readonly Share[], now: number): readonly Throttle[] {
    let throttles: Throttle[] | undefined;
    for (const share of shares) {
      const limiter = this.limiter(share.table, share.index, now);
      const limit =
        limiter instanceof ProvisionedLimiter
          ? limiter.check(share.access, provisionedRate(share.table, share.index, share.access), now)
          : limiter.check(
              share.access,
              share.hashKey,
              onDemandMaximum(share.table, share.index, share.access),
              now,
            );
      if (limit === undefined) continue;
      const arn = share.index?.arn ?? share.table.arn;
      this.metrics.throttled(arn, share.table.name, share.index?.name, share.access, now);
      (throttles ??= []).push({
        resource: share.index ? 'Index' : 'Table',
        access: share.access,
        limit,
        arn,
      });
    }
    return throttles ?? NONE;
  }

  private take(shares: readonly Share[], now: number): void {
    for (const share of shares) {
      const limiter = this.limiter(share.table, share.index, now);
      if (limiter instanceof ProvisionedLimiter)
        limiter.take(share.access, provisionedRate(share.table, share.index, share.access), share.units, now);
      else limiter.take(share.access, share.units, share.hashKey, now);
      const arn = share.index?.arn ?? share.table.arn;
      this.metrics.consumed(arn, share.table.name, share.index?.name, share.access, share.units, now);
    }
  }

  /** The table's (or GSI's) limiter, made afresh when the table changes billing mode. */
  private limiter(table: Table, index: SecondaryIndex | undefined, now: number) {
    let state = this.states.get(table);
    if (state === undefined || state.billingMode !== table.billingMode) {
      state = {
        billingMode: table.billingMode,
        limiter: this.newLimiter(table, now),
        indexes: new Map(),
      };
      this.states.set(table, state);
    }
    if (index === undefined) return state.limiter;
    let limiter = state.indexes.get(index);
    if (limiter === undefined) {
      limiter = this.newLimiter(table, now);
      state.indexes.set(index, limiter);
    }
    return limiter;
  }

  private newLimiter(table: Table, now: number): ProvisionedLimiter | OnDemandLimiter {
    return table.billingMode === 'PROVISIONED'
      ? new ProvisionedLimiter(this.burstSeconds)
      : new OnDemandLimiter(now);
  }
}

/** What `check` answers when every resource can serve (no array made per request). */
const NONE: readonly Throttle[] = Object.freeze([]);

/** A table's write and its GSIs' writes; an LSI's share is already in the table's units. */
function writeShares(table: Table, charge: WriteCharge): Share[] {
  const shares: Share[] = [
    { table, index: undefined, access: 'Write', units: charge.units, hashKey: charge.hashKey },
  ];
  if (charge.globalIndexes === undefined) return shares;
  for (const [name, units] of Object.entries(charge.globalIndexes)) {
    const index = table.globalSecondaryIndexes.get(name);
    if (index !== undefined && units > 0)
      shares.push({ table, index, access: 'Write', units, hashKey: undefined });
  }
  return shares;
}

function sharesOf(table: Table, charge: Charge): Share[] {
  if (charge.access === 'Write') return writeShares(table, charge.charge);
  const { index, units, hashKey } = charge.charge;
  // An LSI reads the table's capacity (docs/dynamodb.md §4.3.3).
  const gsi = index?.kind === 'GSI' ? index : undefined;
  return [{ table, index: gsi, access: 'Read', units, hashKey: gsi ? undefined : hashKey }];
}

function provisionedRate(table: Table, index: SecondaryIndex | undefined, access: Access): number {
  const throughput = index ? index.throughput : table.throughput;
  if (throughput === undefined) return 0;
  return access === 'Read' ? throughput.readCapacityUnits : throughput.writeCapacityUnits;
}

function onDemandMaximum(
  table: Table,
  index: SecondaryIndex | undefined,
  access: Access,
): number | undefined {
  const maximums = index ? index.onDemandThroughput : table.onDemandThroughput;
  return access === 'Read' ? maximums?.maxReadRequestUnits : maximums?.maxWriteRequestUnits;
}

/**
 * An injected throttle reads as the table's own: provisioned tables run out of provisioned
 * throughput, on-demand tables meet a hot key range (docs/capacity.md §6).
 */
function injectedThrottle(table: Table, access: Access): Throttle {
  return {
    resource: 'Table',
    access,
    limit:
      table.billingMode === 'PROVISIONED' ? 'ProvisionedThroughputExceeded' : 'KeyRangeThroughputExceeded',
    arn: table.arn,
  };
}
