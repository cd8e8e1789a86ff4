/**
 * Goals: what a question asks for, stated before the query exists (DESIGN §2).
 * `{"op":"goal","answer":["?c"],"kind":"entity","type":"ex:City","many":true}`
 */
import { GroundwireError } from "../errors.js";

/** The goal of a plan. `type` is an IRI (expanded) when given. */
export interface Goal {
  /** Answer variables, without the `?`. Empty for a yes-or-no question. */
  answer: string[];
  kind: (typeof GOAL_KINDS)[number];
  /** Expected class of an entity answer (full IRI), optional. */
  type?: string;
  /** false when one answer is expected. Default true. */
  many: boolean;
}

import { goalSchema, GOAL_KINDS, type GoalInput } from "./plan-schema.js";
import { formatLimit, jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from "../json-depth.js";
import { checkArgs } from "../arg-kinds.js";
import { quoteValue } from "../quote-value.js";

export type { GoalInput };

/** A goal that is not well formed: names the field and what was expected. */
export class GoalError extends GroundwireError {
  constructor(message: string) {
    super(`malformed goal: ${message}`, { code: "bad_request", status: 400 });
    this.name = "GoalError";
  }
}

/**
 * Validate and normalize a goal given as JSON (the goal op, with or without `"op":"goal"`),
 * or its JSON text. The shape is checked by {@link goalSchema} (plan-schema.ts), the one
 * definition the types, the CLI, the HTTP route and the MCP tool share. `type` may be a
 * prefixed name (expanded with `prefixes`), `<iri>` or a full IRI.
 * @throws GoalError naming the bad field
 */
export function parseGoal(value: GoalInput | string | unknown, prefixes: Record<string, string> = {}): Goal {
  if (typeof value === "string") {
    const line = jsonTextTooDeep(value);
    if (line !== null) throw new GoalError(`nested deeper than ${formatLimit(MAX_JSON_DEPTH)} at line ${line}`);
    try {
      value = JSON.parse(value);
    } catch (error) {
      throw new GoalError(`not JSON (${(error as Error).message.replace(/\s+/g, (run) => (run.includes("\n") ? " " : run))})`);
    }
  } else if (valueTooDeep(value)) throw new GoalError(`nested deeper than ${formatLimit(MAX_JSON_DEPTH)}`);
  const parsed = goalSchema.safeParse(value);
  if (!parsed.success) throw new GoalError(parsed.error.issues[0]!.message);
  const g = parsed.data;
  const kind = g.kind;
  const answer = (g.answer === undefined ? [] : typeof g.answer === "string" ? [g.answer] : g.answer).map((a) => a.slice(1));
  if (kind !== "boolean" && answer.length === 0) throw new GoalError(`"answer" must name at least one variable for ${kind === "entity" ? "an" : "a"} ${kind} goal`);
  let type: string | undefined;
  if (g.type !== undefined && g.type !== null) {
    type = expandName(g.type, prefixes);
    if (type === undefined) throw new GoalError(`"type" ${quoteValue(g.type)} uses an undeclared prefix`);
  }
  return { answer, kind, type, many: g.many ?? true };
}

/** Expand `ex:Name`, `<iri>` or a full IRI; undefined when the prefix is unknown. */
export function expandName(name: string, prefixes: Record<string, string>): string | undefined {
  checkArgs("expandName", arguments, "name:string prefixes:prefixes");
  if (name.startsWith("<") && name.endsWith(">")) return name.slice(1, -1);
  const colon = name.indexOf(":");
  if (colon < 0) return undefined;
  const prefix = name.slice(0, colon);
  if (prefix in prefixes) return prefixes[prefix] + name.slice(colon + 1);
  if (/^[a-z][a-z0-9+.-]*$/i.test(prefix) && name.slice(colon + 1).startsWith("//")) return name;
  if (prefix === "urn" || prefix === "mailto") return name;
  return undefined;
}
