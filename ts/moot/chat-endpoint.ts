/**
 * The OpenAI-compatible chat client (OpenAI, llama.cpp server, Ollama, vLLM,
 * LM Studio…): `POST <baseUrl>/chat/completions` through the shared endpoint
 * wrapper (ts/net/http.ts: retries on 429, 500, 502, 503 and 504 with Retry-After, timeouts named,
 * no redirects, capped body, redacted errors). Browser-safe.
 */
import { EndpointError, joinEndpointPath, postToEndpoint, upstreamFault, type EndpointFailure, DEFAULT_ATTEMPTS, DEFAULT_MAX_RESPONSE_BYTES } from "../net/http.js";
import { GroundwireError, ArgumentError } from "../errors.js";
import { redactAndCut, redactUrl } from "../net/redact.js";
import type { TextSynthesizer } from "./text-synthesizer.js";
import { checkArgs } from "../arg-kinds.js";

/** Default model request timeout, in milliseconds (per attempt). */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;

/**
 * A synthesizer failed: the endpoint was unreachable, timed out, answered an
 * HTTP error or a JSON `error` object, or sent something unreadable. The
 * message names the URL (redacted) and the cause; `failure` says which.
 */
export class SynthesizerError extends GroundwireError {
  constructor(
    message: string,
    /** The endpoint's URL, redacted. */
    readonly url: string,
    /** The endpoint's HTTP status, when it answered (`status` is groundwire's own: 504 for a timeout, else 502). */
    readonly upstreamStatus?: number,
    /** What failed, when it was the transport; `"reply"` for a readable answer that reports an error or is not a chat completion. */
    readonly failure?: EndpointFailure | "reply",
    options?: { cause?: unknown },
  ) {
    super(message, { ...upstreamFault(failure), cause: options?.cause });
    this.name = "SynthesizerError";
  }
}

/** Settings of {@link createOpenAICompatibleSynthesizer}. */
export interface OpenAICompatibleOptions {
  /** Base URL including the API prefix, e.g. `http://127.0.0.1:11434/v1`; `chat/completions` is joined to its path (a query is kept). */
  baseUrl: string;
  /** Default model id; sent unless a call names another. Omitted from the request when neither is set. */
  model?: string;
  /** Bearer token, sent as `Authorization: Bearer <apiKey>` when given; never printed. */
  apiKey?: string;
  /** Per-attempt timeout in milliseconds (default 120,000). */
  timeoutMs?: number;
  /** Attempts per request, retrying HTTP 429, 500, 502, 503 and 504 only (default 3). */
  attempts?: number;
  /** Longest `Retry-After` honoured, ms (default 60,000). */
  maxRetryAfterMs?: number;
  /** First backoff without `Retry-After`, ms (default 500). */
  retryDelayMs?: number;
  /** Cap on a reply body, bytes (default 16 MiB). */
  maxResponseBytes?: number;
  /** The fetch to use (default the global one); for custom agents. */
  fetch?: typeof fetch;
}

/** The chat client: a {@link TextSynthesizer} that also tells which model the endpoint said answered. */
export interface OpenAICompatibleSynthesizer extends TextSynthesizer {
  /** The configured model, else the one the endpoint last reported, else `"openai-compatible"`; never the URL. */
  readonly name: string;
  /** The `model` field of the last reply, or null before any reply (or when the server sends none). */
  readonly reportedModel: string | null;
  /** The endpoint URL posted to, redacted (for messages). */
  readonly url: string;
}

/**
 * A chat client for any OpenAI-compatible endpoint: POST
 * `{model, messages, max_tokens, temperature}`; the reply is
 * `choices[0].message.content`, or `""` when the server sent none.
 *
 * @throws TypeError at once when `baseUrl` is not an http(s) URL
 * @throws SynthesizerError from `complete` when the endpoint is unreachable
 *   (with the cause, e.g. ECONNREFUSED), times out, answers non-2xx after its
 *   retries (status and the server's message), redirects (the target named),
 *   answers HTTP 200 with `{"error": …}` (the server's message), or sends
 *   something that is not a JSON chat completion
 */
export function createOpenAICompatibleSynthesizer(options: OpenAICompatibleOptions): OpenAICompatibleSynthesizer {
  checkArgs("createOpenAICompatibleSynthesizer", arguments, "options:endpoint");
  if (!options.baseUrl) throw new ArgumentError("createOpenAICompatibleSynthesizer", "options.baseUrl", "an http(s) URL", options.baseUrl);
  const url = joinEndpointPath(options.baseUrl, "chat/completions", "createOpenAICompatibleSynthesizer", "options.baseUrl");
  const shown = redactUrl(url);
  const what = "the model endpoint";
  const secrets = [options.apiKey];
  let reportedModel: string | null = null;
  return {
    get name() {
      return options.model ?? reportedModel ?? "openai-compatible";
    },
    get reportedModel() {
      return reportedModel;
    },
    url: shown,
    async complete(messages, opts = {}) {
      checkArgs("TextSynthesizer.complete", arguments, "messages:array options?:object");
      const model = opts.model ?? options.model;
      const body: Record<string, unknown> = { messages };
      if (model) body.model = model;
      if (opts.maxTokens !== undefined) body.max_tokens = opts.maxTokens;
      if (opts.temperature !== undefined) body.temperature = opts.temperature;
      const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      let text: string;
      try {
        ({ text } = await postToEndpoint({
          what,
          url,
          body: JSON.stringify(body),
          headers,
          timeoutMs: options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
          attempts: options.attempts ?? DEFAULT_ATTEMPTS,
          maxRetryAfterMs: options.maxRetryAfterMs,
          retryDelayMs: options.retryDelayMs,
          maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
          fetch: options.fetch,
          secrets,
        }));
      } catch (error) {
        if (error instanceof EndpointError) throw new SynthesizerError(error.message, shown, error.upstreamStatus, error.failure, { cause: error });
        throw error;
      }
      let data: { model?: unknown; error?: unknown; choices?: Array<{ message?: { content?: string | null } }> };
      try {
        data = JSON.parse(text);
      } catch {
        throw new SynthesizerError(`${what} ${shown} answered with something that is not JSON`, shown, 200, "reply");
      }
      if (data === null || typeof data !== "object") {
        throw new SynthesizerError(`${what} ${shown} answered with JSON that is not a chat completion`, shown, 200, "reply");
      }
      // Several local servers answer HTTP 200 with {"error": {...}}: that is a failure, in the server's words.
      if (data.error !== undefined && data.error !== null && !Array.isArray(data.choices)) {
        const e = data.error as { message?: unknown; type?: unknown } | string;
        const said = typeof e === "string" ? e : typeof e.message === "string" ? e.message : JSON.stringify(e);
        const kind = typeof e === "object" && typeof e.type === "string" ? ` (${e.type})` : "";
        throw new SynthesizerError(`${what} ${shown} reported an error${kind}: ${redactAndCut(said, secrets)}`, shown, 200, "reply");
      }
      if (typeof data.model === "string" && data.model) reportedModel = data.model.slice(0, 200);
      const content = data.choices?.[0]?.message?.content;
      return typeof content === "string" ? content : "";
    },
  };
}
