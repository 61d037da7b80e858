import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  stringEnd,
} from '../store/canonicalText.js';

/**
 * Reads a top-level Number attribute straight from an item's canonical JSON text (see
 * `store/itemCodec.ts`) without decoding the item: the expiry index needs the TTL value of the
 * item a write replaces, and of every stored item when TTL is enabled, and a full `JSON.parse`
 * of each would cost more than the rest of the upkeep together.
 *
 * The text is `{"<name>":{"<type>":<value>},...}`. The attribute's key `"<name>":` is found
 * with a native search; a match counts only at nesting depth 1 and outside any string, which a
 * walk from the start checks by jumping over string tokens (so its cost is the number of tokens
 * before the match, not the bytes).
 */

/** `"<name>":` as the canonical text spells the key (JSON.stringify escapes it the same way). */
export function attributeNeedle(attributeName: string): string {
  return `${JSON.stringify(attributeName)}:`;
}

const NUMBER_PREFIX = '{"N":"';

/**
 * Where the top-level key `needle` starts in `json`, or -1. Walks tokens from the start, so a
 * match inside a nested map or inside a string value is passed over.
 */
export function topLevelKeyAt(json: string, needle: string): number {
  let match = json.indexOf(needle);
  if (match === -1) return -1;
  let depth = 0;
  let i = 0;
  while (i < json.length) {
    if (i === match) {
      if (depth === 1) return match;
      match = json.indexOf(needle, match + 1);
      if (match === -1) return -1;
    }
    const code = json.charCodeAt(i);
    if (code === QUOTE) {
      i = stringEnd(json, i);
      // The match was inside this string: look for the next one after it.
      if (match < i) {
        match = json.indexOf(needle, i);
        if (match === -1) return -1;
      }
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
    i++;
  }
  return -1;
}

/**
 * The value of a top-level Number attribute read from canonical item text, or undefined when the
 * attribute is missing or of another type. Same answer as `ttlValueOf(decodeItem(json), name)`.
 */
export function readTopLevelNumber(json: string, needle: string): number | undefined {
  const at = topLevelKeyAt(json, needle);
  if (at === -1) return undefined;
  const value = at + needle.length;
  if (!json.startsWith(NUMBER_PREFIX, value)) return undefined;
  const start = value + NUMBER_PREFIX.length;
  const seconds = Number(json.slice(start, json.indexOf('"', start)));
  return Number.isFinite(seconds) ? seconds : undefined;
}
