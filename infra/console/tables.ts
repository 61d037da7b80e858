import type { RequestContext } from '../../core/operation.js';
import type { ConsoleSources } from './sources.js';

/** One table as the console's list shows it (`GET /_eddy/api/tables`). */
export interface TableSummary {
  readonly TableName: string;
  readonly TableStatus: unknown;
  readonly KeySchema: unknown;
  readonly ItemCount: unknown;
  readonly TableSizeBytes: unknown;
  readonly GlobalSecondaryIndexes: readonly IndexSummary[];
  readonly LocalSecondaryIndexes: readonly { IndexName: unknown; KeySchema: unknown }[];
  /** `ENABLED` with the attribute, or `DISABLED` (DescribeTimeToLive). */
  readonly TimeToLive: { readonly status: unknown; readonly attributeName?: unknown };
  readonly Stream:
    | { readonly arn: string; readonly viewType: string; readonly enabled: boolean; readonly records: number }
    | undefined;
}

/** A GSI: DescribeTable's status and backfill flag, and the gsi-maintainer's backlog and lag. */
export interface IndexSummary {
  readonly IndexName: unknown;
  readonly IndexStatus: unknown;
  readonly Backfilling: unknown;
  readonly KeySchema: unknown;
  readonly ItemCount: unknown;
  /** Changes of the table the index has not applied yet. */
  readonly backlog: number;
  /** How far (ms) the oldest unapplied change is behind the clock. */
  readonly lagMs: number;
  /** While the index is backfilled (UpdateTable Create): the table's items indexed so far, of `total`. */
  readonly backfill?: { readonly done: number; readonly total: number };
}

/** The DynamoDB operations the console's item browser may run (`POST .../tables/{Table}/run`). */
export const ITEM_OPERATIONS = new Set(['Query', 'Scan', 'GetItem', 'PutItem', 'DeleteItem']);

/**
 * The tables of the stack's account and region, described with the DynamoDB API's own answers
 * (DescribeTable, DescribeTimeToLive), so the console shows what an SDK would read.
 */
export function listTables(sources: ConsoleSources): TableSummary[] {
  const context = contextOf(sources);
  const names = [...sources.engine.region(context.accountId, context.region).tables.keys()].sort();
  const lags = sources.gsi()?.lag() ?? [];
  const backfills = sources.gsi()?.backfills() ?? [];
  const summaries: TableSummary[] = [];
  for (const name of names) {
    let table: Record<string, unknown>;
    let ttl: Record<string, unknown>;
    try {
      table = sources.engine.execute('DescribeTable', { TableName: name }, context).Table as Record<
        string,
        unknown
      >;
      ttl = sources.engine.execute('DescribeTimeToLive', { TableName: name }, context)
        .TimeToLiveDescription as Record<string, unknown>;
    } catch {
      continue; // Deleted between the listing and the description.
    }
    const indexes = (table.GlobalSecondaryIndexes ?? []) as Record<string, unknown>[];
    const stream = sources.changeLog.tableStream(context.accountId, context.region, name);
    summaries.push({
      TableName: name,
      TableStatus: table.TableStatus,
      KeySchema: table.KeySchema,
      ItemCount: table.ItemCount,
      TableSizeBytes: table.TableSizeBytes,
      GlobalSecondaryIndexes: indexes.map((index) => {
        const lag = lags.find((entry) => entry.tableName === name && entry.indexName === index.IndexName);
        const backfill = backfills.find(
          (entry) => entry.tableName === name && entry.indexName === index.IndexName,
        );
        return {
          IndexName: index.IndexName,
          IndexStatus: index.IndexStatus,
          Backfilling: index.Backfilling ?? false,
          KeySchema: index.KeySchema,
          ItemCount: index.ItemCount,
          backlog: lag?.backlog ?? 0,
          lagMs: lag?.lagMs ?? 0,
          ...(backfill === undefined ? {} : { backfill: { done: backfill.done, total: backfill.total } }),
        };
      }),
      LocalSecondaryIndexes: ((table.LocalSecondaryIndexes ?? []) as Record<string, unknown>[]).map(
        (index) => ({ IndexName: index.IndexName, KeySchema: index.KeySchema }),
      ),
      TimeToLive: {
        status: ttl.TimeToLiveStatus,
        ...(ttl.AttributeName === undefined ? {} : { attributeName: ttl.AttributeName }),
      },
      Stream:
        stream === undefined
          ? undefined
          : {
              arn: stream.arn,
              viewType: stream.viewType,
              enabled: stream.enabled,
              records: stream.log.end,
            },
    });
  }
  return summaries;
}

/**
 * Runs one item operation of the item browser on a table, with the request as the DynamoDB API
 * takes it (its errors are the API's: ValidationException and the rest).
 */
export function runItemOperation(
  sources: ConsoleSources,
  tableName: string,
  operation: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  return sources.engine.execute(operation, { ...input, TableName: tableName }, contextOf(sources));
}

export function contextOf(sources: ConsoleSources): RequestContext {
  return { accountId: sources.accountId, region: sources.region };
}
