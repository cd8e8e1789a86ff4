/**
 * What a check reports: its findings (Diagnostic), the typing context (ContextEntry), CheckResult
 * and the plan state a planner reads (renderPlanState); the typing state behind the context.
 */
import type { Origin, Query, Span } from "../algebra.js";
import type { Goal } from "../goal.js";
import { checkArgs } from "../../arg-kinds.js";

/** One finding, structured for a repair loop. `message` is the seed's wording. */
export interface Diagnostic {
  code:
    | "unknown-term"
    | "type-mismatch"
    | "unbound-filter-variable"
    | "bind-already-bound"
    | "ungrouped-projection"
    | "unrelated-classes"
    | "minus-disjoint"
    | "unbound-projection"
    | "alias-already-bound"
    | "select-star-grouped"
    | "having-alias"
    | "unbound-having-variable"
    | "unbound-variable"
    | "values-repeated-variable"
    | "blank-node-reuse"
    | "mixed-negated-property-set"
    | "dialect-extension";
  severity: "error" | "warning";
  message: string;
  /** Where, when the plan came from text (1-based line and column). */
  span?: Span;
  /** Where, when the plan came from an op list (0-based op index). */
  op?: number;
  /** The offending term as written for the reader (`ex:hosts`, `?n`). */
  term?: string;
  /** Did-you-mean candidates, best first. */
  candidates?: string[];
  /** A repair hint beyond the message. */
  hint?: string;
  /** The edit that repairs it, written for the planner (`write HAVING (COUNT(?g) > 1)`), when one is known. */
  fix?: string;
  /** Other places the finding involves (e.g. the first binding of a variable). */
  related?: { message: string; span?: Span; op?: number }[];
}

/** What the plan establishes about one variable. */
export interface ContextEntry {
  variable: string;
  kind: "entity" | "literal" | "unknown";
  /** Most specific classes (compact names). */
  classes: string[];
  /** Literal datatype (compact), when known. */
  datatype?: string;
  numeric: boolean;
  aggregate: boolean;
  /** The rendered line, e.g. `?c : ex:City` (`?y : ex:Person (subquery 1)` for a scoped one). */
  text: string;
  /** For a variable of a subquery that the subquery does not project: which one (`subquery 1`, numbered in reading order). */
  scope?: string;
}

/** The result of `Kernel.check`. */
export interface CheckResult {
  context: ContextEntry[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
  /** Open goals, in the seed's order; empty when the goal is met (or there is none). */
  openGoals: string[];
  /** Whether a goal was checked. */
  goal?: Goal;
  /** The plan, as algebra and as SPARQL text. */
  query: Query;
  sparql: string;
}

export interface VarInfo {
  name: string;
  kind: "entity" | "literal" | "unknown";
  kindAt?: string;
  classes: string[];
  datatype?: string;
  numeric: boolean;
  aggregate: boolean;
}

export interface Binding {
  how: string;
  at?: Origin;
  /** Projected by a SELECT whose pattern never binds it. */
  unbound?: boolean;
}

export type ExprType = { kind: "entity" | "literal" | "unknown"; numeric: boolean; aggregate: boolean; datatype?: string; from?: string };

/**
 * The plan state the planner is shown each turn (the seed's text): `context:` with one
 * `?v : Class` line per variable, then `open goals:` lines or `goals accomplished`;
 * then `errors:` and `warnings:` sections, only when there are some (a diagnostic's `fix`, when
 * it has one, on the line after it as `    fix: …`).
 */
export function renderPlanState(result: Pick<CheckResult, "context" | "openGoals" | "errors" | "warnings">): string {
  checkArgs("renderPlanState", arguments, "result:checkResult");
  const lines = ["context:"];
  for (const c of result.context) lines.push(`  ${c.text}`);
  lines.push("open goals:");
  if (result.openGoals.length) for (const g of result.openGoals) lines.push(`  ${g}`);
  else lines.push("  goals accomplished");
  // ops are counted from 1 in text, as in PlanError messages (Diagnostic.op is the 0-based index)
  const where = (d: Diagnostic) => (d.span ? ` (line ${d.span.line}, column ${d.span.column})` : d.op !== undefined ? ` (op ${d.op + 1})` : "");
  if (result.errors.length) {
    lines.push("errors:");
    for (const e of result.errors) lines.push(`  ${e.message}${where(e)}`, ...(e.fix ? [`    fix: ${e.fix}`] : []));
  }
  if (result.warnings.length) {
    lines.push("warnings:");
    for (const w of result.warnings) lines.push(`  ${w.message}${where(w)}`, ...(w.fix ? [`    fix: ${w.fix}`] : []));
  }
  return lines.join("\n") + "\n";
}

export function originFields(at: Origin | undefined): { span?: Span; op?: number } {
  const out: { span?: Span; op?: number } = {};
  if (at?.span) out.span = at.span;
  if (at?.op !== undefined) out.op = at.op;
  return out;
}

export function sameOrigin(d: Diagnostic, at: Origin | undefined): boolean {
  return (d.span?.start ?? -1) === (at?.span?.start ?? -1) && d.op === at?.op;
}
