import { type AttributeMap, type AttributeValue, newAttributeMap } from '../model/attributeValue.js';
import { base64ByteLength } from '../model/binary.js';
import { itemSize } from '../model/itemSize.js';
import { numberSize } from '../model/number.js';
import { MAX_NESTING_LEVEL } from '../model/parseAttributeValue.js';
import { utf8Length } from '../model/utf8.js';

/**
 * Items at rest are canonical JSON text: map members and set members in a fixed order. Two
 * equal items then have equal text, so "did this write change anything?" (no stream record for a
 * write that changes nothing, docs/streams-and-lambda.md §1.3.3) is a string comparison.
 *
 * The order is the engine's property-enumeration order after inserting names sorted: integer-like
 * names first (ascending, as JS always enumerates them), then the others in sorted order.
 * DynamoDB promises no order for map members or set members, so this changes nothing a client
 * may rely on.
 */
export function encodeItem(item: AttributeMap): string {
  return encodeWalk(item, true)?.json ?? encodeCanonical(isCanonicalMap(item) ? item : canonicalMap(item));
}

/**
 * `encodeItem` of an item as `parseAttributeMap` returns it, which is canonical by construction
 * (names inserted sorted at every level, set members sorted): skips the check that would say so
 * (~3% of a PutItem, measured). test/core/store/itemCodec.test.ts holds the two equal.
 */
export function encodeParsedItem(item: AttributeMap): string {
  return encodeWalk(item, false)?.json ?? encodeCanonical(item);
}

/** An item's stored text and its size by the AWS rules (`itemSize`), made in one walk. */
export interface EncodedItem {
  readonly json: string;
  readonly size: number;
}

/** `encodeItem` and `itemSize` of an item together. */
export function encodeItemSized(item: AttributeMap): EncodedItem {
  return encodeWalk(item, true) ?? encodeSlowly(isCanonicalMap(item) ? item : canonicalMap(item));
}

/** `encodeParsedItem` and `itemSize` of a parsed (canonical) item together. */
export function encodeParsedItemSized(item: AttributeMap): EncodedItem {
  return encodeWalk(item, false) ?? encodeSlowly(item);
}

/** The reference encoding, which the walk below reproduces byte for byte. */
function encodeSlowly(canonical: AttributeMap): EncodedItem {
  return { json: encodeCanonical(canonical), size: itemSize(canonical) };
}

function encodeCanonical(canonical: AttributeMap): string {
  return flat(JSON.stringify(canonical));
}

/**
 * JSON.stringify and string concatenation return a rope of parts; reading a character in the
 * middle makes V8 flatten it into one sequential string: measured 463 → 321 heap bytes for a
 * 245-byte item.
 */
function flat(json: string): string {
  json.charCodeAt(json.length >> 1);
  return json;
}

/*
 * The walk: JSON.stringify's text of a canonical item and the item's size, in one pass over the
 * item, without V8's generic serialiser (which looks up `toJSON` on every object and checks every
 * character of every string natively; `itemSize` then walked the item again). Strings of printable
 * ASCII without `"` or `\` (nearly all names and values) are written as they are and their length
 * is their UTF-8 size; any other string goes through JSON.stringify and utf8Length, so escapes
 * and sizes stay exactly the reference's. The text grows by appending to one string, a few pieces
 * per attribute. Measured on the bench's 9-attribute item natively (tsx, this machine): JSON.stringify
 * plus `itemSizeOfEncoded` ~1.4 µs, this walk ~0.86 µs; the same item out of order, as a new
 * UpdateItem item: canonicalMap + JSON.stringify + itemSize ~2.4 µs, this walk ~1.4 µs. Under
 * callgrind, UpdateItem at 16 clients: JSON.stringify 20.9k + isCanonicalMap 4.8k + the size walk
 * ~3k instructions → 22.7k.
 *
 * Anything the walk does not expect (a value object with other than one known member, a set
 * member that is not a string, deeper nesting than requests allow) makes it give up: the caller
 * then takes the reference path, so the text is JSON.stringify's in every case.
 */

/** The text and size of the item walked so far. The walk calls nothing that could start another. */
let walkText = '';
let walkSize = 0;
/** Whether names and set members must be checked for canonical order. */
let checkOrder = false;
/** Set when the walk meets something it leaves to the reference path. */
let giveUp = false;

const hasOwn = Object.prototype.hasOwnProperty;
/** Longer strings are checked natively (JSON.stringify, utf8Length): a JS loop is slower there. */
const SHORT_STRING = 128;

function encodeWalk(item: AttributeMap, ordered: boolean): EncodedItem | undefined {
  walkText = '';
  walkSize = 0;
  checkOrder = ordered;
  giveUp = false;
  appendMap(item, 0, 0);
  const json = walkText;
  walkText = '';
  if (giveUp) return undefined;
  return { json: flat(json), size: walkSize };
}

/** Printable ASCII without `"` and `\\`: JSON writes it as is, one byte per character. */
function isPlain(text: string): boolean {
  if (text.length > SHORT_STRING) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

/** Appends a quoted string, adding its UTF-8 size when `sized`. */
function appendString(text: string, sized: boolean): void {
  if (isPlain(text)) {
    if (sized) walkSize += text.length;
    walkText += `"${text}"`;
  } else {
    if (sized) walkSize += utf8Length(text);
    walkText += JSON.stringify(text);
  }
}

/** `isSortedNames`'s rule: index-like names enumerate first by construction, the rest ascend. */
function isIndexLike(name: string): boolean {
  const first = name.charCodeAt(0);
  return first >= 48 && first <= 57 && INDEX_LIKE.test(name) && Number(name) < 4294967295;
}

/**
 * Appends a map; `extra` is what each entry adds to the size besides its name and value (0 for
 * the item's attributes, 1 for a map value's, docs/dynamodb.md §2.4.2).
 */
function appendMap(map: AttributeMap, level: number, extra: number): void {
  if (checkOrder) {
    appendMapInOrder(map, level, extra);
    return;
  }
  let first = true;
  for (const name in map) {
    if (!hasOwn.call(map, name)) continue;
    appendEntry(map, name, first, level, extra);
    if (giveUp) return;
    first = false;
  }
  walkText += first ? '{}' : '}';
}

/**
 * A map in `canonicalMap`'s order, without copying it: its names as listed when already in that
 * order, else index-like names first, ascending (as `Object.keys` lists them), then the others
 * sorted. The names are listed once (an updated item is often a dictionary-mode object, whose
 * every key listing costs ~2k instructions), and the order is known before any entry is written,
 * so no nested value is walked twice.
 */
function appendMapInOrder(map: AttributeMap, level: number, extra: number): void {
  let names = Object.keys(map);
  if (!isSortedNames(names)) {
    let indexLike = 0;
    while (indexLike < names.length && isIndexLike(names[indexLike]!)) indexLike++;
    names = [...names.slice(0, indexLike), ...names.slice(indexLike).sort()];
  }
  for (let i = 0; i < names.length; i++) {
    appendEntry(map, names[i]!, i === 0, level, extra);
    if (giveUp) return;
  }
  walkText += names.length === 0 ? '{}' : '}';
}

/** One `"name":value` of a map, with `{` or `,` before it. */
function appendEntry(map: AttributeMap, name: string, first: boolean, level: number, extra: number): void {
  walkSize += extra;
  if (isPlain(name)) {
    walkSize += name.length;
    walkText += first ? `{"${name}":` : `,"${name}":`;
  } else {
    walkSize += utf8Length(name);
    walkText += `${first ? '{' : ','}${JSON.stringify(name)}:`;
  }
  appendValue(map[name]!, level + 1);
}

/** An attribute value's members as the walk reads them: checked, not trusted. */
interface ValueMembers {
  S?: unknown;
  N?: unknown;
  B?: unknown;
  BOOL?: unknown;
  NULL?: unknown;
  SS?: unknown;
  NS?: unknown;
  BS?: unknown;
  L?: unknown;
  M?: unknown;
}

function appendValue(value: AttributeValue, level: number): void {
  // The one member's name. A second member, or none of its own, is left to the reference path.
  let type: string | undefined;
  for (const key in value) {
    if (type !== undefined) {
      giveUp = true;
      return;
    }
    type = key;
  }
  if (type === undefined || !hasOwn.call(value, type)) {
    giveUp = true;
    return;
  }
  // Members are read by name (`value.S`), not as `value[type]`: a keyed load on the values'
  // several shapes is megamorphic.
  const members = value as ValueMembers;
  switch (type) {
    case 'S': {
      const text = members.S;
      if (typeof text !== 'string') break;
      if (isPlain(text)) {
        walkSize += text.length;
        walkText += `{"S":"${text}"}`;
      } else {
        walkSize += utf8Length(text);
        walkText += `{"S":${JSON.stringify(text)}}`;
      }
      return;
    }
    case 'N': {
      const text = members.N;
      if (typeof text !== 'string') break;
      walkSize += numberSize(text);
      walkText += isPlain(text) ? `{"N":"${text}"}` : `{"N":${JSON.stringify(text)}}`;
      return;
    }
    case 'B': {
      const text = members.B;
      if (typeof text !== 'string') break;
      walkSize += base64ByteLength(text);
      walkText += isPlain(text) ? `{"B":"${text}"}` : `{"B":${JSON.stringify(text)}}`;
      return;
    }
    case 'BOOL':
    case 'NULL': {
      const flag = type === 'BOOL' ? members.BOOL : members.NULL;
      if (typeof flag !== 'boolean') break;
      walkSize += 1;
      walkText += `{"${type}":${flag}}`;
      return;
    }
    case 'SS':
    case 'NS':
    case 'BS': {
      const set = type === 'SS' ? members.SS : type === 'NS' ? members.NS : members.BS;
      if (!Array.isArray(set)) break;
      walkText += `{"${type}":[`;
      appendSet(type, set);
      walkText += ']}';
      return;
    }
    case 'L': {
      const list = members.L;
      if (!Array.isArray(list) || level > MAX_NESTING_LEVEL) break;
      walkSize += 3;
      walkText += '{"L":[';
      for (let i = 0; i < list.length; i++) {
        walkSize += 1;
        if (i > 0) walkText += ',';
        appendValue(list[i] as AttributeValue, level + 1);
        if (giveUp) return;
      }
      walkText += ']}';
      return;
    }
    case 'M': {
      const map = members.M;
      if (typeof map !== 'object' || map === null || level > MAX_NESTING_LEVEL) break;
      walkSize += 3;
      walkText += '{"M":';
      appendMap(map as AttributeMap, level, 1);
      walkText += '}';
      return;
    }
  }
  giveUp = true;
}

function appendSet(type: 'SS' | 'NS' | 'BS', members: readonly unknown[]): void {
  const textBefore = walkText;
  const sizeBefore = walkSize;
  for (let i = 0; i < members.length; i++) {
    const member = members[i];
    if (typeof member !== 'string') {
      giveUp = true;
      return;
    }
    if (i > 0) {
      if (checkOrder && (members[i - 1] as string) > member) {
        // Not canonical: the members again, sorted (as `canonicalMap` sorts a set's copy).
        walkText = textBefore;
        walkSize = sizeBefore;
        appendSet(type, [...members].sort());
        return;
      }
      walkText += ',';
    }
    if (type === 'NS') walkSize += numberSize(member);
    else if (type === 'BS') walkSize += base64ByteLength(member);
    appendString(member, type === 'SS');
  }
}

export function decodeItem(json: string): AttributeMap {
  return JSON.parse(json) as AttributeMap;
}

const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

function isSortedNames(names: string[]): boolean {
  let previous: string | undefined;
  for (const name of names) {
    // Array-index-like names always enumerate first, ascending: they are in order by construction.
    if (isIndexLike(name)) continue;
    if (previous !== undefined && previous > name) return false;
    previous = name;
  }
  return true;
}

function isSortedSet(members: readonly string[]): boolean {
  for (let i = 1; i < members.length; i++) if (members[i - 1]! > members[i]!) return false;
  return true;
}

function isCanonicalValue(value: AttributeValue): boolean {
  if ('M' in value) return isCanonicalMap(value.M);
  if ('L' in value) return value.L.every(isCanonicalValue);
  if ('SS' in value) return isSortedSet(value.SS);
  if ('NS' in value) return isSortedSet(value.NS);
  if ('BS' in value) return isSortedSet(value.BS);
  return true;
}

function isCanonicalMap(map: AttributeMap): boolean {
  const names = Object.keys(map);
  if (!isSortedNames(names)) return false;
  for (const name of names) if (!isCanonicalValue(map[name]!)) return false;
  return true;
}

function canonicalValue(value: AttributeValue): AttributeValue {
  if ('M' in value) return { M: canonicalMap(value.M) };
  if ('L' in value) return { L: value.L.map(canonicalValue) };
  if ('SS' in value) return { SS: [...value.SS].sort() };
  if ('NS' in value) return { NS: [...value.NS].sort() };
  if ('BS' in value) return { BS: [...value.BS].sort() };
  return value;
}

/** A copy with names inserted in sorted order (null prototype) and sets sorted. */
export function canonicalMap(map: AttributeMap): AttributeMap {
  const copy = newAttributeMap();
  for (const name of Object.keys(map).sort()) copy[name] = canonicalValue(map[name]!);
  return copy;
}
