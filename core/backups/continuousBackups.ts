import type { Engine } from '../engine.js';
import type { Table } from '../store/table.js';

/**
 * ContinuousBackupsDescription (UpdateContinuousBackups, DescribeContinuousBackups). On-demand
 * backups are always available, so `ContinuousBackupsStatus` is ENABLED; point-in-time recovery
 * reports its window: from the enabling time (or the start of the recovery period) to five
 * minutes ago, or the enabling time while that is later ("LatestRestorableDateTime is typically 5 minutes before the current time",
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PointInTimeRecoveryDescription.html).
 */
export const LATEST_RESTORABLE_LAG_MS = 5 * 60_000;

export function restorableWindow(
  engine: Engine,
  table: Table,
): { earliest: number; latest: number } | undefined {
  const history = engine.dataProtection.histories.get(table.tableId);
  if (history === undefined) return undefined;
  const now = engine.clock.now();
  history.trim(now);
  const earliest = history.earliest(now);
  // Never before the earliest: right after PITR is (re-)enabled, "you can only immediately
  // restore that table using the LatestRestorableDateTime"
  // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/PointInTimeRecovery_Howitworks.html),
  // so for its first five minutes the window is the one second of the enabling time.
  return { earliest, latest: Math.max(now - LATEST_RESTORABLE_LAG_MS, earliest) };
}

export function continuousBackupsDescription(engine: Engine, table: Table): Record<string, unknown> {
  const history = engine.dataProtection.histories.get(table.tableId);
  const window = restorableWindow(engine, table);
  if (history === undefined || window === undefined)
    return {
      ContinuousBackupsStatus: 'ENABLED',
      PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: 'DISABLED' },
    };
  return {
    ContinuousBackupsStatus: 'ENABLED',
    PointInTimeRecoveryDescription: {
      PointInTimeRecoveryStatus: 'ENABLED',
      RecoveryPeriodInDays: history.periodDays,
      EarliestRestorableDateTime: window.earliest / 1000,
      LatestRestorableDateTime: window.latest / 1000,
    },
  };
}
