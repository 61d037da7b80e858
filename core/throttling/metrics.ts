import { Second } from './second.js';
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
  /** The second `read` and `write` count. */
  readonly second: Second;
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
      const second = new Second();
      second.enter(now);
      tally = { figures, second, read: 0, write: 0 };
      this.tallies.set(arn, tally);
    }
    if (tally.second.left(now)) this.roll(tally, now);
    return tally;
  }

  private roll(tally: Tally, now: number): void {
    const previous = tally.second.index;
    if (!tally.second.enter(now)) return;
    const previousWasLast = tally.second.index === previous + 1;
    tally.figures.readUnitsLastSecond = previousWasLast ? tally.read : 0;
    tally.figures.writeUnitsLastSecond = previousWasLast ? tally.write : 0;
    tally.read = 0;
    tally.write = 0;
  }
}
