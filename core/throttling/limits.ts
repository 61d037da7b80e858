/**
 * The documented numbers the capacity model runs on (docs/capacity.md §2).
 */
export const CapacityLimits = {
  /**
   * Unused capacity a provisioned table or GSI keeps for bursts: "up to 300 seconds"
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html).
   */
  burstSeconds: 300,
  /**
   * What one partition serves per second: 3,000 read and 1,000 write units
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html).
   */
  partitionReadUnits: 3000,
  partitionWriteUnits: 1000,
  /**
   * A new on-demand table "can instantly accommodate up to 4,000 writes per second and 12,000
   * reads per second", i.e. double a previous peak of 2,000 / 6,000
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html).
   */
  initialPeakReadUnits: 6000,
  initialPeakWriteUnits: 2000,
  /**
   * On-demand accommodates double the previous peak at once; "throttling can occur if you exceed
   * double your previous peak within 30 minutes" (same page): a new peak raises the allowance
   * 30 minutes after it was reached.
   */
  peakSettleMs: 30 * 60 * 1000,
  /**
   * The per-table default quota for on-demand tables and their GSIs: 40,000 read and 40,000 write
   * request units per second
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#default-limits-throughput).
   */
  tableQuotaReadUnits: 40_000,
  tableQuotaWriteUnits: 40_000,
} as const;
