import { AccessDeniedException, type DynamoDbError } from '../../core/errors/index.js';
import {
  allowOrigin,
  bodyCrc32,
  jsonResponse,
  PLAIN_JSON,
  UNKNOWN_OPERATION_XML,
  type WireRequest,
  type WireResponse,
} from './wire.js';

/** What every response of one request shares. */
export interface ResponseContext {
  readonly requestId: string;
  readonly contentType: string;
  /** `Access-Control-Allow-Origin` for a browser's request from an allowed origin. */
  readonly corsOrigin: string | undefined;
}

/** docs/dynamodb.md §1.2.2: the error's wire JSON (`__type`, `message` or `Message`), status 400 or 500. */
export function errorResponse(error: DynamoDbError, context: ResponseContext): WireResponse {
  const body = Buffer.from(JSON.stringify(error.toWire()));
  return jsonResponse(error.statusCode, body, context.contentType, context.requestId, context.corsOrigin);
}

const UNKNOWN_OPERATION_XML_CRC = bodyCrc32(UNKNOWN_OPERATION_XML);

/** docs/dynamodb.md §1.1.2: 404 `<UnknownOperationException/>` for non-POST methods and foreign content types. */
export function notFound(requestId: string, corsOrigin: string | undefined): WireResponse {
  const headers = [
    'x-amzn-RequestId',
    requestId,
    'x-amz-crc32',
    UNKNOWN_OPERATION_XML_CRC,
    'Content-Length',
    String(UNKNOWN_OPERATION_XML.length),
  ];
  if (corsOrigin !== undefined) allowOrigin(headers, corsOrigin);
  return { statusCode: 404, headers, body: UNKNOWN_OPERATION_XML };
}

/** docs/dynamodb.md §1.1.4: over the limit, 413 before anything is parsed; no request id. */
export function payloadTooLarge(): WireResponse {
  return { statusCode: 413, headers: ['Content-Length', '0', 'Connection', 'close'], body: Buffer.alloc(0) };
}

export function textResponse(text: string, requestId: string, corsOrigin: string | undefined): WireResponse {
  const body = Buffer.from(text);
  const headers = [
    'x-amzn-RequestId',
    requestId,
    'x-amz-crc32',
    bodyCrc32(body),
    'Content-Type',
    'text/plain',
    'Content-Length',
    String(body.length),
  ];
  if (corsOrigin !== undefined) allowOrigin(headers, corsOrigin);
  return { statusCode: 200, headers, body };
}

/** docs/dynamodb.md §1.1.6: `OPTIONS` with `Origin` answers 200, empty, echoing the requested headers and method. */
export function corsPreflight(request: WireRequest, requestId: string, corsOrigin: string): WireResponse {
  const headers = ['x-amzn-RequestId', requestId];
  allowOrigin(headers, corsOrigin);
  const requestedHeaders = request.header('access-control-request-headers');
  if (requestedHeaders !== undefined) headers.push('Access-Control-Allow-Headers', requestedHeaders);
  const requestedMethod = request.header('access-control-request-method');
  if (requestedMethod !== undefined) headers.push('Access-Control-Allow-Methods', requestedMethod);
  // CRC-32 of the empty body is 0 (docs/dynamodb.md §1.2.1: every response carries one).
  headers.push('Access-Control-Max-Age', '172800', 'x-amz-crc32', '0', 'Content-Length', '0');
  return { statusCode: 200, headers, body: Buffer.alloc(0) };
}

/**
 * 403 for what eddy refuses to serve to a browser (an origin or a Host header it does not
 * allow). The body is the service's error shape, so an SDK shows the message.
 */
export function forbidden(message: string, requestId: string): WireResponse {
  const body = Buffer.from(JSON.stringify(new AccessDeniedException(message).toWire()));
  return jsonResponse(403, body, PLAIN_JSON, requestId, undefined);
}

/** A browser page from an origin that `--cors` does not allow. */
export function forbiddenOrigin(origin: string, requestId: string): WireResponse {
  return forbidden(
    `eddy refuses cross-origin requests from '${clip(origin)}': only pages served from this machine ` +
      '(http://localhost, 127.0.0.1, [::1]) may call it from a browser. Allow more origins with ' +
      '--cors <origins> (config server.cors), or every origin with --cors "*".',
    requestId,
  );
}

/** A Host header that does not name this machine, while eddy listens on loopback only. */
export function forbiddenHost(host: string, requestId: string): WireResponse {
  return forbidden(
    `eddy refuses Host '${clip(host)}': it listens on this machine only, and a request naming ` +
      'another host is how a web page reaches a local server through DNS rebinding. Call it as ' +
      'localhost or 127.0.0.1, or allow the name with --allowed-hosts <names> (config ' +
      'server.allowedHosts).',
    requestId,
  );
}

/** Header values quoted back are cut short: node:http lets a header run to 16 KiB. */
function clip(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}
