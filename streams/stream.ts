import type { ChangeEvent } from '../core/changeEvent.js';
import type { KeySchemaElement, StreamViewType } from '../core/store/table.js';
import { EventLog } from './eventLog.js';
import { saltOf, shardIdOf } from './ids.js';
import { Shard, type ShardState } from './shard.js';

/** Timing and shape of streams (see `ChangeLogOptions` for the defaults and why). */
export interface StreamSettings {
  readonly shardCount: number;
  readonly rolloverMs: number;
  readonly retentionMs: number;
}

export interface StreamInit {
  readonly arn: string;
  readonly label: string;
  readonly viewType: StreamViewType;
  /**
   * When the stream was enabled (epoch ms): the time its label spells (docs/streams-and-lambda.md §1.4.4).
   */
  readonly createdAt: number;
  readonly accountId: string;
  readonly region: string;
  readonly tableName: string;
  /** The table incarnation the stream belongs to. */
  readonly tableId: string;
  readonly keySchema: readonly KeySchemaElement[];
  /** Salt of the eventIDs (default: derived from `tableId` and `arn`, see `ids.ts`). */
  readonly salt?: Uint32Array;
}

/**
 * What persistence keeps of a stream besides its records and shard positions: enough for
 * `new Stream(init, settings, restored)` to rebuild it exactly.
 */
export interface StreamState {
  readonly init: StreamInit & { readonly salt: Uint32Array };
  readonly disabledAt: number | undefined;
  readonly generationStart: number;
  /** Log position of the oldest retained record, and of the next record. */
  readonly head: number;
  readonly end: number;
  /** Retained shards, oldest first, and how many positions each retains. */
  readonly shards: readonly ShardState[];
  readonly shardSizes: readonly number[];
}

/** A stream's state with its records (`head`..`end`) and each shard's retained positions. */
export interface RestoredStream {
  readonly state: StreamState;
  readonly events: ChangeEvent[];
  readonly positions: number[][];
}

export type StreamStatus = 'ENABLING' | 'ENABLED' | 'DISABLING' | 'DISABLED';

/**
 * One DynamoDB stream (docs/streams-and-lambda.md §1): a log of the table's changes in commit order, split
 * into shards by item key. Every item key maps to the same open shard (hash of the encoded key), so the
 * records of one item stay on one shard in commit order (docs/streams-and-lambda.md §1.3.8, §1.3.9).
 *
 * Time-driven work (rollover, trimming, expiry after disabling) happens in `maintain(now)`, which
 * appends and reads call with the engine clock's time: nothing depends on timers, so a virtual
 * clock moves a stream through hours of life exactly.
 */
export class Stream implements StreamInit {
  readonly arn: string;
  readonly label: string;
  readonly viewType: StreamViewType;
  readonly createdAt: number;
  readonly accountId: string;
  readonly region: string;
  readonly tableName: string;
  readonly tableId: string;
  readonly keySchema: readonly KeySchemaElement[];
  /** Every record of the stream, all shards together, in commit order. */
  readonly log: EventLog;
  /** Salt of the eventIDs and shard ids (see `ids.ts`). */
  readonly salt: Uint32Array;
  /** When the stream was disabled (or its table deleted). */
  disabledAt: number | undefined;
  /** Retained shards, oldest first. */
  private shardList: Shard[] = [];
  private open: Shard[] = [];
  /** Start of the current shard generation. */
  private generationStart: number;
  private nextMaintenanceAt = 0;
  private readonly listeners = new Set<() => void>();
  /** While above 0, nothing is trimmed (see `holdTrimming`). */
  private trimHolds = 0;

  constructor(
    init: StreamInit,
    private readonly settings: StreamSettings,
    restored?: RestoredStream,
  ) {
    this.arn = init.arn;
    this.label = init.label;
    this.viewType = init.viewType;
    this.createdAt = init.createdAt;
    this.accountId = init.accountId;
    this.region = init.region;
    this.tableName = init.tableName;
    this.tableId = init.tableId;
    this.keySchema = init.keySchema;
    this.salt = init.salt ?? saltOf(`${init.tableId}|${init.arn}`);
    if (restored !== undefined) {
      const { state, events, positions } = restored;
      this.log = EventLog.restore(state.head, events);
      this.disabledAt = state.disabledAt;
      this.generationStart = state.generationStart;
      this.shardList = state.shards.map((shard, index) => Shard.restore(shard, positions[index] ?? []));
      this.open = this.shardList.filter((shard) => !shard.closed);
      return;
    }
    this.log = new EventLog();
    this.generationStart = init.createdAt;
    this.openGeneration(init.createdAt, undefined);
  }

  /** The stream's state for persistence (records and positions are read from `log` and shards). */
  exportState(): StreamState {
    return {
      init: {
        arn: this.arn,
        label: this.label,
        viewType: this.viewType,
        createdAt: this.createdAt,
        accountId: this.accountId,
        region: this.region,
        tableName: this.tableName,
        tableId: this.tableId,
        keySchema: this.keySchema.map((element) => ({ ...element })),
        salt: this.salt,
      },
      disabledAt: this.disabledAt,
      generationStart: this.generationStart,
      head: this.log.head,
      end: this.log.end,
      shards: this.shardList.map((shard) => shard.exportState()),
      shardSizes: this.shardList.map((shard) => shard.size),
    };
  }

  /**
   * Keeps every retained record and shard (rollover goes on) until the returned function is
   * called: a snapshot copies records and shard positions across many event-loop turns, and
   * must find them where they were. Trimming is late by the snapshot's duration at most.
   */
  holdTrimming(): () => void {
    this.trimHolds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.trimHolds--;
      this.nextMaintenanceAt = 0;
    };
  }

  get enabled(): boolean {
    return this.disabledAt === undefined;
  }

  /** Retained shards, oldest first (parents before children). */
  get shards(): readonly Shard[] {
    return this.shardList;
  }

  shard(id: string): Shard | undefined {
    return this.shardList.find((shard) => shard.id === id);
  }

  /** Ordinal the next appended record gets. */
  get nextOrdinal(): number {
    return this.log.end + 1;
  }

  /**
   * StreamStatus (docs/streams-and-lambda.md §1.4.8): ENABLING/DISABLING while the table's update that caused
   * them is still settling (the engine's transient delay), then ENABLED/DISABLED.
   */
  status(now: number, transientDelayMs: number): StreamStatus {
    if (this.disabledAt === undefined)
      return transientDelayMs > 0 && now < this.createdAt + transientDelayMs ? 'ENABLING' : 'ENABLED';
    return transientDelayMs > 0 && now < this.disabledAt + transientDelayMs ? 'DISABLING' : 'DISABLED';
  }

  /** Whether a disabled stream has outlived its retention and is gone (docs/streams-and-lambda.md §1.4.7). */
  expired(now: number): boolean {
    return this.disabledAt !== undefined && now >= this.disabledAt + this.settings.retentionMs;
  }

  /** Appends one committed change. The hot path: no decoding, no JSON, no string building. */
  append(event: ChangeEvent): void {
    if (this.disabledAt !== undefined) return;
    const at = event.at;
    if (at >= this.nextMaintenanceAt) this.maintain(at);
    if (this.log.size === 0)
      this.nextMaintenanceAt = Math.min(this.nextMaintenanceAt, at + this.settings.retentionMs);
    const position = this.log.append(event);
    const open = this.open;
    open[open.length === 1 ? 0 : hashKey(event.itemKey) % open.length]!.push(position);
    if (this.listeners.size !== 0) for (const listener of this.listeners) listener();
  }

  /**
   * Closes every open shard (docs/streams-and-lambda.md §1.4.7); the data stays readable for the retention
   * period.
   */
  disable(now: number): void {
    if (this.disabledAt !== undefined) return;
    this.maintain(now);
    this.disabledAt = now;
    for (const shard of this.open) shard.close(now);
    this.open = [];
    this.nextMaintenanceAt = 0;
    for (const listener of this.listeners) listener();
  }

  /** Called after every append and when the stream closes. Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `maintain(now)` when something is due: cheap enough to call on every read. */
  tick(now: number): void {
    if (now >= this.nextMaintenanceAt) this.maintain(now);
  }

  /**
   * Brings time-driven state up to `now`: shard rollover, then trimming
   * (docs/streams-and-lambda.md §1.4.5, §1.4.6).
   */
  maintain(now: number): void {
    if (this.disabledAt === undefined) this.rollover(now);
    if (this.trimHolds > 0) {
      this.nextMaintenanceAt =
        this.disabledAt === undefined ? this.generationStart + this.settings.rolloverMs : Infinity;
      return;
    }
    const cutoff = now - this.settings.retentionMs;
    const oldest = this.log.oldestAt;
    if (oldest !== undefined && oldest < cutoff) {
      this.log.trimTo(this.log.firstAtOrAfter(cutoff));
      for (const shard of this.shardList) shard.trimBelow(this.log.head);
    }
    // A closed shard goes once everything in it is past retention (its records predate closing).
    if (this.shardList.some((shard) => shard.closedAt !== undefined && shard.closedAt <= cutoff)) {
      this.shardList = this.shardList.filter(
        (shard) => shard.closedAt === undefined || shard.closedAt > cutoff,
      );
    }
    this.nextMaintenanceAt = this.nextDue();
  }

  private nextDue(): number {
    const retention = this.settings.retentionMs;
    let due = this.disabledAt === undefined ? this.generationStart + this.settings.rolloverMs : Infinity;
    const oldest = this.log.oldestAt;
    if (oldest !== undefined) due = Math.min(due, oldest + retention);
    for (const shard of this.shardList)
      if (shard.closedAt !== undefined) due = Math.min(due, shard.closedAt + retention);
    return due;
  }

  /**
   * Closes each open shard at every rollover boundary up to `now` and opens one child for each
   * (a parent with a single child, docs/streams-and-lambda.md §1.4.1). After a long idle gap the generations
   * that would already be trimmed are skipped; the first kept child names the last closed shard as parent.
   */
  private rollover(now: number): void {
    const period = this.settings.rolloverMs;
    if (now < this.generationStart + period) return;
    const keep = Math.ceil(this.settings.retentionMs / period) + 1;
    const boundaries = Math.floor((now - this.generationStart) / period);
    for (let step = 1; step <= boundaries; step++) {
      const boundary = this.generationStart + period;
      const parents = this.open;
      for (const shard of parents) shard.close(boundary);
      // Skip generations that would be born and trimmed within this gap.
      const skip = boundaries - step > keep ? boundaries - step - keep : 0;
      step += skip;
      this.generationStart = boundary + skip * period;
      this.openGeneration(this.generationStart, parents);
    }
  }

  private openGeneration(at: number, parents: Shard[] | undefined): void {
    const count = parents?.length ?? this.settings.shardCount;
    const start = this.nextOrdinal;
    const shards: Shard[] = [];
    for (let index = 0; index < count; index++)
      shards.push(new Shard(at, start, parents?.[index]?.id, shardIdOf(this.salt, at, index)));
    this.open = shards;
    this.shardList.push(...shards);
  }
}

/** FNV-1a over the encoded item key: stable, so one key always lands on the same open shard. */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
