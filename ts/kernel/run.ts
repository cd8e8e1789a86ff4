/**
 * Run only what passed: a plan is checked against the schema and the goal, refused with its
 * diagnostics while an error or an open goal remains (the prover's rule for `finish`, applied at
 * the door), and otherwise run on a store with a row limit written into the parsed query.
 *
 * The limit is never pasted into the query text: the plan is parsed to the kernel's algebra,
 * its `limit` set there (the smaller of the caller's and the plan's own, plus one row to learn
 * whether the limit cut the answer) and printed back with `toSparql`. SERVICE is refused: a
 * verified plan reads the store it was sent to, not a third endpoint that store would call.
 */
import { toSparql, type Group, type Pattern, type Query, type Expr } from "./algebra.js";
import type { Kernel } from "./check/kernel.js";
import { renderPlanState, type CheckResult } from "./check/diagnostics.js";
import type { Goal, GoalInput } from "./goal.js";
import type { Op, Plan } from "./ops.js";
import type { SparqlDialect } from "./dialect.js";
import { solutionCount, type ResultTerm, type SparqlResult, type SparqlStore } from "./store.js";
import { GroundwireError, ArgumentError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";

/** Entries of each list (context, open goals, errors, warnings) a refusal's message shows; `check` keeps them all. */
export const MAX_REFUSAL_ITEMS = 50;

/** The plan did not pass its check: the message is the plan state (context, open goals, errors, warnings), each list cut at {@link MAX_REFUSAL_ITEMS}. */
export class QueryRefusedError extends GroundwireError {
  constructor(readonly check: Omit<CheckResult, "query">) {
    super(`the plan has ${count(check.errors.length, "error")} and ${count(check.openGoals.length, "open goal")}; nothing was run\n${boundedPlanState(check)}`, { code: "refused", status: 422 });
    this.name = "QueryRefusedError";
  }
}

/** renderPlanState with each list cut at MAX_REFUSAL_ITEMS and a line saying how many were left out: a 1 MB plan's 20,000 errors make a message a model can read. */
function boundedPlanState(check: Omit<CheckResult, "query">): string {
  const lists = ["context", "openGoals", "errors", "warnings"] as const;
  const left = lists.map((k) => [k, Math.max(0, check[k].length - MAX_REFUSAL_ITEMS)] as const).filter(([, n]) => n > 0);
  const cut = { ...check, context: check.context.slice(0, MAX_REFUSAL_ITEMS), openGoals: check.openGoals.slice(0, MAX_REFUSAL_ITEMS), errors: check.errors.slice(0, MAX_REFUSAL_ITEMS), warnings: check.warnings.slice(0, MAX_REFUSAL_ITEMS) };
  const words: Record<(typeof lists)[number], string> = { context: "context entry", openGoals: "open goal", errors: "error", warnings: "warning" };
  return renderPlanState(cut) + left.map(([k, n]) => `… ${count(n, words[k])} more not shown\n`).join("");
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

/** Settings of {@link runCheckedPlan}. */
export interface RunPlanOptions {
  /** Rows returned at most (a whole number ≥ 1). The query asks for one more to learn whether the limit cut the answer. */
  maxRows: number;
  /** Prefixes the endpoint predeclares (as for `Kernel.check`); the query sent declares every prefix it uses. */
  prefixes?: Record<string, string>;
  /** The SPARQL the plan's text is written in (as for `Kernel.check`): `virtuoso` reads its bare SELECT columns as the standard form, which is what is sent. */
  dialect?: SparqlDialect;
  /** Rows shown in {@link RunPlanResult.table} (default 20). */
  tableRows?: number;
}

/** What {@link runCheckedPlan} returns. */
export interface RunPlanResult {
  /** The check that let the plan run (its warnings, context and goal state). */
  check: Omit<CheckResult, "query">;
  /** The query as sent to the store (the plan with its LIMIT rewritten). */
  sent: string;
  /** The rows (at most `maxRows`) as SPARQL 1.1 Query Results JSON: `{head, results}` or `{head, boolean}`. */
  results: { head: { vars: string[] }; results?: { bindings: Record<string, ResultTerm>[] }; boolean?: boolean };
  /** Solutions returned (after the cut; 1 for ASK). */
  count: number;
  /** Whether the store had more rows than `maxRows` (or than the plan's own LIMIT allowed: then false). */
  truncated: boolean;
  /** The first rows as a short aligned text table, IRIs written with the query's prefixes. */
  table: string;
}

/**
 * A copy of `query` whose LIMIT is `min(query.limit, maxRows + 1)`: the extra row tells whether
 * `maxRows` cut the answer. ASK is left as it is.
 * @returns the query and whether it asks for the probe row (false when the plan's own LIMIT is ≤ maxRows)
 */
export function limitQuery(query: Query, maxRows: number): { query: Query; probe: boolean } {
  checkArgs("limitQuery", arguments, "query:query maxRows:int");
  if (!Number.isInteger(maxRows) || maxRows < 1) throw new ArgumentError("limitQuery", "maxRows", "a whole number ≥ 1", maxRows);
  if (query.form === "ask") return { query, probe: false };
  const own = query.limit;
  if (own !== undefined && own <= maxRows) return { query, probe: false };
  return { query: { ...query, limit: maxRows + 1 }, probe: true };
}

/**
 * Check `plan` with `kernel`; when no error and no open goal remains, run it on `store` with its
 * LIMIT rewritten (see {@link limitQuery}) and return the rows, a table and the count.
 * @throws QueryRefusedError (422 `refused`) when the check finds an error or an open goal, or the plan uses SERVICE
 * @throws GroundwireError (400) for a CONSTRUCT or DESCRIBE plan (run_sparql answers solutions)
 * @throws SparqlSyntaxError, PlanError, GoalError as `Kernel.check`; SparqlStoreError from the store (502, 504 on a timeout)
 */
export async function runCheckedPlan(kernel: Kernel, plan: string | readonly Op[] | Plan, goal: Goal | GoalInput | string | undefined, store: SparqlStore, options: RunPlanOptions): Promise<RunPlanResult> {
  checkArgs("runCheckedPlan", arguments, "kernel:kernel plan:string|array|object goal?:object|string store:sparqlStore options:object");
  const prepared = prepareCheckedPlan(kernel, plan, goal, options);
  return answerPreparedPlan(prepared, await store.query(prepared.sent), options);
}

/** A plan that passed its check, ready to send: what {@link prepareCheckedPlan} returns (plain data: it crosses a thread). */
export interface PreparedPlan {
  check: Omit<CheckResult, "query">;
  /** The query to send (the plan with its LIMIT rewritten). */
  sent: string;
  /** Whether `sent` asks for one row past the limit (to learn whether the limit cut the answer). */
  probe: boolean;
  /** Rows kept at most: maxRows, or the plan's own smaller LIMIT. */
  keep: number;
  /** The prefixes the query declares (the table writes IRIs with them). */
  prefixes: Record<string, string>;
}

/**
 * The first half of {@link runCheckedPlan}, without the store: check the plan, refuse it, or
 * rewrite its LIMIT. A server runs this (CPU) in a worker and waits for the endpoint (I/O) on
 * its main thread, so a slow endpoint holds no worker.
 * @throws as runCheckedPlan before the store is asked
 */
export function prepareCheckedPlan(kernel: Kernel, plan: string | readonly Op[] | Plan, goal: Goal | GoalInput | string | undefined, options: RunPlanOptions): PreparedPlan {
  checkArgs("prepareCheckedPlan", arguments, "kernel:kernel plan:string|array|object goal?:object|string options:object");
  const { query, ...check } = kernel.check(plan, goal, { prefixes: options.prefixes, dialect: options.dialect });
  if (check.errors.length || check.openGoals.length) throw new QueryRefusedError(check);
  if (query.form !== "select" && query.form !== "ask") throw new GroundwireError(`a ${query.form.toUpperCase()} query is not run here: write a SELECT or an ASK`, { code: "bad_request", status: 400 });
  if (usesService(query.where)) throw new GroundwireError("SERVICE is not run here (a verified plan reads the store it is sent to, not a third endpoint); nothing was run", { code: "refused", status: 422 });
  // every prefix the plan relied on (the schema's, the endpoint's) is declared in the text sent
  const assumed = { ...kernel.schema.prefixes, ...options.prefixes, ...query.prefixes };
  const { query: limited, probe } = limitQuery({ ...query, prefixes: assumed }, options.maxRows);
  // the rows kept: maxRows, or the plan's own smaller LIMIT (a store that ignores the LIMIT sent is cut here)
  const keep = probe ? options.maxRows : Math.min(options.maxRows, limited.limit ?? options.maxRows);
  return { check, sent: toSparql(limited), probe, keep, prefixes: assumed };
}

/** The second half of {@link runCheckedPlan}: a store's answer to a prepared plan as rows, count and table. */
export function answerPreparedPlan(prepared: PreparedPlan, answer: SparqlResult, options: Pick<RunPlanOptions, "maxRows" | "tableRows">): RunPlanResult {
  checkArgs("answerPreparedPlan", arguments, "prepared:object answer:sparqlResult options:object");
  return shapeAnswer(answer, { check: prepared.check, sent: prepared.sent, probe: prepared.probe, maxRows: options.maxRows, keep: prepared.keep, prefixes: prepared.prefixes, tableRows: options.tableRows ?? 20 });
}

function shapeAnswer(answer: SparqlResult, o: { check: Omit<CheckResult, "query">; sent: string; probe: boolean; maxRows: number; keep: number; prefixes: Record<string, string>; tableRows: number }): RunPlanResult {
  if (answer.kind === "boolean") {
    return { check: o.check, sent: o.sent, results: { head: { vars: [] }, boolean: answer.boolean }, count: 1, truncated: false, table: answer.boolean ? "true\n" : "false\n" };
  }
  const truncated = o.probe && answer.rows.length > o.maxRows;
  // never more than maxRows, even from a store that ignores the LIMIT it was sent
  const rows = answer.rows.length > o.keep ? answer.rows.slice(0, o.keep) : answer.rows;
  const kept: SparqlResult = { kind: "bindings", variables: answer.variables, rows };
  return {
    check: o.check,
    sent: o.sent,
    results: { head: { vars: answer.variables }, results: { bindings: rows } },
    count: solutionCount(kept),
    truncated,
    table: renderTable(answer.variables, rows, o.prefixes, o.tableRows, truncated),
  };
}

/** Widest cell shown in a table, in characters (longer values end in `…`). */
const MAX_CELL = 60;

/** One term as a reader writes it: `dbr:Oslo`, `"Oslo"@en`, `1952`, `_:b0`. */
export function formatResultTerm(term: ResultTerm | undefined, prefixes: Record<string, string>): string {
  checkArgs("formatResultTerm", arguments, "term?:resultTerm|null prefixes:prefixes");
  if (!term) return "";
  let text: string;
  if (term.type === "uri") {
    let best: string | undefined;
    for (const [p, ns] of Object.entries(prefixes)) {
      if (term.value.startsWith(ns) && (best === undefined || ns.length > prefixes[best]!.length) && /^[\w.-]*$/.test(term.value.slice(ns.length))) best = p;
    }
    text = best === undefined ? `<${term.value}>` : `${best}:${term.value.slice(prefixes[best]!.length)}`;
  } else if (term.type === "bnode") text = `_:${term.value}`;
  else if (term.type === "literal") {
    const numeric = term.datatype && /#(integer|decimal|double|float|int|long|short|nonNegativeInteger|positiveInteger|boolean)$/.test(term.datatype);
    text = numeric ? term.value : JSON.stringify(term.value) + (term["xml:lang"] ? `@${term["xml:lang"]}` : "");
  } else text = term.value;
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/**
 * The first `maxRows` rows as an aligned text table (a header, a rule, one line per row), then
 * a line saying how many rows were left out and whether the store had more.
 */
export function renderTable(variables: readonly string[], rows: readonly Record<string, ResultTerm>[], prefixes: Record<string, string>, maxRows = 20, truncated = false): string {
  checkArgs("renderTable", arguments, "variables:strings rows:array prefixes:prefixes maxRows?:int truncated?:boolean");
  const shown = rows.slice(0, maxRows).map((r) => variables.map((v) => formatResultTerm(r[v], prefixes)));
  const header = variables.map((v) => `?${v}`);
  const widths = header.map((h, i) => Math.max(h.length, ...shown.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ").trimEnd();
  const out = [line(header), widths.map((w) => "-".repeat(w)).join("-|-"), ...shown.map(line)];
  const more = rows.length - shown.length;
  if (more > 0) out.push(`… ${more} more row${more === 1 ? "" : "s"} not shown`);
  out.push(`${rows.length} row${rows.length === 1 ? "" : "s"}${truncated ? " (cut at the limit: the store has more)" : ""}`);
  return out.join("\n") + "\n";
}

function usesService(group: Group): boolean {
  const expr = (e: Expr): boolean => (e.kind === "exists" ? usesService(e.group) : e.kind === "call" ? e.args.some(expr) : e.kind === "aggregate" && e.arg !== "*" ? expr(e.arg) : false);
  const pattern = (p: Pattern): boolean => {
    switch (p.type) {
      case "service":
        return true;
      case "group":
        return usesService(p);
      case "optional":
      case "minus":
      case "graph":
        return usesService(p.group);
      case "union":
        return p.branches.some(usesService);
      case "subquery":
        return usesService(p.query.where);
      case "filter":
      case "bind":
        return expr(p.expr);
      default:
        return false;
    }
  };
  return group.patterns.some(pattern);
}
