// Stored results of the slow reference computations some suites compare with (the exhaustive
// quote scan, the one-parse reference fragmenter), so `npm test` compares with the reference's
// result without recomputing it. One file per suite: test/fixtures/reference/<suite>.json, a map
// from a key (a hash of the reference's whole input) to its result, or to a hash of a large one.
//
// - `npm test`: a stored result is used as it is; a key not stored is computed (slow, still right).
// - `npm run test:deep` (GROUNDWIRE_TEST_DEEP=1, which .ci/run runs): the reference is computed
//   every time, and a stored result that differs from it fails the test (the fixture is stale:
//   the reference changed). So CI proves both the code and what npm test compares with.
// - `npm run test:reference` (GROUNDWIRE_TEST_REFERENCE_WRITE=1): computes every reference the
//   quick run uses and stores them in each suite's file (run it after changing a reference, or a
//   sampled sweep's inputs; delete the files first to drop keys no longer used).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { afterAll, expect } from "vitest";
import { writeFileAtomic } from "../ts/files.js";
import { DEEP } from "./depth.js";

const WRITE = process.env.GROUNDWIRE_TEST_REFERENCE_WRITE === "1";
const FOLDER = new URL("./fixtures/reference/", import.meta.url);

/** JSON with every object's keys sorted (toEqual does not look at their order). */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));

/** SHA-256 (hex, first 32 digits) of the JSON of `value`: a key for inputs, a digest for large results. */
export function digest(value: unknown): string {
  return createHash("sha256").update(typeof value === "string" ? value : canonical(value)).digest("hex").slice(0, 32);
}

export interface ReferenceResults {
  /**
   * The reference's result for `input` (anything JSON: the reference's whole input, texts by their
   * digest): the stored one in npm test, else `compute()`, checked against the stored one in deep.
   */
  value<T>(input: unknown, compute: () => T): T;
  /**
   * Expects `got` to equal the reference's result for `input`: in npm test by the digest of its
   * JSON against the stored digest; otherwise against `compute()` itself, with the stored digest
   * checked in deep. For results too large to store (a document's fragments).
   */
  expectEqual(input: unknown, got: unknown, compute: () => unknown, message?: string): void;
}

/** The stored reference results of one suite (`name`: test/fixtures/reference/<name>.json). */
export function referenceResults(name: string): ReferenceResults {
  const file = new URL(`${name}.json`, FOLDER);
  const stored: Record<string, unknown> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const written: Record<string, unknown> = {};
  if (WRITE) {
    afterAll(() => {
      mkdirSync(FOLDER, { recursive: true });
      // merged into what was stored (a run of some tests, `-t`, keeps the others' results; delete the
      // file before a whole run to drop the keys no test uses any more)
      const all = { ...stored, ...written };
      // one key a line, so a change shows as the lines of the keys it touched
      const lines = Object.keys(all).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(all[k])}`);
      writeFileAtomic(file.pathname, `{\n${lines.join(",\n")}\n}\n`);
    });
  }
  const stale = (key: string) =>
    `stored reference result ${key} in test/fixtures/reference/${name}.json differs from the reference computed now: the reference or the sampled inputs changed; run npm run test:reference`;
  const lookUp = <T>(input: unknown, compute: () => T, store: (result: T) => unknown): { key: string; stored: unknown; computed?: T } => {
    const key = digest(input);
    if (!WRITE && !DEEP && key in stored) return { key, stored: stored[key] };
    const computed = compute();
    const result = store(computed);
    if (WRITE) written[key] = result;
    else if (DEEP && key in stored) expect(result, stale(key)).toEqual(stored[key]);
    return { key, stored: result, computed };
  };
  return {
    value<T>(input: unknown, compute: () => T): T {
      const found = lookUp(input, compute, (r) => JSON.parse(JSON.stringify(r ?? null)));
      return ("computed" in found ? found.computed : found.stored) as T;
    },
    expectEqual(input, got, compute, message) {
      const found = lookUp(input, compute, digest);
      if ("computed" in found) expect(got, message).toEqual(found.computed);
      else expect(digest(got), `${message ?? "result"}: differs from the stored reference result ${found.key} (GROUNDWIRE_TEST_DEEP=1 shows the difference)`).toBe(found.stored);
    },
  };
}
