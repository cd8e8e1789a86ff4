/**
 * The synthesizer interface of moots: what the embedded extractive synthesizer (synth.ts) and the
 * OpenAI-compatible chat client (chat-endpoint.ts) both implement. A file of its own so that
 * neither implementation imports the other.
 */

/** One chat message, OpenAI style. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Options of one completion. `model` undefined means the synthesizer's default. */
export interface CompleteOptions {
  model?: string;
  /** Upper bound on the reply's length, in tokens. */
  maxTokens?: number;
  temperature?: number;
}

/** Anything that turns chat messages into a reply. An empty string means "the model returned nothing". */
export interface TextSynthesizer {
  /** A short name for logs and transcripts, e.g. `"extractive"` or the endpoint's model. */
  readonly name?: string;
  complete(messages: readonly ChatMessage[], options?: CompleteOptions): Promise<string>;
}
