/**
 * The prover (after the seed's prover.py): the algebra agent with the kernel
 * installed. The planner states the goal first, then adds one op per turn,
 * shown the plan state (typing context and open goals) after each. An op that
 * makes the plan ill-typed is refused and counted in `kernelRejections`; so is
 * `finish` while an error or an open goal remains. Only a verified plan reaches
 * the store; after it runs, the solution count is checked against the goal
 * (one answer asked for, several returned → an open goal, finish refused again).
 */
import type { Graph } from "../rdf/index.js";
import type { ChatMessage, TextSynthesizer } from "../moot/index.js";
import { compactIri } from "./algebra.js";
import { createKernel, type Kernel } from "./check/kernel.js";
import { renderPlanState, type CheckResult } from "./check/diagnostics.js";
import type { Goal } from "./goal.js";
import { compileOps, PlanError, OP_NAMES, type Op } from "./ops.js";
import { Schema } from "./schema.js";
import { solutionCount, type SparqlResult, type SparqlStore } from "./store.js";
import { checkArgs } from "../args.js";

/** One turn of a proof: what the planner said, what the kernel did with it, and what the planner was shown next. */
export interface ProveTurn {
  turn: number;
  reply: string;
  op: Op | null;
  status: "accepted" | "rejected" | "unreadable" | "finished";
  /** The kernel's feedback (plan state, or the reason of a refusal). */
  feedback: string;
}

/** The result of `prove`. */
export interface ProveResult {
  question: string;
  /** The store's answer to the verified plan, or null when the planner never finished. */
  answer: SparqlResult | null;
  /** The accepted ops (goal first). */
  plan: Op[];
  /** The verified plan as SPARQL, or null. */
  sparql: string | null;
  /** Ops and finishes the kernel refused. */
  kernelRejections: number;
  goal: Goal | null;
  turns: ProveTurn[];
  finished: boolean;
}

/** Settings of `prove`. */
export interface ProveOptions {
  /** The planner: any chat synthesizer (OpenAI-compatible, or `createScriptedSynthesizer`). */
  synth: TextSynthesizer;
  /** The knowledge graph; its schema (classes, properties, domains, ranges) is what plans are checked against. */
  kg: Graph;
  /** Where verified plans run (e.g. `createOxigraphStore(kg)`). */
  store: SparqlStore;
  /** A kernel to reuse (default: one over `Schema.fromGraph(kg)`). */
  kernel?: Kernel;
  /** Turn budget (default 16). */
  maxTurns?: number;
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

const SYSTEM = `You build a SPARQL query for a question over a knowledge graph, one op per turn.
Reply with exactly one JSON object per turn, nothing else. Ops:
{"op":"goal","answer":["?x"],"kind":"entity|literal|number|boolean","type":"ex:Class","many":true}  (state it first)
{"op":"triple","s":"?c","p":"ex:prop","o":"?g"}   (p may be "a")
{"op":"filter","expr":"?y > 1990"}   {"op":"bind","expr":"YEAR(?d)","as":"?y"}
{"op":"optional","ops":[…]}   {"op":"minus","ops":[…]}   {"op":"union","branches":[[…],[…]]}
{"op":"values","vars":["?x"],"rows":[["ex:a"]]}   {"op":"group","by":["?x"]}
{"op":"aggregate","fn":"count","of":"?x","as":"?n","distinct":true}   {"op":"project","vars":["?x"]}
{"op":"distinct"}   {"op":"ask"}   {"op":"order","by":["DESC(?n)"]}   {"op":"limit","n":1}
{"op":"finish"}   (only when there is no error and no open goal)
After each op you are shown the plan state: the type of each variable and the open goals.`;

function vocabulary(kernel: Kernel): string {
  const s = kernel.schema;
  const prefixes = Object.fromEntries(Object.entries(s.prefixes).filter(([p]) => p !== ""));
  const name = (iri: string) => compactIri(iri, prefixes);
  const described = (iri: string) => s.describes(iri) && !iri.startsWith("http://www.w3.org/");
  const classes = [...s.classes].filter(described).slice(0, 200).map(name);
  const props = [...s.properties.values()].filter((p) => described(p.iri)).slice(0, 300).map((p) => {
    const d = s.domainsOf(p.iri).map(name).join("|");
    const r = s.rangesOf(p.iri).map(name).join("|");
    return `${name(p.iri)}${d || r ? ` (${d || "?"} → ${r || "?"})` : ""}`;
  });
  const pfx = Object.entries(prefixes).map(([p, ns]) => `${p}: <${ns}>`).join("\n");
  return `prefixes:\n${pfx}\nclasses: ${classes.join(", ")}\nproperties:\n${props.join("\n")}`;
}

/** The first JSON object in a reply (models wrap JSON in prose or code fences). */
function readOp(reply: string): Op {
  const start = reply.indexOf("{");
  if (start < 0) throw new Error("no JSON object in the reply");
  let depth = 0;
  let inString = false;
  for (let i = start; i < reply.length; i++) {
    const c = reply[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      const op = JSON.parse(reply.slice(start, i + 1));
      if (!op || typeof op.op !== "string") throw new Error(`not an op: ${reply.slice(start, i + 1)}`);
      return op as Op;
    }
  }
  throw new Error("an unterminated JSON object in the reply");
}

function describeErrors(r: CheckResult): string {
  return r.errors.map((e) => `  ${e.message}${e.hint ? ` — ${e.hint}` : ""}`).join("\n");
}

/**
 * Plan, verify and answer `question` over `kg`.
 * @returns the answer (null when the turn budget ran out), the accepted plan, its SPARQL, the kernel's refusals, the goal and every turn
 * @throws what the synthesizer or the store throws (e.g. SynthesizerError, SparqlStoreError)
 */
export async function prove(question: string, options: ProveOptions): Promise<ProveResult> {
  checkArgs("prove", arguments, "question:string options:object");
  const kernel = options.kernel ?? createKernel(Schema.fromGraph(options.kg));
  const maxTurns = options.maxTurns ?? 16;
  const messages: ChatMessage[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: `${vocabulary(kernel)}\n\nquestion: ${question}\nState the goal first.` },
  ];
  const plan: Op[] = [];
  const turns: ProveTurn[] = [];
  let goal: Goal | null = null;
  let rejections = 0;
  let last: CheckResult | null = null;
  const result = (answer: SparqlResult | null, finished: boolean): ProveResult => ({
    question, answer, plan, sparql: finished && last ? last.sparql : null, kernelRejections: rejections, goal, turns, finished,
  });
  for (let turn = 1; turn <= maxTurns; turn++) {
    const reply = await options.synth.complete(messages, { model: options.model, temperature: options.temperature ?? 0, maxTokens: options.maxTokens ?? 300 });
    messages.push({ role: "assistant", content: reply });
    const record = (op: Op | null, status: ProveTurn["status"], feedback: string) => {
      turns.push({ turn, reply, op, status, feedback });
      messages.push({ role: "user", content: feedback });
    };
    let op: Op;
    try {
      op = readOp(reply);
    } catch (error) {
      record(null, "unreadable", `could not read an op (${(error as Error).message}); reply with one JSON object, e.g. {"op":"triple","s":"?x","p":"a","o":"ex:City"}`);
      continue;
    }
    if (!goal && op.op !== "goal") {
      rejections++;
      record(op, "rejected", `refused: state the goal first, e.g. {"op":"goal","answer":["?x"],"kind":"entity","many":true}`);
      continue;
    }
    if (op.op === "finish") {
      if (!last || last.errors.length || last.openGoals.length) {
        rejections++;
        record(op, "rejected", `refused: finish needs a plan with no error and no open goal\n${last ? renderPlanState(last) : ""}`);
        continue;
      }
      const answer = await options.store.query(last.sparql);
      const after = kernel.checkQuery(last.query, last.goal, { solutions: solutionCount(answer) });
      if (after.openGoals.length) {
        rejections++;
        last = after;
        record(op, "rejected", `refused after execution:\n${renderPlanState(after)}`);
        continue;
      }
      record(op, "finished", renderPlanState(after));
      return result(answer, true);
    }
    if (!(OP_NAMES as readonly string[]).includes(op.op)) {
      rejections++;
      record(op, "rejected", `refused: unknown op "${op.op}" (expected one of ${OP_NAMES.join(", ")})`);
      continue;
    }
    let checked: CheckResult;
    try {
      const compiled = compileOps([...plan, op], { prefixes: kernel.schema.prefixes });
      checked = kernel.checkQuery(compiled.query, compiled.goal);
    } catch (error) {
      if (!(error instanceof PlanError)) throw error;
      rejections++;
      record(op, "rejected", `refused: ${error.message.replace(/^op \d+: /, "")}`);
      continue;
    }
    if (checked.errors.length) {
      rejections++;
      record(op, "rejected", `refused, the plan would be ill-typed:\n${describeErrors(checked)}\n${last ? renderPlanState(last) : ""}`);
      continue;
    }
    plan.push(op);
    if (op.op === "goal") goal = checked.goal ?? null;
    last = checked;
    record(op, "accepted", renderPlanState(checked));
  }
  return result(null, false);
}

/**
 * A planner that replays fixed replies, one per turn (for tests and the offline demo);
 * after the last it answers `{"op":"finish"}`.
 * @param replies op objects or raw reply strings; an op may be malformed (a model's can be:
 *   the prover must refuse it and go on), so any object with an `op` string is accepted
 */
export function createScriptedSynthesizer(replies: ReadonlyArray<Op | string | { op: string; [field: string]: unknown }>): TextSynthesizer & { readonly calls: number } {
  checkArgs("createScriptedSynthesizer", arguments, "replies:array");
  let i = 0;
  return {
    name: "scripted",
    get calls() {
      return i;
    },
    async complete() {
      const r = i < replies.length ? replies[i] : { op: "finish" };
      i++;
      return typeof r === "string" ? r : JSON.stringify(r);
    },
  };
}
