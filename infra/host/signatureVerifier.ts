import { createHash, timingSafeEqual } from 'node:crypto';
import type { HttpRequest, QueryParameterBag } from '@smithy/types';
import {
  IncompleteSignatureException,
  InvalidSignatureException,
  UnrecognizedClientException,
} from '../../core/errors/index.js';
import { type RequestSignature, scopeRegionProblem } from './signature.js';
import type { WireRequest } from './wire.js';

/** A key pair eddy accepts when signature verification is on. */
export interface AccessKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** The account this key belongs to (default: the host's account id). */
  readonly accountId?: string;
}

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS ' +
  'Secret Access Key and signing method. Consult the service documentation for details.';
const SIGNING_SERVICE = 'dynamodb';
const QUERY_AUTH_PARAMETERS = new Set([
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Signature',
  'X-Amz-Security-Token',
]);

/** How far a request's signing time may be from the clock (docs/security.md, "Signatures"). */
export const MAX_CLOCK_SKEW_MS = 15 * 60_000;

/**
 * Verifies SigV4 signatures against configured keys (docs/dynamodb.md §1.2.6), in the service's
 * order: the signing time against the clock, the credential scope, the key id
 * (`UnrecognizedClientException`), then the signature (`InvalidSignatureException`), with the
 * service's messages. `@smithy/signature-v4` recomputes the signature from the headers the client
 * said it signed, so eddy agrees with the SDKs by construction.
 *
 * The clock is the machine's (`now`), not the engine's: a client signs with its wall clock, and
 * the engine's may be virtual.
 */
export class SignatureVerifier {
  private readonly keys = new Map<string, AccessKey>();

  constructor(
    keys: readonly AccessKey[],
    private readonly now: () => number = Date.now,
  ) {
    for (const key of keys) this.keys.set(key.accessKeyId, key);
  }

  /**
   * Resolves to the caller's key, or rejects with the service's error. `signingName` is the
   * credential scope's service (`dynamodb`, which the Streams API signs with too; `lambda`).
   */
  async verify(
    request: WireRequest,
    signature: RequestSignature,
    signingName = SIGNING_SERVICE,
  ): Promise<AccessKey> {
    const signingDate = parseAmzDate(signature.date);
    checkClockSkew(signature.date, signingDate, this.now());
    checkScope(signature, signingName);
    const signedHeaders = signature.signedHeaders.split(';');
    if (!signedHeaders.includes('host')) {
      throw new InvalidSignatureException("'Host' must be a 'SignedHeader' in the AWS Authorization.");
    }
    // A name listed twice cannot be the canonical list the client signed (SigV4 lists each
    // signed header once, sorted); AWS's wording for it is unrecorded, so it is the mismatch.
    if (new Set(signedHeaders).size !== signedHeaders.length) {
      throw new InvalidSignatureException(SIGNATURE_MISMATCH);
    }
    const key = this.keys.get(signature.accessKeyId);
    if (key === undefined) throw new UnrecognizedClientException();
    // Loaded with the first signed request: only a server given access keys verifies, and the
    // signer's packages cost every other start ~0.1 s of CPU (bench/startup.ts).
    const { ExplainingSigner, Sha256 } = await import('./explainingSigner.js');
    const signer = new ExplainingSigner(
      {
        credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey },
        region: signature.scopeRegion,
        service: signature.scopeService,
        sha256: Sha256,
        applyChecksum: false,
      },
      createHash('sha256').update(request.body).digest('hex'),
    );
    const toSign = signableRequest(request, signature, signedHeaders);
    const signableHeaders = new Set(signedHeaders);
    let expected: string | undefined;
    if (signature.carrier === 'header') {
      const signed = await signer.sign(toSign, { signingDate, signableHeaders });
      expected = /Signature=([0-9a-f]+)/.exec(String(signed.headers.authorization))?.[1];
    } else {
      const presigned = await signer.presign(toSign, {
        signingDate,
        signableHeaders,
        // The client signed these as headers; presigning must not move them into the query.
        unhoistableHeaders: signableHeaders,
        expiresIn: Number(signature.expires ?? 3600),
      });
      expected = String(presigned.query?.['X-Amz-Signature']);
    }
    if (expected === undefined || !sameSignature(expected, signature.signature)) {
      throw new InvalidSignatureException(
        SIGNATURE_MISMATCH + (await signer.explain(toSign, signableHeaders, signature, signingDate)),
      );
    }
    return key;
  }
}

/** The request as the client signed it: only the headers it listed, the query without auth. */
function signableRequest(
  request: WireRequest,
  signature: RequestSignature,
  signedHeaders: string[],
): HttpRequest {
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: QueryParameterBag = {};
  if (signature.query !== undefined) {
    for (const [name, value] of signature.query) {
      // Presigning adds the auth parameters back itself; a session token stays as sent.
      if (signature.carrier === 'query' && QUERY_AUTH_PARAMETERS.has(name) && name !== 'X-Amz-Security-Token')
        continue;
      const existing = query[name];
      if (existing === undefined || existing === null) query[name] = value;
      else query[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
  }
  const mark = request.url.indexOf('?');
  const host = request.header('host') ?? '';
  return {
    method: request.method,
    protocol: 'http:',
    hostname: host.replace(/:\d+$/, ''),
    path: mark === -1 ? request.url : request.url.slice(0, mark),
    query,
    headers,
    body: request.body,
  };
}

/**
 * The 15-minute window around the clock, with the service's words: `Signature expired: … is now
 * earlier than … (… - 15 min.)` recorded from DynamoDB in dynalite's `index.js` notes; `Signature
 * not yet current: … is still later than … (… + 15 min.)` is its counterpart, which ScyllaDB's
 * DynamoDB-verified `test_authorization.py` expects from DynamoDB for a far-future date.
 */
function checkClockSkew(sent: string, signingDate: Date, now: number): void {
  const skew = signingDate.getTime() - now;
  if (skew < -MAX_CLOCK_SKEW_MS) {
    throw new InvalidSignatureException(
      `Signature expired: ${sent} is now earlier than ${amzDate(now - MAX_CLOCK_SKEW_MS)} ` +
        `(${amzDate(now)} - 15 min.)`,
    );
  }
  if (skew > MAX_CLOCK_SKEW_MS) {
    throw new InvalidSignatureException(
      `Signature not yet current: ${sent} is still later than ${amzDate(now + MAX_CLOCK_SKEW_MS)} ` +
        `(${amzDate(now)} + 15 min.)`,
    );
  }
}

/** Milliseconds → `20260101T000000Z` (ISO-8601 basic format, whole seconds, as X-Amz-Date). */
function amzDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/** Scope checks, reported together as the service does (messages from recorded responses). */
function checkScope(signature: RequestSignature, signingName: string): void {
  let problems = scopeRegionProblem(signature.scopeRegion);
  if (signature.scopeService !== signingName) {
    problems += `Credential should be scoped to correct service: '${signingName}'. `;
  }
  if (signature.scopeTerminator !== 'aws4_request') {
    problems += `Credential should be scoped with a valid terminator: 'aws4_request', not '${signature.scopeTerminator}'. `;
  }
  const day = signature.date.slice(0, 8);
  if (signature.scopeDate !== day) {
    problems +=
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: ` +
      `'${signature.scopeDate}' != '${day}', from '${signature.date}'.`;
  }
  if (problems !== '') throw new InvalidSignatureException(problems.trimEnd());
}

/** `20260101T120000Z` → Date; anything else is the service's ISO-8601 complaint. */
function parseAmzDate(value: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (match === null) {
    throw new IncompleteSignatureException(
      `Date must be in ISO-8601 'basic format'. Got '${value}'. See http://en.wikipedia.org/wiki/ISO_8601`,
    );
  }
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  return new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
