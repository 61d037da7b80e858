import type { TransferRecord } from './dataProtection.js';

/**
 * Paging of ListExports and ListImports: records in the order they were made; the token names
 * the last record of the page, hex-encoded and zero-padded to a multiple of 16 digits and at
 * least 112 (ListImports' NextToken pattern `([0-9a-f]{16})+`, length 112..1024).
 */
export function pageOf(
  records: readonly TransferRecord[],
  size: number,
  token: string | undefined,
): { page: TransferRecord[]; next: string | undefined } {
  let start = 0;
  if (token !== undefined) {
    const arn = decodeToken(token);
    const at = records.findIndex((record) => record.arn === arn);
    start = at === -1 ? records.length : at + 1;
  }
  const page = records.slice(start, start + size);
  const next =
    start + size < records.length && page.length > 0 ? encodeToken(page[page.length - 1]!.arn) : undefined;
  return { page, next };
}

export function encodeToken(arn: string): string {
  let hex = Buffer.from(arn, 'utf8').toString('hex');
  while (hex.length < 112 || hex.length % 16 !== 0) hex += '00';
  return hex;
}

export function decodeToken(token: string): string {
  return Buffer.from(token.replace(/(00)+$/, ''), 'hex').toString('utf8');
}
