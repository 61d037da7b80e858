import { Sha256 } from '@smithy/core/checksum';
import {
  ALGORITHM_IDENTIFIER,
  getCanonicalHeaders,
  getPayloadHash,
  prepareRequest,
  SignatureV4,
} from '@smithy/signature-v4';
import type { HttpRequest } from '@smithy/types';
import type { RequestSignature } from './signature.js';

export { Sha256 };

/** Exposes the canonical request and string to sign, which the service quotes on a mismatch. */
export class ExplainingSigner extends SignatureV4 {
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
    const payloadHash = await getPayloadHash(prepared, this.sha256);
    const canonical = this.createCanonicalRequest(prepared, canonicalHeaders, payloadHash);
    const scope = `${shortDate}/${signature.scopeRegion}/${signature.scopeService}/aws4_request`;
    const stringToSign = await this.createStringToSign(longDate, scope, canonical, ALGORITHM_IDENTIFIER);
    return (
      `\n\nThe Canonical String for this request should have been\n'${canonical}'\n\n` +
      `The String-to-Sign should have been\n'${stringToSign}'\n`
    );
  }
}
