import type { Context, ScheduledEvent } from 'aws-lambda';
import type { Engine } from '../../core/engine.js';
import { EngineExpiredItems } from '../../core/ttl/expiredItemsPort.js';
import { createHandler, type ExpirerOptions, type ExpiryRun } from '../../functions/ttl-expirer/handler.js';
import type { ExpirerContext } from '../../functions/ttl-expirer/settings.js';
import { type Schedule, scheduleFunction } from './scheduleFunction.js';

/**
 * Wires the ttl-expirer function to an engine: its expired-items port over the engine, a
 * schedule on the engine clock (default every 10 s: the service's "within 48 hours", compressed
 * for local work, docs/streams-and-lambda.md §5.8), and on-demand runs for the CLI and the inspection API.
 *
 * @example
 * ```ts
 * const engine = new Engine({ clock: new VirtualClock() });
 * const ttl = startTtlExpirer(engine, { rate: '10s', maxDeletionDelay: '48h' });
 * await ttl.drain();   // delete every expired item that is due now, batch by batch
 * ttl.stop();
 * ```
 */
export interface TtlExpirerOptions extends ExpirerOptions {
  /** Time between runs: ms or a duration (default `'10s'`). */
  rate?: number | string;
  /** Whether the timer starts at once (default true). */
  start?: boolean;
  /** Rule and function name (default `ttl-expirer`). */
  name?: string;
  /** Called with the error of a timer-driven run. */
  onError?: (error: unknown) => void;
}

/** What the inspection API shows of TTL. */
export interface TtlStatus {
  readonly rateMs: number;
  readonly nextRunAt: number | undefined;
  readonly lastRun: ExpiryRun | undefined;
  readonly totals: { runs: number; deleted: number };
  /**
   * Tables with TTL enabled: their attribute, items with a Number TTL, how many are expired now,
   * and how many this expirer deleted from the table since it started.
   */
  readonly tables: {
    tableArn: string;
    attributeName: string;
    tracked: number;
    expiredNow: number;
    deleted: number;
  }[];
}

/** Expired items counted per table by `status()`, at most (counting costs O(expired)). */
export const STATUS_COUNT_LIMIT = 10_000;

export interface TtlExpirer {
  readonly schedule: Schedule;
  /** What the last finished run did. */
  readonly lastRun: ExpiryRun | undefined;
  /** Totals since start. */
  readonly totals: { runs: number; deleted: number };
  /** One run now (after any in flight): at most `batchSize` deletions. */
  runNow(): Promise<ExpiryRun>;
  /**
   * Runs until nothing due is left (or `maxRuns`), yielding to the event loop between batches
   * so requests keep being served. Answers the summed figures.
   */
  drain(options?: { maxRuns?: number }): Promise<ExpiryRun>;
  /** Resolves when no run is in flight. */
  settled(): Promise<void>;
  /** The figures for the inspection API and the CLI (expired counts capped at 10,000). */
  status(): TtlStatus;
  /** Stops the timer and unregisters from `engine.settled()`. */
  stop(): void;
}

export const DEFAULT_TTL_RATE = '10s';

export function startTtlExpirer(engine: Engine, options: TtlExpirerOptions = {}): TtlExpirer {
  const { rate, start, name, onError, onRun, ...expirerOptions } = options;
  let lastRun: ExpiryRun | undefined;
  const totals = { runs: 0, deleted: 0 };
  // Deletions per table ARN, for status(): the runs' figures are totals across tables.
  const deletedByTable = new Map<string, number>();
  const expiredItems = new CountingExpiredItems(engine, deletedByTable);
  const handler = createHandler(
    { expiredItems },
    {
      ...expirerOptions,
      onRun: (run) => {
        lastRun = run;
        totals.runs++;
        totals.deleted += run.deleted;
        onRun?.(run);
      },
    },
  );
  // The middleware puts the ports and settings on the context: the schedule passes a plain one.
  const invoke = (event: ScheduledEvent, context: Context) => handler(event, context as ExpirerContext);
  const schedule = scheduleFunction(engine.clock, invoke, {
    rate: rate ?? DEFAULT_TTL_RATE,
    name: name ?? 'ttl-expirer',
    accountId: engine.defaultAccountId,
    region: engine.defaultRegion,
    ...(start === undefined ? {} : { start }),
    ...(onError === undefined ? {} : { onError }),
  });
  const unregister = engine.addSettler(() => schedule.settled());

  const runNow = async (): Promise<ExpiryRun> => {
    await schedule.runNow();
    return lastRun!;
  };

  return {
    schedule,
    get lastRun() {
      return lastRun;
    },
    totals,
    runNow,
    async drain({ maxRuns = 10_000 } = {}) {
      const sum: ExpiryRun = { deleted: 0, examined: 0, rescued: 0, more: false };
      for (let i = 0; i < maxRuns; i++) {
        const run = await runNow();
        sum.deleted += run.deleted;
        sum.examined += run.examined;
        sum.rescued += run.rescued;
        sum.more = run.more;
        if (!run.more) break;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return sum;
    },
    settled: () => schedule.settled(),
    status() {
      const tables: TtlStatus['tables'] = [];
      const now = engine.clock.now();
      for (const region of engine.allRegions()) {
        for (const table of region.tables.values()) {
          const index = table.expiryIndex;
          if (index === undefined) continue;
          let expiredNow = 0;
          for (const _ of index.expired(now)) if (++expiredNow >= STATUS_COUNT_LIMIT) break;
          tables.push({
            tableArn: table.arn,
            attributeName: index.attributeName,
            tracked: index.size,
            expiredNow,
            deleted: deletedByTable.get(table.arn) ?? 0,
          });
        }
      }
      return {
        rateMs: schedule.rateMs,
        nextRunAt: schedule.nextRunAt,
        lastRun,
        totals: { ...totals },
        tables,
      };
    },
    stop() {
      schedule.stop();
      unregister();
    },
  };
}

/** The engine's expired items, counting the deletions per table ARN into `byTable`. */
class CountingExpiredItems extends EngineExpiredItems {
  constructor(
    engine: Engine,
    private readonly byTable: Map<string, number>,
  ) {
    super(engine);
  }

  override deleteIfExpired(item: Parameters<EngineExpiredItems['deleteIfExpired']>[0]): boolean {
    const deleted = super.deleteIfExpired(item);
    if (deleted) this.byTable.set(item.tableArn, (this.byTable.get(item.tableArn) ?? 0) + 1);
    return deleted;
  }
}
