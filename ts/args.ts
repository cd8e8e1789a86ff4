/**
 * The one check of an exported function's arguments: `checkArgs("fn", arguments, "a:string b?:object")`
 * as the first statement refuses a missing or wrong-typed argument with an {@link ArgumentError}
 * naming the function and the argument, instead of the TypeError or URIError the body would throw
 * later (`Cannot read properties of null`). Browser-safe, no imports but errors.ts: any file may use it.
 *
 * A spec is a space-separated list of `name:kinds`, one per parameter in order: `name?` when the
 * parameter may be left out (`undefined`), kinds joined by `|` when several are allowed, and
 * `=a/b/c` for a string that must be one of those words. The kinds are those of plain values here
 * ({@link KINDS}); the kinds of groundwire's own objects (a Graph, a Schema, a Kernel, …) are in
 * ts/arg-kinds.ts, whose `checkArgs` knows both: a file whose specs name one imports that one. So a
 * page that calls no such function does not carry their tests and messages (≈ 0.9 KB gzip of the
 * bestSpan page; test/house.test.ts checks each file imports a `checkArgs` that knows its kinds).
 * A spec is parsed once (cached by its text), so the check costs a few `typeof` tests per call.
 */
import { ArgumentError } from "./errors.js";

/** A kind's test of a value. */
export type Test = (value: unknown) => boolean;
/** Kinds by name: how a value is tested and how the expected value is named in the message. */
export type Kinds = Record<string, [Test, string]>;

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";
export const isRecord = (v: unknown): boolean => isObject(v) && !Array.isArray(v);
export const isIterable = (v: unknown): boolean => (isObject(v) || typeof v === "string") && typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
/** Well-formed UTF-16 (no lone surrogate): `String.prototype.isWellFormed` where it exists (Node 20). */
export const wellFormed = (s: string): boolean =>
  typeof (s as { isWellFormed?: () => boolean }).isWellFormed === "function" ? (s as unknown as { isWellFormed: () => boolean }).isWellFormed() : !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** The kinds of plain values. */
export const KINDS: Kinds = {
  any: [(v) => v !== undefined && v !== null, "a value"],
  string: [(v) => typeof v === "string", "a string"],
  /** A non-empty string of well-formed Unicode (an id, a path, a URL): a lone surrogate cannot be encoded. */
  text: [(v) => typeof v === "string" && v !== "" && wellFormed(v), "a non-empty string of well-formed Unicode"],
  null: [(v) => v === null, "null"],
  number: [(v) => typeof v === "number" && !Number.isNaN(v), "a number"],
  int: [(v) => Number.isInteger(v), "an integer"],
  boolean: [(v) => typeof v === "boolean", "true or false"],
  object: [isRecord, "an object"],
  array: [(v) => Array.isArray(v), "an array"],
  strings: [(v) => Array.isArray(v) && v.every((x) => typeof x === "string"), "an array of strings"],
  iterable: [isIterable, "an iterable"],
  function: [(v) => typeof v === "function", "a function"],
  map: [(v) => v instanceof Map, "a Map"],
  u32: [(v) => v instanceof Uint32Array, "a Uint32Array"],
  bytes: [(v) => v instanceof Uint8Array, "a Uint8Array"],
  url: [(v) => (typeof v === "string" && v !== "" && wellFormed(v)) || (typeof URL !== "undefined" && v instanceof URL), "a URL or a non-empty string"],
};

interface Param {
  name: string;
  optional: boolean;
  /** The kinds' tests joined: one call per argument. */
  test: Test;
  expected: string;
}

/**
 * A `checkArgs` over `kinds` (each spec parsed once, cached by its text).
 * @param kinds the kinds its specs may name
 */
export function argumentChecker(kinds: Kinds): (fn: string, args: ArrayLike<unknown>, spec: string) => void {
  const parsed = new Map<string, Param[]>();

  function parseSpec(spec: string): Param[] {
    const params = spec.split(" ").filter(Boolean).map((item) => {
      const colon = item.indexOf(":");
      const rawName = item.slice(0, colon);
      const optional = rawName.endsWith("?");
      const tests: Test[] = [];
      const names: string[] = [];
      for (const kind of item.slice(colon + 1).split("|")) {
        if (kind.startsWith("=")) {
          const words = kind.slice(1).split("/");
          tests.push((v) => typeof v === "string" && words.includes(v));
          names.push(`one of ${words.map((w) => JSON.stringify(w)).join(", ")}`);
          continue;
        }
        const known = kinds[kind];
        if (!known) throw new Error(`checkArgs: unknown kind ${JSON.stringify(kind)} in ${JSON.stringify(spec)}`);
        tests.push(known[0]);
        names.push(known[1]);
      }
      const test: Test = tests.length === 1 ? tests[0]! : (v) => tests.some((t) => t(v));
      return { name: optional ? rawName.slice(0, -1) : rawName, optional, test, expected: names.join(" or ") };
    });
    parsed.set(spec, params);
    return params;
  }

  return (fn, args, spec) => {
    const params = parsed.get(spec) ?? parseSpec(spec);
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      const value = args[i];
      if ((value === undefined && p.optional) || p.test(value)) continue;
      // an array with one wrong item: name the item
      if (Array.isArray(value) && p.expected === KINDS.strings![1]) {
        const at = value.findIndex((x) => typeof x !== "string");
        throw new ArgumentError(fn, `${p.name}[${at}]`, "a string", value[at]);
      }
      throw new ArgumentError(fn, p.name, p.expected, value);
    }
  };
}

/**
 * Refuse a missing or wrong-typed argument of `fn`, naming it.
 * @param fn the function as a caller writes it (`createOxigraphStore`, `Schema.fromGraph`)
 * @param args the call's `arguments`
 * @param spec the parameters (see the module comment; the kinds of {@link KINDS} only)
 * @throws ArgumentError naming `fn`, the parameter and what it must be
 */
export const checkArgs = /* @__PURE__ */ argumentChecker(KINDS);
