import { type AttributeMap, newFastAttributeMap, setAttribute } from '../model/attributeValue.js';
import { MAX_ITEM_SIZE } from '../model/itemSize.js';
import { MAX_NESTING_LEVEL } from '../model/parseAttributeValue.js';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from './canonicalText.js';
import {
  compareBytes,
  compareStrings,
  FAIL,
  FALSE,
  hexDigit,
  isIndexLike,
  isWord,
  NINE,
  type SliceableBuffer,
  scanBinary,
  scanNumber,
  TRUE,
  ZERO,
} from './storedScalarScan.js';

/**
 * Recognises an item already in eddy's stored form (`itemCodec.ts`: canonical DynamoDB JSON, as
 * `JSON.stringify` writes it) in UTF-8 bytes, in one pass and without building it: an export by
 * eddy imports back through here (docs/backups.md §4.2). The pass checks what `parseAttributeMap`
 * and PutItem's checks would (one type per value, normalised numbers, canonical base64, sorted
 * names and set members, no duplicates, nesting, the 400 KB size) and measures the item by the
 * AWS rules on the way, so the bytes become the stored text as they are.
 *
 * It answers `undefined` for anything it does not recognise, valid or not (other member orders,
 * whitespace, unusual escapes, index-like names, deep nesting, an item too large): the caller then
 * takes the general path (JSON.parse, then PutItem's validation), which gives the same item or the
 * service's message. test/backups/storedItemScan.test.ts holds the two paths equal on random items.
 *
 * The bytes must be well-formed UTF-8 (the caller checks a whole object at once with
 * `buffer.isUtf8`): a string's UTF-8 length is then its byte count less its escapes.
 */
export interface ScannedItem {
  /** The stored text (`StoredItem.json`): the item's bytes as they were. */
  readonly json: string;
  /** Size by the AWS rules (`itemSize`). */
  readonly size: number;
  /** The top-level S, N and B attributes whose names were asked for (the key attributes). */
  readonly keys: AttributeMap;
  /** Index just past the item's closing brace. */
  readonly end: number;
}

/** The type tags, by their first byte and length. */
enum Tag {
  S,
  N,
  B,
  BOOL,
  NULL,
  SS,
  NS,
  BS,
  L,
  M,
}

export class StoredItemScanner {
  private bytes: SliceableBuffer = Buffer.alloc(0) as SliceableBuffer;
  /** The decoded UTF-8 length of the last string scanned. */
  private stringBytes = 0;
  /** Whether the last string scanned holds an escape or a non-ASCII byte (needs decoding). */
  private stringPlain = true;
  /** Whether every byte of the item so far is ASCII. */
  private ascii = true;
  /** The size of the last value scanned. */
  valueSize = 0;
  /** The type tag of the last value scanned, and the span of its text for S, N and B. */
  private valueTag: Tag = Tag.S;
  private valueStart = 0;
  private valueEnd = 0;
  private readonly keyNames: Uint8Array[];
  private readonly keyNameTexts: string[];

  /** @param keyNames the attributes whose values `ScannedItem.keys` holds */
  constructor(keyNames: Iterable<string>) {
    this.keyNameTexts = [...keyNames];
    // Names are matched as they appear in the text: JSON.stringify's escaped form, UTF-8.
    this.keyNames = this.keyNameTexts.map((name) => Buffer.from(JSON.stringify(name).slice(1, -1), 'utf8'));
  }

  /** Scans the item whose `{` is at `start`; the text must not go beyond `limit`. */
  scan(buffer: Buffer, start: number, limit: number): ScannedItem | undefined {
    const bytes = buffer as SliceableBuffer;
    this.bytes = bytes;
    this.ascii = true;
    const keys = newFastAttributeMap();
    if (bytes[start] !== OPEN_BRACE) return undefined;
    let p = start + 1;
    let size = 0;
    let previousStart = -1;
    let previousEnd = -1;
    let previousPlain = true;
    if (bytes[p] === CLOSE_BRACE) return undefined; // no key attributes: the general path says so
    for (;;) {
      const nameStart = p + 1;
      p = this.name(p, limit, previousStart, previousEnd, previousPlain);
      if (p === FAIL) return undefined;
      const nameEnd = p - 1;
      const nameSize = this.stringBytes;
      previousStart = nameStart;
      previousEnd = nameEnd;
      previousPlain = this.stringPlain;
      if (bytes[p] !== COLON) return undefined;
      p = this.value(p + 1, limit, 1);
      if (p === FAIL) return undefined;
      size += nameSize + this.valueSize;
      const tag = this.valueTag;
      if (tag === Tag.S || tag === Tag.N || tag === Tag.B) {
        const key = this.keyIndex(nameStart, nameEnd);
        if (key !== -1) setAttribute(keys, this.keyNameTexts[key]!, this.scalar(tag));
      }
      const next = bytes[p];
      if (next === CLOSE_BRACE) break;
      if (next !== COMMA || p >= limit) return undefined;
      p++;
    }
    if (size > MAX_ITEM_SIZE) return undefined;
    const end = p + 1;
    const json = this.ascii ? bytes.latin1Slice(start, end) : bytes.utf8Slice(start, end);
    return { json, size, keys, end };
  }

  private keyIndex(nameStart: number, nameEnd: number): number {
    const bytes = this.bytes;
    const length = nameEnd - nameStart;
    outer: for (let k = 0; k < this.keyNames.length; k++) {
      const name = this.keyNames[k]!;
      if (name.length !== length) continue;
      for (let i = 0; i < length; i++) if (name[i] !== bytes[nameStart + i]) continue outer;
      return k;
    }
    return -1;
  }

  /** The key value of the last S, N or B value scanned. */
  private scalar(tag: Tag): { S: string } | { N: string } | { B: string } {
    const text = this.text(this.valueStart, this.valueEnd, this.stringPlain);
    return tag === Tag.S ? { S: text } : tag === Tag.N ? { N: text } : { B: text };
  }

  /** The string whose content spans [start, end). */
  private text(start: number, end: number, plain: boolean): string {
    if (plain) return this.bytes.latin1Slice(start, end);
    return JSON.parse(this.bytes.utf8Slice(start - 1, end + 1)) as string;
  }

  /**
   * A map member's name at `p` (its opening quote), which must sort after the previous one the
   * way the stored form orders names: UTF-16 code units, and no array-index-like name (those
   * enumerate first; left to the general path). Answers the index after its closing quote.
   */
  private name(p: number, limit: number, previousStart: number, previousEnd: number, previousPlain: boolean) {
    const end = this.string(p, limit);
    if (end === FAIL) return FAIL;
    const start = p + 1;
    const stop = end - 1;
    if (stop === start) return FAIL; // an empty name: the general path answers it
    const bytes = this.bytes;
    const first = bytes[start]!;
    if (first >= ZERO && first <= NINE && isIndexLike(bytes, start, stop)) return FAIL;
    if (previousStart !== -1) {
      const order =
        previousPlain && this.stringPlain
          ? compareBytes(bytes, previousStart, previousEnd, start, stop)
          : compareStrings(
              this.text(previousStart, previousEnd, previousPlain),
              this.text(start, stop, this.stringPlain),
            );
      if (order >= 0) return FAIL;
    }
    return end;
  }

  /**
   * The string at `p` (its opening quote) as JSON.stringify writes it: the short escapes, `\u00xx`
   * only for the other control characters, nothing else escaped. Sets `stringBytes` and
   * `stringPlain`; answers the index after the closing quote.
   */
  private string(p: number, limit: number): number {
    const bytes = this.bytes;
    if (bytes[p] !== QUOTE) return FAIL;
    let i = p + 1;
    let decoded = 0;
    let plain = true;
    for (;;) {
      if (i >= limit) return FAIL;
      const c = bytes[i]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        plain = false;
        const e = bytes[i + 1];
        if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2;
        } else if (e === 0x75) {
          // `\u00xx`, lowercase, for a control character without a short escape.
          if (bytes[i + 2] !== ZERO || bytes[i + 3] !== ZERO) return FAIL;
          const high = bytes[i + 4];
          const low = hexDigit(bytes[i + 5]!);
          if ((high !== ZERO && high !== 0x31) || low === -1) return FAIL;
          const code = (high === ZERO ? 0 : 16) + low;
          if (code === 8 || code === 9 || code === 10 || code === 12 || code === 13) return FAIL;
          i += 6;
        } else return FAIL;
        decoded++;
        continue;
      }
      if (c < 0x20) return FAIL;
      if (c >= 0x80) {
        plain = false;
        this.ascii = false;
      }
      decoded++;
      i++;
    }
    this.stringBytes = decoded;
    this.stringPlain = plain;
    return i + 1;
  }

  /** An attribute value at `p`; sets `valueSize`, `valueTag`; answers the index after it. */
  private value(p: number, limit: number, level: number): number {
    const bytes = this.bytes;
    if (bytes[p] !== OPEN_BRACE || bytes[p + 1] !== QUOTE) return FAIL;
    const tagStart = p + 2;
    let tag: Tag;
    let q: number;
    const t0 = bytes[tagStart];
    const t1 = bytes[tagStart + 1];
    if (t1 === QUOTE) {
      q = tagStart + 1;
      if (t0 === 0x53) tag = Tag.S;
      else if (t0 === 0x4e) tag = Tag.N;
      else if (t0 === 0x42) tag = Tag.B;
      else if (t0 === 0x4c) tag = Tag.L;
      else if (t0 === 0x4d) tag = Tag.M;
      else return FAIL;
    } else if (bytes[tagStart + 2] === QUOTE && t1 === 0x53) {
      q = tagStart + 2;
      if (t0 === 0x53) tag = Tag.SS;
      else if (t0 === 0x4e) tag = Tag.NS;
      else if (t0 === 0x42) tag = Tag.BS;
      else return FAIL;
    } else if (bytes[tagStart + 4] === QUOTE) {
      q = tagStart + 4;
      if (t0 === 0x42 && t1 === 0x4f && bytes[tagStart + 2] === 0x4f && bytes[tagStart + 3] === 0x4c)
        tag = Tag.BOOL;
      else if (t0 === 0x4e && t1 === 0x55 && bytes[tagStart + 2] === 0x4c && bytes[tagStart + 3] === 0x4c)
        tag = Tag.NULL;
      else return FAIL;
    } else return FAIL;
    if (bytes[q + 1] !== COLON) return FAIL;
    p = q + 2;
    let size: number;
    switch (tag) {
      case Tag.S: {
        const end = this.string(p, limit);
        if (end === FAIL) return FAIL;
        this.valueStart = p + 1;
        this.valueEnd = end - 1;
        size = this.stringBytes;
        p = end;
        break;
      }
      case Tag.N: {
        const end = scanNumber(bytes, p, limit, this);
        if (end === FAIL) return FAIL;
        this.valueStart = p + 1;
        this.valueEnd = end - 1;
        this.stringPlain = true;
        size = this.valueSize;
        p = end;
        break;
      }
      case Tag.B: {
        const end = scanBinary(bytes, p, limit, this);
        if (end === FAIL) return FAIL;
        this.valueStart = p + 1;
        this.valueEnd = end - 1;
        this.stringPlain = true;
        size = this.valueSize;
        p = end;
        break;
      }
      case Tag.BOOL:
        if (isWord(bytes, p, TRUE)) p += 4;
        else if (isWord(bytes, p, FALSE)) p += 5;
        else return FAIL;
        size = 1;
        break;
      case Tag.NULL:
        if (!isWord(bytes, p, TRUE)) return FAIL;
        p += 4;
        size = 1;
        break;
      case Tag.SS:
      case Tag.NS:
      case Tag.BS: {
        p = this.set(p, limit, tag);
        if (p === FAIL) return FAIL;
        size = this.valueSize;
        break;
      }
      case Tag.L: {
        // A list or map below level 32 may hold nothing (docs/dynamodb.md §2.1.5): the general
        // path words that; so it does any list or map at that level.
        if (level >= MAX_NESTING_LEVEL || bytes[p] !== OPEN_BRACKET) return FAIL;
        p++;
        size = 3;
        if (bytes[p] !== CLOSE_BRACKET)
          for (;;) {
            p = this.value(p, limit, level + 1);
            if (p === FAIL) return FAIL;
            size += 1 + this.valueSize;
            if (bytes[p] === CLOSE_BRACKET) break;
            if (bytes[p] !== COMMA || p >= limit) return FAIL;
            p++;
          }
        p++;
        break;
      }
      case Tag.M: {
        if (level >= MAX_NESTING_LEVEL || bytes[p] !== OPEN_BRACE) return FAIL;
        p++;
        size = 3;
        let previousStart = -1;
        let previousEnd = -1;
        let previousPlain = true;
        if (bytes[p] !== CLOSE_BRACE)
          for (;;) {
            const nameStart = p + 1;
            p = this.name(p, limit, previousStart, previousEnd, previousPlain);
            if (p === FAIL) return FAIL;
            const nameSize = this.stringBytes;
            previousStart = nameStart;
            previousEnd = p - 1;
            previousPlain = this.stringPlain;
            if (bytes[p] !== COLON) return FAIL;
            p = this.value(p + 1, limit, level + 1);
            if (p === FAIL) return FAIL;
            size += 1 + nameSize + this.valueSize;
            if (bytes[p] === CLOSE_BRACE) break;
            if (bytes[p] !== COMMA || p >= limit) return FAIL;
            p++;
          }
        p++;
        break;
      }
    }
    if (bytes[p] !== CLOSE_BRACE || p >= limit) return FAIL;
    this.valueSize = size;
    this.valueTag = tag;
    return p + 1;
  }

  /** A set at `p` (its `[`): not empty, members sorted without duplicates. Sets `valueSize`. */
  private set(p: number, limit: number, tag: Tag): number {
    const bytes = this.bytes;
    if (bytes[p] !== OPEN_BRACKET || bytes[p + 1] === CLOSE_BRACKET) return FAIL;
    p++;
    let size = 0;
    let previousStart = -1;
    let previousEnd = -1;
    let previousPlain = true;
    for (;;) {
      const start = p + 1;
      let end: number;
      let plain = true;
      if (tag === Tag.SS) {
        end = this.string(p, limit);
        if (end === FAIL) return FAIL;
        size += this.stringBytes;
        plain = this.stringPlain;
      } else {
        end = tag === Tag.NS ? scanNumber(bytes, p, limit, this) : scanBinary(bytes, p, limit, this);
        if (end === FAIL) return FAIL;
        size += this.valueSize;
      }
      if (previousStart !== -1) {
        const order =
          previousPlain && plain
            ? compareBytes(bytes, previousStart, previousEnd, start, end - 1)
            : compareStrings(
                this.text(previousStart, previousEnd, previousPlain),
                this.text(start, end - 1, plain),
              );
        if (order >= 0) return FAIL;
      }
      previousStart = start;
      previousEnd = end - 1;
      previousPlain = plain;
      p = end;
      if (bytes[p] === CLOSE_BRACKET) break;
      if (bytes[p] !== COMMA || p >= limit) return FAIL;
      p++;
    }
    this.valueSize = size;
    return p + 1;
  }
}
