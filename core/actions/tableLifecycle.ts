import type { TimerHandle } from '../clock.js';
import type { Engine } from '../engine.js';
import type { Region } from '../store/region.js';
import type { SecondaryIndex, Table } from '../store/table.js';

/**
 * Status transitions of tables and indexes (docs/dynamodb.md §3.1.10, §3.2.3, §3.3.5, §3.4.1). A change is
 * applied in its transitional state (CREATING, UPDATING, DELETING), the response is built from
 * that state, and the transition completes after `engine.transientStatusDelayMs` on the engine's
 * clock, or at once when the delay is 0 (so the response still shows the transitional status,
 * as the service's does, while the next call already sees the final one).
 *
 * Timers and in-flight tag updates are runtime state, kept here rather than on the table.
 */
interface TableRuntime {
  readonly timers: Set<TimerHandle>;
  tagUpdates: number;
}

const runtimes = new WeakMap<Table, TableRuntime>();

function runtimeOf(table: Table): TableRuntime {
  let runtime = runtimes.get(table);
  if (runtime === undefined) {
    runtime = { timers: new Set(), tagUpdates: 0 };
    runtimes.set(table, runtime);
  }
  return runtime;
}

/**
 * Runs `complete` after the engine's transient delay (at once when it is 0). A delayed completion
 * announces the table change it made (`Engine.onTableChange`).
 */
export function afterTransientDelay(
  engine: Engine,
  table: Table,
  complete: () => void,
  region?: Region,
): void {
  const completeAndAnnounce = () => {
    complete();
    if (region !== undefined)
      engine.tableChanged(region, table, region.tables.get(table.name) === table ? 'updated' : 'deleted');
  };
  const delay = engine.transientStatusDelayMs;
  if (delay <= 0) {
    completeAndAnnounce();
    return;
  }
  const runtime = runtimeOf(table);
  const handle: TimerHandle = engine.clock.setTimeout(() => {
    runtime.timers.delete(handle);
    completeAndAnnounce();
  }, delay);
  runtime.timers.add(handle);
}

/** Cancels every pending transition of a table (it is going away). */
export function cancelTransitions(engine: Engine, table: Table): void {
  const runtime = runtimes.get(table);
  if (runtime === undefined) return;
  for (const handle of runtime.timers) engine.clock.clearTimeout(handle);
  runtime.timers.clear();
  runtime.tagUpdates = 0;
}

/** CREATING/UPDATING → ACTIVE. */
export function markTableActive(table: Table): void {
  if (table.status === 'CREATING' || table.status === 'UPDATING') table.status = 'ACTIVE';
}

/**
 * Marks a global secondary index ACTIVE: creation and backfill are over. This is the single
 * place an index becomes queryable; the GSI maintainer calls it (instead of the timer) once its
 * backfill has caught up.
 */
export function markIndexActive(_table: Table, index: SecondaryIndex): void {
  index.status = 'ACTIVE';
  index.backfilling = false;
}

/**
 * Removes a deleted GSI and drops the attribute definitions only it used: the table keeps
 * definitions for key attributes alone (docs/dynamodb.md §3.3.4).
 */
export function removeIndex(table: Table, index: SecondaryIndex): void {
  if (table.globalSecondaryIndexes.get(index.name) !== index) return;
  table.globalSecondaryIndexes.delete(index.name);
  const used = new Set<string>();
  for (const element of table.keySchema) used.add(element.AttributeName);
  for (const other of table.secondaryIndexes())
    for (const element of other.keySchema) used.add(element.AttributeName);
  table.attributeDefinitions = table.attributeDefinitions.filter((definition) =>
    used.has(definition.AttributeName),
  );
}

/** The table leaves its region once DELETING completes. */
export function finishDeletion(region: Region, table: Table): void {
  if (region.tables.get(table.name) === table) region.tables.delete(table.name);
}

/**
 * Applies a tag change after the transient delay: since Aug 2024 tag changes become visible
 * after a while, and the table cannot be deleted meanwhile (docs/dynamodb.md §3.4.1, §3.4.3).
 */
export function applyTagChange(engine: Engine, table: Table, apply: () => void, region?: Region): void {
  const runtime = runtimeOf(table);
  runtime.tagUpdates++;
  afterTransientDelay(
    engine,
    table,
    () => {
      runtime.tagUpdates--;
      apply();
    },
    region,
  );
}

/** Whether a tag change is still in flight. */
export function tagsUpdating(table: Table): boolean {
  return (runtimes.get(table)?.tagUpdates ?? 0) > 0;
}
