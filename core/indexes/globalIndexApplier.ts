import { attributeValuesEqual } from '../model/compare.js';
import { encodeKeyValue } from '../model/keyCodec.js';
import { isPlainInteger } from '../model/number.js';
import { utf8Length } from '../model/utf8.js';
import { type IndexEntry, ProjectedEntry } from '../store/indexEntry.js';
import type { StoredItem } from '../store/storedItem.js';
import type { SecondaryIndex, Table } from '../store/table.js';
import { applyCompositeChange } from './compositeIndexApplier.js';
import { isComposite } from './compositeKey.js';
import { escapePart, fits, tieSuffix } from './entryKey.js';
import { sameKeyValue } from './indexChange.js';
import { MemberProjection } from './memberProjection.js';
import { projectedNamesOf } from './projection.js';
import { ImageFields, StoredRow, scalarTypeCode } from './storedImage.js';
import { detached, storeEntry } from './storeEntry.js';

/**
 * Applies changes to a table's global indexes straight from the items' stored texts: the
 * gsi-maintainer's internal path (the table's own change feed) and the backfill of a new index.
 *
 * It is the maintainer's rule (`functions/gsi-maintainer` `recordHandler`: `planIndexChange` per
 * index, then remove and put through the index writer) evaluated on what the rule reads, located
 * in the stored texts (`storedImage.ts`) instead of decoded images:
 *
 * - an item is in an index when it has each index key, of the declared type, non-empty and
 *   within size (`fits`, as `entryKeyOf`), and its entry key is `globalEntryKey`'s (the same
 *   parts: the tie-breaker, `tieSuffix`, made once a change);
 * - key values compare with `sameKeyValue`, as `planIndexChange` (two plain integers by their
 *   texts, which is what it decides for them: `sameKey`); projections compare member by
 *   member (equal text, else `attributeValuesEqual`) for INCLUDE and KEYS_ONLY; an ALL entry is
 *   the whole item, whose text differs in every MODIFY (the commit emits none for an unchanged
 *   item): it is rewritten, which also makes it share the item's current text;
 * - a non-ALL entry is a `ProjectedEntry`: the item's stored text and the projected members'
 *   size by the item-size rules; a read cuts those members' texts from it in canonical order
 *   (`memberProjection.ts`), which is what encoding the projected item gives (`projection.ts`).
 *
 * Measured on bench/gsi.ts's changes (two GSIs, every write moving both entries), B-tree updates
 * aside: a Lambda record per change (both images decoded), `planIndexChange` and `put`/`remove`
 * per index cost ~10 µs a change; decoding partial images only, ~4.5 µs; this, ~3 µs, of which
 * reading the two texts ~0.6 µs and the table key's MD5 (entry tie-breaker) ~0.4 µs. All of it,
 * B-tree updates and GC included, isolated: ~7.5 µs a change (keys built only where a store
 * operation needs them, the tie-breaker once per change).
 * Equivalence with the Lambda-record path is a property test
 * (test/core/indexes/globalIndexApplier.test.ts).
 */
export class GlobalIndexApplier {
  private readonly compiled: readonly CompiledIndex[];
  private readonly tableHashField: number;
  private readonly tableRangeField: number;
  /** UTF-8 length of each field's name (projected entry sizes). */
  private readonly nameBytes: readonly number[];
  private readonly before: StoredRow;
  private readonly after: StoredRow;
  /** The table key of the change being applied, and its entries' tie-breaker once made. */
  private tableHash = '';
  private tableRange: string | undefined;
  private suffix: string | undefined;

  /** Multi-attribute GSIs: applied from decoded images (`compositeIndexApplier.ts`). */
  private readonly composites: readonly SecondaryIndex[];

  /** For the given GSIs of `table` (DELETING ones included or not: the caller chooses). */
  constructor(
    readonly table: Table,
    indexes: readonly SecondaryIndex[],
  ) {
    this.composites = indexes.filter(isComposite);
    if (this.composites.length > 0) indexes = indexes.filter((index) => !isComposite(index));
    const names = [table.key.hash.name];
    if (table.key.range) names.push(table.key.range.name);
    for (const index of indexes) {
      if (index.kind !== 'GSI') throw new TypeError(`GlobalIndexApplier: ${index.name} is not a GSI`);
      for (const element of index.keySchema) names.push(element.AttributeName);
      for (const name of projectedNamesOf(index, table) ?? []) names.push(name);
    }
    const fields = new ImageFields(names);
    this.tableHashField = fields.indexOf(table.key.hash.name);
    this.tableRangeField = table.key.range ? fields.indexOf(table.key.range.name) : -1;
    this.nameBytes = fields.names.map((name) => utf8Length(name));
    this.compiled = indexes.map((index) => compile(index, table, fields));
    this.before = new StoredRow(fields);
    this.after = new StoredRow(fields);
  }

  /**
   * Applies one change of an item (its stored text before and after; undefined when it did not
   * exist) to every index, in index order. Not reentrant (rows are reused).
   *
   * `planIndexChange` per index, with each entry key built only where a B-tree operation needs
   * it: a change that leaves an index key as it was builds one key (update) or none; a key part
   * whose text did not change is reused from the other image (one string, compared by identity
   * in the index store). bench/gsi.ts (two GSIs, both entries moving): building all four keys
   * with their objects cost ~0.6 µs a change.
   */
  apply(oldItem: StoredItem | undefined, newItem: StoredItem | undefined): void {
    if (this.composites.length > 0) applyCompositeChange(this.table, this.composites, oldItem, newItem);
    if (this.compiled.length === 0) return;
    const before = oldItem === undefined ? undefined : this.before.read(oldItem.json);
    const after = newItem === undefined ? undefined : this.after.read(newItem.json);
    // Both images have the item's table key (a change never changes it): cut it once.
    const keys = after ?? before;
    if (keys === undefined) return;
    this.tableHash = keys.scalar(this.tableHashField);
    this.tableRange = this.tableRangeField === -1 ? undefined : keys.scalar(this.tableRangeField);
    this.suffix = undefined;
    for (const index of this.compiled) {
      const wasIn = before !== undefined && inIndex(index, before);
      const isIn = after !== undefined && inIndex(index, after);
      if (!wasIn) {
        if (isIn) this.put(index, after!, newItem!, undefined, true);
        continue;
      }
      if (!isIn) {
        this.remove(index, before!, oldItem!);
        continue;
      }
      const { hashField, rangeField } = index;
      const oldHash = before!.scalar(hashField);
      const newHash = after!.scalar(hashField);
      if (
        !sameKey(index.hashType, oldHash, newHash) ||
        (rangeField !== -1 &&
          !sameKey(index.rangeType!, before!.scalar(rangeField), after!.scalar(rangeField)))
      ) {
        // replace: the old entry goes, the new one comes (the same partition when the text is).
        const hashKey = this.remove(index, before!, oldItem!);
        this.put(index, after!, newItem!, oldHash === newHash ? hashKey : undefined, true);
      } else if (this.projectionChanged(index, before!, after!)) {
        this.update(index, after!, newItem!, oldItem!); // same key, new entry
      }
    }
  }

  /** Removes the row's entry (written from `item`) from the index; returns its partition key. */
  private remove(index: CompiledIndex, row: StoredRow, item: StoredItem): string {
    const hashKey = encodeKeyValue(index.hashType, row.scalar(index.hashField));
    index.index.items.delete(hashKey, this.keptKey(index, hashKey, row, item) ?? this.rangeKeyOf(index, row));
    return hashKey;
  }

  /**
   * Stores the row's entry in the index (under `hashKey` when the caller has it already); `fresh`
   * when the entry key is new to the index unless a change is applied again (`storeEntry`).
   */
  private put(
    index: CompiledIndex,
    row: StoredRow,
    item: StoredItem,
    hashKey: string | undefined,
    fresh: boolean,
  ): void {
    storeEntry(
      index.index,
      hashKey ?? encodeKeyValue(index.hashType, row.scalar(index.hashField)),
      this.rangeKeyOf(index, row),
      this.entryOf(index, row, item),
      fresh,
    );
  }

  /** Rewrites the entry of an item whose index key did not change (`keptKey`: its sort key). */
  private update(index: CompiledIndex, row: StoredRow, item: StoredItem, oldItem: StoredItem): void {
    const hashKey = encodeKeyValue(index.hashType, row.scalar(index.hashField));
    storeEntry(
      index.index,
      hashKey,
      this.keptKey(index, hashKey, row, oldItem) ?? this.rangeKeyOf(index, row),
      this.entryOf(index, row, item),
      false,
    );
  }

  /**
   * The sort key of the entry the row's item (`item`, its stored text) has in the index under
   * `hashKey`, read from the index instead of made, or undefined. The entry found where it must be
   * (the partition's first entry for an index without a sort key, else the first at or after the
   * row's sort value) is taken when it was written from `item` (by identity): it is then stored
   * under this very key, which `rangeKeyOf` derives from the same table key and index key values.
   * Otherwise (another item's entry sorts first there, or the entry was written from an earlier
   * text of the item) the caller makes the key. The key's tail is the change's tie-breaker
   * (`rangeKeyOf`'s suffix): taken too, so a change whose entries move makes no MD5 of its table
   * key. bench/workloadCases' changes (2 GSIs, in process under callgrind): put-same 36.7k →
   * 29.0k instructions a change, put-moved 59.7k → 54.7k.
   */
  private keptKey(
    index: CompiledIndex,
    hashKey: string,
    row: StoredRow,
    item: StoredItem,
  ): string | undefined {
    const tree = index.index.items.partition(hashKey)?.items;
    if (tree === undefined) return undefined;
    const low =
      index.rangeField === -1
        ? ''
        : escapePart(encodeKeyValue(index.rangeType!, row.scalar(index.rangeField)));
    const pair = tree.getPairOrNextHigher(low, this.pair);
    if (pair === undefined || sourceOf(pair[1]) !== item) return undefined;
    const key = pair[0];
    // A copy, not a slice: the suffix may become a key of its own (an index without a sort key).
    this.suffix ??= low.length === 0 ? key : detached(key.slice(low.length));
    return key;
  }

  /** Reused by `keptKey`'s tree lookups. */
  private readonly pair = ['', undefined] as unknown as [string, IndexEntry];

  /** The entry sort key of the row's item: as `globalEntryKey`, the tie-breaker made once a change. */
  private rangeKeyOf(index: CompiledIndex, row: StoredRow): string {
    this.suffix ??= tieSuffix(this.table, this.tableHash, this.tableRange);
    if (index.rangeField === -1) return this.suffix;
    return escapePart(encodeKeyValue(index.rangeType!, row.scalar(index.rangeField))) + this.suffix;
  }

  /**
   * Whether a projected attribute differs (an ALL entry: whether the item's text does). Only the
   * non-key members are compared (`changeFields`): the caller has found the index keys equal by
   * value (`sameKey`, the equality `attributeValuesEqual` applies to them), and a change never
   * changes its item's table key, so comparing them could only answer "equal". A scalar member
   * is compared by its value (equal values of one type have one canonical text): short values are
   * copied when cut, where slicing both members made two sliced strings that V8 compares in its
   * runtime. bench/workloadCases' put-same (KEYS_ONLY and INCLUDE indexes, only `visits`
   * changing): ~7.3k → ~1k instructions a change under callgrind.
   */
  private projectionChanged(index: CompiledIndex, before: StoredRow, after: StoredRow): boolean {
    if (index.projected === undefined) return before.json !== after.json;
    for (const field of index.changeFields) {
      const had = before.has(field);
      if (had !== after.has(field)) return true;
      if (!had) continue;
      const type = before.types[field]!;
      if (type !== 0 && type === after.types[field]) {
        if (before.scalar(field) === after.scalar(field)) continue;
      } else if (before.memberText(field) === after.memberText(field)) continue;
      if (!attributeValuesEqual(before.value(field), after.value(field))) return true;
    }
    return false;
  }

  /**
   * The entry of the row's item: the item itself for ALL, else a reference to it with the
   * projected members' size (`ProjectedEntry`: their text is cut when the entry is read).
   */
  private entryOf(index: CompiledIndex, row: StoredRow, item: StoredItem): IndexEntry {
    const projected = index.projected;
    if (projected === undefined) return item;
    let size = 0;
    for (let i = 0; i < row.count; i++) {
      const field = row.order[i]!;
      if (projected[field]) size += this.nameBytes[field]! + row.valueSize(field);
    }
    return new ProjectedEntry(item, index.projection!, size);
  }
}

/** The stored item an entry was written from (an ALL entry is the item itself). */
function sourceOf(entry: IndexEntry): StoredItem {
  return entry instanceof ProjectedEntry ? entry.source : entry;
}

/**
 * `sameKeyValue`, deciding without decoding when both are plain integers (`-?[1-9][0-9]*`, one
 * text per value): a score or a counter key that moves, bench/gsi.ts's case, no longer decodes
 * both numbers (~100 bytes of garbage a change).
 */
const ANY_LENGTH = Number.POSITIVE_INFINITY;

function sameKey(type: 'S' | 'N' | 'B', before: string, after: string): boolean {
  if (before === after) return true;
  if (type === 'N' && isPlainInteger(before, ANY_LENGTH) && isPlainInteger(after, ANY_LENGTH)) return false;
  return sameKeyValue(type, before, after);
}

/** Whether the row's item is in the index: `entryKeyOf`'s conditions (see the class comment). */
function inIndex(index: CompiledIndex, row: StoredRow): boolean {
  const types = row.types;
  if (types[index.hashField] !== index.hashCode) return false;
  if (index.hashType !== 'N' && !fits(index.hashType, row.scalar(index.hashField), true)) return false;
  if (index.rangeField === -1) return true;
  if (types[index.rangeField] !== index.rangeCode) return false;
  return index.rangeType === 'N' || fits(index.rangeType!, row.scalar(index.rangeField), false);
}

/** What the applier needs of one index: its key fields and types, and its projection. */
interface CompiledIndex {
  readonly index: SecondaryIndex;
  readonly hashField: number;
  readonly hashType: 'S' | 'N' | 'B';
  readonly hashCode: number;
  /** -1 when the index has no sort key. */
  readonly rangeField: number;
  readonly rangeType: 'S' | 'N' | 'B' | undefined;
  readonly rangeCode: number;
  /** Whether each field is in the entry; undefined for ALL. */
  readonly projected: readonly boolean[] | undefined;
  /** How a read cuts the entry from the item's text; undefined for ALL. */
  readonly projection: MemberProjection | undefined;
  /** The projected fields (non-ALL). */
  readonly projectedFields: readonly number[];
  /** The projected fields that are neither a table key nor this index's key (non-ALL). */
  readonly changeFields: readonly number[];
}

function compile(index: SecondaryIndex, table: Table, fields: ImageFields): CompiledIndex {
  const { hash, range } = index.key;
  const names = projectedNamesOf(index, table);
  const projectedFields = names === undefined ? [] : [...names].map((name) => fields.indexOf(name));
  const keyNames = new Set([table.key.hash.name, hash.name]);
  if (table.key.range) keyNames.add(table.key.range.name);
  if (range) keyNames.add(range.name);
  const changeFields = projectedFields.filter((field) => !keyNames.has(fields.names[field]!));
  let projected: boolean[] | undefined;
  if (names !== undefined) {
    projected = new Array<boolean>(fields.size).fill(false);
    for (const field of projectedFields) projected[field] = true;
  }
  return {
    index,
    hashField: fields.indexOf(hash.name),
    hashType: hash.type,
    hashCode: scalarTypeCode(hash.type),
    rangeField: range ? fields.indexOf(range.name) : -1,
    rangeType: range?.type,
    rangeCode: range ? scalarTypeCode(range.type) : 0,
    projected,
    projection: names === undefined ? undefined : memberProjectionOf(index, names),
    projectedFields,
    changeFields,
  };
}

/**
 * One projection per index, shared by every applier of it (an applier is made per table and set
 * of indexes, and per backfill), so entries written by any of them cut their text alike.
 */
const memberProjections = new WeakMap<SecondaryIndex, MemberProjection>();

function memberProjectionOf(index: SecondaryIndex, names: Iterable<string>): MemberProjection {
  let projection = memberProjections.get(index);
  if (projection === undefined) {
    projection = new MemberProjection(names);
    memberProjections.set(index, projection);
  }
  return projection;
}

/**
 * Puts the entries of existing items (`items[from, to)`) into a GSI being built (backfill): the
 * same entries as the maintainer puts for an INSERT of each item.
 */
export function fillEntries(
  table: Table,
  index: SecondaryIndex,
  items: readonly StoredItem[],
  from = 0,
  to = items.length,
): void {
  const applier = new GlobalIndexApplier(table, [index]);
  for (let i = from; i < to; i++) applier.apply(undefined, items[i]!);
}
