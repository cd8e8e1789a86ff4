/**
 * `groundwire cite <file> <versionId>... [--artifact ID] [--json]`: resolve stored
 * citations against the file as it is now and print each status: current, moved
 * (with the new address and version id to store), stale (what the address holds
 * now) or lost (with the fragments that carry the content when it is ambiguous).
 * Exit code 0 when every citation is current or moved, 1 when any is stale or lost.
 */
import { citationStatus, CitationFormatError, firstWords, indexFragments, parseCitation, type CitationReport } from "../evidence/index.js";
import { CliError, type Command, escapeMessage, escapeTerminal, parseCommandArgs } from "./common.js";
import { loadForCli, maxBytesHelp, maxDocumentBytes } from "./fragments.js";


const HELP = `usage: groundwire cite <file> <versionId>... [--artifact ID] [--json]

Resolves citations (version ids printed by groundwire fragments) against the file now:
  current  the address resolves and says the same
  moved    exactly one fragment says the same at another address (its new version id is shown)
  stale    the address resolves but its text changed
  lost     the address is gone and the text is nowhere, or is in several places (listed, not guessed)
Exit code 0 when all are current or moved, 1 when any is stale or lost.

  --artifact ID     the artifact key used when the citations were made (default: as for fragments, the
                    path relative to the enclosing git work tree, else the file's real path);
                    a warning on stderr says when no citation's address exists under the id in use
  --json            machine output: [{versionId, status, reason, fragment, candidates}]
  --format md|txt   the document's format; overrides the file's extension (needed for - , standard input)
${maxBytesHelp("cite", 20)}`;

function describe(r: CitationReport, versionId: string): string {
  const lines = [`${r.status.padEnd(7)}  ${versionId}`];
  const f = r.fragment;
  if (r.status === "current" && f) lines.push(`         ${f.path}  L${f.line}`);
  if (r.status === "moved" && f) lines.push(`         now at ${f.path}  L${f.line}`, `         cite as ${f.versionId}`);
  if (r.status === "stale" && f) lines.push(`         ${f.path}  L${f.line} now reads ${JSON.stringify(firstWords(f.text))}`);
  if (r.status === "lost") lines.push(`         ${r.reason}`);
  for (const c of r.candidates) lines.push(`         candidate ${c.fragment.path}  L${c.fragment.line}  ${c.fragment.versionId}${c.score < 1 ? `  ratio ${c.score.toFixed(3)}` : ""}`);
  return lines.join("\n");
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("cite", args, {
      artifact: { type: "string" },
      json: { type: "boolean" },
      format: { type: "string" },
      "max-bytes": { type: "string" },
    }, HELP);
    if (positionals.length < 2) throw new CliError("cite: expected a file and at least one version id (see groundwire cite --help)", 2);
    const [file, ...versionIds] = positionals;
    const citations = versionIds.map((v) => {
      try {
        return parseCitation(v);
      } catch (error) {
        if (error instanceof CitationFormatError) throw new CliError(`cite: ${error.message}`, 2);
        throw error;
      }
    });
    const maxBytes = maxDocumentBytes("cite", values["max-bytes"]);
    const { artifact, fragments } = loadForCli("cite", file, values.artifact, values.format, values.quiet, "--format", maxBytes);
    const index = indexFragments(fragments);
    const reports = citations.map((c) => citationStatus(c, index));
    // Addresses are scoped to the artifact id: when not one of them exists under the id in
    // use, the citations were most likely made under another one (another path, or without
    // the same --artifact), and "moved" then only means "found by content", "lost" that the
    // content changed too. Say so (a lost citation's address exists nowhere either).
    if (reports.length > 0 && reports.every((r) => r.status === "moved" || r.status === "lost")) {
      process.stderr.write(
        escapeMessage(`groundwire cite: none of the ${reports.length} citation address(es) exists in ${file} under the artifact id ${JSON.stringify(artifact.artifactId)}; ` +
          `were they made with another --artifact (or another path)? Pass the same --artifact as when citing.\n`),
      );
    }
    if (values.json) {
      const strip = (f: CitationReport["fragment"]) => (f ? { ...f, text: undefined, firstWords: firstWords(f.text) } : null);
      const rows = reports.map((r, i) => ({
        versionId: versionIds[i],
        status: r.status,
        reason: r.reason,
        fragment: strip(r.fragment),
        candidates: r.candidates.map((c) => ({ score: c.score, fragment: strip(c.fragment) })),
      }));
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    } else {
      process.stdout.write(escapeTerminal(`${reports.map((r, i) => describe(r, versionIds[i])).join("\n")}\n`));
    }
    return reports.every((r) => r.status === "current" || r.status === "moved") ? 0 : 1;
  },
};
export default command;
