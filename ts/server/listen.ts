/**
 * The Node HTTP server under `groundwire serve`: @hono/node-server's request listener on a
 * `node:http` server with its timeouts set (SERVE_DEFAULTS.http) and the keep-alive close
 * made safe under load.
 *
 * The keep-alive race: Node closes a keep-alive socket that stayed idle `keepAliveTimeout`
 * by a timer. When the event loop was busy past that time (a heavy request), the timer runs
 * before the loop reads the sockets, so a socket into which the client had already written
 * its next request (its own idle limit had not run out) was destroyed with the request
 * unread, and the kernel answered the client with a reset: under a saturated server ~14% of
 * the requests of a fetch client died as ECONNRESET. Here the server handles the timeout
 * itself: it looks again after the loop's I/O phase (setImmediate) and closes the socket only
 * if no byte arrived meanwhile; a socket with a request in it is served.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { SERVE_DEFAULTS } from "./defaults.js";

/** How much of an unread request body is read and dropped after its answer, at most (see {@link lingerUntilRead}). */
const LINGER_BYTES = 64 * 1024 * 1024;
/** How long the rest of an unread request body may take to arrive after its answer, at most. */
const LINGER_MS = 5_000;

/**
 * An answer sent before its request's body was read whole (413 over --max-body, with
 * `Connection: close`): Node closes the socket as soon as the answer is written, and the kernel,
 * holding body bytes nobody read, resets the connection, so a client still writing the body gets
 * EPIPE or ECONNRESET instead of the answer. Here the close waits until the rest of the body has
 * been read and dropped (a lingering close, as nginx and Apache do), bounded by
 * {@link LINGER_BYTES} and {@link LINGER_MS}, after which the socket closes as before.
 */
function lingerUntilRead(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  const socket = req.socket;
  const destroySoon = socket.destroySoon.bind(socket);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closeAsked = false;
  const close = () => {
    clearTimeout(timer);
    socket.destroySoon = destroySoon;
    destroySoon();
  };
  // Node asks for the close once the answer is written (`Connection: close`)
  socket.destroySoon = () => {
    closeAsked = true;
    if (req.complete) close();
    else {
      timer = setTimeout(close, LINGER_MS);
      timer.unref();
    }
  };
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  req.once("end", () => (closeAsked ? close() : (socket.destroySoon = destroySoon)));
  req.resume();
}

/** The adapter's reasons (RequestError), as an answer says them. */
function requestErrorMessage(reason: string): string {
  if (/missing host/i.test(reason)) return "the request has no Host header (HTTP/1.1 requires one)";
  if (/host/i.test(reason)) return "the Host header is malformed";
  return "the request target is malformed";
}

/** Timeouts of the Node server, in ms (see SERVE_DEFAULTS.http). */
export interface HttpTimeouts {
  keepAliveTimeout: number;
  headersTimeout: number;
  requestTimeout: number;
}

/**
 * A `node:http` server answering with `fetch` (a Hono app's), not yet listening. A request
 * Node or the adapter cannot make a URL of (a malformed `Host`, a target with a backslash)
 * is answered 400 in the JSON error shape.
 */
export function createHttpServer(fetch: (request: Request) => Response | Promise<Response>, timeouts: HttpTimeouts = SERVE_DEFAULTS.http): Server {
  const listener = getRequestListener(fetch, {
    errorHandler: (error) =>
      Response.json(
        { error: { code: "bad_request", message: requestErrorMessage((error as Error).message) } },
        { status: 400, headers: { connection: "close" } },
      ),
  });
  const server = createServer(
    { keepAliveTimeout: timeouts.keepAliveTimeout, headersTimeout: timeouts.headersTimeout, requestTimeout: timeouts.requestTimeout, connectionsCheckingInterval: Math.min(5_000, timeouts.headersTimeout) } as Parameters<typeof createServer>[0],
    (req: IncomingMessage, res: ServerResponse) => {
      res.once("prefinish", () => lingerUntilRead(req));
      (listener as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
    },
  );
  // Node 20's typings lack keepAliveTimeout among the options: set it on the server as well
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.headersTimeout = timeouts.headersTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  // With a 'timeout' listener, Node leaves a timed-out socket to it (instead of destroying it).
  server.on("timeout", (socket: Socket) => {
    const read = socket.bytesRead;
    setImmediate(() => {
      if (socket.destroyed) return;
      // bytes came in during this loop turn's I/O: a request is on its way, let Node serve it
      if (socket.bytesRead !== read) return;
      socket.destroy();
    });
  });
  return server;
}
