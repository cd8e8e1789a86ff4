/**
 * What both MCP transports (stdio: mcp-stdio.ts; Streamable HTTP: mcp-http.ts) do with a
 * message before the SDK's server sees it: JSON.parse, then the SDK's own
 * `JSONRPCMessageSchema`, and the JSON-RPC 2.0 error each refusal gets:
 *
 * - not JSON                                → -32700 (parse error), id null
 * - JSON but not a JSON-RPC 2.0 message     → -32600 (invalid request), with the id when one can be read, else null
 * - a batch (a JSON array) under a protocol version that removed batches (2025-06-18 and later),
 *   or before a version was negotiated      → -32600, id null
 *
 * Each refusal also yields one log line that quotes at most a short escaped prefix of the input.
 */
import { JSONRPCMessageSchema, type JSONRPCErrorResponse, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { escapeMessage } from "../cli/common.js";

/**
 * Longest stdio message read, in bytes of UTF-8 (newline excluded): 64 MiB. Above every
 * tool's largest document: a document or graph field holds at most 8,000,000 characters
 * (`MAX_DOCUMENT`), which JSON-escape to at most 48,000,000 bytes (6 bytes for a control
 * character written `\u001f`), and no tool takes two such fields in full (index_graph's
 * graph and scope share one bound).
 */
export const MCP_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The first protocol version without JSON-RPC batches (the 2025-06-18 changelog removed them). */
export const BATCHES_REMOVED_IN = "2025-06-18";

/** Characters of a refused input quoted in a log line or an error message. */
const ECHO_CHARS = 40;

/** A refused input: the JSON-RPC error to answer with and the line to log. */
export interface Refusal {
  reply: JSONRPCErrorResponse;
  log: string;
}

/** The result of reading one message's text. */
export type Classified =
  | { kind: "message"; message: JSONRPCMessage }
  | { kind: "batch"; items: unknown[] }
  | { kind: "refused"; refusal: Refusal };

/** A JSON-RPC error response (`id` null when the request's id could not be read). */
export function errorReply(id: RequestId | null, code: number, message: string): JSONRPCErrorResponse {
  return { jsonrpc: "2.0", id: id as RequestId, error: { code, message } };
}

/** The id of a JSON value that looks like a request (a string or an integer `id`), else null. */
export function idOf(value: unknown): RequestId | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : null;
}

/** The first {@link ECHO_CHARS} code points of `text`, JSON-quoted and escaped, with "…" when cut. */
export function prefixOf(text: string): string {
  const points = Array.from(text.slice(0, ECHO_CHARS * 2));
  const cut = points.length > ECHO_CHARS || text.length > ECHO_CHARS * 2;
  return escapeMessage(JSON.stringify(points.slice(0, ECHO_CHARS).join(""))) + (cut ? "…" : "");
}

function refusal(id: RequestId | null, code: number, message: string, text: string, bytes: number): Refusal {
  return { reply: errorReply(id, code, message), log: `refused a message (${code}, id ${JSON.stringify(id)}): ${message}; ${bytes} bytes, beginning ${prefixOf(text)}` };
}

/** The refusal of an input larger than `limit` bytes (never parsed). */
export function tooLarge(bytes: number, limit: number, where: string): Refusal {
  const message = `the message is ${bytes} bytes, over the ${limit}-byte limit of ${where}; nothing of it was read`;
  return { reply: errorReply(null, -32600, message), log: `refused a message (-32600, id null): ${message}` };
}

/** Check one parsed JSON value against the SDK's JSON-RPC message schema. */
export function checkMessage(value: unknown, text: string, bytes: number): { message: JSONRPCMessage } | { refusal: Refusal } {
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { message: parsed.data };
  return {
    refusal: refusal(
      idOf(value),
      -32600,
      'invalid request: not a JSON-RPC 2.0 message (a request needs "jsonrpc": "2.0", a string or integer "id" and a string "method"; a notification has no "id")',
      text,
      bytes,
    ),
  };
}

/**
 * Read the text of one message (one stdio line, one HTTP body): JSON.parse, then a single
 * message is checked by the SDK's schema; an array is handed back as a batch for the
 * transport to accept or refuse ({@link batchRefusal}).
 */
export function classify(text: string, bytes: number): Classified {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "refused", refusal: refusal(null, -32700, "parse error: the message is not valid JSON", text, bytes) };
  }
  if (Array.isArray(value)) return { kind: "batch", items: value };
  const checked = checkMessage(value, text, bytes);
  return "message" in checked ? { kind: "message", message: checked.message } : { kind: "refused", refusal: checked.refusal };
}

/**
 * Whether a batch is refused under `version` (the negotiated protocol version, undefined
 * before initialization): refused when empty, before initialization (an initialize request
 * must not be part of a batch) and from 2025-06-18 on; accepted under 2025-03-26 and older.
 */
export function batchRefusal(items: readonly unknown[], version: string | undefined, text: string, bytes: number): Refusal | null {
  if (version === undefined) {
    return refusal(null, -32600, "invalid request: a JSON-RPC batch (an array) is not accepted before initialization; send one message per line, starting with initialize", text, bytes);
  }
  if (version >= BATCHES_REMOVED_IN) {
    return refusal(null, -32600, `invalid request: protocol version ${version} has no JSON-RPC batches (removed in ${BATCHES_REMOVED_IN}); send each message on its own`, text, bytes);
  }
  if (items.length === 0) return refusal(null, -32600, "invalid request: an empty batch", text, bytes);
  return null;
}
