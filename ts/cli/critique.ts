/**
 * `groundwire critique <graph> <critique.json> --fingerprint <hex> [-o out.ttl | --in-place]
 * [--scope <graph>] [--json] [guards]`: apply a critic's items (triple ids from
 * `groundwire index`) and write the new graph. The input is never overwritten unless
 * `--in-place` is given; without `-o` the graph goes to stdout and the report to stderr.
 * Bad input (missing or unparsable graph, unknown format, invalid critique, drift) is one
 * line on stderr, exit 1, and nothing written.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { formatFromPath, serializeGraph, type RdfFormat } from "../rdf/index.js";
import { writeGraphFile } from "../rdf/load.js";
import { applyCritique, buildTripleIndex, CritiqueFormatError, parseCritique, TripleIndexDriftError, type CritiqueGuards } from "../triple-index/index.js";
import { CliError, parseCommandArgs, type Command } from "./common.js";
import { loadForCli } from "./index-command.js";

const USAGE =
  "usage: groundwire critique <graph> <critique.json> --fingerprint <hex> [-o out.ttl | --in-place] [--scope <graph>] [--json]\n" +
  "       guards: [--max-delete-share <0..1>] [--keep-subjects] [--keep-subject-on-replace] [--whole-blank-nodes]";

/**
 * The file `-o` names, resolved through symlinks (so a link is written through, not replaced).
 * Refuses a path that is the input graph (only --in-place may overwrite it) and a folder
 * that does not exist, before any work is done.
 */
function checkOutputPath(output: string, graphPath: string): string {
  const target = existsSync(output) ? realpathSync(output) : resolve(output);
  if (existsSync(graphPath) && target === realpathSync(graphPath)) {
    throw new CliError(`critique: -o ${output} is the input graph; pass --in-place to overwrite it`, 2);
  }
  const folder = dirname(target);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new CliError(`critique: cannot write ${output}: folder ${folder} does not exist`, 2);
  return target;
}

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
    }, USAGE);
    if (positionals.length !== 2) throw new CliError(`critique: expected a graph and a critique file\n${USAGE}`, 2);
    const [graphPath, critiquePath] = positionals;
    if (!values.fingerprint) throw new CliError("critique: --fingerprint <hex> is required (the fingerprint `groundwire index` printed for the listing the critic read)", 2);
    if (!/^[0-9a-f]{64}$/i.test(values.fingerprint)) throw new CliError(`critique: --fingerprint must be 64 hex characters, got ${JSON.stringify(values.fingerprint)}`, 2);
    if (values.output !== undefined && values["in-place"]) throw new CliError("critique: give either -o <file> or --in-place, not both", 2);
    const outPath = values["in-place"] ? (existsSync(graphPath) ? realpathSync(graphPath) : graphPath) : values.output !== undefined ? checkOutputPath(values.output, graphPath) : undefined;
    // Check the output format before doing any work.
    let outFormat: RdfFormat = "turtle";
    try {
      if (outPath !== undefined) outFormat = formatFromPath(outPath);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    const guards: CritiqueGuards = {};
    if (values["max-delete-share"] !== undefined) {
      const share = Number(values["max-delete-share"]);
      if (!(share >= 0 && share <= 1)) throw new CliError(`critique: --max-delete-share must be a number in 0..1, got ${values["max-delete-share"]}`, 2);
      guards.maxDeleteShare = share;
    }
    if (values["keep-subjects"]) guards.keepSubjects = true;
    if (values["keep-subject-on-replace"]) guards.keepSubjectOnReplace = true;
    if (values["whole-blank-nodes"]) guards.wholeBlankNodes = true;

    const graph = loadForCli(graphPath);
    let critiqueText: string;
    try {
      critiqueText = readFileSync(critiquePath, "utf8");
    } catch (error) {
      throw new CliError((error as NodeJS.ErrnoException).code === "ENOENT" ? `no such file: ${critiquePath}` : (error as Error).message);
    }
    let items;
    try {
      items = parseCritique(critiqueText);
    } catch (error) {
      if (error instanceof CritiqueFormatError) throw new CliError(`${critiquePath}: ${error.message}`);
      throw error;
    }
    const scope = values.scope !== undefined ? loadForCli(values.scope) : undefined;
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
    if (outPath !== undefined) writeGraphFile(outPath, graph, { format: outFormat });
    else process.stdout.write(serializeGraph(graph, { format: outFormat }));
    // The fingerprint to hand to the next critique: of the graph as written (N-Triples and
    // N-Quads carry no prefixes, and prefixes change the rendering) and under the same scope.
    // (applyCritique's fingerprintAfter already is that, for Turtle without a scope)
    const after =
      outFormat === "turtle" && scope === undefined ? report.fingerprintAfter : buildTripleIndex(outFormat === "turtle" ? graph : { ...graph, prefixes: {} }, { scope }).numbering;

    const summary = {
      graph: graphPath,
      written: outPath ?? "<stdout>",
      fingerprintBefore: index.numbering,
      fingerprintAfter: after,
      removed: report.removedCount,
      added: report.addedCount,
      applied: report.applied.map((a) => ({ item: a.item, op: a.op, tripleIds: a.tripleIds, removed: a.removed.length, added: a.added.length })),
      rejected: report.rejected,
    };
    const out = outPath !== undefined ? process.stdout : process.stderr;
    if (values.json) {
      out.write(`${JSON.stringify(summary, null, 1)}\n`);
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
