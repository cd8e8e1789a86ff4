/**
 * "zod/mini" for the Node build: rollup.config.mjs resolves the schema modules' `zod/mini`
 * import here, and each function `require`s zod at its first call (see ts/deps/README.md).
 * Only the functions the input schemas use (ts/triple-index/critique-schema.ts,
 * ts/kernel/plan-schema.ts) are here; they are zod's own, called through.
 * The schemas themselves are built at first use (ts/deps/lazy-schema.ts), so importing
 * the package loads no zod.
 */
import { createRequire } from "node:module";
import type * as Mini from "zod/mini";

export type * from "zod/mini";

const require = createRequire(import.meta.url);
let loaded: typeof Mini | null = null;
const mini = (): typeof Mini => (loaded ??= require("zod/mini") as typeof Mini);

/** `zod/mini`'s function `name`, loading zod at the first call. */
function late<K extends keyof typeof Mini>(name: K): (typeof Mini)[K] {
  return ((...args: unknown[]) => (mini()[name] as (...a: unknown[]) => unknown)(...args)) as (typeof Mini)[K];
}

export const array = late("array");
export const boolean = late("boolean");
export const describe = late("describe");
export const discriminatedUnion = late("discriminatedUnion");
const _enum = late("enum");
export { _enum as enum };
export const extend = late("extend");
export const gte = late("gte");
export const int = late("int");
export const literal = late("literal");
export const minLength = late("minLength");
const _null = late("null");
export { _null as null };
export const nullish = late("nullish");
export const number = late("number");
export const object = late("object");
export const optional = late("optional");
export const pipe = late("pipe");
export const refine = late("refine");
export const regex = late("regex");
export const strictObject = late("strictObject");
export const string = late("string");
export const transform = late("transform");
export const union = late("union");
