/**
 * `groundwire check <query.rq|plan.json> --schema <ttl> [--goal <json|file>] [--json]`:
 * type-check a SPARQL query or an op-list plan against a schema (and a goal) before it
 * runs. Prints the context, errors with did-you-mean, warnings and open goals; exit 1
 * when errors remain.
 */
import { existsSync } from "node:fs";
import { Schema, createKernel, renderPlanState, SparqlSyntaxError, PlanError, GoalError, type CheckResult, type Diagnostic } from "../kernel/index.js";
import { CliError, echo, parseCommandArgs, printText, type Command } from "./common.js";
import { checkJsonDepth, createProgress, formatFor, loadGraphInput, readTextInput } from "./io.js";
import { dialectHelp, DIALECT_OPTIONS, readDialectOptions } from "./endpoint-options.js";
import { optionLines } from "./help-rows.js";
import { endpointSchemaFile, isEndpointSchema } from "./schema-sources.js";

const USAGE =
  "usage: groundwire check <query.rq|plan.json|-> --schema <schema.ttl|.nt|-|sparql:URL> [--goal <json or file|->] [--dialect sparql11|virtuoso] [--prefixes PRESET] [--format rq|json|ttl|nt|nq|trig] [--json] [--quiet]\n" +
  optionLines(23, [
    ["--schema SCHEMA", "the schema: a .ttl or .nt file, - (standard input), or sparql:URL, read from a live\nSPARQL endpoint (cached 24 h)"],
    ["--format FORMAT", "names the format of the input given as - (standard input; only one input can be -)"],
  ]) +
  "\n" +
  dialectHelp(23);

/** Plans and goals are small; a larger file is a mistake (the cap keeps it from being read whole). */
const MAX_PLAN_BYTES = 16 * 1024 * 1024;

/** Read a plan or goal file (strict UTF-8, regular file or `-`, capped), one clear line on failure. */
function readText(path: string, what: string): string {
  try {
    return readTextInput(path, { maxBytes: MAX_PLAN_BYTES });
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith("no such file: ")) throw new CliError(`no such ${what}: ${path}`);
    throw error;
  }
}

/** Load a schema for the CLI: one clear line on a missing file or a parse error (with line and column). */
export function loadSchemaForCli(path: string, format?: string): Schema {
  try {
    return Schema.fromGraph(loadGraphInput(path, { format }));
  } catch (error) {
    if (error instanceof CliError && error.exitCode === 2) throw error; // a usage error (e.g. - without --format) stays one
    const message = (error as Error).message;
    throw new CliError(message.startsWith("cannot parse ") ? `schema ${message.slice("cannot parse ".length)}` : `schema: ${message}`);
  }
}

function where(file: string, d: Diagnostic): string {
  if (d.span) return `${file}:${d.span.line}:${d.span.column}: `;
  if (d.op !== undefined) return `${file}: op ${d.op + 1}: `; // counted from 1, as PlanError messages
  return `${file}: `;
}

/** The human report: the plan state, then each diagnostic as `file:line:col: message`, with related places and hints. */
export function renderCheck(file: string, r: CheckResult): string {
  const out = [renderPlanState({ ...r, errors: [], warnings: [] }).trimEnd()];
  for (const [title, list] of [["errors", r.errors], ["warnings", r.warnings]] as const) {
    if (!list.length) continue;
    out.push(`${title}:`);
    for (const d of list) {
      out.push(`  ${where(file, d)}${d.message}`);
      for (const rel of d.related ?? []) out.push(`    ${rel.span ? `${file}:${rel.span.line}:${rel.span.column}: ` : ""}${rel.message}`);
      if (d.hint) out.push(`    hint: ${d.hint}`);
      if (d.fix) out.push(`    fix: ${d.fix}`);
    }
  }
  return `${out.join("\n")}\n`;
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("check", args, {
      schema: { type: "string" },
      goal: { type: "string" },
      json: { type: "boolean" },
      format: { type: "string" },
      ...DIALECT_OPTIONS,
    }, USAGE);
    if (positionals.length !== 1) throw new CliError(`check: expected one plan file\n${USAGE}`, 2);
    if (!values.schema) throw new CliError(`check: --schema is required\n${USAGE}`, 2);
    const file = positionals[0];
    const sparql = readDialectOptions("check", values);
    // --format names the input given as - (formatFor): the plan (rq, json), the schema (ttl, nt, nq, trig) or the goal (json)
    const goalFile = values.goal !== undefined && !values.goal.trim().startsWith("{") ? values.goal : undefined;
    const fromEndpoint = isEndpointSchema(values.schema);
    const inputs = [file, fromEndpoint ? undefined : values.schema, goalFile];
    const planFormat = formatFor(file, values.format, inputs);
    if (planFormat !== undefined && planFormat !== "rq" && planFormat !== "json") throw new CliError(`check: --format for the plan must be rq or json, got ${echo(values.format!)}`, 2);
    const goalFormat = goalFile !== undefined ? formatFor(goalFile, values.format, inputs) : undefined;
    if (goalFormat !== undefined && goalFormat !== "json") throw new CliError(`check: a goal is JSON: --format for the goal on standard input must be json, got ${echo(values.format!)}`, 2);
    const progress = createProgress("check", { quiet: values.quiet });
    const plan = readText(file, "plan file");
    // The plan's kind is read from its text (JSON starts with [ or {, SPARQL cannot); a --format
    // given for it must agree, not be passed over.
    const looksJson = /^\s*[[{]/.test(plan);
    if (planFormat === "json" && !looksJson) {
      let reason = "it is JSON but neither a list of ops nor an object with ops";
      try {
        JSON.parse(plan);
      } catch (error) {
        reason = (error as Error).message.replace(/\s+/g, " ");
      }
      throw new CliError(`${file}: --format json, but the plan is not a JSON plan: ${reason}`);
    }
    if (planFormat === "rq" && looksJson) {
      const at = plan.length - plan.trimStart().length;
      const line = plan.slice(0, at).split("\n").length;
      const column = at - plan.lastIndexOf("\n", at - 1);
      throw new CliError(`${file}:${line}:${column}: --format rq, but a SPARQL query cannot start with ${echo(plan[at]!)}: this is a JSON plan (--format json)`);
    }
    if (looksJson) checkJsonDepth(plan, file);
    progress.phase(`reading the schema ${values.schema}`);
    const kernel = createKernel(fromEndpoint ? loadSchemaForCli(await endpointSchemaFile("check", values.schema)) : loadSchemaForCli(values.schema, formatFor(values.schema, values.format, inputs)));
    progress.phase("checking");
    let goal: string | undefined;
    if (values.goal !== undefined) {
      const inline = values.goal.trim().startsWith("{");
      if (!inline && values.goal !== "-" && !existsSync(values.goal)) throw new CliError(`--goal: no such file: ${values.goal} (give a goal file or inline JSON such as '{"answer":["?c"],"kind":"entity"}')`, 2);
      const text = inline ? values.goal : readText(values.goal, "goal file");
      checkJsonDepth(text, inline ? "--goal" : `--goal ${values.goal}`);
      try {
        JSON.parse(text);
        // kernel.check reads the JSON text itself, through the goal's schema
        goal = text;
      } catch (error) {
        throw new CliError(`malformed goal${inline ? "" : ` in ${values.goal}`}: not JSON (${(error as Error).message.replace(/\s+/g, (run) => (run.includes("\n") ? " " : run))})`);
      }
    }
    let result: CheckResult;
    try {
      result = kernel.check(plan, goal, sparql);
      progress.done();
    } catch (error) {
      if (error instanceof SparqlSyntaxError) throw new CliError(`${file}:${error.line}:${error.column}: SPARQL syntax error: ${error.detail}${error.fix ? ` (fix: ${error.fix})` : ""}`);
      if (error instanceof GoalError) throw new CliError(`--goal: ${error.message}`);
      if (error instanceof PlanError) throw new CliError(`${file}: ${error.message}`);
      throw error;
    }
    if (values.json) {
      const { query: _query, ...rest } = result;
      process.stdout.write(`${JSON.stringify({ plan: file, ...rest }, null, 1)}\n`);
    } else printText(renderCheck(file, result));
    return result.errors.length ? 1 : 0;
  },
};
export default command;
