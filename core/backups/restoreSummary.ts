import type { Table } from '../store/table.js';

/**
 * The `RestoreSummary` of a restored table's description (source, restore time, whether the
 * restore is still filling the table). Kept beside the table rather than on it: only restored
 * tables have one.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_RestoreSummary.html
 */
export interface RestoreSummary {
  readonly sourceBackupArn?: string;
  readonly sourceTableArn: string;
  /** The point in time restored (or the backup's creation time), epoch ms. */
  readonly restoreDateTime: number;
  inProgress: boolean;
}

const summaries = new WeakMap<Table, RestoreSummary>();

export function setRestoreSummary(table: Table, summary: RestoreSummary): void {
  summaries.set(table, summary);
}

export function restoreSummaryOf(table: Table): Record<string, unknown> | undefined {
  const summary = summaries.get(table);
  if (summary === undefined) return undefined;
  return {
    ...(summary.sourceBackupArn === undefined ? {} : { SourceBackupArn: summary.sourceBackupArn }),
    SourceTableArn: summary.sourceTableArn,
    RestoreDateTime: summary.restoreDateTime / 1000,
    RestoreInProgress: summary.inProgress,
  };
}
