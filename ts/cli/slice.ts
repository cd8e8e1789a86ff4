/**
 * `groundwire slice <file|-> [--artifact ID] [--format nquads|turtle] [--input-format md|txt] [--validate]`: print
 * a document's RDF graph slice (the artifact and every fragment, DESIGN §4) for loading
 * into a triple store, and with --validate check it against the evidence SHACL shapes.
 */
import { DataFactory, Writer } from "n3";
import { EVIDENCE_NS, toGraphSlice, validateSlice } from "../evidence/index.js";
import { CliError, echo, escapeMessage, parseCommandArgs, type Command } from "./common.js";
import { loadForCli } from "./fragments.js";

const HELP = `usage: groundwire slice <file|-> [--artifact ID] [--format nquads|turtle] [--input-format md|txt] [--validate]

Prints the RDF graph slice of a markdown (.md) or plain-text (.txt) file, or of standard
input (-, with --artifact): the artifact and every fragment (id, version id, path, kind,
anchor, label, content hash, offsets).

  --artifact ID      the artifact key (default as for fragments: the path relative to the
                     enclosing git work tree, else the file's real path)
  --format FORMAT    nquads (default; every quad in the artifact's named graph, as ingest
                     writes it) or turtle (the same triples, default graph)
  --input-format F   md or txt: how to read the input given as - (or a name without .md/.txt);
                     --format names the output here, so the input's format has its own flag
  -q, --quiet        no progress line on stderr (shown only on a terminal, for files over 4 MB)
  --validate         also validate the slice against the evidence SHACL shapes: the report
                     goes to stderr, exit code 1 when it has violations`;

/** Serialize quads with n3's Writer (N-Quads in the artifact's graph, or Turtle with the gwe/xsd prefixes). */
function serialize(slice: ReturnType<typeof toGraphSlice>, format: "nquads" | "turtle"): Promise<string> {
  return new Promise((resolve, reject) => {
    const writer =
      format === "nquads"
        ? new Writer({ format: "N-Quads" })
        : new Writer({ format: "Turtle", prefixes: { gwe: EVIDENCE_NS, xsd: "http://www.w3.org/2001/XMLSchema#" } });
    for (const q of slice.quads) writer.addQuad(q.subject, q.predicate, q.object, format === "nquads" ? DataFactory.namedNode(slice.artifactIri) : q.graph);
    writer.end((error, out) => (error ? reject(error) : resolve(out)));
  });
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("slice", args, {
      artifact: { type: "string" },
      format: { type: "string" },
      "input-format": { type: "string" },
      validate: { type: "boolean" },
    }, HELP);
    if (positionals.length !== 1) throw new CliError(`slice: expected one file, got ${positionals.length} (see groundwire slice --help)`, 2);
    const format = values.format ?? "nquads";
    if (format !== "nquads" && format !== "turtle") throw new CliError(`slice: --format must be nquads or turtle, not ${echo(format)}`, 2);
    const { artifact, fragments } = loadForCli("slice", positionals[0], values.artifact, values["input-format"], values.quiet, "--input-format");
    const slice = toGraphSlice(artifact, fragments);
    process.stdout.write(await serialize(slice, format));
    if (!values.validate) return 0;
    const outcome = await validateSlice(slice);
    if (outcome.conforms) {
      process.stderr.write(`groundwire slice: the slice conforms to the evidence shapes (${slice.quads.length} quads, ${fragments.length} fragments)\n`);
      return 0;
    }
    process.stderr.write(`groundwire slice: ${outcome.violations.length} SHACL violation(s):\n`);
    for (const v of outcome.violations) process.stderr.write(`  ${escapeMessage(JSON.stringify(v))}\n`);
    return 1;
  },
};
export default command;
