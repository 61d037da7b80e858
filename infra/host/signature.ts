import {
  IncompleteSignatureException,
  InvalidSignatureException,
  MissingAuthenticationTokenException,
} from '../../core/errors/index.js';
import { isRegionName } from './regionName.js';
import type { WireRequest } from './wire.js';

/**
 * Reading the SigV4 authentication of a request (docs/dynamodb.md §1.2.6), in the order the service checks
 * it: presence → header versus query signing → required parameters → algorithm → credential
 * shape. Verifying the signature itself is `SignatureVerifier`'s job (only when credentials are
 * configured); by default any well-formed credentials are accepted and only the region of the
 * credential scope is used.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-signing-request.html
 */
export interface RequestSignature {
  /** Where the signature travelled: the Authorization header or the query string. */
  readonly carrier: 'header' | 'query';
  readonly algorithm: string;
  /** The whole credential (`AKID/20260101/us-east-1/dynamodb/aws4_request`). */
  readonly credential: string;
  readonly accessKeyId: string;
  readonly scopeDate: string;
  readonly scopeRegion: string;
  readonly scopeService: string;
  readonly scopeTerminator: string;
  /** `SignedHeaders` as sent: lower-case names joined by `;`. */
  readonly signedHeaders: string;
  readonly signature: string;
  /** `X-Amz-Date` (header or query), else the `Date` header. */
  readonly date: string;
  /** The query string's `X-Amz-Expires` (query signing only). */
  readonly expires: string | undefined;
  /** The query parameters, when the URL has any (verification needs them). */
  readonly query: URLSearchParams | undefined;
}

const SUPPORTED_ALGORITHM = 'AWS4-HMAC-SHA256';
const REQUIRED_HEADER_PARAMETERS = ['Credential', 'Signature', 'SignedHeaders'] as const;
const REQUIRED_QUERY_PARAMETERS = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Signature',
  'X-Amz-SignedHeaders',
  'X-Amz-Date',
] as const;

/** Parses the query string of a request URL, or undefined when there is none. */
export function queryOf(url: string): URLSearchParams | undefined {
  const mark = url.indexOf('?');
  return mark === -1 ? undefined : new URLSearchParams(url.slice(mark + 1));
}

/**
 * Reads and checks the shape of a request's SigV4 authentication.
 * @throws MissingAuthenticationTokenException, IncompleteSignatureException or
 * InvalidSignatureException with the service's messages.
 */
export function readSignature(request: WireRequest): RequestSignature {
  const authorization = request.header('authorization');
  const query = request.url.includes('?') ? queryOf(request.url) : undefined;
  const queryAlgorithm = query?.get('X-Amz-Algorithm') ?? undefined;
  if (authorization !== undefined && queryAlgorithm !== undefined) {
    throw new InvalidSignatureException(
      "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.",
    );
  }
  if (authorization !== undefined) return readHeaderSignature(request, authorization, query);
  if (queryAlgorithm !== undefined && query !== undefined) return readQuerySignature(query);
  throw new MissingAuthenticationTokenException();
}

const SDK_PREFIX = 'AWS4-HMAC-SHA256 Credential=';
const credentialCache = new Map<string, ReturnType<typeof splitCredential>>();
const CREDENTIAL_CACHE_LIMIT = 256;
/**
 * The Authorization header up to the comma after the credential, as last seen, and its region:
 * a client sends the same prefix on every request, and one `startsWith` is cheaper than cutting
 * the credential out and hashing it for the cache (the header is a new string each request).
 */
let lastScopePrefix = '';
let lastScopeRegion = '';

/**
 * The credential scope's region, for the default mode where signatures are not verified. The
 * SDKs' spelling (`AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` with a date
 * header) is recognised with a few `indexOf`s and the credential's split is cached (a client
 * signs with one scope all day); anything else goes through `readSignature`, which words the
 * service's complaint.
 * @throws as `readSignature`; InvalidSignatureException when the region is not a region name.
 */
export function signingRegion(request: WireRequest): string {
  const authorization = request.header('authorization');
  if (authorization?.startsWith(SDK_PREFIX) && !request.url.includes('?')) {
    const seen = lastScopePrefix !== '' && authorization.startsWith(lastScopePrefix);
    const credentialEnd = seen ? lastScopePrefix.length - 1 : authorization.indexOf(',', SDK_PREFIX.length);
    if (
      credentialEnd !== -1 &&
      authorization.indexOf('SignedHeaders=', credentialEnd) !== -1 &&
      authorization.indexOf('Signature=', credentialEnd) !== -1 &&
      (request.header('x-amz-date') ?? request.header('date'))
    ) {
      if (seen) return lastScopeRegion;
      const credential = authorization.slice(SDK_PREFIX.length, credentialEnd).trimEnd();
      let parts = credentialCache.get(credential);
      if (parts === undefined) {
        parts = splitCredential(credential);
        checkScopeRegion(parts.scopeRegion);
        if (credentialCache.size >= CREDENTIAL_CACHE_LIMIT) credentialCache.clear();
        credentialCache.set(credential, parts);
      }
      lastScopePrefix = authorization.slice(0, credentialEnd + 1);
      lastScopeRegion = parts.scopeRegion;
      return parts.scopeRegion;
    }
  }
  const { scopeRegion } = readSignature(request);
  checkScopeRegion(scopeRegion);
  return scopeRegion;
}

/**
 * The service's complaint about a credential scope's region, or '' when it is a region name.
 * The region names tables' ARNs and keys eddy's per-region state, so anything else (`<script>`,
 * '') is refused with AWS's words for a region it does not serve (recorded in dynalite's
 * `index.js` notes; an empty region reads `not ''`, as quoted from AWS in fsouza/s3-upload-proxy#241).
 */
export function scopeRegionProblem(region: string): string {
  return isRegionName(region) ? '' : `Credential should be scoped to a valid region, not '${region}'. `;
}

function checkScopeRegion(region: string): void {
  const problem = scopeRegionProblem(region);
  if (problem !== '') throw new InvalidSignatureException(problem.trimEnd());
}

function readHeaderSignature(
  request: WireRequest,
  authorization: string,
  query: URLSearchParams | undefined,
): RequestSignature {
  const trimmed = authorization.trim();
  // A header that is not SigV4 at all counts as no token (docs/dynamodb.md §1.2.6).
  if (!trimmed.startsWith('AWS4-')) throw new MissingAuthenticationTokenException();
  const space = trimmed.indexOf(' ');
  const algorithm = space === -1 ? trimmed : trimmed.slice(0, space);
  const parameters = new Map<string, string>();
  if (space !== -1) {
    for (const part of trimmed.slice(space + 1).split(',')) {
      const equals = part.indexOf('=');
      if (equals === -1) continue;
      parameters.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
    }
  }
  const date = request.header('x-amz-date') ?? request.header('date');
  let missing = '';
  for (const name of REQUIRED_HEADER_PARAMETERS) {
    if (!parameters.get(name)) missing += `Authorization header requires '${name}' parameter. `;
  }
  if (!date) {
    missing += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ";
  }
  if (missing !== '') throw new IncompleteSignatureException(`${missing}Authorization=${authorization}`);
  checkAlgorithm(algorithm);
  const credential = parameters.get('Credential')!;
  return {
    carrier: 'header',
    algorithm,
    credential,
    ...splitCredential(credential),
    signedHeaders: parameters.get('SignedHeaders')!,
    signature: parameters.get('Signature')!,
    date: date!,
    expires: undefined,
    query,
  };
}

function readQuerySignature(query: URLSearchParams): RequestSignature {
  let missing = '';
  for (const name of REQUIRED_QUERY_PARAMETERS) {
    if (!query.get(name)) missing += `AWS query-string parameters must include '${name}'. `;
  }
  if (missing !== '')
    throw new IncompleteSignatureException(`${missing}Re-examine the query-string parameters.`);
  const algorithm = query.get('X-Amz-Algorithm')!;
  checkAlgorithm(algorithm);
  const credential = query.get('X-Amz-Credential')!;
  return {
    carrier: 'query',
    algorithm,
    credential,
    ...splitCredential(credential),
    signedHeaders: query.get('X-Amz-SignedHeaders')!,
    signature: query.get('X-Amz-Signature')!,
    date: query.get('X-Amz-Date')!,
    expires: query.get('X-Amz-Expires') ?? undefined,
    query,
  };
}

function checkAlgorithm(algorithm: string): void {
  if (algorithm !== SUPPORTED_ALGORITHM) {
    throw new IncompleteSignatureException(
      `Unsupported AWS 'algorithm': '${algorithm}' (only ${SUPPORTED_ALGORITHM} for now). `,
    );
  }
}

/** `keyid/date/region/service/terminator`; trailing slashes are ignored, as the service does. */
function splitCredential(credential: string): {
  accessKeyId: string;
  scopeDate: string;
  scopeRegion: string;
  scopeService: string;
  scopeTerminator: string;
} {
  let end = credential.length;
  while (end > 0 && credential.charCodeAt(end - 1) === 47 /* '/' */) end--;
  const parts = credential.slice(0, end).split('/');
  if (parts.length !== 5) {
    throw new IncompleteSignatureException(
      'Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term,' +
        ` got '${credential}'`,
    );
  }
  const [accessKeyId, scopeDate, scopeRegion, scopeService, scopeTerminator] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  return { accessKeyId, scopeDate, scopeRegion, scopeService, scopeTerminator };
}
