/**
 * UTF-8 helpers: DynamoDB measures and orders strings by their UTF-8 bytes (docs/dynamodb.md §2.4.2, §6.2.1).
 */

/** UTF-8 byte length of a string (native; measured faster than an ASCII pre-check). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Compares strings by their UTF-8 bytes. UTF-16 code-unit order differs from code-point (and so
 * UTF-8) order only when a surrogate pair meets a code unit in U+E000..U+FFFF; handle that case.
 */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Surrogates (0xD800–0xDFFF) stand for code points above 0xFFFF: rank them after 0xE000–0xFFFF,
 * which move down to make room (the same mapping as `utf8OrderedString`).
 */
function codePointRank(codeUnit: number): number {
  if (codeUnit >= 0xd800 && codeUnit <= 0xdfff) return codeUnit + 0x2000;
  return codeUnit >= 0xe000 ? codeUnit - 0x800 : codeUnit;
}

/**
 * Maps a string to one whose UTF-16 order equals the original's UTF-8 byte order: surrogates move
 * above U+FFFF's neighbours. Strings without code units ≥ 0xD800 come back unchanged.
 */
export function utf8OrderedString(text: string): string {
  let needsShift = false;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0xd800) {
      needsShift = true;
      break;
    }
  }
  if (!needsShift) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) out += String.fromCharCode(unit + 0x2000);
    else if (unit >= 0xe000) out += String.fromCharCode(unit - 0x800);
    else out += text[i];
  }
  return out;
}
