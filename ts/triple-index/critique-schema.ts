/**
 * The critique's input shape as one zod schema: the source of the `CritiqueItem`
 * type (`z.infer`), of `parseCritique`'s run-time check, of the HTTP body check of
 * `POST /graph/critique` and of the MCP tool `apply_critique`'s input schema.
 *
 * The schema is exact in its output (`op` is "remove" or "replace", ids are positive
 * safe integers) and lenient in what it reads, as `parseCritique` always was: `op` in
 * any case, ids written as numeric strings ("12").
 *
 * Written with `zod/mini` (the functional API over the same zod 4 core): a browser page
 * that applies a critique carries ≈ 10 KB gzip of zod instead of ≈ 95 KB for zod's
 * classic `z` (its method chains keep every schema kind, the locales and the JSON-schema
 * converter). The schemas are zod 4 schemas all the same: the MCP SDK and the server's
 * hono validator take them as they are. Each is built at its first use
 * (ts/deps/lazy-schema.ts), so importing the package in Node loads no zod.
 */
import * as z from "zod/mini";
import { lazySchema } from "../deps/lazy-schema.js";

const tripleId = (input: unknown) => `triple id ${JSON.stringify(input)} is not a positive integer`;

/** One triple id of a listing: a positive safe integer (a numeric string such as "12" is read as 12). */
export const tripleIdSchema = lazySchema(() =>
  z.pipe(
    // z.preprocess of zod classic is this pipe
    z.transform((v: unknown) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v)),
    z.number({ error: (iss) => tripleId(iss.input) }).check(z.refine((n) => Number.isSafeInteger(n) && n >= 1, { error: (iss) => tripleId(iss.input) })),
  ),
);

// Plain builders, not lazy stand-ins: a description is registered on the built schema,
// and z.toJSONSchema looks it up by the object it meets in the shape.
const tripleIds = () => z.array(tripleIdSchema, { error: "tripleIds must be a list of integers" }).check(z.describe("ids from the listing (1..N)"));
const correctValue = () => z.string({ error: "correctValue must be a string of Turtle" }).check(z.describe("Turtle using the graph's prefixes"));

/** `{op: "remove", tripleIds}`: delete the cited triples. */
export const removeItemSchema = lazySchema(() =>
  z.object({
    op: z.literal("remove"),
    tripleIds: tripleIds(),
  }),
);

/**
 * `{op: "replace", tripleIds, correctValue}`: delete the cited triples and add the Turtle
 * `correctValue`. A replace without `correctValue` passes the shape check and is refused
 * as an item (`missing-correct-value`), so the other items of the critique still apply.
 */
export const replaceItemSchema = lazySchema(() =>
  z.object({
    op: z.literal("replace"),
    tripleIds: tripleIds(),
    correctValue: z.nullish(correctValue()),
  }),
);

/** One critique item: a discriminated union on `op`; `op` may be written in any case. */
export const critiqueItemSchema = lazySchema(() =>
  z.pipe(
    z.transform((v: unknown) => (v !== null && typeof v === "object" && !Array.isArray(v) && typeof (v as { op?: unknown }).op === "string" ? { ...v, op: (v as { op: string }).op.toLowerCase() } : v)),
    z.discriminatedUnion("op", [removeItemSchema, replaceItemSchema], {
      error: (iss) =>
        iss.code === "invalid_union"
          ? `unknown op ${JSON.stringify((iss.input as { op?: unknown } | undefined)?.op)} (expected "remove" or "replace")`
          : iss.code === "invalid_type"
            ? "must be an object with op and tripleIds"
            : undefined,
    }),
  ),
);

/** A critique: a list of items, or an object with an `items` list. */
export const critiqueSchema = lazySchema(() =>
  z.union([z.array(critiqueItemSchema), z.object({ items: z.array(critiqueItemSchema) })], {
    error: 'critique must be a JSON list of items or an object with an "items" list',
  }),
);

/** One critique item, exactly: `{op: "remove", tripleIds}` or `{op: "replace", tripleIds, correctValue?}`. */
export type CritiqueItem = z.output<typeof critiqueItemSchema>;
/** A critique as {@link critiqueSchema} reads it (list or `{items}`). */
export type Critique = CritiqueItem[] | { items: CritiqueItem[] };
