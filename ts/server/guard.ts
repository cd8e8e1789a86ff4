/**
 * The checks every request of `groundwire serve` passes before any route (registered first
 * in app.ts, before `/health`): the `Host` header must name an allowed host and a present
 * `Origin` must be an allowed origin, so a web page cannot drive the server through DNS
 * rebinding or a cross-site request; then, when a token is set, the bearer token (compared
 * in constant time). CORS is closed unless `--cors ORIGIN` names an origin.
 *
 * Modelled on Jupyter server: a token made at start, Host and Origin checked on every route.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { GroundwireError } from "../errors.js";
import { parseHostHeader } from "./hosts.js";
import { MAX_TOKEN_LENGTH } from "./token.js";

/** Settings of {@link hostOriginGuard}. */
export interface GuardOptions {
  /** Host names a request's `Host` may name: lowercase, IPv6 without brackets (see {@link allowedHostsFor}). */
  allowedHosts: ReadonlySet<string>;
  /** Origins allowed besides the server's own (`--cors`), in `URL.origin` form. */
  corsOrigins: readonly string[];
  /**
   * The port the server listens on (known once it listens): its own origins are
   * `http://<allowed host>:<port>`. Undefined (an app served by other means): the port of
   * the request's `Host` header.
   */
  port?: () => number | undefined;
}

/** A request refused by the Host or Origin check (403). */
export class ForbiddenHeaderError extends GroundwireError {
  constructor(header: "Host" | "Origin", value: string) {
    const flag = header === "Host" ? "--allowed-host" : "--cors";
    super(`the ${header} header '${shown(value)}' is not allowed (allow it with ${flag})`, { code: header === "Host" ? "forbidden_host" : "forbidden_origin", status: 403 });
  }
}

/** Longest header value echoed in a refusal, in code points. */
const SHOWN_LIMIT = 100;
/** A header value as echoed in a message: cut to {@link SHOWN_LIMIT} code points (the message is escaped where it is answered). */
function shown(value: string): string {
  const points = Array.from(value.slice(0, SHOWN_LIMIT * 2 + 2));
  return points.length > SHOWN_LIMIT ? `${points.slice(0, SHOWN_LIMIT).join("")}…` : value;
}

/**
 * The Host and Origin checks as a Hono middleware. A request without `Host` (an HTTP/1.0
 * client; HTTP/1.1 requires one, RFC 9112 §3.2, and Node answers those 400 itself) is a 400;
 * a `Host` naming another host is a 403 `forbidden_host`; a present `Origin` that is not one
 * of the server's own origins nor a `--cors` origin (`Origin: null` included: sandboxed
 * frames and file pages send it) is a 403 `forbidden_origin`. An absent `Origin` passes: CLI
 * clients send none, and a browser always sends one on a cross-origin request.
 */
export function hostOriginGuard(options: GuardOptions): MiddlewareHandler {
  const cors = new Set(options.corsOrigins);
  return async (c, next) => {
    const host = c.req.header("host");
    if (host === undefined || host === "") throw new GroundwireError("the request has no Host header (HTTP/1.1 requires one)", { code: "bad_request", status: 400 });
    const parsed = parseHostHeader(host);
    if (parsed === null || !options.allowedHosts.has(parsed.name)) throw new ForbiddenHeaderError("Host", host);
    const origin = c.req.header("origin");
    if (origin !== undefined && !cors.has(origin) && !ownOrigin(origin, options.allowedHosts, options.port?.() ?? parsed.port ?? 80)) {
      throw new ForbiddenHeaderError("Origin", origin);
    }
    await next();
  };
}

/** True when `origin` is `http://<allowed host>:<port>` exactly (as a browser serializes it). */
function ownOrigin(origin: string, hosts: ReadonlySet<string>, port: number): boolean {
  if (origin.length > 300 || !origin.startsWith("http://")) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  const name = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return hosts.has(name) && Number(url.port || 80) === port;
}

/**
 * CORS for the `--cors` origins: preflight `OPTIONS` answered, `Access-Control-Allow-Origin`
 * set for exactly those origins, the Authorization and Content-Type headers allowed (and the
 * MCP client's `Mcp-Protocol-Version` / `Mcp-Session-Id`). Null when no origin is named:
 * then no CORS header is ever sent.
 */
export function corsFor(origins: readonly string[]): MiddlewareHandler | null {
  if (!origins.length) return null;
  return cors({
    origin: [...origins],
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "X-Request-Id", "Mcp-Protocol-Version", "Mcp-Session-Id"],
    exposeHeaders: ["X-Request-Id", "Retry-After", "Mcp-Session-Id"],
    maxAge: 600,
  });
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * `Authorization: Bearer <token>` required, compared in constant time (both sides hashed to
 * 32 bytes first, so neither the token's characters nor its length leak through timing). A
 * missing or wrong token is a 401 `unauthorized` with `WWW-Authenticate: Bearer`.
 */
export function bearerTokenAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const m = /^Bearer +(\S{1,4096}) *$/i.exec(header.length <= MAX_TOKEN_LENGTH + 20 ? header : "");
    if (!m || !timingSafeEqual(digest(m[1]!), expected)) throw new HTTPException(401);
    await next();
  };
}
