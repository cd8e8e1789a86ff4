/**
 * `/mcp` of `groundwire serve`: the MCP tools over Streamable HTTP, stateless (one server
 * and transport per request, no session, no server-sent event stream of its own).
 *
 * Before the SDK's transport sees a POST, its body goes through the same reading as a
 * stdio line (mcp-messages.ts), since the transport answers -32700 for valid JSON that is
 * not JSON-RPC and takes batches under every version:
 * - not JSON → 400, -32700; valid JSON that is not a JSON-RPC message → 400, -32600 (with its id when one can be read);
 * - a batch under `MCP-Protocol-Version` 2025-06-18 or later → 400, -32600. Without the
 *   header the spec has the server assume 2025-03-26, which has batches: they are answered.
 * GET and DELETE → 405 with `Allow: POST` (the spec's answer when the endpoint offers no
 * event stream and no session to end).
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { CheckContext } from "./checks.js";
import { batchRefusal, checkMessage, classify, errorReply, type Refusal } from "./mcp-messages.js";
import { createMcpServer, guardMessages } from "./mcp.js";

/** Settings of {@link handleMcpRequest}. */
export interface McpHttpOptions {
  ctx: CheckContext;
  /** Server version reported in the MCP handshake. */
  version: string;
  /** Where each refused message is reported, one line. */
  log?: (line: string) => void;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * Answer one request to `/mcp`. The body size is bounded before (the server's `--max-body`).
 */
export async function handleMcpRequest(request: Request, options: McpHttpOptions): Promise<Response> {
  const log = options.log ?? (() => {});
  const refuse = (refusal: Refusal) => {
    log(`/mcp: ${refusal.log}`);
    return json(400, refusal.reply);
  };
  if (request.method !== "POST") {
    const message = `method not allowed: ${request.method} /mcp; this stateless endpoint takes POST only (it offers no event stream and has no session to end)`;
    log(`/mcp: refused a ${request.method} request (405)`);
    return json(405, errorReply(null, -32000, message), { allow: "POST" });
  }
  let parsedBody: unknown;
  // a body of another media type is left to the SDK, which answers 415 without reading it
  if (isJsonContentType(request.headers.get("content-type"))) {
    const text = await request.text();
    const bytes = Buffer.byteLength(text, "utf8");
    const read = classify(text, bytes);
    if (read.kind === "refused") return refuse(read.refusal);
    if (read.kind === "batch") {
      const init = read.items.find((m) => isInitializeRequest(m)) as { params: { protocolVersion: string } } | undefined;
      const version = init?.params.protocolVersion ?? request.headers.get("mcp-protocol-version") ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
      const refused = batchRefusal(read.items, version, text, bytes);
      if (refused) return refuse(refused);
      for (const item of read.items) {
        const checked = checkMessage(item, text, bytes);
        if ("refusal" in checked) return refuse(checked.refusal);
      }
      parsedBody = read.items;
    } else parsedBody = read.message;
  }
  const server = createMcpServer(options.ctx, options.version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  guardMessages(transport, (line) => log(`/mcp: ${line}`));
  try {
    const response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    // The SDK answers a batch with a single response as a bare object; JSON-RPC 2.0 (§6)
    // answers a batch with an array, whatever its length.
    if (!Array.isArray(parsedBody) || response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("application/json")) return response;
    const body: unknown = await response.json();
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(Array.isArray(body) ? body : [body]), { status: 200, headers });
  } finally {
    void server.close();
  }
}
