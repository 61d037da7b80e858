import {
  finishDeletion,
  markIndexActive,
  markTableActive,
  removeIndex,
} from '../../core/actions/tableLifecycle.js';
import type { Engine } from '../../core/engine.js';
import { resumeTransitions } from '../../core/kinesis/destinations.js';

/**
 * Status transitions cut short by the stop (their timers died with the process) complete at
 * start: the delay they stood for has passed. CREATING/UPDATING tables and indexes turn ACTIVE
 * (indexes were just rebuilt from the items, so backfills are done), DELETING indexes and tables
 * go. Each completion is announced, hence logged, as the timer would have done.
 */
export function completeTransitions(engine: Engine): void {
  for (const region of [...engine.allRegions()]) {
    for (const table of [...region.tables.values()]) {
      if (table.status === 'DELETING') {
        finishDeletion(region, table);
        engine.tableChanged(region, table, 'deleted');
        continue;
      }
      let changed = table.status !== 'ACTIVE';
      markTableActive(table);
      for (const index of [...table.globalSecondaryIndexes.values()]) {
        if (index.status === 'ACTIVE' && !index.backfilling) continue;
        changed = true;
        if (index.status === 'DELETING') removeIndex(table, index);
        else markIndexActive(table, index);
      }
      if (changed) engine.tableChanged(region, table, 'updated');
      // Kinesis destinations ENABLING, UPDATING or DISABLING finish too (an Enable checks its
      // stream again first); each announces itself when done.
      resumeTransitions(engine, region, table);
    }
  }
}
