/**
 * Host names, bind addresses and origins of `groundwire serve` as its Host/Origin checks
 * (guard.ts) and its options (`--host`, `--allowed-host`, `--cors`) take them. Light on
 * purpose: the CLI checks its options with these before the server's modules load.
 */
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";

/** `Host` = uri-host [":" port] (RFC 9110 §7.2), uri-host an IP literal in brackets or a reg-name; no userinfo, no path. */
const HOST_HEADER_RE = /^(?:\[([0-9A-Fa-f:.]{2,45})\]|([A-Za-z0-9._-]{1,253}))(?::(\d{1,5}))?$/;
/** A DNS name (labels of letters, digits and inner hyphens), as `--allowed-host` takes it. */
const DNS_NAME_RE = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** An IPv6 address in canonical form (`0:0::1` → `::1`), or null. */
export function canonicalIpv6(address: string): string | null {
  if (isIP(address) !== 6) return null;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The host name a `Host` header names (lowercase; IPv6 canonical, without brackets) and its port, or null when it is malformed. */
export function parseHostHeader(value: string): { name: string; port: number | null } | null {
  const m = HOST_HEADER_RE.exec(value);
  if (!m) return null;
  const name = m[1] !== undefined ? canonicalIpv6(m[1]) : m[2]!.toLowerCase();
  if (name === null) return null;
  return { name, port: m[3] === undefined ? null : Number(m[3]) };
}

/**
 * A `--allowed-host` value as the allowed-host set holds it (lowercase; IPv6 canonical,
 * brackets optional), or null when it is neither an IP address nor a DNS name.
 */
export function normalizeAllowedHost(value: string): string | null {
  const bare = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) === 6) return canonicalIpv6(bare);
  return DNS_NAME_RE.test(value) ? value.toLowerCase() : null;
}

/** True for a loopback bind address: `localhost`, 127.0.0.0/8 or `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return isIP(bare) === 6 && canonicalIpv6(bare) === "::1";
}

/** True for a wildcard bind address (every interface): `0.0.0.0` or `::`. */
export function isWildcardHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare === "0.0.0.0" || canonicalIpv6(bare) === "::";
}

/**
 * The host names a request's `Host` may name for a server bound to `bind`: `localhost`;
 * for a loopback bind also `127.0.0.1` and `::1`; for a wildcard bind (`0.0.0.0`, `::`)
 * the IP addresses of the machine's interfaces at start (an IP literal cannot be
 * DNS-rebound); otherwise the bound address itself; plus every `--allowed-host`.
 */
export function allowedHostsFor(bind: string, extra: readonly string[]): Set<string> {
  const hosts = new Set<string>(["localhost"]);
  const add = (h: string) => {
    const n = normalizeAllowedHost(h);
    if (n !== null) hosts.add(n);
  };
  if (isLoopbackHost(bind)) ["127.0.0.1", "::1"].forEach(add);
  if (isWildcardHost(bind)) {
    for (const list of Object.values(networkInterfaces())) for (const info of list ?? []) add(info.address.split("%", 1)[0]!);
  } else add(bind);
  extra.forEach(add);
  return hosts;
}

/** A `--cors` value as an origin (`scheme://host[:port]`, exactly: no path, query or credentials), or null. */
export function normalizeCorsOrigin(value: string): string | null {
  if (value.length > 2048) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    // the origin as a browser sends it; `https://a.example/` (a trailing slash) is the same origin
    return url.origin === value || `${url.origin}/` === value ? url.origin : null;
  } catch {
    return null;
  }
}
