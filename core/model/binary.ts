/**
 * Binary attribute values travel as base64 text (docs/dynamodb.md §2.1.2). Sizes, comparisons and key bytes
 * use the decoded bytes; the stored text is the canonical padded base64 of those bytes.
 */

const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

const INVALID_LAST_CHARACTER = 'Invalid last non-pad Base64 character dectected';

export type Base64Result = { ok: true; value: string; byteLength: number } | { ok: false; message: string };

/** Validates base64 as the service's JSON parser does; the message is a SerializationException text. */
export function checkBase64(text: string): Base64Result {
  if (text.length % 4 !== 0) {
    return {
      ok: false,
      message: `Base64 encoded length is expected a multiple of 4 bytes but found: ${text.length}`,
    };
  }
  // Any other flaw, a stray `=` or a character outside the alphabet included, reads as the
  // service's decoder words it, "dectected" (sic): recorded for `=+/=` and `+/+=` in dynalite's
  // tests/helpers.js (docs/dynamodb.md §1.2.7).
  if (!BASE64_CHARS.test(text)) return { ok: false, message: INVALID_LAST_CHARACTER };
  const bytes = Buffer.from(text, 'base64');
  const canonical = bytes.toString('base64');
  if (canonical !== text) return { ok: false, message: INVALID_LAST_CHARACTER };
  return { ok: true, value: canonical, byteLength: bytes.length };
}

/** Decoded byte length of canonical base64 without decoding it. */
export function base64ByteLength(text: string): number {
  if (text.length === 0) return 0;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** Unsigned byte comparison of two base64 values (docs/dynamodb.md §6.2.1). */
export function compareBinary(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'base64'), Buffer.from(b, 'base64'));
}

/** The bytes of a base64 value as a latin1 string (one char per byte): JS order = byte order. */
export function binaryToByteString(base64: string): string {
  return Buffer.from(base64, 'base64').toString('latin1');
}
