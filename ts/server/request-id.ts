/**
 * A request id for every answer of `groundwire serve`: the `X-Request-Id` header, the
 * `requestId` of a JSON error and the id the log names an error under. A client may send its
 * own id (letters, digits, `.`, `_`, `-`, at most 64: anything else is replaced, so a header
 * cannot inject text into the log); otherwise one is made with `crypto.randomUUID()`.
 * The id of the request being handled is also held in an AsyncLocalStorage, so code far from
 * the Hono context (an MCP tool's error) can name it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";

declare module "hono" {
  interface ContextVariableMap {
    /** This request's id (see ts/server/request-id.ts). */
    requestId: string;
  }
}

/** The request ids a client may choose. */
export const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

const requestIds = new AsyncLocalStorage<string>();

/** The id of the request being handled, when called inside one. */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}

/** The client's `X-Request-Id` when it is well formed, else a new UUID. */
export function requestIdFor(header: string | undefined): string {
  return header !== undefined && REQUEST_ID_RE.test(header) ? header : crypto.randomUUID();
}

/** Middleware: give the request its id (`c.get("requestId")`), answer it in `X-Request-Id`, hold it for {@link currentRequestId}. */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const id = requestIdFor(c.req.header("x-request-id"));
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    await requestIds.run(id, next);
    // Answers not built through the context (the MCP transport's own Response) get it here.
    if (c.res.headers.get("x-request-id") !== id) {
      try {
        c.res.headers.set("X-Request-Id", id);
      } catch {
        c.res = new Response(c.res.body, c.res);
        c.res.headers.set("X-Request-Id", id);
      }
    }
  };
}
