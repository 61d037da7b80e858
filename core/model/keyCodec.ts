import { hash } from 'node:crypto';
import type { ScalarKeyType } from './attributeValue.js';
import { binaryToByteString } from './binary.js';
import { decompose, formatPlain } from './number.js';
import { utf8OrderedString } from './utf8.js';

/**
 * Keys as JS strings whose native `<` order is DynamoDB's key order (docs/dynamodb.md §6.2.1): numbers
 * numerically, strings by UTF-8 bytes, binary by unsigned bytes. A key attribute always has one
 * type (the schema's), so encodings of different types never meet.
 *
 * Number layout: a class char (1 negative, 2 zero, 3 positive), then for positives an exponent char
 * and the significant digits; for negatives an inverted exponent char, the nines' complement of
 * the digits and a terminator above every digit, so that a shorter digit run (a smaller
 * magnitude) sorts after the longer one that extends it.
 */
export function encodeKeyValue(type: ScalarKeyType, value: string): string {
  if (type === 'S') return utf8OrderedString(value);
  if (type === 'N') return encodeNumber(value);
  return binaryToByteString(value);
}

const NEGATIVE = '\u0001';
const ZERO = '\u0002';
const POSITIVE = '\u0003';
/** Point positions span -129..126 (1E-130 .. 9.9E125): offset them into positive char codes. */
const EXPONENT_OFFSET = 200;
const NEGATIVE_EXPONENT_BASE = 600;
const NEGATIVE_TERMINATOR = '~';

export function encodeNumber(normalised: string): string {
  const number = decompose(normalised);
  if (number.sign === 0) return ZERO;
  if (number.sign > 0)
    return POSITIVE + String.fromCharCode(number.pointPosition + EXPONENT_OFFSET) + number.digits;
  let complement = '';
  for (let i = 0; i < number.digits.length; i++) {
    complement += String.fromCharCode(105 - number.digits.charCodeAt(i)); // '9' + '0' - digit
  }
  return (
    NEGATIVE +
    String.fromCharCode(NEGATIVE_EXPONENT_BASE - number.pointPosition) +
    complement +
    NEGATIVE_TERMINATOR
  );
}

/** Inverse of `encodeNumber`: the normalised number text. */
export function decodeNumber(encoded: string): string {
  const kind = encoded[0];
  if (kind === ZERO) return '0';
  if (kind === POSITIVE) return formatPlain(1, encoded.slice(2), encoded.charCodeAt(1) - EXPONENT_OFFSET);
  let digits = '';
  for (let i = 2; i < encoded.length - 1; i++) digits += String.fromCharCode(105 - encoded.charCodeAt(i));
  return formatPlain(-1, digits, NEGATIVE_EXPONENT_BASE - encoded.charCodeAt(1));
}

/** Inverse of `utf8OrderedString`. */
function restoreUtf16(encoded: string): string {
  let needsShift = false;
  for (let i = 0; i < encoded.length; i++) {
    if (encoded.charCodeAt(i) >= 0xd800) {
      needsShift = true;
      break;
    }
  }
  if (!needsShift) return encoded;
  let out = '';
  for (let i = 0; i < encoded.length; i++) {
    const unit = encoded.charCodeAt(i);
    if (unit >= 0xf800) out += String.fromCharCode(unit - 0x2000);
    else if (unit >= 0xd800) out += String.fromCharCode(unit + 0x800);
    else out += encoded[i];
  }
  return out;
}

/** Inverse of `encodeKeyValue`: the wire value (S text, N normalised text, B base64). */
export function decodeKeyValue(type: ScalarKeyType, encoded: string): string {
  if (type === 'S') return restoreUtf16(encoded);
  if (type === 'N') return decodeNumber(encoded);
  return Buffer.from(encoded, 'latin1').toString('base64');
}

/**
 * The bytes DynamoDB hashes for a key value: S as UTF-8, B raw, N in a sortable base-100 form
 * (exponent byte, then one byte per pair of digits, offset by 1; negatives inverted and, when
 * short, terminated by 102). Used only for the scan-order hash (docs/dynamodb.md §6.4.2).
 */
export function keyHashBytes(type: ScalarKeyType, value: string): Buffer {
  if (type === 'S') return Buffer.from(value, 'utf8');
  if (type === 'B') return Buffer.from(value, 'base64');
  return numberHashBytes(value);
}

function numberHashBytes(normalised: string): Buffer {
  const number = decompose(normalised);
  if (number.sign === 0) return Buffer.from([0x80]);
  // Pair digits around the decimal point: an odd point position needs a leading zero digit.
  const leadingZero = number.pointPosition % 2 !== 0 ? 1 : 0;
  const digits = (leadingZero ? '0' : '') + number.digits;
  const pairCount = Math.ceil(digits.length / 2);
  const negative = number.sign < 0;
  const terminated = negative && pairCount < 20;
  const bytes = Buffer.alloc(1 + pairCount + (terminated ? 1 : 0));
  const exponentByte = (Math.floor((number.pointPosition + leadingZero) / 2) - 64) & 0xff;
  bytes[0] = negative ? ~exponentByte & 0xff : exponentByte;
  for (let pair = 0; pair < pairCount; pair++) {
    const high = digits.charCodeAt(pair * 2) - 48;
    const lowChar = digits.charCodeAt(pair * 2 + 1);
    const low = Number.isNaN(lowChar) ? 0 : lowChar - 48;
    const value = high * 10 + low;
    bytes[1 + pair] = negative ? 101 - value : value + 1;
  }
  if (terminated) bytes[bytes.length - 1] = 102;
  return bytes;
}

const HASH_SALT = Buffer.from('Outliers');

/**
 * The first 24 bits of MD5("Outliers" ‖ key bytes) as 6 lowercase hex digits: the order in which
 * Scan visits partitions (and segments divide the table) (docs/dynamodb.md §6.4.2).
 */
export function scanHashPrefix(bytes: Buffer, more?: Buffer): string {
  const input = more ? Buffer.concat([HASH_SALT, bytes, more]) : Buffer.concat([HASH_SALT, bytes]);
  return hash('md5', input, 'hex').slice(0, 6);
}

/**
 * The scan-order key of a partition: its hash prefix, then its encoded key (ties, docs/dynamodb.md §6.4.2).
 */
export function partitionScanKey(type: ScalarKeyType, encodedHashKey: string): string {
  return scanHashPrefix(keyHashBytes(type, decodeKeyValue(type, encodedHashKey))) + encodedHashKey;
}

/** Segment i of T owns the 12-bit prefixes ⌈4096·i/T⌉ … ⌈4096·(i+1)/T⌉−1 (docs/dynamodb.md §6.4.2). */
export function segmentBounds(segment: number, totalSegments: number): { first: number; end: number } {
  return {
    first: Math.ceil((4096 * segment) / totalSegments),
    end: Math.ceil((4096 * (segment + 1)) / totalSegments),
  };
}

/** The segment (of T) that owns a scan hash prefix. */
export function segmentOf(prefix: string, totalSegments: number): number {
  const twelveBits = Number.parseInt(prefix.slice(0, 3), 16);
  // Largest i with ⌈4096·i/T⌉ ≤ twelveBits.
  let segment = Math.floor(((twelveBits + 1) * totalSegments - 1) / 4096);
  while (segment > 0 && Math.ceil((4096 * segment) / totalSegments) > twelveBits) segment--;
  while (segment + 1 < totalSegments && Math.ceil((4096 * (segment + 1)) / totalSegments) <= twelveBits)
    segment++;
  return segment;
}

/**
 * An item's identity within its table, from its encoded key values: what `ChangeEvent.itemKey`
 * carries (shards and mapping lanes are chosen by it) and what batches and transactions compare
 * to find one item named twice. The length prefix keeps (`ab`, `c`) and (`a`, `bc`) apart.
 */
export function itemKeyOf(hashKey: string, rangeKey: string): string {
  return `${hashKey.length}:${hashKey}${rangeKey}`;
}
