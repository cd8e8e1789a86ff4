/**
 * `groundwire fragments <file> [--artifact ID] [--json]`: list a document's citable
 * fragments — version id (the citation to store), line, nesting, kind:anchor, first
 * words — or, with --json, the artifact and every fragment's fields (without the
 * text; slice the file by `start`/`end`, UTF-16 code units).
 */
import { statSync } from "node:fs";
import { DocumentTooLargeError, firstWords, listingLines, MAX_DOCUMENT_LENGTH, MarkdownNestingError, MarkdownSizeError, UnsupportedFormatError } from "../evidence/index.js";
import { loadDocumentFile } from "../evidence/node.js";
import { CliError, type Command, escapeMessage, escapeTerminal, parseCommandArgs } from "./common.js";
import { sizeOption } from "./units.js";
import { optionLines } from "./help-rows.js";
import { InputFileError } from "../files.js";
import { ChunkedOutput, inputFormat, isStdin, readBytesInput } from "./io.js";

/**
 * The largest document fragments and cite read by default: 64 MiB. Measured (docs/package.md,
 * "Bad input and limits"): fragmenting 64 MiB of real markdown peaks at 1.3 GB RSS, 96 MiB at
 * 1.5 GB, 128 MiB at 2.2 GB; `--max-bytes` raises it up to {@link MAX_DOCUMENT_BYTES}.
 */
export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 2 ** 20;
/**
 * The most `--max-bytes` may allow: 128 MiB, the fragmenter's own bound (MAX_DOCUMENT_LENGTH is
 * 2^27 UTF-16 code units, and UTF-8 never takes fewer bytes than UTF-16 code units).
 */
export const MAX_DOCUMENT_BYTES = MAX_DOCUMENT_LENGTH;

/**
 * Each command's default cap and the most `--max-bytes` may raise it to. slice makes ~14 quads
 * and their N-Quads per fragment on top of the fragments: printing the slice of 64 MiB peaked at
 * 2.7 GB RSS, of 32 MiB at 1.8 GB, so its default is 16 MiB and its ceiling 64 MiB.
 */
const DOCUMENT_LIMITS: Record<string, { fallback: number; max: number }> = {
  fragments: { fallback: DEFAULT_MAX_DOCUMENT_BYTES, max: MAX_DOCUMENT_BYTES },
  cite: { fallback: DEFAULT_MAX_DOCUMENT_BYTES, max: MAX_DOCUMENT_BYTES },
  slice: { fallback: 16 * 2 ** 20, max: 64 * 2 ** 20 },
};

/** A size in words: `64 MiB` for whole MiB, else `N bytes` (with thousands separators). */
function formatBytes(n: number): string {
  return n % 2 ** 20 === 0 ? `${n / 2 ** 20} MiB` : `${n.toLocaleString("en-US")} bytes`;
}

/** The `--max-bytes` help line of fragments, cite or slice, the description from `column` on (the column of the command's own options). */
export function maxBytesHelp(command: string, column: number): string {
  const { fallback, max } = DOCUMENT_LIMITS[command]!;
  return optionLines(column, [
    ["--max-bytes SIZE", `the largest document read, in bytes or with a unit (32MiB; default ${fallback}, ${formatBytes(fallback)}; at most ${max}, ${formatBytes(max)}:\nfragmenting takes about 20 bytes of memory per byte of markdown)`],
  ]);
}

/** `--max-bytes` checked (digits, 1 to the command's ceiling), or the command's default. */
export function maxDocumentBytes(command: string, raw: string | undefined): number {
  const { fallback, max } = DOCUMENT_LIMITS[command]!;
  return sizeOption(command, "max-bytes", raw, { fallback, unitBytes: 1, max });
}

/** The one line for a document over the cap: `big.md: 314,572,800 bytes, over the 64 MiB a document may hold (--max-bytes raises it, up to 128 MiB)`. */
function tooLarge(command: string, label: string, size: number | null, maxBytes: number): CliError {
  const ceiling = DOCUMENT_LIMITS[command]?.max ?? MAX_DOCUMENT_BYTES;
  const raise = maxBytes < ceiling ? ` (--max-bytes raises it, up to ${formatBytes(ceiling)})` : "";
  return new CliError(`${command}: ${label}: ${size === null ? "" : `${size.toLocaleString("en-US")} bytes, `}over the ${formatBytes(maxBytes)} a document may hold${raise}`, 1);
}

const HELP = `usage: groundwire fragments <file> [--artifact ID] [--json | --jsonl]

Lists the citable fragments of a markdown (.md) or plain-text (.txt) file:
  <versionId>  L<line>  <nesting><kind>:<anchor>  "<first words>"
Store a versionId to cite a fragment; check it later with: groundwire cite <file> <versionId>...

  --artifact ID     the artifact key fragment ids hang off; use the same ID with cite. Default: the
                    same for one file however it is named: inside a git work tree (nearest enclosing
                    directory with .git) the path relative to its root, e.g. docs/guide.md; else the
                    file's real absolute path (for - , standard input: give --artifact)
  --json            machine output: {artifact, fragments:[{fragmentId, versionId, path, kind, ...}]}
  --jsonl           one JSON object per line: {"type":"artifact",...}, then {"type":"fragment",...} each
  --format md|txt   the document's format; overrides the file's extension (needed for - , standard input)
${maxBytesHelp("fragments", 20)}
  -q, --quiet       no progress line on stderr (shown only on a terminal, for files over 4 MB)`;

/** Files above this size get a progress line on stderr (when it is a terminal). */
const PROGRESS_BYTES = 4 << 20;

/**
 * Read a file (or `-`, standard input) as an evidence document, turning read, format and
 * nesting errors into one CLI line. For a file over 4 MB, says on stderr that it is being
 * fragmented and how long it took: only when stderr is a terminal and not `quiet`
 * (`--quiet`/`-q`), so piped or redirected runs stay silent.
 */
export function loadForCli(command: string, file: string, artifactId: string | undefined, format?: string, quiet = false, formatFlag = "--format", maxBytes = DEFAULT_MAX_DOCUMENT_BYTES) {
  // Addresses are scoped to the artifact id, and standard input has no path to derive one
  // from: a citation made under `<stdin>` would resolve against nothing else.
  if (isStdin(file) && artifactId === undefined) throw new CliError(`${command}: reading standard input needs --artifact ID (the key the document's citations are scoped to)`, 2);
  try {
    // `-` (stdin) or a name without a known extension: the format comes from --format (md, txt).
    const mediaType = format !== undefined || isStdin(file) ? (inputFormat(file, format, ["md", "txt"], formatFlag) === "md" ? "text/markdown" : "text/plain") : undefined;
    let bytes: Buffer | undefined;
    if (isStdin(file)) {
      try {
        bytes = readBytesInput(file, { maxBytes });
      } catch (error) {
        // readAll stops one byte past the cap: the size of a pipe is not known
        if (error instanceof CliError && / is over the limit of \d+ bytes$/.test(error.message)) throw tooLarge(command, "<stdin>", null, maxBytes);
        throw error;
      }
    }
    let size = bytes?.length ?? 0;
    if (!bytes) {
      try {
        const st = statSync(file);
        size = st.size;
        // named before a byte is read, as a book over its cap is (a folder or device is named below)
        if (st.isFile() && size > maxBytes) throw tooLarge(command, file, size, maxBytes);
      } catch (error) {
        if (error instanceof CliError) throw error;
        // loadDocumentFile reports the missing file below.
      }
    }
    const progress = !quiet && size > PROGRESS_BYTES && process.stderr.isTTY === true;
    const started = Date.now();
    if (progress) process.stderr.write(`groundwire ${command}: fragmenting ${escapeMessage(file)} (${(size / 1e6).toFixed(1)} MB)…\n`);
    const loaded = loadDocumentFile(isStdin(file) ? "<stdin>" : file, { artifactId, mediaType, bytes, maxBytes });
    if (progress) process.stderr.write(`groundwire ${command}: ${loaded.fragments.length} fragments in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return loaded;
  } catch (error) {
    if (error instanceof CliError) throw error.message.startsWith(`${command}: `) ? error : new CliError(`${command}: ${error.message}`, error.exitCode);
    // the file grew past the cap between the size check and the read
    if (error instanceof InputFileError && error.kind === "TOOLARGE") throw tooLarge(command, file, null, maxBytes);
    if (error instanceof DocumentTooLargeError) throw new CliError(`${command}: ${file}: ${error.message}`, 1);
    if (error instanceof InputFileError) throw new CliError(`${command}: ${error.message}`, 1);
    if (error instanceof UnsupportedFormatError) throw new CliError(`${command}: ${error.message}`, 1);
    if (error instanceof MarkdownNestingError || error instanceof MarkdownSizeError) throw new CliError(`${command}: ${file}: ${error.message}`, 1);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CliError(`${command}: no such file: ${file}`, 1);
    if (code === "EISDIR") throw new CliError(`${command}: ${file} is a directory, not a document`, 1);
    throw error;
  }
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("fragments", args, {
      artifact: { type: "string" },
      json: { type: "boolean" },
      jsonl: { type: "boolean" },
      format: { type: "string" },
      "max-bytes": { type: "string" },
    }, HELP);
    if (values.json && values.jsonl) throw new CliError("fragments: --json and --jsonl are two output forms; give one", 2);
    if (positionals.length !== 1) throw new CliError(`fragments: expected one file, got ${positionals.length} (see groundwire fragments --help)`, 2);
    const maxBytes = maxDocumentBytes("fragments", values["max-bytes"]);
    const { artifact, fragments } = loadForCli("fragments", positionals[0], values.artifact, values.format, values.quiet, "--format", maxBytes);
    // written a chunk at a time: as one string, a 32 MiB document's listing or JSON passed V8's string limit
    const out = new ChunkedOutput();
    if (values.jsonl) {
      // the artifact, then one line per fragment (the --json row)
      out.add(`${JSON.stringify({ type: "artifact", ...artifact })}\n`);
      for (const { text, ...rest } of fragments) {
        out.add(`${JSON.stringify({ type: "fragment", ...rest, firstWords: firstWords(text) })}\n`);
        if (out.full) await out.flush();
      }
    } else if (values.json) {
      // byte for byte JSON.stringify({artifact, fragments: rows}, null, 2), one row at a time
      if (!fragments.length) out.add(`${JSON.stringify({ artifact, fragments: [] }, null, 2)}\n`);
      else {
        out.add(`{\n  "artifact": ${JSON.stringify(artifact, null, 2).replace(/\n/g, "\n  ")},\n  "fragments": [\n`);
        for (let i = 0; i < fragments.length; i++) {
          const { text, ...rest } = fragments[i];
          out.add(`    ${JSON.stringify({ ...rest, firstWords: firstWords(text) }, null, 2).replace(/\n/g, "\n    ")}${i + 1 < fragments.length ? "," : ""}\n`);
          if (out.full) await out.flush();
        }
        out.add("  ]\n}\n");
      }
    } else {
      for (const line of listingLines(fragments, artifact)) {
        out.add(`${escapeTerminal(line)}\n`);
        if (out.full) await out.flush();
      }
    }
    await out.flush();
    return 0;
  },
};
export default command;
