import { ValidationException } from '../../errors/index.js';
import {
  entryKeyOf,
  entryLowerBound,
  entrySortValue,
  entryUpperBound,
  escapePart,
} from '../../indexes/entryKey.js';
import { projectedNames } from '../../indexes/projection.js';
import { type AttributeMap, getAttribute, newAttributeMap } from '../../model/attributeValue.js';
import { decodeKeyValue, encodeKeyValue, partitionScanKey } from '../../model/keyCodec.js';
import { pageSize, pageSizeBound } from '../../model/pageSize.js';
import { entryItem, type IndexEntry, ProjectedEntry } from '../../store/indexEntry.js';
import type { ItemStore } from '../../store/itemStore.js';
import type { StoredItem } from '../../store/storedItem.js';
import type { KeyDefinition, KeyShape, SecondaryIndex, Table } from '../../store/table.js';
import { checkKeyPiece } from '../../validations/keys.js';
import type { PreparedReadRequest } from '../../validations/readRequest.js';
import { checkKeyPathsAreScalar } from './keyPaths.js';
import type { PageEntry } from './readPage.js';

/**
 * What a Query or Scan reads: the table, or one of its indexes. Index entries are keyed by index
 * sort value ‖ table-key tie-breaker (core/indexes/entryKey.ts); this adapts bounds, start keys
 * and LastEvaluatedKey to that layout so the readers stay the same for both.
 */
export interface ReadTarget {
  readonly table: Table;
  readonly index: SecondaryIndex | undefined;
  readonly store: ItemStore<IndexEntry>;
  /** The key conditions' schema: the index key, or the table key. */
  readonly key: KeyShape;
  /** Every key attribute a start key must hold (index key + table key for an index). */
  readonly startKeyAttributes: readonly KeyDefinition[];
  /** The encoded sort value of a stored entry's sort key. */
  sortValueOf(storeRangeKey: string): string;
  /** First store key whose sort value is ≥ an encoded sort value (or starts with a prefix). */
  lowerStart(encodedValue: string): string;
  /** A store key above every entry whose sort value is ≤ an encoded sort value. */
  upperStart(encodedValue: string): string;
  /** The store position of a (well-formed) start key. */
  positionOf(startKey: AttributeMap): { hashKey: string; rangeKey: string };
  /** The partition's place in scan order. */
  scanKeyOf(hashKey: string): string;
  /** LastEvaluatedKey of an entry. */
  lastKeyOf(hashKey: string, rangeKey: string, item: StoredItem): AttributeMap;
}

function scalar(map: AttributeMap, definition: KeyDefinition): string {
  return (getAttribute(map, definition.name) as Record<string, string>)[definition.type]!;
}

function tableTarget(table: Table): ReadTarget {
  const definitions = [table.key.hash, table.key.range].filter((definition) => definition !== undefined);
  return {
    table,
    index: undefined,
    store: table.items,
    key: table.key,
    startKeyAttributes: definitions,
    sortValueOf: (rangeKey) => rangeKey,
    lowerStart: (value) => value,
    upperStart: (value) => value,
    positionOf: (startKey) => ({
      hashKey: encodeKeyValue(table.key.hash.type, scalar(startKey, table.key.hash)),
      rangeKey: table.key.range
        ? encodeKeyValue(table.key.range.type, scalar(startKey, table.key.range))
        : '',
    }),
    scanKeyOf: (hashKey) => partitionScanKey(table.key.hash.type, hashKey),
    lastKeyOf: (hashKey, rangeKey) => {
      const key = newAttributeMap();
      key[table.key.hash.name] = {
        [table.key.hash.type]: decodeKeyValue(table.key.hash.type, hashKey),
      } as never;
      if (table.key.range) {
        key[table.key.range.name] = {
          [table.key.range.type]: decodeKeyValue(table.key.range.type, rangeKey),
        } as never;
      }
      return key;
    },
  };
}

function indexTarget(table: Table, index: SecondaryIndex): ReadTarget {
  const attributes: KeyDefinition[] = [];
  for (const definition of [index.key.hash, index.key.range, table.key.hash, table.key.range]) {
    if (definition && !attributes.some((known) => known.name === definition.name))
      attributes.push(definition);
  }
  return {
    table,
    index,
    store: index.items,
    key: index.key,
    startKeyAttributes: attributes,
    sortValueOf: entrySortValue,
    lowerStart: (value) => (value === '' ? '' : escapePart(value)),
    upperStart: entryUpperBound,
    positionOf: (startKey) => {
      const entry = entryKeyOf(index, table, startKey);
      if (entry === undefined) throw new ValidationException('The provided starting key is invalid');
      return entry;
    },
    scanKeyOf: (hashKey) => partitionScanKey(index.key.hash.type, hashKey),
    lastKeyOf: (_hashKey, _rangeKey, item) => {
      const decoded = item.decode();
      const key = newAttributeMap();
      for (const definition of attributes) {
        const value = getAttribute(decoded, definition.name);
        if (value !== undefined) key[definition.name] = value;
      }
      return key;
    },
  };
}

/** Kept for readers that want the lower bound of an exact sort value. */
export const exactLowerBound = entryLowerBound;

/**
 * Resolves IndexName for a read (docs/dynamodb.md §6.3.2): unknown or deleting indexes, consistent reads on a
 * GSI, and a GSI still backfilling are refused.
 */
export function resolveReadTarget(
  table: Table,
  indexName: string | undefined,
  consistentRead: boolean | undefined,
): ReadTarget {
  if (indexName === undefined) return tableTarget(table);
  const index = table.globalSecondaryIndexes.get(indexName) ?? table.localSecondaryIndexes.get(indexName);
  if (index === undefined || index.status === 'DELETING') {
    throw new ValidationException(`The table does not have the specified index: ${indexName}`);
  }
  if (index.kind === 'GSI') {
    if (consistentRead)
      throw new ValidationException('Consistent reads are not supported on global secondary indexes');
    if (index.backfilling)
      throw new ValidationException('Cannot read from backfilling global secondary index');
  }
  return indexTarget(table, index);
}

/**
 * ExclusiveStartKey checks of Query and Scan (docs/dynamodb.md §6.2.5, §6.4.1), in three steps the
 * service runs at different moments: the number of attributes first, then each attribute of the
 * target's key schema (during the key walk, for Query), then the table key of an index's start
 * key, whose messages gain the `The provided starting key is invalid: ` prefix (recorded in
 * dynalite's tests; Scan answers alike in the regions the newer framework has reached, 2026).
 */
export const StartKeyMessages = {
  invalid: 'The provided starting key is invalid',
  prefix: 'The provided starting key is invalid: ',
} as const;

/** The start key holds as many attributes as the target's key and the table's key together. */
export function checkStartKeyCount(target: ReadTarget, startKey: AttributeMap): void {
  let count = 0;
  for (const _ in startKey) count++;
  if (count !== target.startKeyAttributes.length) throw new ValidationException(StartKeyMessages.invalid);
}

/** One attribute of the target's key schema in the start key: present, then well formed. */
export function checkStartKeyPiece(startKey: AttributeMap, definition: KeyDefinition, isHash: boolean): void {
  if (getAttribute(startKey, definition.name) === undefined)
    throw new ValidationException(StartKeyMessages.invalid);
  checkKeyPiece(startKey, definition, isHash);
}

/** The table key inside an index's start key; its errors carry the prefix. */
export function checkStartKeyTablePart(target: ReadTarget, startKey: AttributeMap): void {
  if (target.index === undefined) return;
  const { key } = target.table;
  try {
    checkKeyPiece(startKey, key.hash, true);
    if (key.range) checkKeyPiece(startKey, key.range, false);
  } catch (error) {
    if (error instanceof ValidationException)
      throw new ValidationException(`${StartKeyMessages.prefix}${error.message}`);
    throw error;
  }
}

/**
 * Select and attribute checks against an index's projection (docs/dynamodb.md §6.3.1, §6.3.2): ALL_ATTRIBUTES
 * needs an ALL projection on a GSI, and a GSI cannot return attributes it does not project (an
 * LSI fetches them from the table).
 */
export function checkProjectionSupport(
  target: ReadTarget,
  select: string | undefined,
  requested: readonly string[] | undefined,
): { fetchFromTable: boolean } {
  const { index, table } = target;
  if (index === undefined) return { fetchFromTable: false };
  const projected = projectedNames(index, table);
  if (projected === undefined) return { fetchFromTable: false };
  checkSelectAllOnGlobalIndex(target, select);
  if (select === 'ALL_ATTRIBUTES') return { fetchFromTable: true };
  const missing = (requested ?? []).filter((name) => !projected.has(name));
  if (missing.length === 0) return { fetchFromTable: false };
  if (index.kind === 'GSI') {
    throw new ValidationException(
      `One or more parameter values were invalid: Global secondary index ${index.name} does not project [${[...new Set(missing)].join(', ')}]`,
    );
  }
  return { fetchFromTable: true };
}

/** Select ALL_ATTRIBUTES needs an ALL projection on a GSI (docs/dynamodb.md §6.3.1). */
export function checkSelectAllOnGlobalIndex(target: ReadTarget, select: string | undefined): void {
  const { index, table } = target;
  if (select !== 'ALL_ATTRIBUTES' || index === undefined || index.kind !== 'GSI') return;
  if (projectedNames(index, table) === undefined) return;
  throw new ValidationException(
    `One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index ${index.name} because its projection type is not ALL`,
  );
}

/**
 * The projection checks of a Query or Scan, after its filter's: no path inside a key attribute,
 * then what the index projects (checkProjectionSupport).
 */
export function checkReadProjection(
  target: ReadTarget,
  prepared: Pick<PreparedReadRequest, 'projection' | 'select'>,
): { fetchFromTable: boolean } {
  const paths = prepared.projection?.paths;
  if (paths) checkKeyPathsAreScalar(paths, target.table);
  return checkProjectionSupport(
    target,
    prepared.select,
    paths?.map((path) => path[0]),
  );
}

/**
 * A stored entry as a page reads it: its size, the item to answer (the entry's own, cut from the
 * item's text only when asked for, for an entry that refers to it: `indexEntry.ts`; the table's,
 * when an LSI does not project what was asked for) and its LastEvaluatedKey, both on demand: a
 * Select COUNT without a filter reads sizes only.
 */
export function pageEntry(
  target: ReadTarget,
  hashKey: string,
  rangeKey: string,
  entry: IndexEntry,
  fetchFromTable: boolean,
): PageEntry {
  if (!fetchFromTable) return new StoredPageEntry(target, hashKey, rangeKey, entry);
  const stored = entryItem(entry);
  const item = tableItemOf(target, stored);
  return {
    // The index entry is what the index read; the table item is fetched beside it.
    size: entry.size,
    fetchedSize: item.size,
    pageBound: pageSizeBound(item.json.length),
    pageSize: () => storedPageSize(item, target.table.key.range?.name),
    item: () => item,
    key: () => target.lastKeyOf(hashKey, rangeKey, stored),
  };
}

/** Page sizes, measured once per stored item (an item belongs to one table: one sort key name). */
const pageSizes = new WeakMap<StoredItem, number>();

function storedPageSize(item: StoredItem, sortKeyName: string | undefined): number {
  let size = pageSizes.get(item);
  if (size === undefined) {
    size = pageSize(item.decode(), sortKeyName);
    pageSizes.set(item, size);
  }
  return size;
}

/**
 * An entry answered as stored: one object and no closure per entry read (Query and Scan of a
 * table make one per item).
 */
class StoredPageEntry implements PageEntry {
  constructor(
    private readonly target: ReadTarget,
    private readonly hashKey: string,
    private readonly rangeKey: string,
    private readonly entry: IndexEntry,
  ) {}

  get size(): number {
    return this.entry.size;
  }

  get pageBound(): number {
    const { entry } = this;
    // A projected entry's text is cut from its item's: the item's length bounds it.
    return pageSizeBound(entry instanceof ProjectedEntry ? entry.source.json.length : entry.json.length);
  }

  pageSize(): number {
    return storedPageSize(entryItem(this.entry), this.target.table.key.range?.name);
  }

  item(): StoredItem {
    return entryItem(this.entry);
  }

  key(): AttributeMap {
    return this.target.lastKeyOf(this.hashKey, this.rangeKey, entryItem(this.entry));
  }
}

/** The table item behind an index entry (for LSI reads of unprojected attributes). */
export function tableItemOf(target: ReadTarget, entry: StoredItem): StoredItem {
  const { table } = target;
  const decoded = entry.decode();
  const hashKey = encodeKeyValue(table.key.hash.type, scalar(decoded, table.key.hash));
  const rangeKey = table.key.range
    ? encodeKeyValue(table.key.range.type, scalar(decoded, table.key.range))
    : '';
  return table.items.get(hashKey, rangeKey) ?? entry;
}
