import { Sha256 } from '@smithy/core/checksum';
import { ALGORITHM_IDENTIFIER, getCanonicalHeaders, prepareRequest, SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest } from '@smithy/types';
import type { RequestSignature } from './signature.js';

export { Sha256 };

/**
 * The service's side of the signature: the payload hash in the canonical request is always the
 * body's own SHA-256. `@smithy/signature-v4` would take the client's `x-amz-content-sha256`
 * instead, so `UNSIGNED-PAYLOAD` (or any declared hash) would sign no body at all. DynamoDB does
 * not accept unsigned payloads: its service model marks no operation `unsignedPayload` (the S3
 * and Glacier models do), so every SDK signs the body's hash (docs/security.md, "Signatures").
 * Also exposes the canonical request and string to sign, which the service quotes on a mismatch.
 */
export class ExplainingSigner extends SignatureV4 {
  constructor(
    options: ConstructorParameters<typeof SignatureV4>[0],
    private readonly bodyHash: string,
  ) {
    super(options);
  }

  protected override createCanonicalRequest(
    request: HttpRequest,
    canonicalHeaders: Record<string, string>,
    _payloadHash: string,
  ): string {
    return super.createCanonicalRequest(request, canonicalHeaders, this.bodyHash);
  }

  async explain(
    request: HttpRequest,
    signableHeaders: Set<string>,
    signature: RequestSignature,
    signingDate: Date,
  ): Promise<string> {
    if (signature.carrier === 'query') return '';
    const prepared = prepareRequest(request);
    const { longDate, shortDate } = this.formatDate(signingDate);
    prepared.headers['x-amz-date'] = longDate;
    const canonicalHeaders = getCanonicalHeaders(prepared, undefined, signableHeaders);
    const canonical = this.createCanonicalRequest(prepared, canonicalHeaders, this.bodyHash);
    const scope = `${shortDate}/${signature.scopeRegion}/${signature.scopeService}/aws4_request`;
    const stringToSign = await this.createStringToSign(longDate, scope, canonical, ALGORITHM_IDENTIFIER);
    return (
      `\n\nThe Canonical String for this request should have been\n'${canonical}'\n\n` +
      `The String-to-Sign should have been\n'${stringToSign}'\n`
    );
  }
}
