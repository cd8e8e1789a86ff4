/**
 * `groundwire prove "<question>" --kg <ttl> [--base-url URL [--model M] [--api-key-file F] [--timeout T]]
 * [--script <file.json>] [--endpoint URL] [--max-turns N] [--json]`: plan a SPARQL query
 * for a question, verified by the kernel op by op, then run it. Without --base-url the
 * planner is scripted: --script, or the bundled demo scripts (data/kernel/*.prove.json)
 * when the question is one of theirs. The store is embedded Oxigraph holding the KG,
 * or --endpoint (any SPARQL 1.1 endpoint). The model configuration (flags and
 * GROUNDWIRE_* variables) is moot's: ts/cli/model-config.ts.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Graph } from "../rdf/index.js";
import {
  prove, createScriptedSynthesizer, createSparqlEndpointStore, createKernel, Schema, SparqlStoreError, compactIri,
  type Op, type ProveResult, type SparqlResult, type SparqlStore,
} from "../kernel/index.js";
import { createOxigraphStore } from "../kernel/node.js";
import { SynthesizerError, type TextSynthesizer } from "../moot/index.js";
import { CliError, echo, integerOption, type Command, escapeTerminal, parseCommandArgs } from "./common.js";
import { cutText } from "../errors.js";
import { createModelSynthesizer, MODEL_HELP, MODEL_OPTIONS, readModelConfig, withWaitNotice } from "./model-config.js";
import { checkJsonDepth, createProgress, formatFor, loadGraphInput, readTextInput } from "./io.js";

/** Most planner turns a proof may take. */
export const MAX_PROVE_TURNS = 1000;

const USAGE = `usage: groundwire prove "<question>" --kg <graph.ttl|-> [--base-url URL [--model M] [--api-key-file FILE] [--timeout T]] [--script plan.json|-] [--endpoint URL] [--max-turns N] [--format ttl|nt|nq|trig|json] [--json] [--quiet]
  --format names the format of the input given as - (standard input; only one input can be -)

The model is configured as for moot:
${MODEL_HELP}
Without a base URL the planner is scripted (--script, or the bundled demo scripts).
--endpoint URL runs the verified query on a SPARQL 1.1 endpoint instead of embedded Oxigraph.
Requests are retried on HTTP 429, 500, 502, 503 and 504 (after Retry-After), 3 attempts in all;
redirects are not followed; keys and credentials are redacted from every message.`;

interface Script {
  question: string;
  replies: Op[];
}

function dataDir(): string | null {
  for (const rel of ["../data/kernel", "../../data/kernel"]) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  return null;
}

function readScripts(path: string): Script[] {
  let doc: unknown;
  const text = readTextInput(path, { maxBytes: 16 * 1024 * 1024, label: `script ${path}` });
  checkJsonDepth(text, `script ${path}`);
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new CliError(`script ${path}: ${(error as Error).message.replace(/\s+/g, (run) => (run.includes("\n") ? " " : run))}`);
  }
  const list = Array.isArray(doc) ? [{ question: "", replies: doc }] : (doc as { scripts?: Script[] }).scripts;
  if (!Array.isArray(list)) throw new CliError(`script ${path}: expected {"scripts":[{"question","replies"}]} or a list of replies`);
  return list;
}

const normalize = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

function scriptFor(question: string, scriptPath: string | undefined): Op[] {
  const files = scriptPath ? [scriptPath] : (() => {
    const dir = dataDir();
    return dir ? readdirSync(dir).filter((f) => f.endsWith(".prove.json")).map((f) => join(dir, f)) : [];
  })();
  const scripts = files.flatMap(readScripts);
  const match = scripts.find((s) => normalize(s.question) === normalize(question)) ?? (scriptPath && scripts.length === 1 ? scripts[0] : undefined);
  if (!match) {
    const known = scripts.map((s) => `  "${s.question}"`).join("\n");
    throw new CliError(`prove: no scripted plan for this question; pass --base-url and --model for a model, or --script <file>.${known ? `\nscripted questions:\n${known}` : ""}`);
  }
  return match.replies;
}

function renderAnswer(answer: SparqlResult | null, prefixes: Record<string, string>): string {
  if (!answer) return "no answer";
  if (answer.kind === "boolean") return answer.boolean ? "yes" : "no";
  if (!answer.rows.length) return "no solutions";
  return answer.rows
    .map((row) => answer.variables.map((v) => (row[v] ? (row[v].type === "uri" ? compactIri(row[v].value, prefixes) : JSON.stringify(row[v].value)) : "UNDEF")).join("\t"))
    .join("\n");
}

function loadKg(path: string, format?: string): Graph {
  try {
    return loadGraphInput(path, { format });
  } catch (error) {
    if (error instanceof CliError && error.exitCode === 2) throw error; // a usage error (e.g. - without --format) stays one
    const message = (error as Error).message;
    throw new CliError(message.startsWith("cannot parse ") ? `kg ${message.slice("cannot parse ".length)}` : `kg: ${message}`);
  }
}

const command: Command = {
  async run(rawArgs) {
    // `--max-turns -3` reads as an option to node:util: join it so the check below can name it
    const args: string[] = [];
    for (let i = 0; i < rawArgs.length; i++) {
      if (rawArgs[i] === "--max-turns" && /^-\d/.test(rawArgs[i + 1] ?? "")) args.push(`--max-turns=${rawArgs[++i]}`);
      else args.push(rawArgs[i]!);
    }
    const { values, positionals } = parseCommandArgs("prove", args, {
      kg: { type: "string" },
      ...MODEL_OPTIONS,
      // Recognised only to say where the key goes instead.
      "api-key": { type: "string" },
      script: { type: "string" },
      endpoint: { type: "string" },
      "max-turns": { type: "string" },
      json: { type: "boolean" },
      format: { type: "string" },
    }, USAGE);
    if (values["api-key"] !== undefined) {
      throw new CliError("prove: --api-key is gone (ps shows it to every user): set GROUNDWIRE_API_KEY or give --api-key-file FILE", 2);
    }
    // A usage error names the fault and the usage line, not the whole --help text.
    const usageLine = USAGE.split("\n", 1)[0];
    if (positionals.length !== 1) throw new CliError(`prove: expected one question (quote it)\n${usageLine}`, 2);
    if (!values.kg) throw new CliError(`prove: --kg is required\n${usageLine}`, 2);
    const question = positionals[0];
    if (!question.trim()) throw new CliError(`prove: the question is empty\n${usageLine}`, 2);
    // digits only: Number() would also take "0x10", "1e3" or " "
    const maxTurns = integerOption("prove", "max-turns", values["max-turns"], { fallback: 16, max: MAX_PROVE_TURNS });
    const config = readModelConfig("prove", values);
    let endpointStore: SparqlStore | null = null;
    if (values.endpoint !== undefined) {
      try {
        endpointStore = createSparqlEndpointStore(values.endpoint);
      } catch (error) {
        throw new CliError(`prove: --endpoint ${(error as Error).message.replace(/^createSparqlEndpointStore: /, "must be an http(s) URL: ")}`, 2);
      }
    }
    // --format names the input given as - (formatFor): the graph (ttl, nt, nq, trig) or the script (json)
    const inputs = [values.kg, values.script];
    const scriptFormat = values.script !== undefined ? formatFor(values.script, values.format, inputs) : undefined;
    if (scriptFormat !== undefined && scriptFormat !== "json") throw new CliError(`prove: a script is JSON: --format for the script on standard input must be json, got ${echo(values.format!)}`, 2);
    const progress = createProgress("prove", { quiet: values.quiet });
    const kg = loadKg(values.kg, formatFor(values.kg, values.format, inputs));
    progress.phase("loading the graph into the store");
    let synth: TextSynthesizer;
    if (config.baseUrl) {
      const endpoint = createModelSynthesizer(config);
      synth = withWaitNotice(endpoint, "prove", endpoint.url);
    } else {
      synth = createScriptedSynthesizer(scriptFor(question, values.script));
    }
    const store = endpointStore ?? createOxigraphStore(kg);
    const kernel = createKernel(Schema.fromGraph(kg));
    progress.phase("planning");
    let result: ProveResult;
    try {
      result = await prove(question, { synth, kg, store, kernel, maxTurns, model: config.model });
      progress.done();
    } catch (error) {
      progress.done();
      if (error instanceof SynthesizerError || error instanceof SparqlStoreError) {
        const hint = error instanceof SynthesizerError && error.failure === "timeout" ? " (wait longer with --timeout, e.g. 300s, or GROUNDWIRE_TIMEOUT)" : "";
        throw new CliError(`prove: ${error.message}${hint}`);
      }
      throw error;
    }
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ ...result, planner: synth.name ?? "model", store: store.name }, null, 1)}\n`);
      return result.finished ? 0 : 1;
    }
    const prefixes = Object.fromEntries(Object.entries(kg.prefixes).filter(([p]) => p !== ""));
    const out: string[] = [`question: ${question}`, `planner: ${synth.name ?? "model"}   store: ${store.name}`, ""];
    for (const t of result.turns) {
      out.push(`turn ${t.turn} ${t.status}: ${t.op ? JSON.stringify(t.op) : cutText(t.reply, 120)}`);
      if (t.status !== "accepted") out.push(...t.feedback.trimEnd().split("\n").map((l) => `  ${l}`));
    }
    out.push("", `kernel rejections: ${result.kernelRejections}`);
    if (result.sparql) out.push("", "verified SPARQL:", result.sparql.trimEnd());
    out.push("", "answer:", renderAnswer(result.answer, prefixes));
    process.stdout.write(escapeTerminal(`${out.join("\n")}\n`));
    return result.finished ? 0 : 1;
  },
};
export default command;
