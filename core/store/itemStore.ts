import { BTree } from './btree.js';
import type { StoredItem } from './storedItem.js';

/** What a store holds: anything with a size by the item-size rules (items, index entries). */
export interface Sized {
  readonly size: number;
}

/**
 * String order, the order of encoded keys. The second test is `===`, not `>`: equally decisive
 * for strings, and it answers at once when the lengths differ, where `>` scans the common prefix
 * again. Index sort keys share long prefixes (a date, then the tie-breaker): a lookup and an
 * insert into 33k-entry trees of such keys, ~0.76 -> ~0.66 µs (measured).
 */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a === b ? 0 : 1);

/** What a `forRange` callback returns to stop the walk (one shared object, no allocation). */
const STOP = { break: true };

export class Partition<V extends Sized = StoredItem> {
  /** Composite tables: the partition's items by encoded sort key. */
  readonly items: BTree<string, V> | undefined;
  /** Hash-only tables: the partition's single item. */
  single: V | undefined;
  /** Sum of the partition's item sizes (an item collection's size, for ItemCollectionMetrics). */
  bytes = 0;

  /** Place in scan order; undefined until the partition has been placed (see ItemStore). */
  scanKey: string | undefined;

  constructor(
    readonly hashKey: string,
    composite: boolean,
  ) {
    this.items = composite ? new BTree<string, V>(undefined, compareStrings) : undefined;
  }

  get size(): number {
    return this.items ? this.items.size : this.single ? 1 : 0;
  }
}

/** What `ItemStore.freeze` returns: the items of one moment, unaffected by later writes. */
export interface FrozenItems<V extends Sized = StoredItem> {
  /** Items of hash-only partitions, and their encoded partition keys. */
  readonly singles: readonly V[];
  readonly singleKeys: readonly string[];
  /** Trees of composite partitions (clones: never write to them), and their partition keys. */
  readonly trees: readonly BTree<string, V>[];
  readonly treeKeys: readonly string[];
  readonly count: number;
  readonly bytes: number;
}

/** A position in scan order: a partition's scan key and, for composite keys, a sort key. */
export interface ScanPosition {
  scanKey: string;
  rangeKey: string;
}

export interface ScanEntry<V extends Sized = StoredItem> {
  partition: Partition<V>;
  rangeKey: string;
  item: V;
}

/**
 * The items of a table (or an index), held so that every access has a known cost:
 *
 * - point lookups: a hash map from encoded partition key, then (composite keys) a B+tree of the
 *   partition's sort keys: O(1) + O(log k);
 * - Query: one partition's B+tree from a bound, O(log k + results);
 * - Scan: a B+tree of partitions by scan key (`scanHashPrefix` ‖ partition key), so pages resume
 *   from a key in O(log n) and walk partitions in the service's hash order, independent of when
 *   items were written (docs/dynamodb.md §6.4.2). New partitions join that tree when the next Scan starts,
 *   not on the write: a write then costs no hash and no tree insert (PutItem of new keys is the
 *   hot path), and a Scan pays O(p log n) once for the p partitions created since the last one.
 *
 * Keys arrive encoded (`encodeKeyValue`): plain string comparison is the key order.
 */
export class ItemStore<V extends Sized = StoredItem> {
  private readonly partitions = new Map<string, Partition<V>>();
  private readonly scanOrder = new BTree<string, Partition<V>>(undefined, compareStrings);
  /**
   * Partitions created since the last scan, not yet placed in `scanOrder`, oldest first, from
   * index `unplacedFrom`. An array, not a Set: a push per new partition instead of a Set insert
   * (PutItem of a new key is the hot path). A partition deleted meanwhile stays in it and is
   * skipped when met (it is empty: a partition leaves the map when its last item goes, and a
   * key written again gets a new one); `unplacedLive` counts the others.
   */
  private unplaced: Partition<V>[] = [];
  private unplacedFrom = 0;
  private unplacedLive = 0;
  private itemCount = 0;
  private byteCount = 0;

  /**
   * @param composite whether items have a sort key
   * @param scanKeyOf the scan-order key of a partition, from its encoded partition key (default:
   *   the key itself; tables pass the service's hash order)
   */
  constructor(
    readonly composite: boolean,
    private readonly scanKeyOf: (hashKey: string) => string = (hashKey) => hashKey,
  ) {}

  /** Number of items. */
  get size(): number {
    return this.itemCount;
  }

  /** Sum of item sizes in bytes (TableSizeBytes). */
  get bytes(): number {
    return this.byteCount;
  }

  get partitionCount(): number {
    return this.partitions.size;
  }

  // A write reads its item, then stores it: remember the last partition looked up so the second
  // lookup of the same key costs nothing. Only writes consult it: a read rarely repeats the last
  // key, and comparing a new key with the last one costs a character compare when their lengths
  // match (PutItem of new keys of one length: 195k → 210k/s, measured).
  private lastHashKey: string | undefined;
  private lastPartition: Partition<V> | undefined;

  private findPartition(hashKey: string): Partition<V> | undefined {
    if (hashKey === this.lastHashKey) return this.lastPartition;
    return this.lookUp(hashKey);
  }

  private lookUp(hashKey: string): Partition<V> | undefined {
    const partition = this.partitions.get(hashKey);
    this.lastHashKey = hashKey;
    this.lastPartition = partition;
    return partition;
  }

  get(hashKey: string, rangeKey = ''): V | undefined {
    const partition = this.lookUp(hashKey);
    if (partition === undefined) return undefined;
    return partition.items ? partition.items.get(rangeKey) : partition.single;
  }

  partition(hashKey: string): Partition<V> | undefined {
    return this.lookUp(hashKey);
  }

  /**
   * `set` for an item expected to be new (an index entry under a key that just changed): one tree
   * descent when it is, instead of a lookup for the item it replaces and then the insert (three
   * when it was there after all). Into 33k-entry trees of bench/gsi.ts's index keys: ~0.66 ->
   * ~0.44 µs an entry (measured).
   */
  insert(hashKey: string, rangeKey: string, item: V, keyOf?: (hashKey: string) => string): V | undefined {
    const partition = this.findPartition(hashKey);
    if (
      partition === undefined ||
      partition.items === undefined ||
      !partition.items.set(rangeKey, item, false)
    )
      return this.set(hashKey, rangeKey, item, keyOf);
    this.itemCount++;
    this.byteCount += item.size;
    partition.bytes += item.size;
    return undefined;
  }

  /**
   * Stores an item; returns the one it replaced. A new partition is kept under `keyOf(hashKey)`
   * when `keyOf` is given (an index keeps a copy of a key cut from an item's text: `storeEntry`).
   */
  set(hashKey: string, rangeKey: string, item: V, keyOf?: (hashKey: string) => string): V | undefined {
    let partition = this.findPartition(hashKey);
    if (partition === undefined) {
      const key = keyOf === undefined ? hashKey : keyOf(hashKey);
      partition = new Partition<V>(key, this.composite);
      this.partitions.set(key, partition);
      this.unplaced.push(partition);
      this.unplacedLive++;
      this.lastPartition = partition;
    }
    let previous: V | undefined;
    if (partition.items) {
      previous = partition.items.get(rangeKey);
      partition.items.set(rangeKey, item);
    } else {
      previous = partition.single;
      partition.single = item;
    }
    if (previous === undefined) this.itemCount++;
    const delta = item.size - (previous?.size ?? 0);
    this.byteCount += delta;
    partition.bytes += delta;
    return previous;
  }

  delete(hashKey: string, rangeKey = ''): V | undefined {
    const partition = this.findPartition(hashKey);
    if (partition === undefined) return undefined;
    let previous: V | undefined;
    if (partition.items) {
      previous = partition.items.get(rangeKey);
      if (previous !== undefined) partition.items.delete(rangeKey);
    } else {
      previous = partition.single;
      partition.single = undefined;
    }
    if (previous === undefined) return undefined;
    this.itemCount--;
    this.byteCount -= previous.size;
    partition.bytes -= previous.size;
    if (partition.size === 0) {
      this.partitions.delete(hashKey);
      this.lastPartition = undefined;
      if (partition.scanKey === undefined) this.forgetUnplaced();
      else this.scanOrder.delete(partition.scanKey);
    }
    return previous;
  }

  /**
   * Stores an item of a partition whose scan key is known (a snapshot keeps it): a new partition
   * is placed in scan order at once, so the first Scan after a restart does not hash them all.
   */
  restore(hashKey: string, rangeKey: string, item: V, scanKey: string): void {
    if (this.findPartition(hashKey) === undefined) {
      const partition = new Partition<V>(hashKey, this.composite);
      partition.scanKey = scanKey;
      this.partitions.set(hashKey, partition);
      this.scanOrder.set(scanKey, partition);
      this.lastPartition = partition;
    }
    this.set(hashKey, rangeKey, item);
  }

  /** Partitions created since the last scan, not yet in scan order. */
  get unplacedCount(): number {
    return this.unplacedLive;
  }

  /**
   * Places up to `limit` of them: a long-running reader (a snapshot) spreads the hashing over
   * many turns instead of paying it all when its scan starts (~4 µs a partition).
   */
  placePending(limit: number): void {
    let placed = 0;
    const unplaced = this.unplaced;
    while (this.unplacedFrom < unplaced.length) {
      const partition = unplaced[this.unplacedFrom]!;
      if (partition.size > 0) {
        if (placed++ >= limit) return;
        this.place(partition);
      }
      this.unplacedFrom++;
    }
    this.clearUnplaced();
  }

  /** Places partitions created since the last scan into scan order. */
  private placeNewPartitions(): void {
    if (this.unplacedFrom === this.unplaced.length) return;
    this.placePending(Number.POSITIVE_INFINITY);
  }

  private place(partition: Partition<V>): void {
    partition.scanKey = this.scanKeyOf(partition.hashKey);
    this.scanOrder.set(partition.scanKey, partition);
    this.unplacedLive--;
  }

  /**
   * An unplaced partition was deleted. Dead entries are dropped once they outnumber the live
   * ones, so a table that churns through keys between scans keeps a bounded list.
   */
  private forgetUnplaced(): void {
    this.unplacedLive--;
    const pending = this.unplaced.length - this.unplacedFrom;
    if (pending < 1024 || pending < 2 * this.unplacedLive) return;
    const live: Partition<V>[] = [];
    for (let i = this.unplacedFrom; i < this.unplaced.length; i++) {
      const partition = this.unplaced[i]!;
      if (partition.size > 0) live.push(partition);
    }
    this.unplaced = live;
    this.unplacedFrom = 0;
  }

  private clearUnplaced(): void {
    this.unplaced = [];
    this.unplacedFrom = 0;
    this.unplacedLive = 0;
  }

  /**
   * Items in scan order starting strictly after `after` (or at `fromScanKey`, inclusive, when
   * given instead), up to `endScanKey` (exclusive) if set.
   */
  *scan(
    options: { after?: ScanPosition; fromScanKey?: string; endScanKey?: string } = {},
  ): Generator<ScanEntry<V>> {
    this.placeNewPartitions();
    const { after, endScanKey } = options;
    const start = after?.scanKey ?? options.fromScanKey;
    for (const [scanKey, partition] of this.scanOrder.entries(start)) {
      if (endScanKey !== undefined && scanKey >= endScanKey) return;
      if (partition.items) {
        const resumeInside = after !== undefined && scanKey === after.scanKey;
        for (const [rangeKey, item] of partition.items.entries(resumeInside ? after.rangeKey : undefined)) {
          if (resumeInside && rangeKey === after.rangeKey) continue;
          yield { partition, rangeKey, item };
        }
      } else {
        if (after !== undefined && scanKey === after.scanKey) continue;
        if (partition.single) yield { partition, rangeKey: '', item: partition.single };
      }
    }
  }

  /**
   * Calls `visit` for items in scan order strictly after `after` (from the start when undefined)
   * until it returns false. No object is made per item (the tree's own range walk, not
   * generators): a snapshot copying a million items makes no garbage for the GC to chase
   * meanwhile. `visit` must not change the store. Returns true when every item was visited.
   */
  visitFrom(
    after: ScanPosition | undefined,
    visit: (partition: Partition<V>, rangeKey: string, item: V) => boolean,
  ): boolean {
    this.placeNewPartitions();
    const low = after?.scanKey ?? this.scanOrder.minKey();
    const high = this.scanOrder.maxKey();
    if (low === undefined || high === undefined) return true;
    let stopped = false;
    this.scanOrder.forRange(low, high, true, (scanKey, partition) => {
      const resume = after !== undefined && scanKey === after.scanKey;
      const items = partition.items;
      if (items === undefined) {
        if (!resume && partition.single !== undefined && !visit(partition, '', partition.single))
          stopped = true;
      } else {
        const first = resume ? after.rangeKey : items.minKey();
        const last = items.maxKey();
        if (first !== undefined && last !== undefined)
          items.forRange(first, last, true, (rangeKey, item) => {
            if (resume && rangeKey === after.rangeKey) return;
            if (!visit(partition, rangeKey, item)) {
              stopped = true;
              return STOP;
            }
          });
      }
      return stopped ? STOP : undefined;
    });
    return !stopped;
  }

  /** Every item, in scan order. */
  *items(): Generator<V> {
    for (const entry of this.scan()) yield entry.item;
  }

  /**
   * Every entry in no particular order (partition by partition), without placing new partitions
   * in scan order: for whole-table rebuilds (index backfill, expiry index, snapshots) that do not
   * need the service's order and should not pay for it.
   */
  *unordered(): Generator<ScanEntry<V>> {
    for (const partition of this.partitions.values()) {
      if (partition.items) {
        for (const [rangeKey, item] of partition.items.entries()) yield { partition, rangeKey, item };
      } else if (partition.single) {
        yield { partition, rangeKey: '', item: partition.single };
      }
    }
  }

  /**
   * The store's items as they are now, in O(partitions): hash-only partitions give their item,
   * composite ones a copy-on-write clone of their tree (sorted-btree's `clone` shares the nodes
   * and copies a node only when either side changes it). Later writes do not change what is
   * returned, so a backup is a consistent copy at one commit point (docs/backups.md §2).
   */
  freeze(): FrozenItems<V> {
    const singleKeys: string[] = [];
    const singles: V[] = [];
    const treeKeys: string[] = [];
    const trees: BTree<string, V>[] = [];
    for (const partition of this.partitions.values()) {
      if (partition.items !== undefined) {
        if (partition.items.size === 0) continue;
        treeKeys.push(partition.hashKey);
        trees.push(partition.items.clone());
      } else if (partition.single !== undefined) {
        singleKeys.push(partition.hashKey);
        singles.push(partition.single);
      }
    }
    return { singleKeys, singles, treeKeys, trees, count: this.itemCount, bytes: this.byteCount };
  }

  clear(): void {
    this.lastHashKey = undefined;
    this.lastPartition = undefined;
    this.partitions.clear();
    this.scanOrder.clear();
    this.clearUnplaced();
    this.itemCount = 0;
    this.byteCount = 0;
  }
}
