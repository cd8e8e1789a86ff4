/**
 * Input and output for every CLI command, in one place, so every command reads and writes
 * files the same way:
 * - reads: `-` (or `/dev/stdin`) is standard input; anything else must be a regular file
 *   (devices, FIFOs and sockets are refused in one line); every input is capped in size and
 *   decoded as strict UTF-8 (`latin1.ttl: invalid UTF-8 at byte 43`, exit 1, nothing written);
 * - formats: from `--format` (ttl, nt, nq, trig, rq, json, md, txt, or the API's names: turtle,
 *   ntriples, nquads, sparql, markdown, text) or else the extension;
 * - writes: `-` is standard output; files are written atomically (ts/files.ts) after their
 *   path was checked before any work (folder exists and is writable, not a folder, not one
 *   of the command's inputs, by path or by device and inode);
 * - text for a human is passed through {@link escapeTerminal}; input echoed in a message is
 *   cut by {@link echo}.
 */
import { DEFAULT_MAX_GRAPH_BYTES, fileBaseIri } from "../rdf/load.js";
import { formatLimit, jsonTextTooDeep, MAX_JSON_DEPTH } from "../json-depth.js";
import { formatFromPath, parseGraph, RdfParseError, type Graph, type RdfFormat } from "../rdf/index.js";
import { checkWritable, decodeUtf8, DEFAULT_MAX_INPUT_BYTES, InputFileError, OutputFileError, outputTarget, readAll, readRegularFile, writeFileAtomic } from "../files.js";
import { statSync } from "node:fs";
import { CliError, echo, escapeTerminal } from "./common.js";

export { echo, ECHO_LIMIT } from "./common.js";

/** Whether `path` exists and is not a regular file (a folder, a device …): reading it names that. */
function existsNotRegular(path: string): boolean {
  try {
    return !statSync(path).isFile();
  } catch {
    return false;
  }
}

export { DEFAULT_MAX_INPUT_BYTES };

/** Whether `path` names standard input: `-` or `/dev/stdin`. */
export function isStdin(path: string): boolean {
  return path === "-" || path === "/dev/stdin";
}

let stdinTaken: string | null = null;

/**
 * The bytes of a command's input: standard input for `-`/`/dev/stdin` (read once: a second
 * use in the same command is refused), else a regular file.
 * @throws CliError (exit 1) naming the input and what failed
 */
export function readBytesInput(path: string, options: { maxBytes?: number; label?: string } = {}): Buffer {
  const label = options.label ?? (isStdin(path) ? "<stdin>" : path);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  try {
    if (isStdin(path)) {
      if (stdinTaken !== null) throw new CliError(`${label}: standard input is already read as ${stdinTaken}; only one input can be -`, 2);
      stdinTaken = label;
      return readAll(0, maxBytes, label);
    }
    return readRegularFile(path, { maxBytes, label });
  } catch (error) {
    if (error instanceof InputFileError) throw new CliError(error.message);
    throw error;
  }
}

/**
 * A command's input as text (strict UTF-8; a BOM is kept as U+FEFF).
 * @param path file path, or `-`/`/dev/stdin`
 * @param options.maxBytes size cap (default 512 MiB)
 * @param options.label name used in errors (default: the path, `<stdin>` for stdin)
 * @throws CliError (exit 1): `<label>: invalid UTF-8 at byte N`, `no such file`, `is not a regular file …`, over the cap
 */
export function readTextInput(path: string, options: { maxBytes?: number; label?: string } = {}): string {
  const label = options.label ?? (isStdin(path) ? "<stdin>" : path);
  const bytes = readBytesInput(path, { ...options, label });
  try {
    return decodeUtf8(bytes, label);
  } catch (error) {
    if (error instanceof InputFileError) throw new CliError(error.message);
    throw error;
  }
}

/** `--format` names and what they mean. */
export const FORMAT_NAMES = ["ttl", "nt", "nq", "trig", "rq", "json", "md", "txt"] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/**
 * The names the API uses for the same formats (`parseGraph(text, {format: "turtle"})`, the
 * media types' names), accepted by `--format` as well as the short ones.
 */
const FORMAT_ALIASES: Readonly<Record<string, FormatName>> = {
  turtle: "ttl",
  ntriples: "nt",
  "n-triples": "nt",
  nquads: "nq",
  "n-quads": "nq",
  sparql: "rq",
  markdown: "md",
  text: "txt",
};

/** A `--format` value as a format name (`ttl`, `Turtle`, `n-quads` …), case-insensitive; undefined when unknown. */
export function formatName(value: string): FormatName | undefined {
  const lower = value.toLowerCase();
  if ((FORMAT_NAMES as readonly string[]).includes(lower)) return lower as FormatName;
  return Object.hasOwn(FORMAT_ALIASES, lower) ? FORMAT_ALIASES[lower] : undefined;
}

const EXTENSIONS: Record<string, FormatName> = {
  ".ttl": "ttl",
  ".turtle": "ttl",
  ".nt": "nt",
  ".nq": "nq",
  ".trig": "trig",
  ".rq": "rq",
  ".sparql": "rq",
  ".json": "json",
  ".md": "md",
  ".markdown": "md",
  ".txt": "txt",
};

/**
 * The format of an input: `--format` when given (checked against `allowed`), else the
 * extension; `-` without `--format` is refused (exit 2) naming the formats allowed.
 * `flag` is the option's name in messages (`slice` says `--input-format`: its `--format`
 * is the output's).
 */
export function inputFormat(path: string, format: string | undefined, allowed: readonly FormatName[], flag = "--format"): FormatName {
  if (format !== undefined) {
    const name = formatName(format);
    if (name === undefined || !allowed.includes(name)) {
      const long = allowed.flatMap((f) => Object.entries(FORMAT_ALIASES).filter(([, v]) => v === f).map(([k]) => k).slice(0, 1));
      throw new CliError(`${flag} must be one of ${allowed.join(", ")}${long.length ? ` (or ${long.join(", ")})` : ""}, got ${echo(format)}`, 2);
    }
    return name;
  }
  const lower = path.toLowerCase();
  const dot = lower.lastIndexOf(".");
  const ext = dot > lower.lastIndexOf("/") ? lower.slice(dot) : "";
  const found = EXTENSIONS[ext];
  if (found && allowed.includes(found)) return found;
  if (isStdin(path)) throw new CliError(`reading standard input needs ${flag} (${allowed.join(", ")})`, 2);
  throw new CliError(`${path}: unknown format (extension ${ext || "(none)"}); expected ${allowed.map((f) => `.${f}`).join(", ")} or ${flag}`);
}

/**
 * Which of a command's inputs `--format` describes. Only one input can be `-` (standard
 * input is read once), and that is the one that cannot name its format: when one input is
 * `-`, `--format` is its format and every file keeps its extension's; when none is, it is
 * the format of the command's main input (the first positional), for a file whose
 * extension is missing or wrong. So `index g.ttl --scope - --format nt` reads the scope as
 * N-Triples and `g.ttl` as Turtle.
 *
 * @param path the input asked about
 * @param format the `--format` value, if given
 * @param inputs every input path of the command (undefined for an option not given), the main one first
 * @returns the format to use for `path`, or undefined (use its extension)
 * @throws CliError (exit 2) when more than one input is standard input
 */
export function formatFor(path: string, format: string | undefined, inputs: ReadonlyArray<string | undefined>): string | undefined {
  // Refused here, before any input is read or any --format checked against the wrong input
  // (two - inputs used to be told that --format did not suit one of them).
  const stdin = inputs.filter((p) => p !== undefined && isStdin(p));
  if (stdin.length > 1) throw new CliError(`only one input can be - (standard input is read once); ${stdin.length} inputs are: ${stdin.join(", ")}`, 2);
  if (format === undefined) return undefined;
  // the short name (`turtle` → `ttl`), so each command compares one spelling; unknown values pass for inputFormat to refuse
  const named = formatName(format) ?? format;
  if (inputs.some((p) => p !== undefined && isStdin(p))) return isStdin(path) ? named : undefined;
  return path === inputs[0] ? named : undefined;
}

const RDF_FORMATS: Record<string, RdfFormat> = { ttl: "turtle", nt: "ntriples", nq: "nquads", trig: "trig" };

/**
 * Read and parse a graph input (file or `-`), strictly decoded and size-capped (default
 * DEFAULT_MAX_GRAPH_BYTES, 64 MiB: a parsed graph takes about 15 bytes of memory per byte).
 * @param options.format a `--format` name (ttl, nt, nq, trig) when the extension is missing or wrong
 * @param options.label name in errors (default: the path)
 * @throws CliError (exit 1) `cannot parse <file>:<line>:<col>: …` and every read error of {@link readTextInput}
 */
export function loadGraphInput(path: string, options: { format?: string; label?: string; maxBytes?: number } = {}): Graph {
  const label = options.label ?? (isStdin(path) ? "<stdin>" : path);
  // The format is checked before reading (a wrong extension is named even for a missing
  // file), except that a folder or a device is named as such.
  let format: RdfFormat;
  if (options.format !== undefined || isStdin(path)) format = RDF_FORMATS[inputFormat(path, options.format, ["ttl", "nt", "nq", "trig"])];
  else {
    try {
      format = formatFromPath(path);
    } catch (error) {
      if (!existsNotRegular(path)) throw new CliError(`${(error as Error).message} or --format`);
      format = "turtle"; // never used: reading a folder or device fails first
    }
  }
  const text = readTextInput(path, { label, maxBytes: options.maxBytes ?? DEFAULT_MAX_GRAPH_BYTES });
  try {
    // Relative IRIs resolve as loadGraphFile resolves them: no relative IRI reaches a written file.
    return parseGraph(text, { format, source: label, baseIRI: fileBaseIri(path) });
  } catch (error) {
    if (error instanceof RdfParseError) throw new CliError(`cannot parse ${error.message}`);
    throw error;
  }
}

/**
 * Check an output path before any work: `-` is standard output (returned as is); a file
 * must not be a folder or special file, its folder must exist and be writable, and it must
 * not be one of `inputs` (the command's inputs, e.g. the graph or `--scope`; `what` ends the
 * message: "input graph; pass --in-place to overwrite it"), compared by path and by device
 * and inode (a hard link, a bind mount or a symlink reaching the input is the input).
 * @param option how the user named it, for messages (`-o`, `--json`)
 * @returns the path to write (symlinks resolved) or `-`
 * @throws CliError (exit 2) naming the path and the problem
 */
export function checkOutputPath(path: string, option: string, inputs: ReadonlyArray<{ path: string; what: string }> = []): string {
  if (path === "-" || path === "/dev/stdout") return "-";
  let target: string;
  try {
    target = checkWritable(path);
  } catch (error) {
    if (error instanceof OutputFileError) throw new CliError(`${option} ${error.message}`, 2);
    throw error;
  }
  // The same file is the same device and inode, whatever the path: a hard link, a bind
  // mount or a symlink to the input names it under another path (compared after the path).
  const out = fileId(target);
  for (const input of inputs) {
    if (isStdin(input.path)) continue;
    if (outputTarget(input.path) === target) throw new CliError(`${option} ${path} is the ${input.what}`, 2);
    const id = out && fileId(input.path);
    if (id && id.dev === out.dev && id.ino === out.ino) throw new CliError(`${option} ${path} is ${input.path} under another name (a hard link or a mount): the ${input.what}`, 2);
  }
  return target;
}

/** Device and inode of what `path` names (symlinks followed), as bigints; null when it does not exist. */
function fileId(path: string): { dev: bigint; ino: bigint } | null {
  try {
    const st = statSync(path, { bigint: true });
    return { dev: st.dev, ino: st.ino };
  } catch {
    return null;
  }
}

/**
 * Data (a graph, a MemDSL envelope) as written to standard output: exact when standard
 * output is a pipe or a file (another program reads it), through {@link escapeTerminal}
 * when it is a terminal (a literal's ESC or U+202E is shown as `\x1B` / `\u202E`, not acted on).
 */
export function dataForStdout(text: string): string {
  return process.stdout.isTTY ? escapeTerminal(text) : text;
}

/**
 * Write a command's output: to standard output for `-` (escaped for a terminal, exact
 * otherwise: {@link dataForStdout}), else atomically to the file, exact.
 * @throws CliError (exit 1) `cannot write <path>: <reason>` (the old file stays as it was)
 */
export function writeOutput(path: string, text: string): void {
  if (path === "-") {
    process.stdout.write(dataForStdout(text));
    return;
  }
  try {
    writeFileAtomic(path, text);
  } catch (error) {
    if (error instanceof OutputFileError) throw new CliError(error.message);
    throw error;
  }
}

/**
 * Args with a bare `--json` given a value: `--json` at the end or before another option
 * becomes `--json -`, so a `--json [FILE]` option works as a flag (JSON on stdout), with `-`
 * or with a file. Use for commands whose `--json` takes a file.
 */
export function jsonFlagArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    out.push(args[i]);
    if (args[i] === "--") {
      out.push(...args.slice(i + 1));
      break;
    }
    const next = args[i + 1];
    if (args[i] === "--json" && (next === undefined || (next.startsWith("-") && next !== "-"))) out.push("-");
  }
  return out;
}

/**
 * Progress for work that may take seconds: `phase(text)` notes what starts now, and prints it
 * on stderr only when stderr is a terminal, `--quiet` was not given, and the command has
 * already run over `afterMs` (default 2 s, or env GROUNDWIRE_PROGRESS_AFTER_MS). `done()` clears the line. Work here is
 * synchronous, so a phase shows when the one before it ran long.
 */
export function createProgress(command: string, options: { quiet?: boolean; afterMs?: number } = {}) {
  const start = Date.now();
  const enabled = !options.quiet && process.stderr.isTTY === true;
  // GROUNDWIRE_PROGRESS_AFTER_MS (a whole number of ms) moves the threshold: the tests use 0 to see
  // the lines without work that lasts seconds; it never shows progress where it is off.
  const fromEnv = /^\d{1,7}$/.test(process.env.GROUNDWIRE_PROGRESS_AFTER_MS ?? "") ? Number(process.env.GROUNDWIRE_PROGRESS_AFTER_MS) : undefined;
  const afterMs = options.afterMs ?? fromEnv ?? 2000;
  let shown = false;
  return {
    phase(text: string): void {
      if (!enabled || Date.now() - start < afterMs) return;
      process.stderr.write(`\r\x1b[2Kgroundwire ${command}: ${escapeTerminal(text)} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
      shown = true;
    },
    done(): void {
      if (shown) process.stderr.write("\r\x1b[2K");
      shown = false;
    },
  };
}

/**
 * Refuse JSON nested deeper than `max` before anything walks it (JSON.parse copes, but
 * every recursive walk after it, JSON.stringify included, would overflow the stack). Scans
 * brackets outside strings only (json-depth.ts); syntax errors are left to JSON.parse.
 * @throws CliError (exit 1) `<label>: nesting deeper than 1,000 at line N`
 */
export function checkJsonDepth(text: string, label: string, max = MAX_JSON_DEPTH): void {
  const line = jsonTextTooDeep(text, max);
  if (line !== null) throw new CliError(`${label}: nesting deeper than ${formatLimit(max)} at line ${line}`);
}

/** Text gathered before one write to standard output (1 Mi UTF-16 code units). */
const CHUNK_LENGTH = 1 << 20;

/**
 * Standard output for output too large to build as one string (a 32 MiB document's
 * `fragments --json` is over V8's 2^29-character string limit): `add` gathers text,
 * `flush` writes what was gathered once it reaches about 1 Mi characters (`full`) or at the
 * end, waiting for `drain` when the stream asks to, so memory stays at one chunk.
 */
export class ChunkedOutput {
  private parts: string[] = [];
  private length = 0;

  /** Gather `text` (written at the next flush). */
  add(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  /** Whether a chunk's worth is gathered (then `await flush()`). */
  get full(): boolean {
    return this.length >= CHUNK_LENGTH;
  }

  /** Write what was gathered; resolves when standard output can take more. */
  async flush(): Promise<void> {
    if (this.length === 0) return;
    const text = this.parts.join("");
    this.parts = [];
    this.length = 0;
    if (!process.stdout.write(text)) await new Promise<void>((resolve) => process.stdout.once("drain", () => resolve()));
  }
}
