import type { Engine } from '../../core/engine.js';
import { restoreInsights, type SavedInsights } from '../../core/insights/contributorInsights.js';
import type { Table } from '../../core/store/table.js';

/**
 * Contributor Insights settings as a table's definition keeps them (docs/persistence.md §1).
 * They are put back once recovery is over (`restoreAllInsights`), when the engine is whole: an
 * enabled setting turns the capacity governor's key counting on.
 */
const pending = new WeakMap<Table, readonly SavedInsights[]>();

export function rememberInsights(table: Table, saved: readonly SavedInsights[] | undefined): void {
  if (saved === undefined) pending.delete(table);
  else pending.set(table, saved);
}

export function restoreAllInsights(engine: Engine): void {
  for (const region of engine.allRegions())
    for (const table of region.tables.values()) {
      const saved = pending.get(table);
      if (saved === undefined) continue;
      pending.delete(table);
      restoreInsights(engine, table, saved);
    }
}
