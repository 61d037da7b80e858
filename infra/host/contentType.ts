import { JSON_1_0, PLAIN_JSON } from './wire.js';

/** The JSON media types the service accepts (docs/dynamodb.md §1.1.2). */
export type AcceptedContentType = typeof JSON_1_0 | typeof PLAIN_JSON;

/**
 * Classifies a request's `Content-Type` (docs/dynamodb.md §1.1.2): `application/x-amz-json-1.0` and
 * `application/json` are accepted, with parameters after `;` and surrounding blanks ignored.
 * Returns undefined for anything else, including `application/x-amz-json-1.1` and a missing
 * header. Media types compare case-insensitively (RFC 9110 §8.3.1).
 */
export function acceptedContentType(header: string | undefined): AcceptedContentType | undefined {
  if (header === undefined) return undefined;
  // Fast path: what the SDKs send, byte for byte.
  if (header === JSON_1_0) return JSON_1_0;
  const semicolon = header.indexOf(';');
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  if (mediaType === JSON_1_0) return JSON_1_0;
  if (mediaType === PLAIN_JSON) return PLAIN_JSON;
  return undefined;
}
