import { type AttributeMap, getAttribute, newAttributeMap } from '../model/attributeValue.js';
import { StoredItem } from '../store/storedItem.js';
import type { SecondaryIndex, Table } from '../store/table.js';

/**
 * What an index holds of an item (its projection): ALL, the keys only (table and index keys), or
 * the keys plus NonKeyAttributes (INCLUDE).
 */
export function projectedNames(index: SecondaryIndex, table: Table): Set<string> | undefined {
  if (index.projection.ProjectionType === 'ALL') return undefined;
  const names = new Set<string>([table.key.hash.name, index.key.hash.name]);
  if (table.key.range) names.add(table.key.range.name);
  if (index.key.range) names.add(index.key.range.name);
  for (const element of index.keySchema) names.add(element.AttributeName);
  if (index.projection.ProjectionType === 'INCLUDE') {
    for (const name of index.projection.NonKeyAttributes ?? []) names.add(name);
  }
  return names;
}

const projections = new WeakMap<SecondaryIndex, ReadonlySet<string> | null>();

/** `projectedNames`, computed once per index (an index's keys and projection never change). */
export function projectedNamesOf(index: SecondaryIndex, table: Table): ReadonlySet<string> | undefined {
  let names = projections.get(index);
  if (names === undefined) {
    names = projectedNames(index, table) ?? null;
    projections.set(index, names);
  }
  return names ?? undefined;
}

/** The projected copy of an item (the same item for ALL). */
export function projectItem(index: SecondaryIndex, table: Table, item: AttributeMap): AttributeMap {
  const names = projectedNamesOf(index, table);
  if (names === undefined) return item;
  const projected = newAttributeMap();
  for (const name of names) {
    const value = getAttribute(item, name);
    if (value !== undefined) projected[name] = value;
  }
  return projected;
}

/**
 * The stored form of an index entry. An ALL projection shares the table's stored text (no
 * copy); other projections store their own smaller text.
 */
export function storedEntry(
  index: SecondaryIndex,
  table: Table,
  item: AttributeMap,
  stored: StoredItem | undefined,
): StoredItem {
  if (stored !== undefined && projectedNamesOf(index, table) === undefined) return stored;
  return StoredItem.fromItem(projectItem(index, table, item));
}

/**
 * Storage of one index entry by the service's rule: table key + index key + projected attributes
 * + 100 bytes of overhead. The projected copy holds the keys. Storage considerations in
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html
 */
export const INDEX_ENTRY_OVERHEAD_BYTES = 100;

export function indexSizeBytes(index: SecondaryIndex): number {
  return index.items.bytes + INDEX_ENTRY_OVERHEAD_BYTES * index.items.size;
}
