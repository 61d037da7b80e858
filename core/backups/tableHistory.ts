import type { ChangeEvent } from '../changeEvent.js';
import type { StoredItem } from '../store/storedItem.js';

/** A day in ms: recovery periods are whole days (RecoveryPeriodInDays, 1 to 35). */
export const DAY_MS = 86_400_000;

/**
 * A table's change history while point-in-time recovery is on (docs/backups.md §3): every change
 * of the recovery period, oldest first, as parallel arrays (time, item key, the item before, the
 * item after). Items are the engine's `StoredItem`s, shared with the table and the change log, so
 * a change costs its four slots (~40 bytes) plus the key text; an image is extra memory only once
 * the table no longer holds it (it was overwritten or deleted).
 *
 * Restoring to time T needs no base copy: the table as it is now, with every key changed after T
 * set back to the old image of its first change after T (`valuesAt`).
 */
export class TableHistory {
  private times: number[] = [];
  private keys: string[] = [];
  private olds: (StoredItem | null)[] = [];
  private news: (StoredItem | null)[] = [];
  private head = 0;
  private appended = 0;

  constructor(
    /** When recovery was enabled (epoch ms): nothing before it can be restored. */
    readonly enabledAt: number,
    public periodDays: number,
  ) {}

  get size(): number {
    return this.times.length - this.head;
  }

  /** The earliest restorable time: the enabling time or the start of the recovery period. */
  earliest(now: number): number {
    return Math.max(this.enabledAt, now - this.periodDays * DAY_MS);
  }

  /** Records a committed change (the commit port calls this in commit order). */
  record(event: ChangeEvent): void {
    this.append(event.at, event.itemKey, event.oldItem ?? null, event.newItem ?? null);
  }

  append(at: number, itemKey: string, old: StoredItem | null, next: StoredItem | null): void {
    this.times.push(at);
    this.keys.push(itemKey);
    this.olds.push(old);
    this.news.push(next);
    // Trimming looks at the clock through the change times: every 4,096 changes is cheap.
    if ((++this.appended & 4095) === 0) this.trim(at);
  }

  /**
   * Forgets changes at or before the earliest restorable time: restoring to T only needs the
   * changes after T.
   */
  trim(now: number): void {
    const cutoff = this.earliest(now);
    let head = this.head;
    while (head < this.times.length && this.times[head]! <= cutoff) head++;
    this.head = head;
    if (head > 4096 && head * 2 > this.times.length) {
      this.times = this.times.slice(head);
      this.keys = this.keys.slice(head);
      this.olds = this.olds.slice(head);
      this.news = this.news.slice(head);
      this.head = 0;
    }
  }

  /** The first position whose change happened after `t` (binary search: times never decrease). */
  private firstAfter(t: number): number {
    let low = this.head;
    let high = this.times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.times[middle]! <= t) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * For every key changed after `t`, its item at `t` (null: absent then): the old image of its
   * first change after `t`.
   */
  valuesAt(t: number): Map<string, StoredItem | null> {
    const values = new Map<string, StoredItem | null>();
    for (let at = this.firstAfter(t); at < this.times.length; at++) {
      const key = this.keys[at]!;
      if (!values.has(key)) values.set(key, this.olds[at]!);
    }
    return values;
  }

  /**
   * The net change of each key in [from, to): its item at `from`, its item just before `to`, and
   * the time of its last change there. Keys whose item is absent at both ends are left out (an
   * insert then a delete inside the window exports nothing, docs/backups.md §5.2).
   */
  changesBetween(from: number, to: number): IncrementalChange[] {
    const byKey = new Map<string, IncrementalChange>();
    for (let at = this.firstAfter(from - 1); at < this.times.length; at++) {
      const time = this.times[at]!;
      if (time >= to) break;
      const key = this.keys[at]!;
      const known = byKey.get(key);
      if (known === undefined)
        byKey.set(key, { itemKey: key, old: this.olds[at]!, next: this.news[at]!, at: time });
      else {
        known.next = this.news[at]!;
        known.at = time;
      }
    }
    const changes: IncrementalChange[] = [];
    for (const change of byKey.values()) {
      if (change.old === null && change.next === null) continue;
      if (change.old !== null && change.next !== null && change.old.sameAs(change.next)) continue;
      changes.push(change);
    }
    return changes;
  }

  /**
   * The retained changes as they are now, copied in O(changes) without serialising (the data
   * directory writes them after the snapshot they belong to, docs/backups.md §8).
   */
  copy(): HistoryEntries {
    const from = this.head;
    return {
      times: this.times.slice(from),
      keys: this.keys.slice(from),
      olds: this.olds.slice(from),
      news: this.news.slice(from),
    };
  }

  /** Every retained change, oldest first (the data directory writes them). */
  *entries(): Generator<{ at: number; itemKey: string; old: StoredItem | null; next: StoredItem | null }> {
    for (let at = this.head; at < this.times.length; at++)
      yield { at: this.times[at]!, itemKey: this.keys[at]!, old: this.olds[at]!, next: this.news[at]! };
  }
}

export interface IncrementalChange {
  readonly itemKey: string;
  readonly old: StoredItem | null;
  next: StoredItem | null;
  /** Time of the key's last change in the window (epoch ms). */
  at: number;
}

/** Parallel arrays of changes, oldest first (`TableHistory.copy`). */
export interface HistoryEntries {
  readonly times: readonly number[];
  readonly keys: readonly string[];
  readonly olds: readonly (StoredItem | null)[];
  readonly news: readonly (StoredItem | null)[];
}
