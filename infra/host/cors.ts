/**
 * Which web pages may call eddy from a browser (CORS). DynamoDB answers every origin with
 * `Access-Control-Allow-Origin: *`; a local eddy doing the same would let any page the developer
 * opens read and write their tables. By default only pages served from this machine may
 * (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`, and `https` on the same hosts);
 * `--cors` / `server.cors` adds origins, or `*` answers as DynamoDB does (docs/security.md).
 */
export type CorsSetting = '*' | readonly string[];

/** `scheme://host[:port]` with `*` for any port, as `--cors` takes them. */
const ORIGIN_PATTERN = /^(https?):\/\/(\[[0-9a-fA-F:.]+\]|[^/:?#[\]@\s]+)(?::(\d{1,5}|\*))?$/;

const LOOPBACK_ORIGINS = [
  'http://localhost:*',
  'http://127.0.0.1:*',
  'http://[::1]:*',
  'https://localhost:*',
  'https://127.0.0.1:*',
  'https://[::1]:*',
] as const;

/** One allowed origin: exact, or any port of a scheme and host. */
interface OriginRule {
  readonly scheme: string;
  readonly host: string;
  /** Undefined: the scheme's default port only; '*': any port (or none). */
  readonly port: string | undefined;
}

/** A `--cors` value that is neither `*` nor a list of origins. */
export class CorsSettingError extends Error {
  override readonly name = 'CorsSettingError';
  constructor(readonly value: string) {
    super(
      `Not an origin: '${value}'. Give origins as scheme://host[:port] (port '*' for any), ` +
        `comma-separated, 'null' for file:// pages, or '*' for every origin.`,
    );
  }
}

/**
 * Parses `--cors`: `*`, or origins separated by commas.
 * @throws CorsSettingError for an entry that is not an origin.
 */
export function parseCorsSetting(value: string): CorsSetting {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  const origins = trimmed
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const origin of origins)
    if (origin !== 'null' && !ORIGIN_PATTERN.test(origin)) throw new CorsSettingError(origin);
  return origins;
}

export class CorsPolicy {
  private readonly any: boolean;
  private readonly rules: OriginRule[] = [];
  /** Exact origins (including `null`), compared as sent. */
  private readonly exact = new Set<string>();

  /** @throws CorsSettingError for an entry that is not an origin. */
  constructor(setting: CorsSetting = []) {
    this.any = setting === '*';
    if (setting === '*') return;
    for (const origin of [...LOOPBACK_ORIGINS, ...setting]) {
      if (origin === 'null') {
        this.exact.add(origin);
        continue;
      }
      const match = ORIGIN_PATTERN.exec(origin);
      if (match === null) throw new CorsSettingError(origin);
      const [, scheme, host, port] = match as unknown as [string, string, string, string | undefined];
      this.rules.push({ scheme, host: host.toLowerCase(), port });
    }
  }

  /**
   * The `Access-Control-Allow-Origin` value for a request's `Origin`: `*` when every origin is
   * allowed, the origin itself when it is, undefined when it is not.
   */
  allow(origin: string): string | undefined {
    if (this.any) return '*';
    if (this.exact.has(origin)) return origin;
    const match = ORIGIN_PATTERN.exec(origin);
    if (match === null) return undefined;
    const [, scheme, rawHost, port] = match as unknown as [string, string, string, string | undefined];
    const host = rawHost.toLowerCase();
    for (const rule of this.rules) {
      if (rule.scheme !== scheme || rule.host !== host) continue;
      if (rule.port === '*' || rule.port === port) return origin;
    }
    return undefined;
  }
}
