/**
 * Errors of `groundwire serve` mapped to HTTP statuses in one place, by class (never by a list).
 * Every error answer is JSON `{error: {code, message, requestId}}`; a message never carries a
 * stack, a path on the server or a secret. Unknown errors are 500 "internal error (request id
 * …)" (the detail goes to the log only, under the same id).
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { escapeMessage } from "../cli/common.js";
import { GroundwireError, type ErrorStatus } from "../errors.js";
import { currentRequestId } from "./request-id.js";

/** An error with its HTTP status and a stable machine code (the server's own refusals: 400, 413, 415…). */
export class HttpError extends GroundwireError {
  constructor(status: ErrorStatus, code: string, message: string) {
    super(message, { status, code });
  }
}

/** A moot turn took longer than the per-request time (504). */
export class TurnTimeoutError extends GroundwireError {
  constructor(readonly ms: number) {
    super(`the moot turn did not finish within ${ms} ms (the model is slow or unreachable); the turn goes on and is saved when it lands`, { code: "timeout", status: 504 });
  }
}

/** A zod failure as one 400 naming the field (`keys.1: must be a book key…`). */
export function badRequest(where: string, error: z.ZodError): HttpError {
  const issue = error.issues[0]!;
  const path = issue.path.length ? issue.path.join(".") : where;
  return new HttpError(400, "bad_request", `${path}: ${issue.message}`);
}

/** How an error is answered: status, code, message (escaped), the request id, and whether it is our fault. */
export interface ErrorAnswer {
  status: ContentfulStatusCode;
  code: string;
  message: string;
  requestId: string;
  /** A 5xx: logged (with the stack when it is not a GroundwireError); a 4xx never is. */
  serverFault: boolean;
}

/**
 * The status, code and message an error is answered with, by class: a {@link GroundwireError}
 * carries its own status and code; Hono's HTTPException is mapped as before; anything else is
 * a fault of ours, 500 `internal` with the message `internal error (request id …)` (the detail
 * goes to the log only). A 500 GroundwireError (an I/O fault) is answered the same way: its
 * message may name a path on the server. The message is escaped like a CLI message
 * ({@link escapeMessage}: controls, bidi and other format characters, lone surrogates become
 * visible escapes), since it often echoes input and ends up on a terminal.
 *
 * @param requestId the request's id (default: the one {@link currentRequestId} holds, else a new UUID)
 */
export function errorResponse(error: unknown, requestId: string = currentRequestId() ?? crypto.randomUUID()): ErrorAnswer {
  const internal = { status: 500 as const, code: "internal", message: `internal error (request id ${requestId})`, requestId, serverFault: true };
  if (error instanceof GroundwireError) {
    if (error.status === 500) return internal;
    return { status: error.status, code: error.code, message: escapeMessage(error.message), requestId, serverFault: error.status >= 500 };
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    const code = status === 413 ? "too_large" : status === 401 ? "unauthorized" : status === 504 ? "timeout" : status === 400 ? "bad_request" : "http_error";
    const text = status === 413 ? "the request body is larger than the server accepts (--max-body)" : status === 401 ? "missing or wrong bearer token (Authorization: Bearer …)" : error.message || "request refused";
    return { status, code, message: escapeMessage(text), requestId, serverFault: status >= 500 };
  }
  return internal;
}

/**
 * The log line for an answered error, or null when none is due: a 4xx is the client's and is
 * never logged; a 5xx GroundwireError (an upstream, a full disk) is one line; anything else
 * is a fault of ours, logged with its stack. Every line names the request id.
 */
export function errorLogLine(error: unknown, answer: ErrorAnswer, where: string): string | null {
  if (!answer.serverFault) return null;
  if (error instanceof GroundwireError) return `${answer.status} ${error.code} on ${where} (request id ${answer.requestId}): ${error.message}`;
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return `internal error on ${where} (request id ${answer.requestId}): ${detail}`;
}

/**
 * The text of an MCP tool's `isError` result: `code: message` for a client error (4xx),
 * `internal: internal error (request id …)` for anything else, logged (to stderr by default)
 * with its stack.
 */
export function toolErrorText(error: unknown, tool: string, log: (line: string) => void = (line) => process.stderr.write(`groundwire mcp: ${escapeMessage(line)}\n`)): string {
  const answer = errorResponse(error);
  const line = errorLogLine(error, answer, `tool ${tool}`);
  if (line !== null) log(line);
  if (answer.serverFault) return `internal: internal error (request id ${answer.requestId})`;
  return `${answer.code}: ${answer.message}`;
}
