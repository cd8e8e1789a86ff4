/**
 * One configuration for every command that talks to a model (`moot`, `prove`):
 * the same flags, the same environment variables, the same checks and messages.
 *
 *   --base-url URL        or GROUNDWIRE_BASE_URL   OpenAI-compatible endpoint incl. /v1
 *   --model M             or GROUNDWIRE_MODEL      model id (else the endpoint's default)
 *   --api-key-file FILE   or GROUNDWIRE_API_KEY, OPENAI_API_KEY (keys never on the command line)
 *   --timeout T           or GROUNDWIRE_TIMEOUT    per-request timeout: seconds, or with a unit (90s, 2m; default 120)
 */
import { InputFileError, readRegularFile } from "../files.js";
import { createOpenAICompatibleSynthesizer, DEFAULT_MODEL_TIMEOUT_MS, type OpenAICompatibleSynthesizer, type TextSynthesizer } from "../moot/index.js";
import { redact, redactUrl } from "../net/redact.js";
import { CliError, echo } from "./common.js";
import { durationOption } from "./units.js";
import { isStdin, readBytesInput } from "./io.js";

/** The parseArgs options every model command takes. */
export const MODEL_OPTIONS = {
  model: { type: "string" },
  "base-url": { type: "string" },
  "api-key-file": { type: "string" },
  timeout: { type: "string" },
} as const;

/** Longest accepted `--timeout`, in seconds (one hour). */
export const MAX_TIMEOUT_SECONDS = 3600;
/** Longest accepted key file, in bytes. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/** The help lines for {@link MODEL_OPTIONS}, aligned like the commands' own. */
export const MODEL_HELP = `  --base-url URL  OpenAI-compatible endpoint incl. /v1 (env GROUNDWIRE_BASE_URL)
  --model M       model id for the endpoint (env GROUNDWIRE_MODEL; default: the endpoint's)
  --api-key-file FILE
                  read the API key from FILE, or - for standard input (else env GROUNDWIRE_API_KEY or OPENAI_API_KEY;
                  never on the command line, where ps shows it)
  --timeout T     seconds (or 90s, 2m) to wait for each model request (env GROUNDWIRE_TIMEOUT; default ${DEFAULT_MODEL_TIMEOUT_MS / 1000})`;

/** A model endpoint as configured; `baseUrl` null means none (the command's offline path). */
export interface ModelConfig {
  baseUrl: string | null;
  model?: string;
  apiKey?: string;
  timeoutMs: number;
}

type Values = { [K in keyof typeof MODEL_OPTIONS]?: string };

/**
 * Read and check the model configuration: flags first, then the environment.
 *
 * @param command the command name for messages (`moot`, `prove`)
 * @throws CliError (exit 2) naming the flag or variable when the base URL is
 *   not http(s), the timeout is not a number of seconds in (0, 3600], the key
 *   file is unreadable, empty or not a regular file, or `--model` comes without
 *   a base URL
 */
export function readModelConfig(command: string, values: Values, env: NodeJS.ProcessEnv = process.env): ModelConfig {
  const fromFlag = values["base-url"] !== undefined;
  const rawUrl = values["base-url"] ?? (env.GROUNDWIRE_BASE_URL || undefined);
  let baseUrl: string | null = null;
  if (rawUrl !== undefined) {
    const name = fromFlag ? "--base-url" : "GROUNDWIRE_BASE_URL";
    let u: URL | null = null;
    try {
      u = new URL(rawUrl);
    } catch {
      u = null;
    }
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:")) {
      const shown = u ? redactUrl(u) : redact(rawUrl);
      throw new CliError(`${command}: ${name} must be an http(s) URL, got ${echo(shown)}`, 2);
    }
    baseUrl = rawUrl;
  }
  const model = values.model ?? (env.GROUNDWIRE_MODEL || undefined);
  if (values.model !== undefined && !baseUrl) {
    throw new CliError(`${command}: --model needs a model endpoint: give --base-url URL (or set GROUNDWIRE_BASE_URL)`, 2);
  }
  const timeoutName = values.timeout !== undefined ? "--timeout" : "GROUNDWIRE_TIMEOUT";
  const rawTimeout = values.timeout ?? (env.GROUNDWIRE_TIMEOUT || undefined);
  const timeoutMs = durationOption(command, timeoutName, rawTimeout, { fallbackMs: DEFAULT_MODEL_TIMEOUT_MS, bareUnit: "s", maxMs: MAX_TIMEOUT_SECONDS * 1000 });
  const apiKey = values["api-key-file"] !== undefined ? readKeyFile(command, values["api-key-file"]) : env.GROUNDWIRE_API_KEY || env.OPENAI_API_KEY || undefined;
  return { baseUrl, model, apiKey, timeoutMs };
}

/** The first line of a key file, trimmed; the file must be a regular file of at most 64 KiB. */
function readKeyFile(command: string, path: string): string {
  if (isStdin(path)) {
    // `pass show api | groundwire moot … --api-key-file -`: the key never touches the disk
    const key = readBytesInput(path, { maxBytes: MAX_KEY_FILE_BYTES, label: "--api-key-file <stdin>" }).toString("utf8").split(/\r?\n/)[0]!.trim();
    if (!key) throw new CliError(`${command}: --api-key-file ${path}: the first line is empty`, 2);
    return key;
  }
  let buf: Buffer;
  // O_NONBLOCK open and type check first (ts/files.ts): a FIFO without a writer was waited on forever
  try {
    buf = readRegularFile(path, { maxBytes: MAX_KEY_FILE_BYTES, label: `--api-key-file ${path}` });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    const reason = error.kind === "ENOENT" ? "no such file" : error.kind === "TOOLARGE" ? `over ${MAX_KEY_FILE_BYTES} bytes; a key file holds one key` : error.reason;
    throw new CliError(`${command}: --api-key-file ${path}: ${reason}`, 2);
  }
  const key = buf.toString("utf8").split(/\r?\n/)[0]!.trim();
  if (!key) throw new CliError(`${command}: --api-key-file ${path}: the first line is empty`, 2);
  return key;
}

/** The chat client for a configured endpoint (`config.baseUrl` must be set). */
export function createModelSynthesizer(config: ModelConfig): OpenAICompatibleSynthesizer {
  if (!config.baseUrl) throw new TypeError("createModelSynthesizer: no base URL configured");
  return createOpenAICompatibleSynthesizer({ baseUrl: config.baseUrl, model: config.model, apiKey: config.apiKey, timeoutMs: config.timeoutMs });
}

/** Where {@link withWaitNotice} writes: a stream that may be a terminal. */
export interface NoticeStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Wrap a synthesizer so that, on a terminal, a request that takes longer than
 * `afterMs` shows `<label>: waiting for the model at <url>… Ns` on `stream`,
 * updated each second and erased when the answer comes. Off a terminal it
 * writes nothing (logs stay clean).
 *
 * @param afterMs delay before the notice appears (default 3,000)
 */
export function withWaitNotice<S extends TextSynthesizer>(synth: S, label: string, url: string, stream: NoticeStream = process.stderr, afterMs = 3000): S {
  if (!stream.isTTY) return synth;
  const complete: TextSynthesizer["complete"] = async (messages, options) => {
    const started = Date.now();
    let shown = false;
    const tick = () => {
      shown = true;
      stream.write(`\r\x1b[K${label}: waiting for the model at ${url}… ${Math.round((Date.now() - started) / 1000)} s`);
    };
    let interval: ReturnType<typeof setInterval> | undefined;
    const first = setTimeout(() => {
      tick();
      interval = setInterval(tick, 1000);
    }, afterMs);
    try {
      return await synth.complete(messages, options);
    } finally {
      clearTimeout(first);
      clearInterval(interval);
      if (shown) stream.write("\r\x1b[K");
    }
  };
  // Keep the synthesizer's own getters (name, reportedModel): a prototype, not a copy.
  return Object.assign(Object.create(synth) as S, { complete });
}
