/**
 * `groundwire index <graph> [--scope <graph>] [--json]`: the listing a critic reads (one
 * triple a line with its id, read-only lines marked) and the fingerprint the ids belong to.
 */
import type { Graph } from "../rdf/index.js";
import { buildTripleIndex, renderListing } from "../triple-index/index.js";
import { sha256Backend } from "../../bindings/sha256.js";
import { CliError, parseCommandArgs, printText, type Command } from "./common.js";
import { ChunkedOutput, createProgress, formatFor, loadGraphInput } from "./io.js";

const USAGE =
  "usage: groundwire index <graph.ttl|.nt|.nq|.trig|-> [--format ttl|nt|nq|trig] [--scope <graph|->] [--json | --jsonl] [--quiet]\n" +
  "  --format names the format of the input given as - (standard input; only one input can be -)\n" +
  '  --jsonl prints one JSON object per line: {"type":"triple",id,s,p,o} for each line of the listing, then {"type":"summary",...} as --json';

/**
 * Load a graph for a command (a file, or `-` for stdin with `format`), turning every
 * loading failure into a one-line CliError (strict UTF-8, regular files only, size cap: ./io.ts).
 */
export function loadForCli(path: string, format?: string): Graph {
  return loadGraphInput(path, { format });
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("index", args, {
      scope: { type: "string" },
      json: { type: "boolean" },
      jsonl: { type: "boolean" },
      format: { type: "string" },
    }, USAGE);
    if (values.json && values.jsonl) throw new CliError("index: --json and --jsonl are two output forms; give one", 2);
    if (positionals.length !== 1) throw new CliError(`index: expected one graph file\n${USAGE}`, 2);
    const progress = createProgress("index", { quiet: values.quiet });
    progress.phase(`parsing ${positionals[0]}`);
    const inputs = [positionals[0], values.scope];
    const graph = loadForCli(positionals[0], formatFor(positionals[0], values.format, inputs));
    if (values.scope !== undefined) progress.phase(`parsing the scope ${values.scope}`);
    const scope = values.scope !== undefined ? loadForCli(values.scope, formatFor(values.scope, values.format, inputs)) : undefined;
    progress.phase("numbering the triples");
    const index = buildTripleIndex(graph, { scope });
    progress.done();
    const summary = () => ({ graph: positionals[0], fingerprint: index.numbering, graphFingerprint: index.fingerprint, triples: index.tripleCount, ids: index.scopeSize, hash: sha256Backend() });
    if (values.jsonl) {
      // one line per listing line, written a chunk at a time, then the summary
      const out = new ChunkedOutput();
      for (const block of index.order) {
        for (const t of block.triples) {
          const [s, p, o] = t.line.split("\t");
          out.add(`${JSON.stringify({ type: "triple", id: t.tripleId, s, p, o })}\n`);
          if (out.full) await out.flush();
        }
      }
      out.add(`${JSON.stringify({ type: "summary", ...summary() })}\n`);
      await out.flush();
      return 0;
    }
    if (values.json) {
      const lines = index.order.flatMap((block) =>
        block.triples.map((t) => {
          const [s, p, o] = t.line.split("\t");
          return { id: t.tripleId, s, p, o };
        }),
      );
      process.stdout.write(
        `${JSON.stringify({ ...summary(), lines }, null, 1)}\n`,
      );
      return 0;
    }
    printText(renderListing(index));
    // With a scope the fingerprint to hand to `critique` also covers which lines are read-only
    // (index.numbering): the same graph under another scope numbers other triples.
    const graphLine = index.numbering !== index.fingerprint ? `graph fingerprint: ${index.fingerprint} (the fingerprint above also covers the scope)\n` : "";
    printText(`\nfingerprint: ${index.numbering}\n${graphLine}triples: ${index.tripleCount} (${index.scopeSize} with ids${index.scopeSize < index.tripleCount ? `, ${index.tripleCount - index.scopeSize} read-only` : ""})\n`);
    return 0;
  },
};
export default command;
