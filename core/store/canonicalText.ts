/**
 * Tokens of an item's canonical JSON text (`itemCodec.ts`), for the readers that find members
 * in it without decoding the item: the GSI maintainer's stored images (`indexes/storedImage.ts`)
 * the expiry index's TTL reads (`ttl/ttlText.ts`), the import's stored-form scan
 * (`storedItemScan.ts`) and the Lambda records' image decoder (`streams/imageDecoder.ts`).
 */

export const QUOTE = 34;
export const BACKSLASH = 92;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
export const COMMA = 44;
export const COLON = 58;

/**
 * Offset just past the JSON string literal whose opening quote is at `at` (the text's length if
 * it never closes). A quote preceded by an odd run of backslashes is escaped.
 */
export function stringEnd(json: string, at: number): number {
  let end = json.indexOf('"', at + 1);
  for (;;) {
    if (end === -1) return json.length;
    let backslashes = 0;
    for (let i = end - 1; json.charCodeAt(i) === BACKSLASH; i--) backslashes++;
    if ((backslashes & 1) === 0) return end + 1;
    end = json.indexOf('"', end + 1);
  }
}

/** Offset just past the JSON object or array starting at `at` (the text must be well formed). */
export function compositeEnd(json: string, at: number): number {
  let depth = 0;
  let i = at;
  for (;;) {
    const code = json.charCodeAt(i);
    if (code === QUOTE) {
      i = stringEnd(json, i);
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
}
