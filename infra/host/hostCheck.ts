import { isIP } from 'node:net';

/**
 * DNS rebinding: a web page at `http://evil.example:8000` whose name is made to resolve to
 * 127.0.0.1 reaches a server bound to loopback as its own origin, so CORS does not stop it. Its
 * requests still carry `Host: evil.example:8000`. A server bound to loopback serves only Host
 * names that mean this machine (loopback addresses, `localhost` and `*.localhost`,
 * RFC 6761 §6.3) and those the user allowed (`--allowed-hosts`, `server.allowedHosts`);
 * docs/security.md.
 */
export type AllowedHosts = '*' | readonly string[];

/** Whether an address the server bound is loopback (127.0.0.0/8, ::1, IPv4-mapped 127/8). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const version = isIP(bare);
  if (version === 4) return bare.startsWith('127.');
  if (version === 6) {
    const lower = bare.toLowerCase();
    return lower === '::1' || lower === '0:0:0:0:0:0:0:1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(lower);
  }
  return false;
}

/** The name in a Host header, without its port; IPv6 literals keep their brackets off. */
export function hostName(header: string): string {
  const trimmed = header.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    return end === -1 ? trimmed : trimmed.slice(1, end);
  }
  const colon = trimmed.indexOf(':');
  // A bare IPv6 address has several colons and no port.
  const name = colon !== -1 && trimmed.indexOf(':', colon + 1) === -1 ? trimmed.slice(0, colon) : trimmed;
  // `localhost.` is `localhost` (a fully qualified name).
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

export class HostCheck {
  private readonly allowed: ReadonlySet<string>;
  private readonly any: boolean;

  constructor(allowed: AllowedHosts = []) {
    this.any = allowed === '*';
    this.allowed = new Set(allowed === '*' ? [] : allowed.map((name) => hostName(name)));
  }

  /**
   * Whether a request with this Host header may be served by a server bound to loopback.
   * A request without Host (HTTP/1.0) names no foreign site and passes.
   */
  allows(header: string | undefined): boolean {
    // A client sends the same Host on every request: one comparison answers the repeats.
    if (this.any || header === undefined || header === this.lastAllowed) return true;
    const name = hostName(header);
    const allowed =
      name === 'localhost' ||
      name.endsWith('.localhost') ||
      isLoopbackAddress(name) ||
      this.allowed.has(name);
    if (allowed) this.lastAllowed = header;
    return allowed;
  }

  private lastAllowed: string | undefined;
}
