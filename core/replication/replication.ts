import type { ChangeEvent } from '../changeEvent.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { Region } from '../store/region.js';
import type { StoredItem } from '../store/storedItem.js';
import type { Table } from '../store/table.js';
import type { ExtractedKey } from '../validations/keys.js';
import { type Delivery, type DeliverySink, ReplicaGroup, type WriteStamp } from './replicaGroup.js';

export interface ReplicationOptions {
  /**
   * How long a write takes to reach the other replicas, in ms (default 0: at the next turn of
   * the event loop). DynamoDB usually replicates "within a second"
   * (https://docs.aws.amazon.com/prescriptive-guidance/latest/dynamodb-global-tables/overview.html);
   * `eddy serve` sets 1000.
   */
  readonly lagMs?: number;
}

/** What replication needs of the engine: its clock and its commit point. */
export interface ReplicationHost {
  readonly clock: Clock;
  commitReplicated(region: Region, table: Table, key: ExtractedKey, next: StoredItem | undefined): void;
}

/**
 * The engine's replication of global tables (docs/global-tables.md §3): every write committed in
 * one replica is delivered to every other replica after `lagMs`, in commit order, and applied
 * through the commit point there. Deliveries wait while paused, as a GSI does while its
 * maintainer is paused; `settle` applies every delivery already due.
 */
export class Replication implements DeliverySink {
  lagMs: number;
  private readonly initialLagMs: number;
  private paused = false;
  private queue: Delivery[] = [];
  private timer: TimerHandle | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private microtask = false;

  constructor(
    private readonly host: ReplicationHost,
    options: ReplicationOptions = {},
  ) {
    this.lagMs = options.lagMs ?? 0;
    this.initialLagMs = this.lagMs;
  }

  /** A new group (UpdateTable ReplicaUpdates Create, a template's GlobalTable). */
  newGroup(): ReplicaGroup {
    return new ReplicaGroup(this);
  }

  send(group: ReplicaGroup, from: string, key: ExtractedKey, event: ChangeEvent, stamp: WriteStamp): void {
    const dueAt = this.host.clock.now() + this.lagMs;
    for (const to of group.members.keys()) {
      if (to === from) continue;
      this.queue.push({ group, to, key, itemKey: event.itemKey, next: event.newItem, stamp, dueAt });
    }
    this.arm();
  }

  /**
   * Queues a write again after a restart (docs/global-tables.md §7): the item `from` holds, to
   * `to`, due at once, stamped now (stamps start afresh after a restart, so it wins over nothing
   * `to` has applied since).
   */
  redeliver(
    group: ReplicaGroup,
    from: string,
    to: string,
    key: ExtractedKey,
    itemKey: string,
    next: StoredItem | undefined,
  ): void {
    const now = this.host.clock.now();
    const stamp: WriteStamp = { at: now, counter: 0, region: from };
    this.queue.push({ group, to, key, itemKey, next, stamp, dueAt: now });
    this.arm();
  }

  /**
   * Applies every queued delivery now, due or not, paused or not: a clean stop delivers what
   * waits for the lag, so the log holds it before eddy exits (docs/global-tables.md §7).
   */
  flush(): void {
    const queue = this.queue;
    this.queue = [];
    if (this.timer !== undefined) this.host.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    for (const delivery of queue)
      delivery.group.apply(delivery, (region, table, key, next) =>
        this.host.commitReplicated(region, table, key, next),
      );
  }

  /**
   * The keys of the writes of `regionName`'s replica of `group` still waiting to reach another
   * replica (a data directory's snapshot keeps them, docs/global-tables.md §7).
   */
  pendingFrom(group: ReplicaGroup, regionName: string): ExtractedKey[] {
    const keys = new Map<string, ExtractedKey>();
    for (const delivery of this.queue)
      if (delivery.group === group && delivery.stamp.region === regionName)
        keys.set(delivery.itemKey, delivery.key);
    return [...keys.values()];
  }

  /** Stops delivering (writes queue up) until `resume`. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.arm();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Writes committed and not yet applied in every replica. */
  get pending(): number {
    return this.queue.length;
  }

  /** Applies every delivery that is due (none while paused). */
  deliverDue(): void {
    if (this.paused) return;
    const now = this.host.clock.now();
    let index = 0;
    // Deliveries are queued in commit order with one lag, so due ones are a prefix.
    while (index < this.queue.length && this.queue[index]!.dueAt <= now) {
      const delivery = this.queue[index]!;
      index++;
      delivery.group.apply(delivery, (region, table, key, next) =>
        this.host.commitReplicated(region, table, key, next),
      );
    }
    if (index > 0) this.queue = this.queue.slice(index);
    this.arm();
  }

  /** For `Engine.settled`: what is due is applied. */
  settle(): Promise<void> {
    this.deliverDue();
    return Promise.resolve();
  }

  /** Forgets queued deliveries and timers, back to the first lag (the engine's reset). */
  reset(): void {
    this.lagMs = this.initialLagMs;
    this.queue = [];
    if (this.timer !== undefined) this.host.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    this.paused = false;
  }

  private arm(): void {
    if (this.paused || this.queue.length === 0) return;
    const due = this.queue[0]!.dueAt;
    if (due <= this.host.clock.now()) {
      // Due now: after the current commit and its listeners, never inside them.
      if (!this.microtask) {
        this.microtask = true;
        queueMicrotask(() => {
          this.microtask = false;
          this.deliverDue();
        });
      }
      return;
    }
    if (this.timer !== undefined && this.timerDue <= due) return;
    if (this.timer !== undefined) this.host.clock.clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = this.host.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Number.POSITIVE_INFINITY;
      this.deliverDue();
    }, due - this.host.clock.now());
  }
}
