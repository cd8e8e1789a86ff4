/**
 * The request log of `groundwire serve`: one JSON line per request on stderr through pino,
 * `{"level":30,"time":…,"msg":"request","method":"POST","route":"/moots/:id/turns",
 * "status":200,"ms":12.3,"requestId":"…"}`. The route is the pattern that matched (`null`
 * when none did), never the path as sent; no body, query string, header, token or key is
 * ever logged. `--quiet` turns it off.
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { pino, type Logger } from "pino";

/** A logger writing JSON lines to stderr (fd 2), synchronously: a line is out before the next request is read. */
export function createRequestLogger(): Logger {
  return pino({ base: null, messageKey: "msg" }, pino.destination({ fd: 2, sync: true }));
}

/** The middleware: registered right after the request id (request-id.ts), so refusals are logged too. */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      // the last pattern that matched and is a route, not a middleware's "*"
      const route = matchedRoutes(c).findLast((r) => r.path !== "*" && r.path !== "/*")?.path ?? null;
      logger.info(
        {
          method: c.req.method,
          route,
          status: c.res.status,
          ms: Math.round((performance.now() - start) * 10) / 10,
          requestId: c.get("requestId"),
        },
        "request",
      );
    }
  };
}
