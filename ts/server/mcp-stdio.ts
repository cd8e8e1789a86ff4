/**
 * The stdio transport of `groundwire mcp`: newline-delimited JSON-RPC on stdin and stdout,
 * implementing the SDK's `Transport` interface in place of its `StdioServerTransport`,
 * which
 * - closed the transport (and so ended `groundwire mcp`, exit 0, nothing on stderr) when
 *   its buffer of unread input passed 10 MB: one large document sent to a tool was enough;
 * - answered nothing to an unparsable line or an invalid message (a client waiting on its
 *   id hung), and dropped a batch silently.
 *
 * Here every line is read up to {@link MCP_MAX_MESSAGE_BYTES}; a longer one is skipped to
 * its end without being kept and refused with an error naming the limit and its size, and
 * the server goes on. Each refused line gets its JSON-RPC error (mcp-messages.ts) and one
 * line on stderr. Batches are answered (as one array) only under a negotiated protocol
 * version that has them (2025-03-26 and older).
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isInitializeRequest, isJSONRPCRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCResponse, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { batchRefusal, checkMessage, classify, MCP_MAX_MESSAGE_BYTES, tooLarge, type Refusal } from "./mcp-messages.js";

export { MCP_MAX_MESSAGE_BYTES };

/** Settings of {@link LineStdioServerTransport}. */
export interface LineStdioOptions {
  /** Longest line read, in bytes (default {@link MCP_MAX_MESSAGE_BYTES}). */
  maxMessageBytes?: number;
  /** Where a refused message is reported (one line each); default: nowhere. */
  log?: (line: string) => void;
}

/** A batch being answered: one slot per request, filled as the server sends each response. */
interface PendingBatch {
  replies: JSONRPCResponse[];
  waiting: Set<RequestId>;
}

/** Newline-delimited JSON-RPC over a readable and a writable stream (stdin and stdout by default). */
export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  private readonly maxBytes: number;
  private readonly log: (line: string) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  private closed = false;
  /** The version the server answered initialize with; undefined before. */
  protocolVersion: string | undefined;
  private readonly initializeIds = new Set<RequestId>();
  private readonly batches = new Map<RequestId, PendingBatch>();
  /** Requests handed to the server and not answered yet: at the end of input the transport closes once they are. */
  private readonly unanswered = new Set<RequestId>();
  private ended = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: LineStdioOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
    this.log = options.log ?? (() => {});
  }

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      // past the limit the rest of the line is counted, never kept
      if (this.size <= this.maxBytes) {
        if (this.size + (end - start) > this.maxBytes) this.chunks = [];
        else if (end > start) this.chunks.push(chunk.subarray(start, end));
      }
      this.size += end - start;
      if (nl < 0) return;
      this.endLine();
      start = nl + 1;
    }
  };
  private readonly onEnd = () => {
    // a last line without its newline is still a message
    if (this.size > 0) this.endLine();
    this.ended = true;
    if (this.unanswered.size === 0) void this.close();
  };
  private readonly onError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onError);
    this.output.on("error", this.onError);
  }

  private endLine(): void {
    const size = this.size;
    const chunks = this.chunks;
    this.chunks = [];
    this.size = 0;
    if (size > this.maxBytes) return this.refuse(tooLarge(size, this.maxBytes, "groundwire mcp over stdio"));
    let text = Buffer.concat(chunks, size).toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return; // a blank line carries no message
    const read = classify(text, size);
    if (read.kind === "refused") return this.refuse(read.refusal);
    if (read.kind === "message") return this.dispatch(read.message);
    const refused = batchRefusal(read.items, this.protocolVersion, text, size);
    if (refused) return this.refuse(refused);
    this.dispatchBatch(read.items, text, size);
  }

  /** A batch under a version that has them: invalid items answered in place, requests collected into one reply array. */
  private dispatchBatch(items: unknown[], text: string, size: number): void {
    const batch: PendingBatch = { replies: [], waiting: new Set() };
    const messages: JSONRPCMessage[] = [];
    for (const item of items) {
      const checked = checkMessage(item, text, size);
      if ("refusal" in checked) {
        this.log(checked.refusal.log);
        batch.replies.push(checked.refusal.reply);
      } else {
        messages.push(checked.message);
        if (isJSONRPCRequest(checked.message)) {
          batch.waiting.add(checked.message.id);
          this.batches.set(checked.message.id, batch);
        }
      }
    }
    // `send` writes the array when the last request is answered, which may happen during a
    // dispatch (a request refused before the SDK sees it is answered at once): write it here
    // only when the batch held no request at all, or it is written twice.
    const requests = batch.waiting.size;
    for (const message of messages) this.dispatch(message);
    if (requests === 0 && batch.replies.length) void this.write(batch.replies);
  }

  private dispatch(message: JSONRPCMessage): void {
    if (isInitializeRequest(message) && isJSONRPCRequest(message)) {
      this.initializeIds.add(message.id);
      // The lines after it are read before the server answers: take the version the SDK's
      // server will answer with (the client's when supported, else the latest), and the
      // answer's own once it is sent.
      const requested = message.params.protocolVersion;
      this.protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
    }
    if (isJSONRPCRequest(message)) this.unanswered.add(message.id);
    this.onmessage?.(message);
  }

  private refuse(refusal: Refusal): void {
    this.log(refusal.log);
    void this.write(refusal.reply);
  }

  private write(value: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(value)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const isResponse = "result" in message || "error" in message;
    const id = isResponse ? (message as { id?: RequestId }).id : undefined;
    if (id !== undefined && this.initializeIds.delete(id) && "result" in message) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") this.protocolVersion = version;
    }
    const batch = id !== undefined ? this.batches.get(id) : undefined;
    if (batch && id !== undefined) {
      this.batches.delete(id);
      batch.waiting.delete(id);
      batch.replies.push(message as JSONRPCResponse);
      if (batch.waiting.size === 0) await this.write(batch.replies);
    } else await this.write(message);
    if (id !== undefined && this.unanswered.delete(id) && this.ended && this.unanswered.size === 0) await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onError);
    this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
