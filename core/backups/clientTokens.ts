import { randomUUID } from 'node:crypto';
import type { TransferRecord } from './dataProtection.js';

/**
 * `ClientToken` of ExportTableToPointInTime and ImportTable (docs/backups.md §5.4): "A client token
 * is valid for 8 hours after the first request that uses it is completed. After 8 hours, any
 * request with the same client token is treated as a new request."
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExportTableToPointInTime.html
 */
export const CLIENT_TOKEN_WINDOW_MS = 8 * 60 * 60 * 1000;

/**
 * The export or import of this account and region that took `token` within the last 8 hours, if
 * any. The records keep their token in their description and their start time (epoch seconds),
 * so the lookup needs no index of its own and survives restarts with the records (a few records
 * a session: a walk costs nothing).
 */
export function recordOfToken(
  records: ReadonlyMap<string, TransferRecord>,
  accountId: string,
  regionName: string,
  token: string,
  now: number,
): TransferRecord | undefined {
  for (const record of records.values()) {
    if (record.accountId !== accountId || record.regionName !== regionName) continue;
    if (record.description.ClientToken !== token) continue;
    if (now - (record.description.StartTime as number) * 1000 >= CLIENT_TOKEN_WINDOW_MS) continue;
    return record;
  }
  return undefined;
}

/**
 * The request a token was first used with, minus the token: members in sorted order at every
 * level, so two requests compare equal as text whatever order their members came in.
 */
export function requestFingerprint(input: object): string {
  const { ClientToken: _token, ...rest } = input as Record<string, unknown>;
  return JSON.stringify(rest, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * The token a request goes under: its own, or a new one. The service answers a token even when
 * none was sent ("Amazon returns an unique ClientToken in response, even if user did not supply
 * one", recorded against AWS in scylladb/scylladb test/alternator/test_export.py, test_export_basic).
 */
export function tokenOf(sent: string | undefined): string {
  return sent ?? randomUUID();
}
