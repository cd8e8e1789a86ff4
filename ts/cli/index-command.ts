/**
 * `groundwire index <graph> [--scope <graph>] [--json]`: the listing a critic reads (one
 * triple a line with its id, read-only lines marked) and the fingerprint the ids belong to.
 */
import type { Graph } from "../rdf/index.js";
import { buildTripleIndex, renderListing } from "../triple-index/index.js";
import { sha256Backend } from "../../bindings/sha256.js";
import { CliError, parseCommandArgs, printText, type Command } from "./common.js";
import { createProgress, formatFor, loadGraphInput } from "./io.js";

const USAGE = "usage: groundwire index <graph.ttl|.nt|.nq|.trig|-> [--format ttl|nt|nq|trig] [--scope <graph|->] [--json] [--quiet]\n  --format names the format of the input given as - (standard input; only one input can be -)";

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
      format: { type: "string" },
    }, USAGE);
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
    if (values.json) {
      const lines = index.order.flatMap((block) =>
        block.triples.map((t) => {
          const [s, p, o] = t.line.split("\t");
          return { id: t.tripleId, s, p, o };
        }),
      );
      process.stdout.write(
        `${JSON.stringify({ graph: positionals[0], fingerprint: index.numbering, graphFingerprint: index.fingerprint, triples: index.tripleCount, ids: index.scopeSize, hash: sha256Backend(), lines }, null, 1)}\n`,
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
