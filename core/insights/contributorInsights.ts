import type { Engine } from '../engine.js';
import { decodeKeyValue } from '../model/keyCodec.js';
import type { Region } from '../store/region.js';
import type { Table } from '../store/table.js';

/**
 * CloudWatch Contributor Insights for DynamoDB, as eddy keeps it
 * (docs/contributor-insights-and-endpoints.md §2): the setting per table and GSI, the rule names
 * the service makes, and counts of the most accessed and most throttled partition keys from
 * eddy's own traffic, which stand in for the CloudWatch rules' reports.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/contributorinsights_HowItWorks.html
 */

export type InsightsStatus = 'ENABLING' | 'ENABLED' | 'DISABLING' | 'DISABLED';
export type InsightsMode = 'ACCESSED_AND_THROTTLED_KEYS' | 'THROTTLED_KEYS';

export interface InsightsSetting {
  readonly table: Table;
  readonly indexName: string | undefined;
  status: InsightsStatus;
  mode: InsightsMode;
  /** Epoch ms of the last change (LastUpdateDateTime). */
  updatedAt: number;
  /** Epoch ms the rules were made at: the suffix of their names. */
  rulesCreatedAt: number;
  /** Requests per encoded partition key, while enabled. */
  readonly accessed: Map<string, number>;
  readonly throttled: Map<string, number>;
}

/** Settings per table, by index name ('' for the table itself); a re-created table starts anew. */
const settings = new WeakMap<Table, Map<string, InsightsSetting>>();
/** Per engine: how many tables and indexes count keys (the capacity governor's switch). */
const counting = new WeakMap<Engine, number>();

export function settingsOf(table: Table): Map<string, InsightsSetting> {
  let map = settings.get(table);
  if (map === undefined) settings.set(table, (map = new Map()));
  return map;
}

export function settingOf(table: Table, indexName: string | undefined): InsightsSetting | undefined {
  return settings.get(table)?.get(indexName ?? '');
}

/**
 * One more (+1) or one fewer (-1) table or index counting keys in `engine`: a setting counts from
 * the ENABLE until its DISABLING completes (never below zero).
 */
function countingChanged(engine: Engine, by: 1 | -1): void {
  counting.set(engine, Math.max(0, (counting.get(engine) ?? 0) + by));
}

/** Whether an engine counts keys for any table (the capacity governor then sees every request). */
export function countsKeys(engine: Engine): boolean {
  return (counting.get(engine) ?? 0) > 0;
}

/**
 * The rule names DynamoDB makes: `DynamoDBContributorInsights-PKC-<resource>-<creation ms>`
 * (most accessed partition keys) and `-PKT-` (most throttled), plus `-SKC-`/`-SKT-` when the
 * table or index has a sort key; THROTTLED_KEYS mode keeps only the throttled ones (recorded
 * 2026, the ack-api-quirks lab's DDB-TABLE-092; the names as the developer guide gives them).
 */
export function ruleNames(setting: InsightsSetting): string[] {
  const resource =
    setting.indexName === undefined ? setting.table.name : `${setting.table.name}-${setting.indexName}`;
  const index =
    setting.indexName === undefined ? undefined : setting.table.globalSecondaryIndexes.get(setting.indexName);
  const hasSortKey = (index?.keySchema ?? setting.table.keySchema).some((key) => key.KeyType === 'RANGE');
  const kinds = setting.mode === 'THROTTLED_KEYS' ? ['PKT'] : ['PKC', 'PKT'];
  if (hasSortKey) kinds.push(...(setting.mode === 'THROTTLED_KEYS' ? ['SKT'] : ['SKC', 'SKT']));
  return kinds.map((kind) => `DynamoDBContributorInsights-${kind}-${resource}-${setting.rulesCreatedAt}`);
}

/** ENABLE or DISABLE; the transition completes after the engine's transient delay. */
export function updateInsights(
  engine: Engine,
  region: Region,
  table: Table,
  indexName: string | undefined,
  action: 'ENABLE' | 'DISABLE',
  mode: InsightsMode | undefined,
): { readonly setting: InsightsSetting; readonly answer: InsightsStatus } {
  const map = settingsOf(table);
  const now = engine.clock.now();
  let setting = map.get(indexName ?? '');
  if (setting === undefined) {
    setting = {
      table,
      indexName,
      status: 'DISABLED',
      mode: 'ACCESSED_AND_THROTTLED_KEYS',
      updatedAt: now,
      rulesCreatedAt: now,
      accessed: new Map(),
      throttled: new Map(),
    };
    map.set(indexName ?? '', setting);
  }
  const wanted = mode ?? 'ACCESSED_AND_THROTTLED_KEYS';
  if (action === 'ENABLE') {
    // ENABLE in the mode it already has is a no-op; omitting the mode means the default (DDB-TABLE-092).
    if (setting.status === 'ENABLED' && setting.mode === wanted) return { setting, answer: 'ENABLED' };
    if (setting.status === 'DISABLED' || setting.status === 'DISABLING') {
      setting.rulesCreatedAt = now;
      setting.accessed.clear();
      setting.throttled.clear();
      if (setting.status === 'DISABLED') countingChanged(engine, 1);
    }
    setting.mode = wanted;
    setting.status = 'ENABLING';
  } else {
    if (setting.status === 'DISABLED' || setting.status === 'DISABLING')
      return { setting, answer: 'DISABLING' };
    setting.status = 'DISABLING';
  }
  setting.updatedAt = now;
  const target: InsightsSetting = setting;
  const complete = () => {
    if (target.status === 'ENABLING') target.status = 'ENABLED';
    else if (target.status === 'DISABLING') {
      target.status = 'DISABLED';
      countingChanged(engine, -1);
    }
    engine.capacity.insightsChanged(countsKeys(engine));
  };
  // Counting starts with the ENABLE: the governor must see requests from now on.
  engine.capacity.insightsChanged(true);
  if (engine.transientStatusDelayMs <= 0) complete();
  else engine.clock.setTimeout(complete, engine.transientStatusDelayMs);
  void region;
  // The answer shows the transition even when it completed at once, as table statuses do.
  return { setting: target, answer: action === 'ENABLE' ? 'ENABLING' : 'DISABLING' };
}

/** Counts a request on a partition key (`throttled`: it was throttled), if the table counts keys. */
export function countKey(
  table: Table,
  indexName: string | undefined,
  hashKey: string | undefined,
  throttled: boolean,
): void {
  if (hashKey === undefined) return;
  const setting = settings.get(table)?.get(indexName ?? '');
  if (setting === undefined || setting.status === 'DISABLED') return;
  if (!throttled && setting.mode === 'THROTTLED_KEYS') return;
  const counts = throttled ? setting.throttled : setting.accessed;
  counts.set(hashKey, (counts.get(hashKey) ?? 0) + 1);
}

export interface KeyCount {
  readonly key: string;
  readonly count: number;
}

/** The figures `/_eddy/metrics` shows: the ten most accessed and throttled partition keys. */
export interface InsightsFigures {
  readonly table: string;
  readonly index?: string;
  readonly status: InsightsStatus;
  readonly mode: InsightsMode;
  readonly rules: string[];
  readonly mostAccessedKeys: KeyCount[];
  readonly mostThrottledKeys: KeyCount[];
}

function top(table: Table, indexName: string | undefined, counts: Map<string, number>): KeyCount[] {
  const index = indexName === undefined ? undefined : table.globalSecondaryIndexes.get(indexName);
  const type = (index?.key ?? table.key).hash.type;
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 10)
    .map(([encoded, count]) => ({ key: decodeKeyValue(type, encoded), count }));
}

/** Every table and index of the engine with insights not DISABLED. */
export function insightsFigures(engine: Engine): InsightsFigures[] {
  const figures: InsightsFigures[] = [];
  for (const region of engine.allRegions())
    for (const table of region.tables.values())
      for (const setting of settings.get(table)?.values() ?? []) {
        if (setting.status === 'DISABLED') continue;
        figures.push({
          table: table.name,
          ...(setting.indexName === undefined ? {} : { index: setting.indexName }),
          status: setting.status,
          mode: setting.mode,
          rules: ruleNames(setting),
          mostAccessedKeys: top(table, setting.indexName, setting.accessed),
          mostThrottledKeys: top(table, setting.indexName, setting.throttled),
        });
      }
  return figures;
}

/** A setting as a data directory keeps it: the counts start afresh after a restart. */
export interface SavedInsights {
  readonly indexName?: string;
  readonly status: InsightsStatus;
  readonly mode: InsightsMode;
  readonly updatedAt: number;
  readonly rulesCreatedAt: number;
}

/** A table's settings that are not DISABLED with no history, for its definition. */
export function savedInsights(table: Table): SavedInsights[] | undefined {
  const map = settings.get(table);
  if (map === undefined || map.size === 0) return undefined;
  return [...map.values()].map((setting) => ({
    ...(setting.indexName === undefined ? {} : { indexName: setting.indexName }),
    status: setting.status,
    mode: setting.mode,
    updatedAt: setting.updatedAt,
    rulesCreatedAt: setting.rulesCreatedAt,
  }));
}

/**
 * Puts back a table's settings read from a data directory. A transition a stop cut short
 * completes now (ENABLING is ENABLED, DISABLING is DISABLED), as the transient delay would have.
 */
export function restoreInsights(engine: Engine, table: Table, saved: readonly SavedInsights[]): void {
  const map = settingsOf(table);
  for (const setting of map.values()) if (setting.status !== 'DISABLED') countingChanged(engine, -1);
  map.clear();
  for (const entry of saved) {
    const status: InsightsStatus =
      entry.status === 'ENABLING' ? 'ENABLED' : entry.status === 'DISABLING' ? 'DISABLED' : entry.status;
    map.set(entry.indexName ?? '', {
      table,
      indexName: entry.indexName,
      status,
      mode: entry.mode,
      updatedAt: entry.updatedAt,
      rulesCreatedAt: entry.rulesCreatedAt,
      accessed: new Map(),
      throttled: new Map(),
    });
    if (status !== 'DISABLED') countingChanged(engine, 1);
  }
  engine.capacity.insightsChanged(countsKeys(engine));
}
