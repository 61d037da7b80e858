import type { ChangeListener } from '../core/changeEvent.js';
import type { Clock } from '../core/clock.js';
import type { Region } from '../core/store/region.js';
import type { Table } from '../core/store/table.js';

/**
 * What `streams/` needs from the engine (docs/architecture.md §1.2): the commit port, the one
 * clock, and read access to the tables' stream settings (`Table.stream`, set by CreateTable and
 * UpdateTable). `Engine` satisfies it as is; nothing here reaches into engine internals.
 */
export interface ChangeSource {
  readonly clock: Clock;
  /** How long CREATING/UPDATING states last (streams show ENABLING/DISABLING meanwhile). */
  readonly transientStatusDelayMs?: number;
  readonly defaultAccountId?: string;
  readonly defaultRegion?: string;
  /** Subscribes to committed changes, delivered synchronously in commit order. */
  onCommit(listener: ChangeListener): () => void;
  /** Every region that holds tables. */
  allRegions(): Iterable<Region>;
  /**
   * Subscribes to table changes (created, updated, deleted), so stream settings take effect
   * without waiting for a write. Optional: without it, every read reconciles first.
   */
  onTableChange?(listener: () => void): () => void;
  /**
   * Whether capacity is enforced on a table (the engine's capacity governor): shard readers are
   * limited only then (docs/capacity.md §5.1). Optional: without it, never.
   */
  readonly capacity?: { enforces(table: Table): boolean };
  /** The tables of one account and region. */
  region(accountId?: string, regionName?: string): Region;
}
