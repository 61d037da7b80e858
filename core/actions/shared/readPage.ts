import { consumedCapacity, READ_UNIT_BYTES, type ReturnConsumedCapacity } from '../../capacity.js';
import type { ConditionExpression, ProjectionPlan } from '../../expressions/index.js';
import type { AttributeMap, Item } from '../../model/attributeValue.js';
import type { StoredItem } from '../../store/storedItem.js';
import type { CapacityGovernor } from '../../throttling/capacityGovernor.js';
import type { PreparedReadRequest } from '../../validations/readRequest.js';
import type { ReadTarget } from './readTarget.js';
import { withOptional } from './writeSupport.js';

/**
 * One page of a Query or Scan (docs/dynamodb.md §6.2): `Limit` counts items evaluated before the filter; a
 * page also stops once 1 MB of evaluated data has been read, measured in the service's page size
 * (`core/model/pageSize.ts`: names of one byte, length prefixes, a per-item overhead); the item
 * that crosses it is included and becomes LastEvaluatedKey. Count is what matched, ScannedCount
 * what was read.
 */
export const PAGE_BYTES = 1024 * 1024;

/** An entry a page reads: its size, and on demand the item and (for the last one) its LastEvaluatedKey. */
export interface PageEntry {
  /** What the entry counts against the read capacity (the item-size rules). */
  readonly size: number;
  /**
   * The size of the table item an LSI read fetched for it (attributes the index does not
   * project), charged to the table apart from the index (docs/dynamodb.md §4.3.6).
   */
  readonly fetchedSize?: number;
  /** An upper bound of `pageSize()`, known without decoding the item. */
  readonly pageBound: number;
  /** What the entry counts against the 1 MB page (`core/model/pageSize.ts`). */
  pageSize(): number;
  item(): StoredItem;
  key(): AttributeMap;
}

export interface PageSource {
  /** Entries in read order, starting after the exclusive start key. */
  entries: Iterable<PageEntry>;
}

export interface PageOptions {
  limit: number | undefined;
  filter: ConditionExpression | undefined;
  projection: ProjectionPlan | undefined;
  /** Select COUNT returns no items. */
  countOnly: boolean;
}

export interface Page {
  items: (StoredItem | Item)[];
  count: number;
  scannedCount: number;
  lastEvaluatedKey: AttributeMap | undefined;
  /** Bytes of evaluated items (capacity is charged on what was read, docs/dynamodb.md §4.3.3). */
  bytesRead: number;
  /** Bytes of table items fetched for an LSI read (docs/dynamodb.md §4.3.6). */
  bytesFetched: number;
}

export function readPage(entries: Iterable<PageEntry>, options: PageOptions): Page {
  const items: (StoredItem | Item)[] = [];
  let count = 0;
  let scannedCount = 0;
  let bytesRead = 0;
  let bytesFetched = 0;
  let lastEvaluatedKey: AttributeMap | undefined;
  // Page sizes need the decoded item: sum cheap upper bounds until they could reach 1 MB, then
  // measure the entries read so far and every later one.
  let boundTotal = 0;
  let pageTotal: number | undefined;
  const unmeasured: PageEntry[] = [];
  for (const entry of entries) {
    scannedCount++;
    bytesRead += entry.size;
    if (entry.fetchedSize !== undefined) bytesFetched += entry.fetchedSize;
    if (pageTotal === undefined) {
      boundTotal += entry.pageBound;
      unmeasured.push(entry);
      if (boundTotal >= PAGE_BYTES) {
        pageTotal = 0;
        for (const earlier of unmeasured) pageTotal += earlier.pageSize();
        unmeasured.length = 0;
      }
    } else {
      pageTotal += entry.pageSize();
    }
    let decoded: Item | undefined;
    let matches = true;
    if (options.filter) {
      decoded = entry.item().decode();
      matches = options.filter.evaluate(decoded);
    }
    if (matches) {
      count++;
      if (!options.countOnly) {
        // Without a projection the stored text goes out as is.
        const item = entry.item();
        items.push(options.projection ? options.projection.apply(decoded ?? item.decode()) : item);
      }
    }
    if (scannedCount === options.limit || (pageTotal !== undefined && pageTotal >= PAGE_BYTES)) {
      lastEvaluatedKey = entry.key();
      break;
    }
  }
  return { items, count, scannedCount, lastEvaluatedKey, bytesRead, bytesFetched };
}

/** A page's read units: its bytes rounded up to 4 KB once, halved when eventual (docs/dynamodb.md §4.3.3). */
export function pageUnits(bytesRead: number, consistentRead: boolean): number {
  return Math.max(1, Math.ceil(bytesRead / READ_UNIT_BYTES)) * (consistentRead ? 1 : 0.5);
}

/**
 * Query/Scan capacity: the page's bytes rounded up to 4 KB once, halved when eventual
 * (docs/dynamodb.md §4.3.3).
 */
export function pageCapacity(
  mode: ReturnConsumedCapacity | undefined,
  tableName: string,
  bytesRead: number,
  consistentRead: boolean,
  indexName?: { name: string; kind: 'GSI' | 'LSI' },
  bytesFetched = 0,
) {
  const units = pageUnits(bytesRead, consistentRead);
  if (indexName === undefined) return consumedCapacity(mode, tableName, units);
  // An index read charges the index; the table's share is 0 (docs/dynamodb.md §4.3.3), but for
  // the items an LSI read fetched from it, rounded up on their own (docs/dynamodb.md §4.3.6).
  const fetchedUnits =
    bytesFetched === 0 ? 0 : Math.ceil(bytesFetched / READ_UNIT_BYTES) * (consistentRead ? 1 : 0.5);
  return consumedCapacity(
    mode,
    tableName,
    fetchedUnits,
    indexName.kind === 'GSI'
      ? { global: { [indexName.name]: units } }
      : { local: { [indexName.name]: units } },
  );
}

/** Builds the Query/Scan output members in the service's shape. */
export function pageOutput(page: Page, countOnly: boolean): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  if (!countOnly) output.Items = page.items;
  output.Count = page.count;
  output.ScannedCount = page.scannedCount;
  if (page.lastEvaluatedKey !== undefined) output.LastEvaluatedKey = page.lastEvaluatedKey;
  return output;
}

/**
 * Reads a Query or Scan page from `entries` (the target's items in read order, after the start
 * key) and answers it: Items, Count, ScannedCount, LastEvaluatedKey, and the capacity of what was
 * read when asked for.
 */
export function answerPage(
  target: ReadTarget,
  input: { Limit?: number; ConsistentRead?: boolean; ReturnConsumedCapacity?: ReturnConsumedCapacity },
  prepared: PreparedReadRequest,
  entries: Iterable<PageEntry>,
  capacity?: { readonly governor: CapacityGovernor; readonly hashKey?: string },
): Record<string, unknown> {
  const countOnly = prepared.select === 'COUNT';
  const page = readPage(entries, {
    limit: input.Limit,
    filter: prepared.filter,
    projection: prepared.projection,
    countOnly,
  });
  // Reads are charged once their size is known; a throttled page is answered by the exception.
  if (capacity?.governor.active)
    capacity.governor.read(target.table, {
      units: pageUnits(page.bytesRead, input.ConsistentRead === true),
      index: target.index,
      hashKey: capacity.hashKey,
    });
  const { index } = target;
  return withOptional(
    pageOutput(page, countOnly),
    'ConsumedCapacity',
    pageCapacity(
      input.ReturnConsumedCapacity,
      target.table.name,
      page.bytesRead,
      input.ConsistentRead === true,
      index ? { name: index.name, kind: index.kind } : undefined,
      page.bytesFetched,
    ),
  );
}
