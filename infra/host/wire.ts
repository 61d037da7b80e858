import { randomFillSync } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Header records as `node:http` builds them: lower-case names. */
export type HeaderRecord = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One HTTP request as the pipeline sees it, whatever carried it (a socket or the in-process
 * client).
 */
export interface WireRequest {
  readonly method: string;
  /** Path and query, as on the request line (`/`, `/?X-Amz-Algorithm=...`). */
  readonly url: string;
  readonly body: Buffer;
  /** One header by lower-case name; the first value when it came more than once. */
  header(name: string): string | undefined;
  /** Every header, lower-case names (signature verification needs them all). */
  readonly headers: HeaderRecord;
}

/** A WireRequest over a header record (the in-process client, tests). */
export function recordRequest(method: string, url: string, headers: HeaderRecord, body: Buffer): WireRequest {
  return { method, url, body, headers, header: (name) => headerValue(headers, name) };
}

/**
 * One HTTP response. Headers are a flat `[name, value, name, value, ...]` list: `node:http`'s
 * `writeHead` takes it as is, which skips the per-header bookkeeping of `setHeader` on the hot
 * path, and it keeps AWS's spelling (`x-amzn-RequestId`).
 */
export interface WireResponse {
  readonly statusCode: number;
  readonly headers: string[];
  readonly body: Buffer;
  /**
   * A response that goes on after its head (server-sent events, the console's live feed): the
   * server writes the head, then hands the open response to this; `body` is ignored. Over HTTP
   * only (the in-process client answers the head alone).
   */
  readonly stream?: ResponseStreamer;
}

/** Writes a long-lived response's body (`WireResponse.stream`). */
export type ResponseStreamer = (out: ResponseStream) => void;

/** The open body of a streamed response. */
export interface ResponseStream {
  /** Writes a chunk; false: the socket's buffer is full. */
  write(chunk: string): boolean;
  /**
   * False while the client has not read what was written (the socket's buffer is full): a writer
   * skips work rather than pile up bytes for a client that does not read.
   */
  readonly ready: boolean;
  /** Ends the response. */
  end(): void;
  /** Runs once when the response ends (the client left, `end()`, or the server closes). */
  onClose(listener: () => void): void;
}

export const JSON_1_0 = 'application/x-amz-json-1.0';
export const PLAIN_JSON = 'application/json';

/**
 * docs/dynamodb.md §1.1.2: the body (and its CRC) the service sends for a non-POST or a foreign content type.
 */
export const UNKNOWN_OPERATION_XML = Buffer.from('<UnknownOperationException/>\n');

// docs/dynamodb.md §1.2.1: a request id is 52 characters in [0-9A-Z]; eddy's are upper-case hex.
const ID_LENGTH = 52;
const IDS_PER_REFILL = 512;
/** Random bytes for one refill: two hex characters each. */
const idBytes = Buffer.allocUnsafe((ID_LENGTH / 2) * IDS_PER_REFILL);
let idText = '';
let idOffset = 0;

/**
 * A fresh `x-amzn-RequestId`: 208 random bits as upper-case hex. Random bytes come in batches (one
 * `randomFillSync` per 512 ids), turned into text natively (hex, then upper case); an id is then a
 * substring of that text, which V8 shares instead of copying. Under callgrind (PutItem, 16
 * clients) an id cost 3.3k instructions while a JS loop mapped each random byte to [0-9A-Z]; now
 * 0.9k.
 */
export function newRequestId(): string {
  if (idOffset === idText.length) {
    randomFillSync(idBytes);
    idText = idBytes.toString('hex').toUpperCase();
    idOffset = 0;
  }
  const id = idText.slice(idOffset, idOffset + ID_LENGTH);
  idOffset += ID_LENGTH;
  return id;
}

/** `x-amz-crc32`: the unsigned CRC-32 of the exact body bytes, in decimal (docs/dynamodb.md §1.2.1). */
export function bodyCrc32(body: Buffer): string {
  return String(crc32(body));
}

/**
 * A response whose body is JSON text, with the headers every protocol response carries
 * (docs/dynamodb.md §1.2.1): request id, CRC-32, content type and length; and, for a browser's
 * request from an allowed origin, `Access-Control-Allow-Origin` (`corsOrigin`, see `cors.ts`).
 */
export function jsonResponse(
  statusCode: number,
  body: Buffer,
  contentType: string,
  requestId: string,
  corsOrigin: string | undefined,
): WireResponse {
  const headers = [
    'x-amzn-RequestId',
    requestId,
    'x-amz-crc32',
    bodyCrc32(body),
    'Content-Type',
    contentType,
    'Content-Length',
    String(body.length),
  ];
  if (corsOrigin !== undefined) allowOrigin(headers, corsOrigin);
  return { statusCode, headers, body };
}

/**
 * Adds `Access-Control-Allow-Origin`; an answer naming one origin varies with the request's
 * `Origin`, which caches must know (`Vary: Origin`).
 */
export function allowOrigin(headers: string[], corsOrigin: string): void {
  headers.push('Access-Control-Allow-Origin', corsOrigin);
  if (corsOrigin !== '*') headers.push('Vary', 'Origin');
}

/** Reads a header that may have arrived more than once; the first value wins. */
export function headerValue(headers: HeaderRecord, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
