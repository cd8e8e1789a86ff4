/**
 * `groundwire fragments <file> [--artifact ID] [--json]`: list a document's citable
 * fragments — version id (the citation to store), line, nesting, kind:anchor, first
 * words — or, with --json, the artifact and every fragment's fields (without the
 * text; slice the file by `start`/`end`, UTF-16 code units).
 */
import { statSync } from "node:fs";
import { firstWords, formatFragmentListing, MarkdownNestingError, UnsupportedFormatError } from "../evidence/index.js";
import { loadDocumentFile } from "../evidence/node.js";
import { CliError, type Command, escapeMessage, escapeTerminal, parseCommandArgs } from "./common.js";
import { InputFileError } from "../files.js";
import { inputFormat, isStdin, readBytesInput } from "./io.js";

const HELP = `usage: groundwire fragments <file> [--artifact ID] [--json]

Lists the citable fragments of a markdown (.md) or plain-text (.txt) file:
  <versionId>  L<line>  <nesting><kind>:<anchor>  "<first words>"
Store a versionId to cite a fragment; check it later with: groundwire cite <file> <versionId>...

  --artifact ID   the artifact key fragment ids hang off; use the same ID with cite. Default: the
                  same for one file however it is named: inside a git work tree (nearest enclosing
                  directory with .git) the path relative to its root, e.g. docs/guide.md; else the
                  file's real absolute path (for - , standard input: give --artifact)
  --json          machine output: {artifact, fragments:[{fragmentId, versionId, path, kind, ...}]}
  --format md|txt the document's format; overrides the file's extension (needed for - , standard input)
  -q, --quiet     no progress line on stderr (shown only on a terminal, for files over 4 MB)`;

/** Files above this size get a progress line on stderr (when it is a terminal). */
const PROGRESS_BYTES = 4 << 20;

/**
 * Read a file (or `-`, standard input) as an evidence document, turning read, format and
 * nesting errors into one CLI line. For a file over 4 MB, says on stderr that it is being
 * fragmented and how long it took: only when stderr is a terminal and not `quiet`
 * (`--quiet`/`-q`), so piped or redirected runs stay silent.
 */
export function loadForCli(command: string, file: string, artifactId: string | undefined, format?: string, quiet = false, formatFlag = "--format") {
  // Addresses are scoped to the artifact id, and standard input has no path to derive one
  // from: a citation made under `<stdin>` would resolve against nothing else.
  if (isStdin(file) && artifactId === undefined) throw new CliError(`${command}: reading standard input needs --artifact ID (the key the document's citations are scoped to)`, 2);
  try {
    // `-` (stdin) or a name without a known extension: the format comes from --format (md, txt).
    const mediaType = format !== undefined || isStdin(file) ? (inputFormat(file, format, ["md", "txt"], formatFlag) === "md" ? "text/markdown" : "text/plain") : undefined;
    const bytes = isStdin(file) ? readBytesInput(file) : undefined;
    let size = bytes?.length ?? 0;
    if (!bytes) {
      try {
        size = statSync(file).size;
      } catch {
        // loadDocumentFile reports the missing file below.
      }
    }
    const progress = !quiet && size > PROGRESS_BYTES && process.stderr.isTTY === true;
    const started = Date.now();
    if (progress) process.stderr.write(`groundwire ${command}: fragmenting ${escapeMessage(file)} (${(size / 1e6).toFixed(1)} MB)…\n`);
    const loaded = loadDocumentFile(isStdin(file) ? "<stdin>" : file, { artifactId, mediaType, bytes });
    if (progress) process.stderr.write(`groundwire ${command}: ${loaded.fragments.length} fragments in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return loaded;
  } catch (error) {
    if (error instanceof CliError) throw new CliError(`${command}: ${error.message}`, error.exitCode);
    if (error instanceof InputFileError) throw new CliError(`${command}: ${error.message}`, 1);
    if (error instanceof UnsupportedFormatError) throw new CliError(`${command}: ${error.message}`, 1);
    if (error instanceof MarkdownNestingError) throw new CliError(`${command}: ${file}: ${error.message}`, 1);
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
      format: { type: "string" },
    }, HELP);
    if (positionals.length !== 1) throw new CliError(`fragments: expected one file, got ${positionals.length} (see groundwire fragments --help)`, 2);
    const { artifact, fragments } = loadForCli("fragments", positionals[0], values.artifact, values.format, values.quiet);
    if (values.json) {
      const rows = fragments.map(({ text, ...rest }) => ({ ...rest, firstWords: firstWords(text) }));
      process.stdout.write(`${JSON.stringify({ artifact, fragments: rows }, null, 2)}\n`);
    } else {
      process.stdout.write(escapeTerminal(formatFragmentListing(fragments, artifact)));
    }
    return 0;
  },
};
export default command;
