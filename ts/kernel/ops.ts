/**
 * The op list an agent builds step by step, compiled to the kernel algebra
 * (and from there to SPARQL text with `toSparql`). Each op is one JSON object:
 *
 *   {"op":"prefix","prefix":"ex","iri":"http://example.org/"}
 *   {"op":"goal","answer":["?c"],"kind":"entity","type":"ex:City","many":true}
 *   {"op":"triple","s":"?c","p":"ex:hosted","o":"?g"}        p may be "a" or a property path
 *   {"op":"filter","expr":"?pop > 1000000"}
 *   {"op":"bind","expr":"YEAR(?d)","as":"?y"}
 *   {"op":"optional","ops":[…]}   {"op":"minus","ops":[…]}   {"op":"union","branches":[[…],[…]]}
 *   {"op":"values","vars":["?x"],"rows":[["ex:a"],["ex:b"]]}
 *   {"op":"group","by":["?x","(?a + ?b) AS ?s"]}
 *   {"op":"aggregate","fn":"count","of":"?x","as":"?n","distinct":true}   (adds (COUNT(DISTINCT ?x) AS ?n) to the projection)
 *   {"op":"project","vars":["?c","(MAX(?p) AS ?m)"]}     {"op":"distinct"}
 *   {"op":"having","expr":"COUNT(?x) > 2"}   {"op":"ask"}   {"op":"order","by":["DESC(?n)"]}
 *   {"op":"limit","n":1}   {"op":"offset","n":10}   {"op":"finish"} (ends a prove loop; no effect here)
 *
 * Terms and expressions are SPARQL syntax, parsed by Traqula (through
 * `parseSparql`), so an op accepts exactly what a query would. Each field is first
 * read on Traqula's tokens (op-terms.ts): a term field must be exactly one variable, IRI,
 * prefixed name or literal, a predicate one property path, an expression balanced, and no
 * field may hold a comment; so no value can change the shape of the query it joins, and
 * anything else is refused naming the op and the field. Diagnostics on an
 * op-list plan carry `op` (the 0-based index of the top-level op), not a span.
 */
import type { Expr, Group, Origin, Pattern, Projection, Query, Term, TriplePattern, Variable } from "./algebra.js";
import { formatLimit, jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from "../json-depth.js";
import { emptyQuery, iriRef } from "./algebra.js";
import { parseSparql, SparqlSyntaxError } from "./sparql.js";
import { parseGoal, GoalError, type Goal } from "./goal.js";
import { fieldProblem, fieldTokens, type FieldShape, type FieldToken } from "./op-terms.js";

import { opSchema, VARIABLE, type Op, type Plan } from "./plan-schema.js";
import { GroundwireError } from "../errors.js";
import { quoteValue } from "../quote-value.js";

export type { Op, Plan };

/** An op as the compiler reads it, before its fields are known to be well formed. */
type LooseOp = { op: string; [field: string]: unknown };

/** The op list is malformed: names the op (`op N`, counted from 1; `op` holds the 0-based array index) and what is wrong. */
export class PlanError extends GroundwireError {
  constructor(
    message: string,
    readonly op?: number,
  ) {
    super(message, { code: "bad_request", status: 400 });
    this.name = "PlanError";
  }
}

/** Every op name `compileOps` knows. */
export const OP_NAMES = [
  "prefix", "goal", "triple", "filter", "bind", "optional", "minus", "union", "values",
  "group", "aggregate", "project", "distinct", "having", "ask", "order", "limit", "offset", "finish",
] as const;
const PATTERN_OPS = new Set(["triple", "filter", "bind", "optional", "minus", "union", "values"]);

/** Remove the spans of a parsed fragment (they point into a scratch text) and mark it with the op index. */
function relocate<T>(node: T, at: Origin): T {
  if (Array.isArray(node)) {
    for (const x of node) relocate(x, at);
  } else if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if ("at" in o || "kind" in o || "type" in o) o.at = at;
    for (const [k, v] of Object.entries(o)) if (k !== "at" && typeof v === "object") relocate(v, at);
  }
  return node;
}

class OpCompiler {
  readonly query: Query;
  goal: Goal | undefined;
  private projection: Projection[] | "*" = "*";
  private index = 0;

  constructor(prefixes: Record<string, string>) {
    this.query = emptyQuery({ ...prefixes });
  }

  fail(message: string): never {
    // counted from 1 in messages, as critique items and VALUES rows are; `PlanError.op` is the array index
    throw new PlanError(`op ${this.index + 1}: ${message}`, this.index);
  }

  str(op: LooseOp, field: string): string {
    const v = op[field];
    if (typeof v !== "string" || !v.trim()) this.fail(`${op.op} needs "${field}" as a non-empty string, got ${quoteValue(v)}`);
    return v as string;
  }

  /**
   * Refuse a field whose text does not have its shape (see op-terms.ts), naming the op and the field.
   * @param field the field as it is named in messages (`"o"`, `"rows" row 2 cell 1`)
   */
  shaped(text: string, shape: FieldShape, op: string, field: string): string {
    const problem = fieldProblem(text, shape);
    if (problem) this.fail(`${op}: ${field} ${quoteValue(text)} ${problem}`);
    return text;
  }

  /** Parse a fragment inside a scratch query; errors name the op. */
  fragment(text: string, op: string, field?: string): Query {
    try {
      return parseSparql(text, { prefixes: this.query.prefixes });
    } catch (error) {
      if (error instanceof SparqlSyntaxError) this.fail(`${op}: ${field ? `${field}: ` : ""}${error.detail}`);
      throw error;
    }
  }

  expr(text: string, op: string, field = '"expr"'): Expr {
    const problem = fieldProblem(text, "expression");
    // an open bracket at the end: the expression stops where an operand or a closing bracket is still expected
    if (problem?.startsWith("leaves ")) this.fail(`${op}: the expression ${quoteValue(text)} is incomplete: it ends where an operand or ')' is still expected`);
    if (problem) this.fail(`${op}: ${field} ${quoteValue(text)} ${problem}`);
    // a projection accepts every expression, aggregates included; the text is balanced, so it stays inside the parentheses
    const head = "SELECT (";
    let q: Query;
    try {
      q = parseSparql(`${head}${text} AS ?groundwire_expr) WHERE { }`, { prefixes: this.query.prefixes });
    } catch (error) {
      if (!(error instanceof SparqlSyntaxError)) throw error;
      // Past the expression the parser meets the scratch query's own `AS`: saying "unexpected 'AS'"
      // would name text the planner never wrote. The expression ended too early.
      if (!text.includes("\n") && error.line === 1 && error.column > head.length + text.length) {
        this.fail(`${op}: the expression ${quoteValue(text)} is incomplete: it ends where an operand or ')' is still expected`);
      }
      this.fail(`${op}: ${error.detail}`);
    }
    const col = q.projection === "*" ? undefined : q.projection[0];
    if (!col?.expr) this.fail(`${op}: not an expression: ${quoteValue(text)}`);
    return relocate(col.expr, { op: this.index });
  }

  variable(text: unknown, op: string, field: string): Variable {
    if (typeof text !== "string" || !VARIABLE.test(text)) this.fail(`${op} needs "${field}" as a variable like "?x", got ${quoteValue(text)}`);
    return { kind: "var", name: (text as string).slice(1), at: { op: this.index } };
  }

  term(text: unknown, op: string, field: string): Term | undefined {
    if (text === null || text === "UNDEF") return undefined;
    if (typeof text === "number" && !Number.isFinite(text)) this.fail(`${op}: ${field} must be a finite number, got ${String(text)}`);
    // a JSON number as SPARQL digits: 1e21 prints as "1e+21" in JS, which SPARQL reads as a double; an integer keeps its digits
    if (typeof text === "number") text = Number.isInteger(text) ? BigInt(text).toString() : String(text).replace("e+", "e");
    if (typeof text === "boolean") text = String(text);
    if (typeof text !== "string") this.fail(`${op}: a term must be a string, got ${quoteValue(text)}`);
    this.shaped(text as string, "data", op, field);
    const q = this.fragment(`SELECT * WHERE { VALUES ?v { ${text} } }`, op, field);
    const v = q.where.patterns[0];
    if (!v || v.type !== "values" || v.rows.length !== 1) this.fail(`${op}: not a single term: ${quoteValue(text)}`);
    return relocate(v.rows[0][0], { op: this.index });
  }

  patterns(ops: unknown, op: string): Group {
    if (!Array.isArray(ops)) this.fail(`${op} needs "ops" as a list of ops`);
    const g: Group = { type: "group", patterns: [], at: { op: this.index } };
    for (const inner of ops as unknown[]) g.patterns.push(this.pattern(inner as LooseOp));
    return g;
  }

  pattern(op: LooseOp): Pattern {
    if (!op || typeof op !== "object" || typeof op.op !== "string") this.fail(`expected an op object like {"op":"triple",…}, got ${quoteValue(op)}`);
    const at = { op: this.index };
    switch (op.op) {
      case "triple": {
        const s = this.shaped(this.str(op, "s"), "term", "triple", '"s"');
        const p = this.shaped(this.str(op, "p"), "predicate", "triple", '"p"');
        const o = this.shaped(this.str(op, "o"), "term", "triple", '"o"');
        // a path's tokens can each be allowed and still not make a path ("<a> <b>"): read it alone,
        // so the refusal names the field rather than what the scratch query held after it
        try {
          parseSparql(`SELECT * WHERE { ?s ${p} ?o }`, { prefixes: this.query.prefixes });
        } catch (error) {
          if (error instanceof SparqlSyntaxError) this.fail(error.undeclaredPrefix === undefined ? `triple: "p" ${quoteValue(p)} is not a property or property path SPARQL can read` : `triple: ${error.detail}`);
          throw error;
        }
        const q = this.fragment(`SELECT * WHERE { ${s} ${p} ${o} . }`, "triple");
        const bgp = q.where.patterns[0];
        if (q.where.patterns.length !== 1 || !bgp || bgp.type !== "bgp" || bgp.triples.length !== 1) this.fail(`triple: not one triple pattern: ${s} ${p} ${o}`);
        return relocate({ type: "bgp", triples: bgp.triples as TriplePattern[], at }, at);
      }
      case "filter":
        return { type: "filter", expr: this.expr(this.str(op, "expr"), "filter"), at };
      case "bind":
        return { type: "bind", expr: this.expr(this.str(op, "expr"), "bind"), variable: this.variable(op.as, "bind", "as"), at };
      case "optional":
        return { type: "optional", group: this.patterns(op.ops, "optional"), at };
      case "minus":
        return { type: "minus", group: this.patterns(op.ops, "minus"), at };
      case "union": {
        if (!Array.isArray(op.branches) || op.branches.length < 2) this.fail(`union needs "branches" as a list of at least two op lists`);
        return { type: "union", branches: (op.branches as unknown[]).map((b) => this.patterns(b, "union")), at };
      }
      case "values": {
        if (!Array.isArray(op.vars) || !Array.isArray(op.rows)) this.fail(`values needs "vars" (variables) and "rows" (lists of terms)`);
        const variables = (op.vars as unknown[]).map((v) => this.variable(v, "values", "vars"));
        const rows = (op.rows as unknown[]).map((r, i) => {
          if (!Array.isArray(r)) this.fail(`values: row ${i + 1} must be a list of ${variables.length} terms, got ${quoteValue(r)}`);
          if (r.length !== variables.length)
            this.fail(`values: row ${i + 1} ${quoteValue(r)} has ${r.length} term${r.length === 1 ? "" : "s"} for ${variables.length} variable${variables.length === 1 ? "" : "s"} (${variables.map((v) => `?${v.name}`).join(" ")}): write null or "UNDEF" for a missing value`);
          return (r as unknown[]).map((t, j) => this.term(t, "values", `"rows" row ${i + 1} cell ${j + 1}`));
        });
        return { type: "values", variables, rows, at };
      }
    }
    if ((OP_NAMES as readonly string[]).includes(op.op)) this.fail(`"${op.op}" is not allowed inside a nested op list`);
    this.fail(`unknown op ${quoteValue(op.op)} (expected one of ${OP_NAMES.join(", ")})`);
  }

  top(op: LooseOp, index: number): void {
    this.index = index;
    if (!op || typeof op !== "object" || Array.isArray(op) || typeof op.op !== "string") this.fail(`expected an op object like {"op":"triple",…}, got ${quoteValue(op)}`);
    const q = this.query;
    const at = { op: index };
    if (PATTERN_OPS.has(op.op)) {
      q.where.patterns.push(this.pattern(op));
      return;
    }
    switch (op.op) {
      case "prefix": {
        const prefix = op.prefix;
        if (typeof prefix !== "string" || !/^[A-Za-z][\w.-]*$|^$/.test(prefix)) this.fail(`prefix needs "prefix" like "ex", got ${quoteValue(prefix)}`);
        const iri = this.str(op, "iri");
        // Refused here, not when printed: a namespace holding ">" would end the IRI in the query text.
        try {
          iriRef(iri);
        } catch (error) {
          this.fail(`prefix ${quoteValue(prefix)}: ${(error as Error).message}`);
        }
        q.prefixes[prefix as string] = iri;
        return;
      }
      case "goal":
        try {
          this.goal = parseGoal(op, q.prefixes);
        } catch (error) {
          if (error instanceof GoalError) this.fail(error.message);
          throw error;
        }
        return;
      case "group": {
        if (!Array.isArray(op.by) || !op.by.length) this.fail(`group needs "by" as a non-empty list like ["?x"]`);
        (op.by as unknown[]).forEach((b, i) => {
          if (typeof b !== "string") this.fail(`group: "by" items must be strings`);
          const tokens = this.tokens(b as string, "expression", "group", `"by" item ${i + 1}`);
          // one variable, `(expr)`, `(expr AS ?v)`; anything else is wrapped in parentheses, so it cannot leave its place
          const text = tokens.length === 1 || enclosed(tokens) ? (b as string) : `(${b as string})`;
          const g = this.fragment(`SELECT * WHERE { } GROUP BY ${text}`, "group", `"by" item ${i + 1} ${quoteValue(b)}`);
          if (g.groupBy.length !== 1 || !onlyClause(g, "groupBy")) this.fail(`group: "by" item ${i + 1} ${quoteValue(b)} is not one grouping condition`);
          q.groupBy.push(...relocate(g.groupBy, at));
        });
        return;
      }
      case "aggregate": {
        const fn = this.str(op, "fn").toUpperCase();
        if (!["COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT"].includes(fn)) this.fail(`aggregate: unknown fn ${quoteValue(op.fn)} (expected count, sum, avg, min, max, sample, group_concat)`);
        const of = op.of === undefined ? "*" : this.shaped(this.str(op, "of"), "expression", "aggregate", '"of"');
        const alias = this.variable(op.as, "aggregate", "as");
        const expr = this.expr(`${fn}(${op.distinct ? "DISTINCT " : ""}${of})`, "aggregate", '"of"');
        this.column({ variable: alias, expr, at });
        return;
      }
      case "project": {
        if (!Array.isArray(op.vars) || !op.vars.length) this.fail(`project needs "vars" as a non-empty list like ["?c"]`);
        const cols: Projection[] = [];
        for (const v of op.vars as unknown[]) {
          if (typeof v !== "string") this.fail(`project: "vars" items must be strings`);
          const text = (v as string).trim();
          const tokens = this.tokens(text, "expression", "project", `"vars" item ${cols.length + 1}`);
          if (tokens.length === 1 && (tokens[0].type === "Var1" || tokens[0].type === "Var2")) cols.push({ variable: this.variable(text, "project", "vars"), at });
          else {
            const p = this.fragment(`SELECT ${enclosed(tokens) ? text : `(${text})`} WHERE { }`, "project", `"vars" item ${cols.length + 1} ${quoteValue(text)}`);
            if (p.projection === "*" || p.projection.length !== 1 || !onlyClause(p, "projection")) this.fail(`project: not a column: ${quoteValue(text)}`);
            cols.push(relocate(p.projection[0], at));
          }
        }
        for (const c of cols) this.column(c);
        return;
      }
      case "distinct":
        q.distinct = true;
        return;
      case "having":
        q.having.push(this.expr(this.str(op, "expr"), "having"));
        return;
      case "ask":
        q.form = "ask";
        return;
      case "order": {
        if (!Array.isArray(op.by) || !op.by.length) this.fail(`order needs "by" as a non-empty list like ["DESC(?n)"]`);
        (op.by as unknown[]).forEach((b, i) => {
          if (typeof b !== "string") this.fail(`order: "by" items must be strings`);
          const tokens = this.tokens(b as string, "expression", "order", `"by" item ${i + 1}`);
          // one variable, `(expr)`, ASC(expr) / DESC(expr), or anything else in parentheses: it cannot leave its place
          const direction = (tokens[0].type === "OrderAsc" || tokens[0].type === "OrderDesc") && enclosed(tokens.slice(1));
          const text = tokens.length === 1 || enclosed(tokens) || direction ? (b as string) : `(${b as string})`;
          const g = this.fragment(`SELECT * WHERE { } ORDER BY ${text}`, "order", `"by" item ${i + 1} ${quoteValue(b)}`);
          if (g.orderBy.length !== 1 || !onlyClause(g, "orderBy")) this.fail(`order: "by" item ${i + 1} ${quoteValue(b)} is not one order condition`);
          q.orderBy.push(...relocate(g.orderBy, at));
        });
        return;
      }
      case "limit":
      case "offset": {
        const n = op.n;
        if (typeof n !== "number" || !Number.isInteger(n) || n < 0) this.fail(`${op.op} needs "n" as a non-negative integer, got ${quoteValue(n)}`);
        q[op.op] = n as number;
        return;
      }
      case "finish":
        return;
    }
    this.fail(`unknown op ${quoteValue(op.op)} (expected one of ${OP_NAMES.join(", ")})`);
  }

  /** The tokens of a field of this shape (refused as in {@link shaped}). */
  tokens(text: string, shape: FieldShape, op: string, field: string): FieldToken[] {
    this.shaped(text, shape, op, field);
    return (fieldTokens(text) as { tokens: FieldToken[] }).tokens;
  }

  column(c: Projection): void {
    if (this.projection === "*") this.projection = [];
    const i = this.projection.findIndex((x) => x.variable.name === c.variable.name);
    if (i >= 0) this.projection[i] = c;
    else this.projection.push(c);
  }

  finish(): Query {
    if (this.query.form === "select") this.query.projection = this.projection;
    return this.query;
  }
}

/** Whether the tokens are one parenthesised group: the first `(` closes at the last token. */
function enclosed(tokens: FieldToken[]): boolean {
  if (tokens.length < 2 || tokens[0].type !== "LParen") return tokens.length === 1 && tokens[0].type === "Nil";
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i].type;
    if (t === "LParen" || t === "LCurly" || t === "LSquare") depth++;
    else if (t === "RParen" || t === "RCurly" || t === "RSquare") depth--;
    if (depth === 0) return i === tokens.length - 1;
  }
  return false;
}

/** Whether a scratch query holds nothing but its empty WHERE and the one clause a field filled. */
function onlyClause(q: Query, clause: "groupBy" | "orderBy" | "projection"): boolean {
  return (
    q.where.patterns.length === 0 &&
    (clause === "projection" || q.projection === "*") &&
    (clause === "groupBy" || q.groupBy.length === 0) &&
    (clause === "orderBy" || q.orderBy.length === 0) &&
    q.having.length === 0 && q.limit === undefined && q.offset === undefined && q.values === undefined && !q.distinct && !q.reduced
  );
}

/** One schema issue as a sentence: a goal op's fields are the goal's ("malformed goal: …"). */
function planIssueMessage(op: unknown, issue: { message: string; path: PropertyKey[] }): string {
  const isGoal = (op as { op?: unknown } | null)?.op === "goal";
  return isGoal ? `malformed goal: ${issue.message}` : issue.message;
}

/**
 * Compile an op list to the kernel algebra.
 * @param ops the plan: an array of op objects (or the JSON text of one)
 * @param options.prefixes prefixes assumed before any `prefix` op (e.g. the schema's)
 * @returns the query, and the goal when the list has a goal op
 * @throws PlanError naming the op index on an unknown op, a malformed op, a malformed goal or bad SPARQL inside an op
 */
export function compileOps(ops: readonly Op[] | Plan | string, options: { prefixes?: Record<string, string> } = {}): { query: Query; goal?: Goal } {
  let list: unknown = ops;
  if (typeof ops === "string") {
    const line = jsonTextTooDeep(ops);
    if (line !== null) throw new PlanError(`the plan nests deeper than ${formatLimit(MAX_JSON_DEPTH)} at line ${line}`);
    try {
      list = JSON.parse(ops);
    } catch (error) {
      throw new PlanError(`the plan is not JSON: ${(error as Error).message.replace(/\s+/g, (run) => (run.includes("\n") ? " " : run))}`);
    }
  }
  else if (valueTooDeep(list)) throw new PlanError(`the plan nests deeper than ${formatLimit(MAX_JSON_DEPTH)}`);
  if (list && typeof list === "object" && !Array.isArray(list) && Array.isArray((list as { ops?: unknown }).ops)) list = (list as { ops: unknown }).ops;
  if (!Array.isArray(list)) throw new PlanError(`a plan is a JSON list of ops, got ${quoteValue(list)}`);
  const c = new OpCompiler(options.prefixes ?? {});
  list.forEach((op: unknown, i) => {
    // The schema (plan-schema.ts) is the gate; when it refuses an op the compiler's own
    // check of that op usually names the fault more precisely (which row, which term), so
    // it speaks first, and the schema's message is the fallback.
    const shape = opSchema.safeParse(op);
    if (!shape.success) {
      c.top(op as LooseOp, i);
      throw new PlanError(`op ${i + 1}: ${planIssueMessage(op, shape.error.issues[0]!)}`, i);
    }
    c.top(op as LooseOp, i);
  });
  return { query: c.finish(), goal: c.goal };
}
