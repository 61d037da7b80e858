import type { AttributeMap } from '../core/model/attributeValue.js';
import { CLOSE_BRACE, COMMA, compositeEnd, OPEN_BRACE, QUOTE } from '../core/store/canonicalText.js';
import type { StoredItem } from '../core/store/storedItem.js';

/**
 * Decodes a stored item's canonical text (core/store/itemCodec.ts: what `JSON.stringify` wrote)
 * into the object `JSON.parse` would return: same members, same order, same values, a fresh object.
 *
 * Why not `JSON.parse`: a stream record of a NEW_AND_OLD_IMAGES view decodes two images, and that
 * was half of what a stream with a bound handler added to a write. Native `JSON.parse` builds each
 * `{"S": ...}` by searching the transition tree of the empty object's map; here each attribute
 * value is an object literal of a fixed shape, and member names are reused (`recentNames`).
 * Measured on the bench's ~230-byte items (9 flat attributes), interleaved in one process: ~0.31
 * µs of CPU an item against ~1.25 µs for `JSON.parse` (30 attributes: ~2.2 against ~6 µs; a
 * variant keeping the property keys V8 internalized, not the names cut from the text, measured
 * no better). Under callgrind
 * (bench/workload.ts, BENCH_WORKLOAD_INSTRUCTIONS=1, stream, put-moved, c=16) a record's two
 * images took 48k instructions with `JSON.parse`, 17.6k with this.
 *
 * The fast path reads top-level members of type S, N, B (a string), BOOL and NULL; a member of any
 * other type (M, L, SS, NS, BS) is cut out of the text (its end found by canonicalText.ts's
 * `compositeEnd`, as the GSI maintainer's stored images find it) and given to `JSON.parse`. A text with a backslash
 * (an escaped character in some string), a member named `__proto__` (an assignment would set the
 * prototype, where `JSON.parse` makes an own member) or anything unexpected is given whole to
 * `JSON.parse`: the result is the same either way, only the cost differs.
 */
export function decodeImage(stored: StoredItem): AttributeMap {
  const json = stored.json;
  return (json.indexOf('\\') === -1 ? decodePlain(json) : undefined) ?? (JSON.parse(json) as AttributeMap);
}

const B = 66;
const N = 78;
const S = 83;
const T = 116; // t (true)

/**
 * The member names of the last item decoded, by position. Items of a table mostly have the same
 * names in the same (canonical) order: a name found here is compared in place, not cut out of the
 * text and looked up in V8's string table again to become a property key. No name here holds a `"`
 * (they come from text without escapes), so a match followed by `"` is the whole name.
 */
const recentNames: string[] = [];

/** `{"name":{"T":...},...}` without escapes → the item, or undefined to let JSON.parse do it. */
function decodePlain(json: string): AttributeMap | undefined {
  const item: AttributeMap = {};
  const end = json.length - 1;
  if (json.charCodeAt(0) !== OPEN_BRACE || json.charCodeAt(end) !== CLOSE_BRACE) return undefined;
  let at = 1;
  if (at === end) return item;
  for (let member = 0; ; member++) {
    // at: the opening quote of a member's name; `"name":{"` then the type.
    if (json.charCodeAt(at) !== QUOTE) return undefined;
    let name = recentNames[member];
    let nameEnd: number;
    if (
      name !== undefined &&
      json.charCodeAt(at + 1 + name.length) === QUOTE &&
      json.startsWith(name, at + 1)
    ) {
      nameEnd = at + 1 + name.length;
    } else {
      nameEnd = json.indexOf('"', at + 1);
      if (nameEnd === -1) return undefined;
      name = json.slice(at + 1, nameEnd);
      if (name === '__proto__') return undefined;
      recentNames[member] = name;
    }
    const type = nameEnd + 4;
    const first = json.charCodeAt(type);
    if (json.charCodeAt(type + 1) === QUOTE && (first === S || first === N || first === B)) {
      // `S":"value"}`
      const valueStart = type + 4;
      const valueEnd = json.indexOf('"', valueStart);
      if (valueEnd === -1) return undefined;
      const value = json.slice(valueStart, valueEnd);
      item[name] = first === S ? { S: value } : first === N ? { N: value } : { B: value };
      at = valueEnd + 2;
    } else if (json.startsWith('BOOL":', type)) {
      // `BOOL":true}` or `BOOL":false}`
      const truth = json.charCodeAt(type + 6) === T;
      item[name] = { BOOL: truth };
      at = type + (truth ? 11 : 12);
    } else if (json.startsWith('NULL":true}', type)) {
      item[name] = { NULL: true };
      at = type + 11;
    } else {
      // A map, a list or a set: its attribute value object, from `{` to the brace that closes it.
      const open = nameEnd + 2;
      const close = compositeEnd(json, open);
      item[name] = JSON.parse(json.slice(open, close));
      at = close;
    }
    const next = json.charCodeAt(at);
    if (next === COMMA) at++;
    else return next === CLOSE_BRACE && at === end ? item : undefined;
  }
}
