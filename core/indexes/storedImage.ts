import type { AttributeValue } from '../model/attributeValue.js';
import { base64ByteLength } from '../model/binary.js';
import { attributeValueSize } from '../model/itemSize.js';
import { utf8Length } from '../model/utf8.js';
import { compositeEnd, QUOTE, stringEnd } from '../store/canonicalText.js';

/**
 * Reading the attributes an index needs straight from a stored item's text.
 *
 * Keeping global indexes needs few of an item's attributes: the table and index keys, and what a
 * non-ALL index projects. Stored texts are canonical (`core/store/itemCodec.ts`: JSON.stringify
 * output, top-level members in canonical order, no whitespace), so their top-level members can
 * be located without decoding the item: names are matched as text, scalar values (`{"S":"…"}`,
 * `{"N":"…"}`, `{"B":"…"}` without escapes) are read in place, and a member's text is its
 * canonical text, reusable verbatim in a projected entry.
 *
 * Measured on the bench's 200-byte items (bench/gsi.ts): locating 7 members takes ~0.35 µs and
 * allocates only the scalars asked for (the row is reused), against 1.4 µs and ~20 objects for
 * JSON.parse of the text, plus ~1.9 µs to encode each INCLUDE entry again.
 */

const LETTER_S = 83;
const LETTER_N = 78;
const LETTER_B = 66;

/** The top-level attributes to read, numbered, prepared for matching against stored texts. */
export class ImageFields {
  /** The names; a name's position is its field number. */
  readonly names: readonly string[];
  /** Each name's char codes as JSON writes it between quotes (stored texts are JSON.stringify output). */
  private readonly raw: readonly (readonly number[])[];
  /** Field numbers by the length of their JSON name text. */
  private readonly byLength: (readonly number[] | undefined)[] = [];

  constructor(names: Iterable<string>) {
    this.names = [...new Set(names)];
    this.raw = this.names.map((name) =>
      Array.from(JSON.stringify(name).slice(1, -1), (c) => c.charCodeAt(0)),
    );
    this.raw.forEach((raw, field) => {
      this.byLength[raw.length] = [...(this.byLength[raw.length] ?? []), field];
    });
  }

  get size(): number {
    return this.names.length;
  }

  /** The field number of `name`, or -1. */
  indexOf(name: string): number {
    return this.names.indexOf(name);
  }

  /** The field whose JSON name text is `json[from, from + length)`, or -1. */
  match(json: string, from: number, length: number): number {
    const candidates = this.byLength[length];
    if (candidates === undefined) return -1;
    for (let i = 0; i < candidates.length; i++) {
      const field = candidates[i]!;
      // Compared code by code: measured ~2× faster than startsWith on short names.
      const codes = this.raw[field]!;
      let at = 0;
      while (at < length && json.charCodeAt(from + at) === codes[at]) at++;
      if (at === length) return field;
    }
    return -1;
  }
}

/**
 * Where the fields of one stored item sit, and their scalar values. Reused from item to item:
 * reading allocates nothing, a scalar is cut from the text when asked for; valid until the next
 * `read`.
 */
export class StoredRow {
  json = '';
  /** Offset of each field's `"name":value` text, or -1 when the item lacks it. */
  readonly starts: number[];
  /** Offset just past it. */
  readonly ends: number[];
  /** Offset of its value. */
  readonly valueStarts: number[];
  /** The value's type when S, N or B (its letter's char code), else 0. */
  readonly types: number[];
  /** Field numbers in the order they appear in the text (canonical order). */
  readonly order: number[];
  /** How many entries of `order` are set. */
  count = 0;
  /** Scalars cut so far. */
  private readonly scalars: (string | undefined)[];

  constructor(readonly fields: ImageFields) {
    const size = fields.size;
    this.starts = new Array<number>(size).fill(-1);
    this.ends = new Array<number>(size).fill(-1);
    this.valueStarts = new Array<number>(size).fill(-1);
    this.types = new Array<number>(size).fill(0);
    this.scalars = new Array<string | undefined>(size).fill(undefined);
    this.order = new Array<number>(size).fill(-1);
  }

  /** Locates the fields in a stored item's canonical text. */
  read(json: string): this {
    const { fields, starts, ends, valueStarts, types, scalars, order } = this;
    for (let i = 0; i < starts.length; i++) {
      starts[i] = -1;
      types[i] = 0;
      scalars[i] = undefined;
    }
    this.json = json;
    this.count = 0;
    // No scan of the whole text for a backslash first: `stringEnd` looks only before each quote,
    // and a scalar is checked when cut. bench/gsi.ts: that scan was a quarter of this method.
    let left = starts.length;
    let at = 1;
    while (left > 0 && json.charCodeAt(at) === QUOTE) {
      const nameEnd = stringEnd(json, at);
      const field = fields.match(json, at + 1, nameEnd - at - 2);
      // Attribute values are objects with one member: `{"T":...}`.
      const valueStart = nameEnd + 1;
      let valueEnd: number;
      let type = 0;
      if (json.charCodeAt(valueStart + 3) === QUOTE && json.charCodeAt(valueStart + 5) === QUOTE) {
        // `{"S":"…"}`, `{"N":"…"}` or `{"B":"…"}`: the one-letter types with string values.
        valueEnd = stringEnd(json, valueStart + 5) + 1;
        type = json.charCodeAt(valueStart + 2);
      } else {
        valueEnd = compositeEnd(json, valueStart);
      }
      if (field !== -1) {
        starts[field] = at;
        ends[field] = valueEnd;
        valueStarts[field] = valueStart;
        types[field] = type;
        order[this.count++] = field;
        left--;
      }
      at = valueEnd + 1; // past the comma (or the closing brace)
    }
    return this;
  }

  /** Whether the item has the field. */
  has(field: number): boolean {
    return this.starts[field]! !== -1;
  }

  /** The S, N or B value of a field whose `types` entry is set. */
  scalar(field: number): string {
    let scalar = this.scalars[field];
    if (scalar === undefined) {
      const json = this.json;
      const start = this.valueStarts[field]!;
      const end = this.ends[field]!;
      scalar = json.slice(start + 6, end - 2);
      if (scalar.includes('\\')) scalar = JSON.parse(json.slice(start + 5, end - 1)) as string;
      this.scalars[field] = scalar;
    }
    return scalar;
  }

  /** The field's `"name":value` text. */
  memberText(field: number): string {
    return this.json.slice(this.starts[field]!, this.ends[field]!);
  }

  /** The field's value, decoded. */
  value(field: number): AttributeValue {
    const type = this.types[field];
    if (type === 0)
      return JSON.parse(this.json.slice(this.valueStarts[field]!, this.ends[field]!)) as AttributeValue;
    const scalar = this.scalar(field);
    return type === LETTER_S ? { S: scalar } : type === LETTER_N ? { N: scalar } : { B: scalar };
  }

  /** The field's value size by the item-size rules (`attributeValueSize`, its scalar cases inline). */
  valueSize(field: number): number {
    const type = this.types[field];
    if (type === LETTER_S) return utf8Length(this.scalar(field));
    if (type === LETTER_N)
      return numberSizeAt(this.json, this.valueStarts[field]! + 6, this.ends[field]! - 2);
    if (type === LETTER_B) return base64ByteLength(this.scalar(field));
    return attributeValueSize(this.value(field));
  }
}

/**
 * `numberSize` of the normalised number `json[start, end)`, read in place: 1 byte of exponent
 * and sign, a byte per two significant digits, one more when the digits and the exponent pair
 * up evenly, one for a negative number (`core/model/number.ts`).
 */
export function numberSizeAt(json: string, start: number, end: number): number {
  if (end - start === 1 && json.charCodeAt(start) === 48) return 1; // "0"
  const negative = json.charCodeAt(start) === 45;
  const first = negative ? start + 1 : start;
  // As `decompose`: the digits of the integer then the fraction part, without the zeros at
  // either end; the point position is the integer part's length less the leading zeros.
  let integerDigits = end - first;
  let digit = 0;
  let firstNonZero = -1;
  let lastNonZero = -1;
  for (let at = first; at < end; at++) {
    const code = json.charCodeAt(at);
    if (code === 46) {
      integerDigits = at - first;
      continue;
    }
    if (code !== 48) {
      if (firstNonZero === -1) firstNonZero = digit;
      lastNonZero = digit;
    }
    digit++;
  }
  const digitCount = lastNonZero - firstNonZero + 1;
  const scientificExponent = integerDigits - firstNonZero - 1;
  let size = 1 + Math.ceil(digitCount / 2);
  if (digitCount % 2 === 0 && scientificExponent % 2 === 0) size += 1;
  if (negative) size += 1;
  return size;
}

/** The char code a stored S, N or B value is tagged with in `StoredRow.types`. */
export function scalarTypeCode(type: 'S' | 'N' | 'B'): number {
  return type === 'S' ? LETTER_S : type === 'N' ? LETTER_N : LETTER_B;
}
