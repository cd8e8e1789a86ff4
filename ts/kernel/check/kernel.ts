/**
 * The kernel's entry: a Kernel bound to a schema checks plans (text, op lists or algebra) against it.
 */
import type { Query } from "../algebra.js";
import { Schema } from "../schema.js";
import { parseGoal, type Goal, type GoalInput } from "../goal.js";
import { compileOps, type Op, type Plan } from "../ops.js";
import { parseSparqlDialect, type SparqlDialect } from "../dialect.js";
import type { CheckResult } from "./diagnostics.js";
import { Checker } from "./checker.js";
import { checkArgs } from "../../arg-kinds.js";
import { ArgumentError } from "../../errors.js";

/** A kernel bound to one schema. Create with `createKernel(schema)` or `new Kernel(schema)`. */
export class Kernel {
  constructor(readonly schema: Schema) {
    checkArgs("Kernel", arguments, "schema:schema");}

  /**
   * Check a plan against the schema and an optional goal, in one pass; nothing is executed.
   * @param plan SPARQL 1.1 query text; or an op list (array, or JSON text starting with `[`/`{`); or algebra
   * @param goal a Goal, or a goal as written (`{"answer":["?c"],"kind":"entity",…}`, see goalSchema) or its JSON text; defaults to the op list's goal op
   * @param options.solutions solutions the plan returned when run (enables the after-execution goal)
   * @param options.prefixes prefixes assumed when a query uses one it does not declare (an endpoint's predeclared prefixes, e.g. DBpedia's `dbo:`, `PREFIX_PRESETS.dbpedia`); the schema's are always assumed
   * @param options.dialect the SPARQL the text is written in: `sparql11` (default) or `virtuoso` (its bare SELECT aggregates and expressions read as the standard form with a `dialect-extension` warning each, and its predeclared prefixes; see dialect.ts)
   * @throws SparqlSyntaxError (line, column) for unparsable SPARQL; PlanError for a malformed op list; GoalError for a malformed goal
   */
  check(plan: string | readonly Op[] | Plan | Query, goal?: Goal | GoalInput | string, options: { solutions?: number; prefixes?: Record<string, string>; dialect?: SparqlDialect } = {}): CheckResult {
    checkArgs("Kernel.check", arguments, "plan:string|array|object goal?:object|string options?:object");
    if (!Array.isArray(plan) && typeof plan === "object" && !("ops" in plan) && !(typeof (plan as Query).form === "string" && typeof (plan as Query).where === "object" && (plan as Query).where !== null)) {
      throw new ArgumentError("Kernel.check", "plan", "SPARQL text, an op list, {ops} or a Query (from parseSparql or compileOps)", plan);
    }
    const prefixes = { ...this.schema.prefixes, ...options.prefixes };
    let query: Query;
    let planGoal: Goal | undefined;
    let notes: CheckResult["warnings"] = [];
    if (typeof plan === "string" && !/^\s*[[{]/.test(plan)) ({ query, notes } = parseSparqlDialect(plan, { prefixes, dialect: options.dialect }));
    else if (typeof plan === "string" || Array.isArray(plan) || "ops" in plan) ({ query, goal: planGoal } = compileOps(plan as Plan | string, { prefixes }));
    else query = plan as Query;
    const g = goal === undefined ? planGoal : isGoal(goal) ? goal : parseGoal(goal, { ...prefixes, ...query.prefixes });
    const result = this.checkQuery(query, g, { solutions: options.solutions, prefixes: options.prefixes });
    if (notes.length) result.warnings.unshift(...notes);
    return result;
  }

  /**
   * Check a plan (already compiled to the algebra) against the schema and an optional goal.
   * @param options.solutions the number of solutions the plan returned when executed (enables the after-execution goal check)
   */
  checkQuery(query: Query, goal?: Goal, options: { solutions?: number; prefixes?: Record<string, string> } = {}): CheckResult {
    checkArgs("Kernel.checkQuery", arguments, "query:query goal?:object options?:object");
    return new Checker(this.schema, query, options.prefixes).run(goal, options.solutions);
  }
}

/** A kernel for `schema`. */
export function createKernel(schema: Schema): Kernel {
  checkArgs("createKernel", arguments, "schema:schema");
  return new Kernel(schema);
}

function isGoal(g: Goal | GoalInput | string): g is Goal {
  if (typeof g !== "object" || g === null) return false;
  return Array.isArray(g.answer) && typeof g.many === "boolean" && (g.answer as unknown[]).every((a) => typeof a === "string" && !a.startsWith("?")) && !("op" in g);
}
