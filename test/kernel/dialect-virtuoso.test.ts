// The virtuoso dialect against the real engine (the test Virtuoso of test/kernel/virtuoso-setup.ts,
// holding the olympics graph): every fixture query the dialect accepts is accepted by Virtuoso as
// written, with the answer the standard form gets; the checked run sends the standard form and
// gets the same answer. Skipped with a note when no test Virtuoso runs.
import { describe, expect, it } from "vitest";
import { loadGraphFile } from "../../ts/rdf/load.js";
import { createKernel, createSparqlEndpointStore, parseSparql, parseSparqlJsonResults, runCheckedPlan, Schema } from "../../ts/kernel/index.js";
import { DIALECT_FIXTURE } from "./dialect-fixture.js";
import { virtuosoReady } from "./virtuoso-ready.js";

// the global setup starts Virtuoso without waiting for it: wait here, before reading its URL
await virtuosoReady();
const VIRTUOSO = process.env.GROUNDWIRE_TEST_SPARQL_URL;
if (!VIRTUOSO) console.log("note: no test Virtuoso (GROUNDWIRE_TEST_SPARQL_URL): the dialect's acceptance by Virtuoso is not tested in this run");

/** The first value of the first row Virtuoso answers to `query` as written (SPARQL 1.1 Protocol, form POST). */
async function asWritten(query: string): Promise<string> {
  const answer = await fetch(VIRTUOSO!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/sparql-results+json" },
    body: new URLSearchParams({ query }),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`Virtuoso refused the query: HTTP ${answer.status} ${text.slice(0, 200)}`);
  const result = parseSparqlJsonResults(text);
  if (result.kind !== "bindings") throw new Error("not a SELECT answer");
  return result.rows[0]![result.variables[0]!]!.value;
}

describe.skipIf(!VIRTUOSO)("the virtuoso dialect on Virtuoso", () => {
  const kernel = createKernel(Schema.fromGraph(loadGraphFile(new URL("../../data/kernel/olympics.ttl", import.meta.url).pathname)));

  it.each(DIALECT_FIXTURE.accepted.map((c) => [c.name, c] as const))("%s: Virtuoso accepts it as written; the checked run sends the standard form, same answer", async (_name, c) => {
    expect(await asWritten(c.query)).toBe(c.answer);
    const store = createSparqlEndpointStore(VIRTUOSO!, { timeoutMs: 10_000 });
    const run = await runCheckedPlan(kernel, c.query, undefined, store, { maxRows: 10, dialect: "virtuoso" });
    // what was sent is standard SPARQL 1.1 (it parses without the dialect)
    expect(() => parseSparql(run.sent)).not.toThrow();
    expect(run.check.warnings.filter((w) => w.code === "dialect-extension")).toHaveLength(c.standard.length);
    expect(run.results.results!.bindings[0]![run.results.head.vars[0]!]!.value).toBe(c.answer);
  });
});
