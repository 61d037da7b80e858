import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceUnavailable } from '../../core/errors/index.js';
import { payloadTooLarge } from './responses.js';
import { jsonResponse, newRequestId, PLAIN_JSON, type WireResponse } from './wire.js';

/**
 * Request bodies buffered at once, all requests together: four bodies of the largest size. Past
 * it a request is answered 503 (retried by the SDKs) instead of held in memory: 40 stalled
 * 15 MiB uploads took RSS from 110 to 691 MiB before (docs/security.md, "Resource bounds").
 */
export const DEFAULT_MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

export interface BodyIntakeOptions {
  /** The largest body (413 past it). */
  readonly maxBodyBytes: number;
  /** Bytes of bodies being received at once, all requests together (503 past it). */
  readonly maxBufferedBodyBytes: number;
  /** Writes an answer now (the server's, so `Connection: close` is added while it closes). */
  readonly write: (response: ServerResponse, answer: WireResponse) => void;
}

/**
 * Receiving request bodies within bounds: one body at most `maxBodyBytes` (refused by its
 * `Content-Length` before it is read, or as soon as a chunked one grows past it), and all bodies
 * being received at most `maxBufferedBodyBytes` together. A body's share of that budget is its
 * declared length, taken when its headers arrive (a chunked body's share grows as it arrives), and
 * given back once it has arrived or its connection closed: bodies that stall hold at most the
 * budget between them, and only until node:http's request timeout cuts them off.
 */
export class BodyIntake {
  /** Bytes of the bodies arriving now (declared lengths, or what arrived of chunked ones). */
  private buffered = 0;

  constructor(private readonly options: BodyIntakeOptions) {}

  /**
   * Whether a body may be sent at all (`Expect: 100-continue`): false after answering 413 or 503.
   */
  admits(request: IncomingMessage, response: ServerResponse): boolean {
    const declared = declaredLength(request);
    if (declared > this.options.maxBodyBytes) this.refuseTooLarge(request, response);
    else if (this.buffered + declared > this.options.maxBufferedBodyBytes) this.refuseBusy(request, response);
    else return true;
    return false;
  }

  /** Reads a body, then calls `onBody` with it; or answers 413 / 503 and drops it. */
  receive(request: IncomingMessage, response: ServerResponse, onBody: (body: Buffer) => void): void {
    const limit = this.options.maxBodyBytes;
    // docs/dynamodb.md §1.1.4: refuse by the declared length first, so an oversized body is never buffered.
    let reserved = declaredLength(request);
    if (reserved > limit) {
      this.refuseTooLarge(request, response);
      return;
    }
    if (reserved > 0) {
      if (this.buffered + reserved > this.options.maxBufferedBodyBytes) {
        this.refuseBusy(request, response);
        return;
      }
      this.buffered += reserved;
    }
    const release = () => {
      this.buffered -= reserved;
      reserved = 0;
    };
    // Most bodies arrive as one chunk: keep it alone, and only gather an array for several.
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let length = 0;
    let rejected = false;
    const reject = (refuse: (request: IncomingMessage, response: ServerResponse) => void) => {
      // Answer now and stop keeping what arrives.
      rejected = true;
      first = undefined;
      chunks = undefined;
      release();
      refuse(request, response);
    };
    request.on('data', (chunk: Buffer) => {
      if (rejected) return;
      length += chunk.length;
      // A chunked body that grew past the limit.
      if (length > limit) return reject(this.refuseTooLarge);
      if (length > reserved) {
        if (this.buffered + length - reserved > this.options.maxBufferedBodyBytes)
          return reject(this.refuseBusy);
        this.buffered += length - reserved;
        reserved = length;
      }
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    request.on('end', () => {
      release();
      if (rejected) return;
      onBody(chunks !== undefined ? Buffer.concat(chunks, length) : (first ?? EMPTY_BODY));
    });
    // A client that disconnects mid-body, or a body that took too long (node:http answers 408
    // and destroys the socket): nothing to answer, nothing to log, the budget back.
    request.on('close', release);
    request.on('error', ignoreError);
  }

  /** Answers without reading the body: whatever else arrives is discarded. */
  refuse(request: IncomingMessage, response: ServerResponse, answer: WireResponse): void {
    request.removeAllListeners('data');
    request.on('error', ignoreError);
    request.resume();
    this.options.write(response, answer);
  }

  private readonly refuseTooLarge = (request: IncomingMessage, response: ServerResponse): void => {
    // `Connection: close` (in the 413) ends the socket once the answer is out.
    this.refuse(request, response, payloadTooLarge());
  };

  private readonly refuseBusy = (request: IncomingMessage, response: ServerResponse): void => {
    const error = new ServiceUnavailable(
      `eddy is receiving ${this.options.maxBufferedBodyBytes} bytes of request bodies already; retry shortly`,
    );
    const answer = jsonResponse(
      503,
      Buffer.from(JSON.stringify(error.toWire())),
      PLAIN_JSON,
      newRequestId(),
      undefined,
    );
    this.refuse(request, response, { ...answer, headers: [...answer.headers, 'Connection', 'close'] });
  };
}

const EMPTY_BODY = Buffer.alloc(0);

/** The body's declared length (node:http has refused a malformed Content-Length already). */
function declaredLength(request: IncomingMessage): number {
  const declared = request.headers['content-length'];
  return declared === undefined ? 0 : Number(declared);
}

/** A client that disconnects mid-body: nothing to answer, nothing to log. */
function ignoreError(): void {}
