/**
 * The kernel's input shapes as zod schemas: a goal, one op of every kind, an op list.
 * Each is the source of its TypeScript type (`z.infer`), of the run-time shape check in
 * `parseGoal` and `compileOps`, of the HTTP body check of `POST /sparql/check` and of
 * the MCP tool `check_sparql`'s input schema.
 *
 * The op union is exact (a discriminated union on `op`): a misspelt op kind or a missing
 * field does not compile. What lies inside the strings (terms, expressions, paths) is
 * SPARQL syntax, checked by the compiler with Traqula, not here.
 *
 * Written with `zod/mini` (the functional API over the same zod 4 core), so that a page
 * that checks plans carries a fraction of zod (see critique-schema.ts); the MCP SDK and
 * the server's validator take these schemas as they are. Each is built at its first use
 * (ts/deps/lazy-schema.ts), so importing the package in Node loads no zod.
 */
import * as z from "zod/mini";
import { lazySchema } from "../deps/lazy-schema.js";
import { VARNAME_SOURCE } from "./algebra.js";
import { quoteValue } from "../quote-value.js";

/** SPARQL 1.1's VAR1 / VAR2, exactly (productions [108], [143], [164]–[166]): `?` or `$`, then VARNAME. */
export const VARIABLE = new RegExp(`^[?$]${VARNAME_SOURCE}$`);

/** The kinds of answer a goal can expect. */
export const GOAL_KINDS = ["entity", "literal", "number", "boolean"] as const;

const variable = (field: string) =>
  z.string().check(z.regex(VARIABLE, { error: (iss) => `"${field}" must be a variable like "?x", got ${quoteValue(iss.input)}` }));
const text = (op: string, field: string) =>
  z
    .string({ error: (iss) => `${op} needs "${field}" as a non-empty string, got ${quoteValue(iss.input)}` })
    .check(z.refine((s) => s.trim() !== "", { error: (iss) => `${op} needs "${field}" as a non-empty string, got ${quoteValue(iss.input)}` }));
const nonEmptyStrings = (op: string, field: string, example: string) =>
  z.array(z.string({ error: `${op}: "${field}" items must be strings` }), { error: `${op} needs "${field}" as a non-empty list like ${example}` }).check(
    z.minLength(1, { error: `${op} needs "${field}" as a non-empty list like ${example}` }),
  );

/**
 * A goal as written (the goal op, with or without `"op": "goal"`): `answer` variables
 * (one string or a list), `kind`, an optional class `type` (prefixed name, `<iri>` or full
 * IRI) and `many` (default true). Unknown fields are refused.
 */
export const goalSchema = lazySchema(() =>
  z.strictObject(
      {
        op: z.optional(z.literal("goal", { error: (iss) => `"op" must be "goal", got ${quoteValue(iss.input)}` })),
        answer: z
          .optional(
            z.union([z.string(), z.array(z.string())]).check(
              z.refine((a) => (typeof a === "string" ? [a] : a).every((v) => VARIABLE.test(v)), {
                error: (iss) => `"answer" must be a list of variables like ["?c"], got ${quoteValue(iss.input)}`,
              }),
            ),
          )
          .check(z.describe('answer variables, e.g. ["?c"]; empty for a yes-or-no question')),
        kind: z.enum(GOAL_KINDS, { error: (iss) => `"kind" must be one of ${GOAL_KINDS.join(", ")}, got ${quoteValue(iss.input)}` }),
        type: z
          .nullish(
            z
              .string({ error: (iss) => `"type" must be a class name like "ex:City", got ${quoteValue(iss.input)}` })
              .check(z.minLength(1, { error: `"type" must be a class name like "ex:City", got ""` })),
          )
          .check(z.describe('expected class of an entity answer, e.g. "ex:City"')),
        many: z
          .optional(z.boolean({ error: (iss) => `"many" must be true or false, got ${quoteValue(iss.input)}` }))
          .check(z.describe("false when one answer is expected (default true)")),
      },
      {
        error: (iss) =>
          iss.code === "invalid_type"
            ? `expected a JSON object, got ${quoteValue(iss.input)}`
            : iss.code === "unrecognized_keys"
              ? `unknown field "${iss.keys[0]}" (expected answer, kind, type, many)`
              : undefined,
      },
    ),
);

/** A goal as a caller writes it (see {@link goalSchema}); `parseGoal` normalises it to a `Goal`. */
export type GoalInput = z.infer<typeof goalSchema>;

const term = lazySchema(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);

const tripleOp = lazySchema(() =>
  z.object({ op: z.literal("triple"), s: text("triple", "s"), p: text("triple", "p"), o: text("triple", "o") }),
);
const filterOp = lazySchema(() =>
  z.object({ op: z.literal("filter"), expr: text("filter", "expr") }),
);
const bindOp = lazySchema(() =>
  z.object({ op: z.literal("bind"), expr: text("bind", "expr"), as: variable("as") }),
);
// getters make the nested lists recursive while z.infer still derives the type (zod 4)
const optionalOp = lazySchema(() =>
  z.object({
    op: z.literal("optional"),
    get ops() {
      return z.array(patternOpSchema, { error: `optional needs "ops" as a list of ops` });
    },
  }),
);
const minusOp = lazySchema(() =>
  z.object({
    op: z.literal("minus"),
    get ops() {
      return z.array(patternOpSchema, { error: `minus needs "ops" as a list of ops` });
    },
  }),
);
const unionOp = lazySchema(() =>
  z.object({
    op: z.literal("union"),
    get branches() {
      return z
        .array(z.array(patternOpSchema), { error: `union needs "branches" as a list of at least two op lists` })
        .check(z.minLength(2, { error: `union needs "branches" as a list of at least two op lists` }));
    },
  }),
);
const valuesOp = lazySchema(() =>
  z.object({
    op: z.literal("values"),
    vars: z.array(variable("vars"), { error: `values needs "vars" (variables) and "rows" (lists of terms)` }),
    rows: z.array(z.array(term, { error: (iss) => `values: each row must be a list of terms, got ${quoteValue(iss.input)}` }), {
      error: `values needs "vars" (variables) and "rows" (lists of terms)`,
    }),
  }),
);

/** One pattern op: allowed at the top and inside `optional`, `minus` and `union` lists. */
export const patternOpSchema = lazySchema(() =>
  z.discriminatedUnion("op", [tripleOp, filterOp, bindOp, optionalOp, minusOp, unionOp, valuesOp]),
);
/** A pattern op, exactly (see {@link patternOpSchema}). */
export type PatternOp = z.infer<typeof patternOpSchema>;

const count = (op: string) =>
  z.number({ error: (iss) => `${op} needs "n" as a non-negative integer, got ${quoteValue(iss.input)}` }).check(
    z.int({ error: (iss) => `${op} needs "n" as a non-negative integer, got ${quoteValue(iss.input)}` }),
    z.gte(0, { error: (iss) => `${op} needs "n" as a non-negative integer, got ${quoteValue(iss.input)}` }),
  );

/** The aggregate functions the `aggregate` op knows (any case). */
export const AGGREGATE_FUNCTIONS = ["count", "sum", "avg", "min", "max", "sample", "group_concat"] as const;

/** Every op kind, in the order the docs list them. */
const OP_KINDS = "prefix, goal, triple, filter, bind, optional, minus, union, values, group, aggregate, project, distinct, having, ask, order, limit, offset, finish";

/** One op of a plan, every kind: a discriminated union on `op`. */
export const opSchema = lazySchema(() =>
  z.discriminatedUnion("op", [
    z.object({
      op: z.literal("prefix"),
      prefix: z.string().check(z.regex(/^[A-Za-z][\w.-]*$|^$/, { error: (iss) => `prefix needs "prefix" like "ex", got ${quoteValue(iss.input)}` })),
      iri: text("prefix", "iri"),
    }),
    z.extend(goalSchema, { op: z.literal("goal") }),
    ...patternOpSchema._zod.def.options,
    z.object({ op: z.literal("group"), by: nonEmptyStrings("group", "by", '["?x"]') }),
    z.object({
      op: z.literal("aggregate"),
      fn: z.string().check(
        z.refine((f) => (AGGREGATE_FUNCTIONS as readonly string[]).includes(f.toLowerCase()), {
          error: (iss) => `aggregate: unknown fn ${quoteValue(iss.input)} (expected ${AGGREGATE_FUNCTIONS.join(", ")})`,
        }),
      ),
      of: z.optional(text("aggregate", "of")),
      as: variable("as"),
      distinct: z.optional(z.boolean()),
    }),
    z.object({ op: z.literal("project"), vars: nonEmptyStrings("project", "vars", '["?c"]') }),
    z.object({ op: z.literal("distinct") }),
    z.object({ op: z.literal("having"), expr: text("having", "expr") }),
    z.object({ op: z.literal("ask") }),
    z.object({ op: z.literal("order"), by: nonEmptyStrings("order", "by", '["DESC(?n)"]') }),
    z.object({ op: z.literal("limit"), n: count("limit") }),
    z.object({ op: z.literal("offset"), n: count("offset") }),
    z.object({ op: z.literal("finish") }),
  ], {
    error: (iss) =>
      iss.code === "invalid_union"
        ? `unknown op ${quoteValue((iss.input as { op?: unknown } | undefined)?.op)} (expected one of ${OP_KINDS})`
        : iss.code === "invalid_type"
          ? `expected an op object like {"op":"triple",…}, got ${quoteValue(iss.input)}`
          : undefined,
  }),
);
/** One op of a plan, exactly (see the module comment of ops.ts for what each does). */
export type Op = z.infer<typeof opSchema>;

/** A plan: a list of ops, or `{ops: [...]}`. */
export const planSchema = lazySchema(() =>
  z.union([z.array(opSchema), z.object({ ops: z.array(opSchema) })]),
);
/** A plan as {@link planSchema} reads it. */
export type Plan = Op[] | { ops: Op[] };
