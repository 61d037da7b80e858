import { type AttributeMap, type AttributeValue, getAttribute } from './attributeValue.js';
import { base64ByteLength } from './binary.js';
import { numberSize } from './number.js';
import { utf8Length } from './utf8.js';

/**
 * Item sizes by the service's rules (docs/dynamodb.md §2.4.2, §2.4.3,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 * Σ(name UTF-8 bytes + value size); S UTF-8 bytes, B raw bytes, N by significant digits, BOOL and
 * NULL 1, sets the sum of their members, L and M 3 + Σ(1 + element) (map entries add their name).
 */
export const MAX_ITEM_SIZE = 409_600;

export function attributeValueSize(value: AttributeValue): number {
  if ('S' in value) return utf8Length(value.S);
  if ('N' in value) return numberSize(value.N);
  if ('B' in value) return base64ByteLength(value.B);
  if ('BOOL' in value || 'NULL' in value) return 1;
  if ('SS' in value) {
    let size = 0;
    for (const member of value.SS) size += utf8Length(member);
    return size;
  }
  if ('NS' in value) {
    let size = 0;
    for (const member of value.NS) size += numberSize(member);
    return size;
  }
  if ('BS' in value) {
    let size = 0;
    for (const member of value.BS) size += base64ByteLength(member);
    return size;
  }
  if ('L' in value) {
    let size = 3;
    for (const element of value.L) size += 1 + attributeValueSize(element);
    return size;
  }
  let size = 3;
  for (const name of Object.keys(value.M)) size += 1 + utf8Length(name) + attributeValueSize(value.M[name]!);
  return size;
}

export function itemSize(item: AttributeMap): number {
  let size = 0;
  for (const name of Object.keys(item))
    size += utf8Length(name) + attributeValueSize(getAttribute(item, name)!);
  return size;
}
