/**
 * Errors of `groundwire serve` mapped to HTTP statuses in one place. Every error answer is
 * JSON `{error: {code, message}}`; a message never carries a stack, a path on the server
 * or a secret. Unknown errors are 500 "internal error" (the detail goes to the log only).
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { UnknownBookError, WorkerError } from "../moot/retrieval.js";
import { EmptyReplyError, MootError, SameBookError, TranscriptFormatError } from "../moot/moot.js";
import { SynthesizerError } from "../moot/synth.js";
import { CritiqueFormatError, TripleIndexDriftError } from "../triple-index/index.js";
import { GoalError } from "../kernel/goal.js";
import { PlanError } from "../kernel/ops.js";
import { SparqlSyntaxError } from "../kernel/sparql.js";
import { RdfParseError } from "../rdf/graph.js";
import { CitationFormatError, UnsupportedFormatError } from "../evidence/index.js";
import { UnknownFocusError } from "../memdsl/index.js";
import { CliError, escapeMessage } from "../cli/common.js";
import { DriftError, NotFoundError } from "./checks.js";
import { BusyError, MootConflictError } from "./moot-store.js";
import { GroundwireError } from "../errors.js";

/** An error with its HTTP status and a stable machine code. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** A moot turn took longer than the per-request time (504). */
export class TurnTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`the moot turn did not finish within ${ms} ms (the model is slow or unreachable); the turn goes on and is saved when it lands`);
    this.name = "TurnTimeoutError";
  }
}

/** A zod failure as one 400 naming the field (`keys.1: must be a book key…`). */
export function badRequest(where: string, error: z.ZodError): HttpError {
  const issue = error.issues[0]!;
  const path = issue.path.length ? issue.path.join(".") : where;
  return new HttpError(400, "bad_request", `${path}: ${issue.message}`);
}

const BAD_INPUT = [CritiqueFormatError, GoalError, PlanError, SparqlSyntaxError, RdfParseError, CitationFormatError, UnsupportedFormatError, UnknownFocusError, SameBookError, CliError, TranscriptFormatError];

/**
 * The status, code and message an error is answered with. The message is escaped like a CLI
 * message ({@link escapeMessage}: controls, bidi and other format characters, lone
 * surrogates become visible escapes), since it often echoes input and ends up on a terminal.
 */
export function errorResponse(error: unknown): { status: ContentfulStatusCode; code: string; message: string } {
  const answer = rawErrorResponse(error);
  return { ...answer, message: escapeMessage(answer.message) };
}

function rawErrorResponse(error: unknown): { status: ContentfulStatusCode; code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof HttpError) return { status: error.status, code: error.code, message };
  if (error instanceof GroundwireError) return { status: error.status as ContentfulStatusCode, code: error.code, message };
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    const code = status === 413 ? "too_large" : status === 401 ? "unauthorized" : status === 504 ? "timeout" : status === 400 ? "bad_request" : "http_error";
    const text = status === 413 ? "the request body is larger than the server accepts (--max-body)" : status === 401 ? "missing or wrong bearer token (Authorization: Bearer …)" : message || "request refused";
    return { status, code, message: text };
  }
  if (error instanceof UnknownBookError || error instanceof NotFoundError) return { status: 404, code: "not_found", message };
  if (error instanceof DriftError || error instanceof TripleIndexDriftError) return { status: 409, code: "drift", message };
  if (error instanceof MootConflictError) return { status: 409, code: "conflict", message };
  if (error instanceof BusyError) return { status: 429, code: "busy", message };
  if (error instanceof TurnTimeoutError) return { status: 504, code: "timeout", message };
  if (error instanceof SynthesizerError || error instanceof WorkerError || error instanceof EmptyReplyError) return { status: 502, code: "upstream", message };
  if (error instanceof RangeError || BAD_INPUT.some((E) => error instanceof E)) return { status: 400, code: "bad_request", message };
  if (error instanceof MootError) return { status: 409, code: "conflict", message };
  return { status: 500, code: "internal", message: "internal error" };
}
