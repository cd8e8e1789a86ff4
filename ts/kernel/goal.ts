/**
 * Goals: what a question asks for, stated before the query exists (DESIGN §2).
 * `{"op":"goal","answer":["?c"],"kind":"entity","type":"ex:City","many":true}`
 */

/** The goal of a plan. `type` is an IRI (expanded) when given. */
export interface Goal {
  /** Answer variables, without the `?`. Empty for a yes-or-no question. */
  answer: string[];
  kind: "entity" | "literal" | "number" | "boolean";
  /** Expected class of an entity answer (full IRI), optional. */
  type?: string;
  /** false when one answer is expected. Default true. */
  many: boolean;
}

/** A goal that is not well formed: names the field and what was expected. */
export class GoalError extends Error {
  constructor(message: string) {
    super(`malformed goal: ${message}`);
    this.name = "GoalError";
  }
}

const KINDS = ["entity", "literal", "number", "boolean"] as const;

/**
 * Validate and normalize a goal given as JSON (the goal op, with or without `"op":"goal"`).
 * `type` may be a prefixed name (expanded with `prefixes`), `<iri>` or a full IRI.
 * @throws GoalError naming the bad field
 */
export function parseGoal(value: unknown, prefixes: Record<string, string> = {}): Goal {
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch (error) {
      throw new GoalError(`not JSON (${(error as Error).message.replace(/\s*\n\s*/g, " ")})`);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GoalError(`expected a JSON object, got ${JSON.stringify(value)}`);
  const g = value as Record<string, unknown>;
  if (g.op !== undefined && g.op !== "goal") throw new GoalError(`"op" must be "goal", got ${JSON.stringify(g.op)}`);
  const known = new Set(["op", "answer", "kind", "type", "many"]);
  for (const k of Object.keys(g)) if (!known.has(k)) throw new GoalError(`unknown field "${k}" (expected answer, kind, type, many)`);
  if (!KINDS.includes(g.kind as Goal["kind"])) throw new GoalError(`"kind" must be one of ${KINDS.join(", ")}, got ${JSON.stringify(g.kind)}`);
  const kind = g.kind as Goal["kind"];
  let answer: string[] = [];
  if (g.answer !== undefined) {
    const list = typeof g.answer === "string" ? [g.answer] : g.answer;
    if (!Array.isArray(list) || !list.every((a) => typeof a === "string" && /^[?$][A-Za-z_0-9\u00B7-\uFFFF]+$/u.test(a)))
      throw new GoalError(`"answer" must be a list of variables like ["?c"], got ${JSON.stringify(g.answer)}`);
    answer = list.map((a: string) => a.slice(1));
  }
  if (kind !== "boolean" && answer.length === 0) throw new GoalError(`"answer" must name at least one variable for ${kind === "entity" ? "an" : "a"} ${kind} goal`);
  let type: string | undefined;
  if (g.type !== undefined && g.type !== null) {
    if (typeof g.type !== "string" || !g.type) throw new GoalError(`"type" must be a class name like "ex:City", got ${JSON.stringify(g.type)}`);
    type = expandName(g.type, prefixes);
    if (type === undefined) throw new GoalError(`"type" ${g.type} uses an undeclared prefix`);
  }
  if (g.many !== undefined && typeof g.many !== "boolean") throw new GoalError(`"many" must be true or false, got ${JSON.stringify(g.many)}`);
  return { answer, kind, type, many: g.many === undefined ? true : (g.many as boolean) };
}

/** Expand `ex:Name`, `<iri>` or a full IRI; undefined when the prefix is unknown. */
export function expandName(name: string, prefixes: Record<string, string>): string | undefined {
  if (name.startsWith("<") && name.endsWith(">")) return name.slice(1, -1);
  const colon = name.indexOf(":");
  if (colon < 0) return undefined;
  const prefix = name.slice(0, colon);
  if (prefix in prefixes) return prefixes[prefix] + name.slice(colon + 1);
  if (/^[a-z][a-z0-9+.-]*$/i.test(prefix) && name.slice(colon + 1).startsWith("//")) return name;
  if (prefix === "urn" || prefix === "mailto") return name;
  return undefined;
}
