/**
 * The request id of every request of `groundwire serve`: the client's `X-Request-Id` when it
 * is a short plain token (`/^[A-Za-z0-9._-]{1,64}$/`, so a log line or error body never
 * carries what a client smuggled in), else a fresh `crypto.randomUUID()`. Stored with
 * `c.set("requestId", id)` (read it with `c.get("requestId")`: the request log and error
 * bodies use this one source) and sent back as the `X-Request-Id` response header.
 */
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";

declare module "hono" {
  interface ContextVariableMap {
    /** This request's id (see ts/server/request-id.ts). */
    requestId: string;
  }
}

/** An incoming `X-Request-Id` kept as the request's id. */
export const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

/** The middleware: registered first in app.ts, so every answer (refusals and errors too) carries the id. */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const id = incoming !== undefined && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    await next();
    // a Response a handler built itself (the MCP transport's) did not take the prepared header
    if (!c.res.headers.has("x-request-id")) {
      try {
        c.res.headers.set("X-Request-Id", id);
      } catch {
        // immutable headers (a proxied Response): the id stays in the log
      }
    }
  };
}
