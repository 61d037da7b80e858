import type { Access } from './throttle.js';

/**
 * CloudWatch-style figures per table and GSI (docs/capacity.md §7): consumed units and throttled
 * requests since start, and the last whole second's consumption, as
 * `ConsumedReadCapacityUnits` / `ReadThrottleEvents` and their write twins report them
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html).
 * Kept only while a table is enforced or has faults injected.
 */
export interface ResourceFigures {
  readonly table: string;
  readonly index?: string;
  consumedReadCapacityUnits: number;
  consumedWriteCapacityUnits: number;
  readThrottleEvents: number;
  writeThrottleEvents: number;
  /** Units consumed during the last whole second. */
  readUnitsLastSecond: number;
  writeUnitsLastSecond: number;
}

interface Tally {
  readonly figures: ResourceFigures;
  window: number;
  /** Where the window starts (epoch ms): a new second is told by comparisons, not a division. */
  from: number;
  read: number;
  write: number;
}

export class CapacityMetrics {
  private readonly tallies = new Map<string, Tally>();

  consumed(
    arn: string,
    table: string,
    index: string | undefined,
    access: Access,
    units: number,
    now: number,
  ) {
    const tally = this.tally(arn, table, index, now);
    if (access === 'Read') {
      tally.figures.consumedReadCapacityUnits += units;
      tally.read += units;
    } else {
      tally.figures.consumedWriteCapacityUnits += units;
      tally.write += units;
    }
  }

  throttled(arn: string, table: string, index: string | undefined, access: Access, now: number) {
    const tally = this.tally(arn, table, index, now);
    if (access === 'Read') tally.figures.readThrottleEvents++;
    else tally.figures.writeThrottleEvents++;
  }

  /** Every resource's figures, tables before their indexes. */
  snapshot(now: number): ResourceFigures[] {
    const figures: ResourceFigures[] = [];
    for (const tally of this.tallies.values()) {
      this.roll(tally, now);
      figures.push({ ...tally.figures });
    }
    return figures.sort(
      (a, b) => a.table.localeCompare(b.table) || (a.index ?? '').localeCompare(b.index ?? ''),
    );
  }

  clear(): void {
    this.tallies.clear();
  }

  private tally(arn: string, table: string, index: string | undefined, now: number): Tally {
    let tally = this.tallies.get(arn);
    if (tally === undefined) {
      const figures: ResourceFigures = {
        table,
        ...(index === undefined ? {} : { index }),
        consumedReadCapacityUnits: 0,
        consumedWriteCapacityUnits: 0,
        readThrottleEvents: 0,
        writeThrottleEvents: 0,
        readUnitsLastSecond: 0,
        writeUnitsLastSecond: 0,
      };
      const window = Math.floor(now / 1000);
      tally = { figures, window, from: window * 1000, read: 0, write: 0 };
      this.tallies.set(arn, tally);
    }
    if (now < tally.from || now >= tally.from + 1000) this.roll(tally, now);
    return tally;
  }

  private roll(tally: Tally, now: number): void {
    const window = Math.floor(now / 1000);
    if (window === tally.window) return;
    const previousWasLast = window === tally.window + 1;
    tally.figures.readUnitsLastSecond = previousWasLast ? tally.read : 0;
    tally.figures.writeUnitsLastSecond = previousWasLast ? tally.write : 0;
    tally.window = window;
    tally.from = window * 1000;
    tally.read = 0;
    tally.write = 0;
  }
}
