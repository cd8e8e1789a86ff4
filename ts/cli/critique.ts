/**
 * `groundwire critique <graph> <critique.json> --fingerprint <hex> [-o out.ttl | --in-place]
 * [--scope <graph>] [--json] [guards]`: apply a critic's items (triple ids from
 * `groundwire index`) and write the new graph. The input is never overwritten unless
 * `--in-place` is given; without `-o` the graph goes to stdout and the report to stderr.
 * Bad input (missing or unparsable graph, unknown format, invalid critique, drift) is one
 * line on stderr, exit 1, and nothing written.
 */
import { formatFromPath, namedGraphCount, parseGraph, serializeGraph, type RdfFormat } from "../rdf/index.js";
import { applyCritique, buildTripleIndex, CritiqueFormatError, parseCritique, TripleIndexDriftError, type CritiqueGuards } from "../triple-index/index.js";
import { CliError, numberOption, parseCommandArgs, type Command } from "./common.js";
import { loadForCli } from "./index-command.js";
import { checkJsonDepth, checkOutputPath, echo, formatFor, isStdin, readTextInput, writeOutput } from "./io.js";

const USAGE =
  "usage: groundwire critique <graph|-> <critique.json|-> --fingerprint <hex> [-o out.ttl|.nt|.nq|.trig | --in-place] [--scope <graph|->] [--format ttl|nt|nq|trig|json] [--json]\n" +
  "       --format names the format of the input given as - (standard input; only one input can be -)\n" +
  "       --json: the summary as JSON on stdout (without -o or --in-place, the written graph is its \"output\" field)\n" +
  "       guards: [--max-delete-share <0..1>] [--keep-subjects] [--keep-subject-on-replace] [--whole-blank-nodes]\n" +
  "       a dataset with named graphs is written as N-Quads (.nq) or TriG (.trig); --drop-graph-names writes it to .ttl/.nt merged into one graph";

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("critique", args, {
      fingerprint: { type: "string" },
      output: { type: "string", short: "o" },
      "in-place": { type: "boolean" },
      scope: { type: "string" },
      json: { type: "boolean" },
      "max-delete-share": { type: "string" },
      "keep-subjects": { type: "boolean" },
      "keep-subject-on-replace": { type: "boolean" },
      "whole-blank-nodes": { type: "boolean" },
      format: { type: "string" },
      "drop-graph-names": { type: "boolean" },
    }, USAGE);
    if (positionals.length !== 2) throw new CliError(`critique: expected a graph and a critique file\n${USAGE}`, 2);
    const [graphPath, critiquePath] = positionals;
    if (!values.fingerprint) throw new CliError("critique: --fingerprint <hex> is required (the fingerprint `groundwire index` printed for the listing the critic read)", 2);
    if (!/^[0-9a-f]{64}$/i.test(values.fingerprint)) throw new CliError(`critique: --fingerprint must be 64 hex characters, got ${echo(values.fingerprint)}`, 2);
    if (values.output !== undefined && values["in-place"]) throw new CliError("critique: give either -o <file> or --in-place, not both", 2);
    if (values["in-place"] && isStdin(graphPath)) throw new CliError("critique: --in-place needs a graph file, not standard input", 2);
    // Check the output path and format before doing any work.
    const inputs = [
      { path: graphPath, what: "input graph; pass --in-place to overwrite it" },
      { path: critiquePath, what: "critique file; it would be overwritten" },
      ...(values.scope !== undefined ? [{ path: values.scope, what: "--scope graph; it would be overwritten" }] : []),
    ];
    const outPath = values["in-place"] ? checkOutputPath(graphPath, "--in-place", inputs.slice(1)) : values.output !== undefined ? checkOutputPath(values.output, "-o", inputs) : undefined;
    let outFormat: RdfFormat | undefined;
    try {
      if (outPath !== undefined && outPath !== "-") outFormat = formatFromPath(outPath);
    } catch (error) {
      // a usage error naming the path as typed (the message's own is the resolved one)
      const typed = values["in-place"] ? graphPath : values.output!;
      throw new CliError(`critique: ${values["in-place"] ? "--in-place" : "-o"} ${(error as Error).message.replace(outPath!, typed)}`, 2);
    }
    const guards: CritiqueGuards = {};
    if (values["max-delete-share"] !== undefined) {
      guards.maxDeleteShare = numberOption("critique", "max-delete-share", values["max-delete-share"], { fallback: 1, min: 0, max: 1 });
    }
    if (values["keep-subjects"]) guards.keepSubjects = true;
    if (values["keep-subject-on-replace"]) guards.keepSubjectOnReplace = true;
    if (values["whole-blank-nodes"]) guards.wholeBlankNodes = true;

    // --format names the input given as - (see formatFor); a critique is always JSON
    const inputPaths = [graphPath, critiquePath, values.scope];
    const critiqueFormat = formatFor(critiquePath, values.format, inputPaths);
    if (critiqueFormat !== undefined && critiqueFormat !== "json") throw new CliError(`critique: a critique is JSON: --format for the critique on standard input must be json, got ${echo(values.format!)}`, 2);
    const graph = loadForCli(graphPath, formatFor(graphPath, values.format, inputPaths));
    const critiqueText = readTextInput(critiquePath, { maxBytes: 64 * 1024 * 1024 });
    checkJsonDepth(critiqueText, critiquePath);
    // A dataset keeps its graph names only in N-Quads or TriG: never drop them without being told to.
    const graphNames = namedGraphCount(graph);
    if (outFormat === undefined) outFormat = graphNames > 0 ? "trig" : "turtle";
    if (graphNames > 0 && (outFormat === "turtle" || outFormat === "ntriples") && !values["drop-graph-names"]) {
      throw new CliError(
        `critique: ${graphPath} is a dataset with ${graphNames} named graph(s); ${outFormat === "turtle" ? "Turtle" : "N-Triples"} cannot hold their names: ` +
          `write .nq or .trig, or pass --drop-graph-names to merge every graph into one; nothing written`,
        2,
      );
    }
    let items;
    try {
      items = parseCritique(critiqueText);
    } catch (error) {
      if (error instanceof CritiqueFormatError) throw new CliError(`${critiquePath}: ${error.message}`);
      throw error;
    }
    const scope = values.scope !== undefined ? loadForCli(values.scope, formatFor(values.scope, values.format, inputPaths)) : undefined;
    const index = buildTripleIndex(graph, { scope });
    const expected = values.fingerprint.toLowerCase();
    if (index.numbering !== expected) {
      // Same graph, other numbering: the scope given now leaves other lines read-only than
      // the one the critic's listing was made with (or none was given, or one was dropped).
      if (scope !== undefined) {
        const unchanged = index.fingerprint === expected;
        throw new CliError(
          `${graphPath}: the listing the critic read has fingerprint ${expected}, this graph with --scope ${values.scope} has ${index.numbering}` +
            `${unchanged ? " (same graph, other scope: its ids would name other triples)" : ""}; pass the --scope the listing was made with; no item was applied`,
        );
      }
      const drift = new TripleIndexDriftError(expected, index.fingerprint);
      throw new CliError(`${graphPath}: ${drift.message} (a listing made with --scope needs the same --scope here)`);
    }
    const report = applyCritique(graph, index, items, guards);
    if (items.length > 0 && report.applied.length === 0) {
      // Nothing to write: a loop must see from the exit code that no item took effect.
      const reasons = report.rejected.map((r) => `item ${r.item}: ${r.reason}`).join("; ");
      throw new CliError(`${critiquePath}: no item was applied (${reasons}); nothing written`);
    }
    const text = serializeGraph(graph, { format: outFormat });
    // --json writes one JSON document to stdout: with no -o (the graph would go to stdout too)
    // the written graph is its `output` field.
    const graphInJson = values.json === true && (outPath === undefined || outPath === "-");
    if (!graphInJson) writeOutput(outPath ?? "-", text);
    // The fingerprint to hand to the next critique: of the graph as written (N-Triples and
    // N-Quads carry no prefixes, and prefixes change the rendering; dropped graph names merge
    // quads) and under the same scope. applyCritique's fingerprintAfter already is that for
    // Turtle of a plain graph without a scope; otherwise the written text is parsed again.
    const after =
      outFormat === "turtle" && scope === undefined && graphNames === 0
        ? report.fingerprintAfter
        : buildTripleIndex(parseGraph(text, { format: outFormat, source: outPath ?? "<stdout>" }), { scope }).numbering;

    const summary = {
      graph: graphPath,
      written: outPath === undefined || outPath === "-" ? "<stdout>" : outPath,
      fingerprintBefore: index.numbering,
      fingerprintAfter: after,
      removed: report.removedCount,
      added: report.addedCount,
      applied: report.applied.map((a) => ({ item: a.item, op: a.op, tripleIds: a.tripleIds, removed: a.removed.length, added: a.added.length })),
      rejected: report.rejected,
    };
    const out = outPath !== undefined && outPath !== "-" ? process.stdout : process.stderr;
    if (values.json) {
      process.stdout.write(`${JSON.stringify(graphInJson ? { ...summary, output: text } : summary, null, 1)}\n`);
    } else {
      const lines = [
        `applied ${report.applied.length} of ${items.length} items: ${report.removedCount} triples removed, ${report.addedCount} added; wrote ${summary.written}`,
        ...report.applied.map((a) => `  item ${a.item} ${a.op} [${a.tripleIds.join(", ")}]: -${a.removed.length} +${a.added.length}`),
        ...report.rejected.map((r) => `  item ${r.item} ${r.op} [${r.tripleIds.join(", ")}] rejected (${r.guard ?? r.code}): ${r.reason}`),
        `fingerprint: ${index.numbering} -> ${after}`,
      ];
      out.write(`${lines.join("\n")}\n`);
    }
    return 0;
  },
};
export default command;
