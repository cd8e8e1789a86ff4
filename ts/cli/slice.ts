/**
 * `groundwire slice <file|-> [--artifact ID] [--format nquads|turtle] [--input-format md|txt] [--validate]`: print
 * a document's RDF graph slice (the artifact and every fragment, DESIGN §4) for loading
 * into a triple store, and with --validate check it against the evidence SHACL shapes.
 */
import { DataFactory, Writer } from "n3";
import { readFileSync } from "node:fs";
import { artifactIri, EVIDENCE_NS, GraphStoreError, ingestToGraphStore, toGraphSlice, validateSlice, type Artifact, type Fragment, type GraphSlice } from "../evidence/index.js";
import { ArgumentError } from "../errors.js";
import { CliError, echo, escapeMessage, parseCommandArgs, type Command } from "./common.js";
import { loadForCli, maxBytesHelp, maxDocumentBytes } from "./fragments.js";
import { ChunkedOutput, dataForStdout, formatName } from "./io.js";

const HELP = `usage: groundwire slice <file|-> [--artifact ID] [--format nquads|turtle] [--input-format md|txt] [--validate]
       groundwire slice <file|-> [--artifact ID] --graph-store URL [--graph-store-token-file FILE]

Prints the RDF graph slice of a markdown (.md) or plain-text (.txt) file, or of standard
input (-, with --artifact): the artifact and every fragment (id, version id, path, kind,
anchor, label, content hash, offsets).

  --artifact ID      the artifact key (default as for fragments: the path relative to the
                     enclosing git work tree, else the file's real path)
  --format FORMAT    nquads (default; every quad in the artifact's named graph, as ingest
                     writes it) or turtle (the same triples, default graph)
  --input-format F   md or txt: how to read the input given as - (or a name without .md/.txt);
                     --format names the output here, so the input's format has its own flag
${maxBytesHelp("slice", 21)}
  -q, --quiet        no progress line on stderr (shown only on a terminal, for files over 4 MB)
  --validate         also validate the slice against the evidence SHACL shapes: the report
                     goes to stderr, exit code 1 when it has violations (at most 25,000 fragments)
  --graph-store URL  instead of printing: validate the slice, then write it into a remote store as
                     the artifact's named graph with one SPARQL 1.1 Graph Store Protocol PUT (an
                     atomic replace of the previous revision); nothing is sent when it has
                     violations (exit 1, the report on stderr)
  --graph-store-token-file FILE
                     sent as Authorization: Bearer (the file's first line)`;

/**
 * The most fragments `--validate` checks: 25,000. SHACL validation holds the whole slice and
 * the engine's state for it (measured: 1 MiB of real markdown, 26,472 fragments, 371,311
 * quads, peaks at 0.88 GB RSS, about 33 kB a fragment); a larger slice is refused before any
 * output, and can still be printed without --validate.
 */
export const MAX_VALIDATE_FRAGMENTS = 25_000;

/** Fragments turned into quads at a time when printing (the quads of all of a 64 MiB document's ran out of heap). */
const FRAGMENTS_PER_PART = 10_000;

/**
 * Serialize the slice with n3's Writer (N-Quads in the artifact's graph, or Turtle with the
 * gwe/xsd prefixes) to standard output, a chunk at a time: as one string, the slice of a
 * 32 MiB document passed V8's string limit, and the quads of a 64 MiB one ran out of heap,
 * so they are made {@link FRAGMENTS_PER_PART} fragments at a time; the quads and their
 * order are toGraphSlice's over all the fragments (its artifact quads once, first).
 */
async function serialize(artifact: Artifact, fragments: readonly Fragment[], format: "nquads" | "turtle"): Promise<void> {
  const out = new ChunkedOutput();
  const sink = { write: (chunk: string, _encoding?: string, done?: () => void) => (out.add(dataForStdout(chunk)), done?.(), true), end: (done?: () => void) => done?.() };
  const options = format === "nquads" ? { format: "N-Quads", end: false } : { format: "Turtle", end: false, prefixes: { gwe: EVIDENCE_NS, xsd: "http://www.w3.org/2001/XMLSchema#" } };
  const writer = new Writer(sink as never, options);
  const graph = DataFactory.namedNode(artifactIri(artifact.artifactId));
  const header = toGraphSlice(artifact, []).quads.length;
  for (let i = 0; i === 0 || i < fragments.length; i += FRAGMENTS_PER_PART) {
    const part = toGraphSlice(artifact, fragments.slice(i, i + FRAGMENTS_PER_PART)).quads;
    for (let k = i === 0 ? 0 : header; k < part.length; k++) {
      const q = part[k];
      writer.addQuad(q.subject, q.predicate, q.object, format === "nquads" ? graph : q.graph);
      if (out.full) await out.flush();
    }
  }
  await new Promise<void>((resolve, reject) => writer.end((error) => (error ? reject(error) : resolve())));
  await out.flush();
}

/** `--graph-store`: validate and PUT the slice (ingestToGraphStore); the outcome on stderr. */
async function writeToGraphStore(url: string, tokenFile: string | undefined, slice: GraphSlice, fragmentCount: number): Promise<number> {
  const headers: Record<string, string> = {};
  if (tokenFile !== undefined) {
    let token: string;
    try {
      token = readFileSync(tokenFile, "utf8").split(/\r?\n/, 1)[0]!.trim();
    } catch (error) {
      throw new CliError(`slice: --graph-store-token-file: cannot read ${tokenFile} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
    if (!token) throw new CliError(`slice: --graph-store-token-file: ${tokenFile} has an empty first line`);
    headers.authorization = `Bearer ${token}`;
  }
  let report;
  try {
    report = await ingestToGraphStore({ url, headers }, slice);
  } catch (error) {
    if (error instanceof ArgumentError) throw new CliError(`slice: --graph-store: ${error.message}`, 2);
    if (error instanceof GraphStoreError) throw new CliError(`slice: ${error.message}`);
    throw error;
  }
  if (!report.ok) {
    process.stderr.write(`groundwire slice: ${report.violations.length} SHACL violation(s), nothing was written:\n`);
    for (const v of report.violations) process.stderr.write(`  ${escapeMessage(JSON.stringify(v))}\n`);
    return 1;
  }
  process.stderr.write(`groundwire slice: wrote ${report.written} quads (${fragmentCount} fragments) as the graph <${report.graph}>\n`);
  return 0;
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("slice", args, {
      artifact: { type: "string" },
      format: { type: "string" },
      "input-format": { type: "string" },
      validate: { type: "boolean" },
      "max-bytes": { type: "string" },
      "graph-store": { type: "string" },
      "graph-store-token-file": { type: "string" },
    }, HELP);
    if (positionals.length !== 1) throw new CliError(`slice: expected one file, got ${positionals.length} (see groundwire slice --help)`, 2);
    const named = values.format === undefined ? "nq" : formatName(values.format);
    if (named !== "nq" && named !== "ttl") throw new CliError(`slice: --format must be nquads or turtle (nq, ttl), not ${echo(values.format ?? "")}`, 2);
    const format = named === "nq" ? "nquads" : "turtle";
    const maxBytes = maxDocumentBytes("slice", values["max-bytes"]);
    const { artifact, fragments } = loadForCli("slice", positionals[0], values.artifact, values["input-format"], values.quiet, "--input-format", maxBytes);
    const remote = values["graph-store"];
    if (values["graph-store-token-file"] !== undefined && remote === undefined) throw new CliError("slice: --graph-store-token-file goes with --graph-store", 2);
    if ((values.validate || remote !== undefined) && fragments.length > MAX_VALIDATE_FRAGMENTS) {
      throw new CliError(`slice: ${positionals[0]}: ${fragments.length.toLocaleString("en-US")} fragments, over the ${MAX_VALIDATE_FRAGMENTS.toLocaleString("en-US")} --validate checks at once; leave out --validate to print the slice`, 1);
    }
    if (remote !== undefined) return writeToGraphStore(remote, values["graph-store-token-file"], toGraphSlice(artifact, fragments), fragments.length);
    await serialize(artifact, fragments, format);
    if (!values.validate) return 0;
    const slice = toGraphSlice(artifact, fragments);
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
