/**
 * The checker's top layer: one pass, the context, the open goals.
 */
import { toSparql } from "../algebra.js";
import type { Goal } from "../goal.js";
import type { ContextEntry, CheckResult, VarInfo, Binding } from "./diagnostics.js";
import { ScopeChecker } from "./scope.js";

/** The whole checker: one pass over a query (`run`), the typing context it reports, and the goals left open. */
export class Checker extends ScopeChecker {
  run(goal: Goal | undefined, solutions: number | undefined): CheckResult {
    const q = this.query;
    const inScope = this.checkQuery(q);
    const context = [...this.vars.values()].map((v) => this.entry(v)).concat(this.scoped.map((s) => this.entry(s.info, s.scope)));
    // the goal's class is vocabulary too: a misspelt one is an unknown class, not merely an open goal
    if (goal?.type) this.knownClass({ kind: "iri", value: goal.type });
    const openGoals = goal ? this.openGoals(goal, inScope, solutions) : [];
    return { context, errors: this.errors, warnings: this.warnings, openGoals, goal, query: q, sparql: toSparql(q) };
  }

  entry(v: VarInfo, scope?: string): ContextEntry {
    const classes = v.classes.map((c) => this.name(c));
    const datatype = v.datatype ? this.name(v.datatype) : undefined;
    let shown: string;
    if (classes.length) shown = classes.join(", ");
    else if (v.kind === "literal") shown = datatype ?? (v.numeric ? "number" : "literal");
    else if (v.kind === "entity") shown = "entity";
    else shown = "(untyped)";
    const entry: ContextEntry = { variable: `?${v.name}`, kind: v.kind, classes, datatype, numeric: v.numeric, aggregate: v.aggregate, text: `?${v.name} : ${shown}${scope ? ` (${scope})` : ""}` };
    if (scope) entry.scope = scope;
    return entry;
  }

  openGoals(goal: Goal, visible: Map<string, Binding>, solutions: number | undefined): string[] {
    const q = this.query;
    const open: string[] = [];
    if (goal.kind === "boolean") {
      if (q.form !== "ask") open.push("a yes-or-no question is not an ASK");
    } else {
      if (q.form === "ask") open.push(`the goal asks for ${goal.answer.map((a) => `?${a}`).join(", ")} but the plan is an ASK`);
      const projected = q.projection === "*" ? [...visible.keys()] : q.projection.map((c) => c.variable.name);
      for (const a of goal.answer) {
        const v = this.vars.get(a);
        const isBound = visible.has(a) && !visible.get(a)!.unbound;
        // not projected says it all: "not bound" too would send a planner to add patterns it does not need
        if (q.form !== "ask" && !projected.includes(a)) {
          open.push(`answer ?${a} is not projected`);
          continue;
        }
        if (!isBound) open.push(`answer ?${a} is not bound`);
        if (!isBound) continue;
        if (goal.kind === "number" && !(v && (v.numeric || v.aggregate))) open.push(`answer ?${a} is not a number: not an aggregate or a numeric value`);
        if (goal.kind === "entity" && v?.kind === "literal") open.push(`answer ?${a} should be an entity but is a literal`);
        if (goal.kind === "literal" && v?.kind === "entity") open.push(`answer ?${a} should be a literal but is an entity`);
        if (goal.type && !(v && v.classes.some((c) => this.schema.isSubClassOf(c, goal.type!))))
          open.push(`answer ?${a} is not established as ${this.name(goal.type)}`);
      }
      if (q.form === "select") for (const p of projected) if (!goal.answer.includes(p)) open.push(`?${p} is projected but is not an answer`);
    }
    if (!goal.many && solutions !== undefined && solutions > 1) open.push(`one answer was asked for, but the plan returned ${solutions} solutions`);
    return open;
  }
}
