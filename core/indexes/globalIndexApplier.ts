import { attributeValuesEqual } from '../model/compare.js';
import { utf8Length } from '../model/utf8.js';
import { StoredItem } from '../store/storedItem.js';
import type { SecondaryIndex, Table } from '../store/table.js';
import { type EntryKey, fits, globalEntryKey } from './entryKey.js';
import { type IndexChange, sameKeyValue } from './indexChange.js';
import { projectedNamesOf } from './projection.js';
import { ImageFields, StoredRow, scalarTypeCode } from './storedImage.js';
import { storeEntry } from './storeEntry.js';

/**
 * Applies changes to a table's global indexes straight from the items' stored texts: the
 * gsi-maintainer's internal path (the table's own change feed) and the backfill of a new index.
 *
 * It is the maintainer's rule (`functions/gsi-maintainer` `recordHandler`: `planIndexChange` per
 * index, then remove and put through the index writer) evaluated on what the rule reads, located
 * in the stored texts (`storedImage.ts`) instead of decoded images:
 *
 * - an item is in an index when it has each index key, of the declared type, non-empty and
 *   within size (`fits`, as `entryKeyOf`), and its entry key is `globalEntryKey`, as `entryKeyOf`;
 * - key values compare with `sameKeyValue`, as `planIndexChange`; projections compare member by
 *   member (equal text, else `attributeValuesEqual`) for INCLUDE and KEYS_ONLY; an ALL entry is
 *   the whole item, whose text differs in every MODIFY (the commit emits none for an unchanged
 *   item): it is rewritten, which also makes it share the item's current text;
 * - a non-ALL entry is the projected members' texts in canonical order, which is what encoding
 *   the projected item gives (`projection.ts`), with its size by the same rules.
 *
 * Measured on bench/gsi.ts's changes (two GSIs, every write moving both entries), B-tree updates
 * aside: a Lambda record per change (both images decoded), `planIndexChange` and `put`/`remove`
 * per index cost ~10 µs a change; decoding partial images only, ~4.5 µs; this, ~3 µs, of which
 * reading the two texts ~0.7 µs and the table key's MD5 (entry tie-breaker) ~0.4 µs.
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

  /** For the given GSIs of `table` (DELETING ones included or not: the caller chooses). */
  constructor(
    readonly table: Table,
    readonly indexes: readonly SecondaryIndex[],
  ) {
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
   */
  apply(oldItem: StoredItem | undefined, newItem: StoredItem | undefined): void {
    if (this.compiled.length === 0) return;
    const before = oldItem === undefined ? undefined : this.before.read(oldItem.json);
    const after = newItem === undefined ? undefined : this.after.read(newItem.json);
    // Both images have the item's table key (a change never changes it): cut it once.
    const keys = after ?? before;
    if (keys === undefined) return;
    const tableHash = keys.scalar(this.tableHashField);
    const tableRange = this.tableRangeField === -1 ? undefined : keys.scalar(this.tableRangeField);
    for (const index of this.compiled) {
      const oldKey = before === undefined ? undefined : this.keyOf(index, before, tableHash, tableRange);
      const newKey = after === undefined ? undefined : this.keyOf(index, after, tableHash, tableRange);
      switch (this.plan(index, before, oldKey, after, newKey)) {
        case 'put':
        case 'update':
          storeEntry(index.index, newKey!.hashKey, newKey!.rangeKey, this.entryOf(index, after!, newItem!));
          break;
        case 'delete':
          index.index.items.delete(oldKey!.hashKey, oldKey!.rangeKey);
          break;
        case 'replace':
          index.index.items.delete(oldKey!.hashKey, oldKey!.rangeKey);
          storeEntry(index.index, newKey!.hashKey, newKey!.rangeKey, this.entryOf(index, after!, newItem!));
          break;
        case 'none':
          break;
      }
    }
  }

  /** The entry key of the row's item in the index, or undefined when it is not in it. */
  private keyOf(
    index: CompiledIndex,
    row: StoredRow,
    tableHash: string,
    tableRange: string | undefined,
  ): EntryKey | undefined {
    const types = row.types;
    if (types[index.hashField] !== index.hashCode) return undefined;
    const hashValue = row.scalar(index.hashField);
    if (!fits(index.hashType, hashValue, true)) return undefined;
    let rangeValue: string | undefined;
    if (index.rangeField !== -1) {
      if (types[index.rangeField] !== index.rangeCode) return undefined;
      rangeValue = row.scalar(index.rangeField);
      if (!fits(index.rangeType!, rangeValue, false)) return undefined;
    }
    return globalEntryKey(index.index, this.table, hashValue, rangeValue, tableHash, tableRange);
  }

  /** `planIndexChange`, on rows (see the class comment). */
  private plan(
    index: CompiledIndex,
    before: StoredRow | undefined,
    oldKey: EntryKey | undefined,
    after: StoredRow | undefined,
    newKey: EntryKey | undefined,
  ): IndexChange {
    if (oldKey === undefined && newKey === undefined) return 'none';
    if (oldKey === undefined) return 'put';
    if (newKey === undefined) return 'delete';
    const { hashField, rangeField } = index;
    if (!sameKeyValue(index.hashType, before!.scalar(hashField), after!.scalar(hashField))) return 'replace';
    if (
      rangeField !== -1 &&
      !sameKeyValue(index.rangeType!, before!.scalar(rangeField), after!.scalar(rangeField))
    )
      return 'replace';
    if (index.projected === undefined) return before!.json === after!.json ? 'none' : 'update';
    for (const field of index.projectedFields) {
      const had = before!.has(field);
      if (had !== after!.has(field)) return 'update';
      if (!had) continue;
      if (before!.memberText(field) === after!.memberText(field)) continue;
      if (!attributeValuesEqual(before!.value(field), after!.value(field))) return 'update';
    }
    return 'none';
  }

  /** The stored entry of the row's item: the item itself for ALL, else its projected members. */
  private entryOf(index: CompiledIndex, row: StoredRow, item: StoredItem): StoredItem {
    const projected = index.projected;
    if (projected === undefined) return item;
    const { json, order, starts, ends } = row;
    // Members in text order (canonical order); adjacent ones are cut as one run.
    let text = '{';
    let size = 0;
    let runStart = -1;
    let runEnd = -1;
    for (let i = 0; i < row.count; i++) {
      const field = order[i]!;
      if (!projected[field]) continue;
      size += this.nameBytes[field]! + row.valueSize(field);
      if (runEnd !== -1 && starts[field] === runEnd + 1) {
        runEnd = ends[field]!;
        continue;
      }
      if (runEnd !== -1) text += (text.length > 1 ? ',' : '') + json.slice(runStart, runEnd);
      runStart = starts[field]!;
      runEnd = ends[field]!;
    }
    if (runEnd !== -1) text += (text.length > 1 ? ',' : '') + json.slice(runStart, runEnd);
    text += '}';
    // Flatten the concatenation (the entry lives as long as the index; see `encodeItem`).
    text.charCodeAt(text.length >> 1);
    return new StoredItem(text, size);
  }
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
  /** The projected fields (non-ALL). */
  readonly projectedFields: readonly number[];
}

function compile(index: SecondaryIndex, table: Table, fields: ImageFields): CompiledIndex {
  const { hash, range } = index.key;
  const names = projectedNamesOf(index, table);
  const projectedFields = names === undefined ? [] : [...names].map((name) => fields.indexOf(name));
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
    projectedFields,
  };
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
