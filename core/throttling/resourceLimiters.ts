import { CapacityLimits } from './limits.js';
import { partitionOf } from './partitions.js';
import { Second } from './second.js';
import type { Access, ThrottleLimit } from './throttle.js';
import { TokenBucket } from './tokenBucket.js';

/**
 * A provisioned table or GSI (docs/capacity.md §2.1): one bucket for reads and one for writes,
 * filled at the provisioned rate and holding up to `burstSeconds` of it (at least one second's).
 * Rates are read on every check, so an UpdateTable applies as soon as eddy applies it.
 */
export class ProvisionedLimiter {
  private readonly buckets: { Read?: TokenBucket; Write?: TokenBucket } = {};

  constructor(private readonly burstSeconds: number) {}

  check(access: Access, rate: number, now: number): ThrottleLimit | undefined {
    return this.bucket(access, rate, now).admits(now) ? undefined : 'ProvisionedThroughputExceeded';
  }

  take(access: Access, rate: number, units: number, now: number): void {
    this.bucket(access, rate, now).take(units, now);
  }

  /** `check` then `take` in one pass (one bucket lookup, one fill): the common request's path. */
  admit(access: Access, rate: number, units: number, now: number): ThrottleLimit | undefined {
    const bucket = this.bucket(access, rate, now);
    if (bucket.available(now) <= 0) return 'ProvisionedThroughputExceeded';
    bucket.debit(units);
    return undefined;
  }

  /** New rates from `now` on (UpdateTable): the buckets filled at the old ones until now. */
  retune(readRate: number, writeRate: number, now: number): void {
    if (this.buckets.Read !== undefined) this.bucket('Read', readRate, now);
    if (this.buckets.Write !== undefined) this.bucket('Write', writeRate, now);
  }

  private bucket(access: Access, rate: number, now: number): TokenBucket {
    const ceiling = rate * Math.max(1, this.burstSeconds);
    let bucket = this.buckets[access];
    if (bucket === undefined) {
      bucket = new TokenBucket(rate, ceiling, now);
      this.buckets[access] = bucket;
    } else bucket.resize(rate, ceiling, now);
    return bucket;
  }
}

/**
 * The highest consumption of one second seen on a resource, and the peaks reached lately that
 * count only once `CapacityLimits.peakSettleMs` has passed (docs/capacity.md §2.2).
 */
class PeakTracker {
  /** The second `units` counts. */
  private readonly second = new Second();
  private units = 0;
  private readonly pending: { at: number; value: number }[] = [];

  constructor(private peak: number) {}

  record(units: number, now: number): void {
    if (this.second.left(now)) this.roll(now);
    this.units += units;
  }

  /** The peak that counts now. */
  settled(now: number): number {
    this.roll(now);
    while (this.pending.length > 0 && this.pending[0]!.at + CapacityLimits.peakSettleMs <= now) {
      this.peak = Math.max(this.peak, this.pending.shift()!.value);
    }
    return this.peak;
  }

  private roll(now: number): void {
    const previous = this.second.index;
    if (!this.second.enter(now)) return;
    const highest = this.pending.at(-1)?.value ?? this.peak;
    if (this.units > highest) this.pending.push({ at: previous * 1000, value: this.units });
    this.units = 0;
  }
}

interface AccessLimits {
  readonly partitionUnits: number;
  readonly quota: TokenBucket;
  readonly peak: PeakTracker;
  /** The whole key space: partitions × what one serves (made by the first `repartition`). */
  aggregate: TokenBucket | undefined;
  /** Partitions that served a keyed request, by number (an array: no hashing per request). */
  partitions: (TokenBucket | undefined)[];
  maximum: TokenBucket | undefined;
}

/**
 * An on-demand table or GSI (docs/capacity.md §2.2). Limits, checked in this order:
 * `OnDemandThroughput` maximums (MaxOnDemandThroughputExceeded), the per-table quota
 * (AccountLimitExceeded), then the partitions (KeyRangeThroughputExceeded): the key space holds
 * enough partitions for double the settled peak, each serving 3,000 RRU / 1,000 WRU per second,
 * and a keyed request also needs its own partition to have room. Every bucket holds one second.
 */
export class OnDemandLimiter {
  private partitions = 0;
  private readonly limits: Record<Access, AccessLimits>;
  /** The second partitions were last sized in: peaks settle on whole seconds. */
  private readonly sized = new Second();
  /** The last key placed, and its partition (a check and its take place the same key). */
  private lastKey: string | undefined;
  private lastPartition = 0;

  constructor(now: number) {
    this.limits = {
      Read: this.accessLimits(
        CapacityLimits.partitionReadUnits,
        CapacityLimits.tableQuotaReadUnits,
        CapacityLimits.initialPeakReadUnits,
        now,
      ),
      Write: this.accessLimits(
        CapacityLimits.partitionWriteUnits,
        CapacityLimits.tableQuotaWriteUnits,
        CapacityLimits.initialPeakWriteUnits,
        now,
      ),
    };
    this.repartition(now);
  }

  /** How many partitions the key space has now. */
  partitionCount(now: number): number {
    this.repartition(now);
    return this.partitions;
  }

  check(
    access: Access,
    hashKey: string | undefined,
    maximum: number | undefined,
    now: number,
  ): ThrottleLimit | undefined {
    this.repartition(now);
    return this.refusal(this.limits[access], hashKey, maximum, now);
  }

  /**
   * `check` then `take` in one call, for a request that only this resource serves
   * (docs/capacity.md §9): a new second is told without a division, the buckets `refusal` filled
   * to `now` have nothing more to fill, and the partition is the one it found (`lastKey`). With
   * CapacityMetrics.consumed, about 39 ns of CPU a request (3M calls, best of seven, 2026-11-27);
   * `npm run bench -- capacity` puts the write charge at 81 ns in a PutItem of ~3,400 ns.
   */
  admit(
    access: Access,
    units: number,
    hashKey: string | undefined,
    maximum: number | undefined,
    now: number,
  ): ThrottleLimit | undefined {
    if (this.sized.left(now)) this.repartition(now);
    const limits = access === 'Read' ? this.limits.Read : this.limits.Write;
    const refused = this.refusal(limits, hashKey, maximum, now);
    if (refused === undefined) this.charge(limits, units, hashKey, now);
    return refused;
  }

  take(access: Access, units: number, hashKey: string | undefined, now: number): void {
    this.charge(this.limits[access], units, hashKey, now);
  }

  /** The first limit with no room now, in the order the class comment gives. */
  private refusal(
    limits: AccessLimits,
    hashKey: string | undefined,
    maximum: number | undefined,
    now: number,
  ): ThrottleLimit | undefined {
    if (maximum !== undefined || limits.maximum !== undefined) {
      const cap = this.maximumBucket(limits, maximum, now);
      if (cap !== undefined && cap.available(now) <= 0) return 'MaxOnDemandThroughputExceeded';
    }
    if (limits.quota.available(now) <= 0) return 'AccountLimitExceeded';
    if (limits.aggregate!.available(now) <= 0) return 'KeyRangeThroughputExceeded';
    if (hashKey !== undefined && this.partitionBucket(limits, hashKey, now).available(now) <= 0)
      return 'KeyRangeThroughputExceeded';
    return undefined;
  }

  /** Every limit takes `units` (filling to `now` first: nothing to fill right after `refusal`). */
  private charge(limits: AccessLimits, units: number, hashKey: string | undefined, now: number): void {
    limits.maximum?.take(units, now);
    limits.quota.take(units, now);
    limits.aggregate!.take(units, now);
    if (hashKey !== undefined) this.partitionBucket(limits, hashKey, now).take(units, now);
    limits.peak.record(units, now);
  }

  private accessLimits(partitionUnits: number, quota: number, peak: number, now: number): AccessLimits {
    return {
      partitionUnits,
      quota: new TokenBucket(quota, quota, now),
      peak: new PeakTracker(peak),
      aggregate: undefined,
      partitions: [],
      maximum: undefined,
    };
  }

  /** Partitions split (never merge) to hold double the settled peak of reads and of writes. */
  private repartition(now: number): void {
    if (!this.sized.enter(now)) return;
    const { Read, Write } = this.limits;
    const needed = Math.max(
      1,
      Math.ceil((2 * Read.peak.settled(now)) / Read.partitionUnits),
      Math.ceil((2 * Write.peak.settled(now)) / Write.partitionUnits),
    );
    if (needed <= this.partitions) return;
    this.partitions = needed;
    for (const limits of [Read, Write]) {
      const rate = needed * limits.partitionUnits;
      // New key ranges: the split partitions start afresh, with their full second.
      limits.aggregate = new TokenBucket(rate, rate, now);
      limits.partitions = [];
    }
    this.lastKey = undefined;
  }

  private partitionBucket(limits: AccessLimits, hashKey: string, now: number): TokenBucket {
    if (hashKey !== this.lastKey) {
      this.lastKey = hashKey;
      this.lastPartition = partitionOf(hashKey, this.partitions);
    }
    const partition = this.lastPartition;
    let bucket = limits.partitions[partition];
    if (bucket === undefined) {
      bucket = new TokenBucket(limits.partitionUnits, limits.partitionUnits, now);
      limits.partitions[partition] = bucket;
    }
    return bucket;
  }

  private maximumBucket(limits: AccessLimits, maximum: number | undefined, now: number) {
    if (maximum === undefined || maximum < 1) {
      limits.maximum = undefined;
      return undefined;
    }
    if (limits.maximum === undefined) limits.maximum = new TokenBucket(maximum, maximum, now);
    else limits.maximum.resize(maximum, maximum, now);
    return limits.maximum;
  }
}
