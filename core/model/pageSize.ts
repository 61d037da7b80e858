import { type AttributeMap, type AttributeValue, getAttribute } from './attributeValue.js';
import { attributeValueSize } from './itemSize.js';
import { utf8Length } from './utf8.js';

/**
 * What an item counts against the 1 MB page of a Query or Scan (docs/dynamodb.md §6.2.3). It is not
 * the item size of the capacity rules: the service measures pages in its storage form, where an
 * attribute name takes one byte, each value carries a length prefix, and every item carries an
 * overhead that grows with it and with its sort key. The rule below reproduces the boundaries
 * recorded in dynalite's tests/scan.js and tests/query.js ("should return all if just under
 * limit", "should return one less than all if just over limit": 25 items of ~43 KB where one byte
 * decides whether the 24th or the 25th item ends the page), as dynalite's db/index.js models
 * them:
 *
 *   page size = 2 + s + (1 + ⌊(1 + s) / 3072⌋) × (18 + r)
 *
 * where r is the size of the table's sort key value (0 without one) and s the storage size of
 * the other attributes: per attribute 1 (the name) plus its value, S with a 1-, 2- or 3-byte
 * prefix below 128, 16,384 and beyond; B and N 1; a set 1 plus 1 per member; BOOL 1, NULL 0; a
 * list 3 + Σ(1 + element), a map 3 + its entry count + its entries measured the same way.
 *
 * @example
 * ```ts
 * pageSize({ a: { S: 'x' } }, undefined); // 2 + (1 + 1 + 1) + 1 × 18 = 23
 * ```
 */
export function pageSize(item: AttributeMap, sortKeyName: string | undefined): number {
  let size = 0;
  let sortKeySize = 0;
  for (const name of Object.keys(item)) {
    const value = getAttribute(item, name)!;
    if (name === sortKeyName) sortKeySize = attributeValueSize(value);
    else size += 1 + storedSize(value);
  }
  return 2 + size + (1 + Math.floor((1 + size) / 3072)) * (18 + sortKeySize);
}

/** A value as stored: its plain size and its length prefix. */
function storedSize(value: AttributeValue): number {
  if ('S' in value) {
    const bytes = utf8Length(value.S);
    return bytes + (bytes < 128 ? 1 : bytes < 16_384 ? 2 : 3);
  }
  if ('N' in value || 'B' in value) return attributeValueSize(value) + 1;
  if ('SS' in value) return attributeValueSize(value) + value.SS.length + 1;
  if ('NS' in value) return attributeValueSize(value) + value.NS.length + 1;
  if ('BS' in value) return attributeValueSize(value) + value.BS.length + 1;
  if ('NULL' in value) return 0;
  if ('BOOL' in value) return 1;
  if ('L' in value) {
    let size = 3;
    for (const element of value.L) size += 1 + storedSize(element);
    return size;
  }
  const names = Object.keys(value.M);
  let size = 3 + names.length;
  for (const name of names) size += 1 + storedSize(value.M[name]!);
  return size;
}

/**
 * An upper bound of `pageSize` from the item's stored JSON text alone, so pages far below 1 MB
 * never decode their items: every stored byte, prefix and name byte is written in the text, each
 * UTF-16 unit of it stands for at most 3 UTF-8 bytes, and the per-item overhead adds at most
 * 2 + (1 + ⌊(1 + 3t) / 3072⌋) × (18 + 3t) for a text of t units.
 */
export function pageSizeBound(jsonLength: number): number {
  const most = 3 * jsonLength;
  return 2 + most + (1 + Math.floor((1 + most) / 3072)) * (18 + most);
}
