import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { parseGraph } from "../../ts/rdf/index.js";
import { createOxigraphStore } from "../../ts/kernel/store-oxigraph.js";
import { createOpenAICompatibleSynthesizer } from "../../ts/moot/index.js";
import { closedPort, startStub } from "../moot/stub-server.js";
import {
  prove, createScriptedSynthesizer, createSparqlEndpointStore, SparqlStoreError, type Op, type SparqlStore,
} from "../../ts/kernel/index.js";

const kg = parseGraph(readFileSync(new URL("../fixtures/kernel/olympics.ttl", import.meta.url), "utf8"));
const demo = JSON.parse(readFileSync(new URL("../../data/kernel/olympics.prove.json", import.meta.url), "utf8")) as {
  scripts: { question: string; replies: Op[] }[];
};
const EX = "http://example.org/olympics/";

describe("the embedded Oxigraph store", () => {
  it("loads the KG and answers SELECT and ASK as SPARQL results", async () => {
    const store = createOxigraphStore(kg);
    expect(store.size).toBe(123);
    const r = await store.query(`PREFIX ex: <${EX}> SELECT ?c WHERE { ?c ex:hosted ex:Oslo1952 }`);
    expect(r).toEqual({ kind: "bindings", variables: ["c"], rows: [{ c: { type: "uri", value: `${EX}Oslo` } }] });
    expect(await store.query("ASK { ?s ?p ?o }")).toEqual({ kind: "boolean", boolean: true });
    await expect(store.query("SELECT ?x WHERE { ?x")).rejects.toThrow(SparqlStoreError);
  });
});

describe("the SPARQL 1.1 HTTP endpoint store, against a local server answering with Oxigraph", () => {
  let server: Server;
  let url = "";
  const seen: string[] = [];
  beforeAll(async () => {
    const embedded = createOxigraphStore(kg);
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", async () => {
        seen.push(`${req.method} ${req.headers["content-type"]} ${req.headers.accept}`);
        const query = new URLSearchParams(body).get("query") ?? "";
        try {
          const r = await embedded.query(query);
          const json = r.kind === "boolean" ? { head: {}, boolean: r.boolean } : { head: { vars: r.variables }, results: { bindings: r.rows } };
          res.writeHead(200, { "content-type": "application/sparql-results+json" }).end(JSON.stringify(json));
        } catch (error) {
          res.writeHead(400, { "content-type": "text/plain" }).end((error as Error).message);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/sparql`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("POSTs the query form-encoded and reads the results", async () => {
    const store = createSparqlEndpointStore(url);
    const r = await store.query(`PREFIX ex: <${EX}> SELECT ?c WHERE { ?c ex:hosted ex:Oslo1952 }`);
    expect(r).toEqual({ kind: "bindings", variables: ["c"], rows: [{ c: { type: "uri", value: `${EX}Oslo` } }] });
    expect(seen[0]).toBe("POST application/x-www-form-urlencoded application/sparql-results+json");
  });

  it("names the endpoint and the status on an error", async () => {
    await expect(createSparqlEndpointStore(url).query("SELECT ?x WHERE { ?x")).rejects.toThrow(new RegExp(`SPARQL endpoint ${url} answered HTTP 400 Bad Request: `));
    // The cause (not a bare "fetch failed") and the URL.
    const dead = `http://127.0.0.1:${await closedPort()}/sparql`;
    await expect(createSparqlEndpointStore(dead, { timeoutMs: 2000 }).query("ASK {}")).rejects.toThrow(
      `cannot reach the SPARQL endpoint ${dead}: connection refused (ECONNREFUSED)`,
    );
  });

  it("runs a proof end to end", async () => {
    const script = demo.scripts[1];
    const r = await prove(script.question, { synth: createScriptedSynthesizer(script.replies), kg, store: createSparqlEndpointStore(url) });
    expect(r.finished).toBe(true);
    expect(r.answer).toMatchObject({ kind: "bindings", rows: [{ n: { value: "2" } }] });
  });
});

describe("prove with the scripted planner", () => {
  it("refuses the misspelt property and the early finish, then answers", async () => {
    const script = demo.scripts[0];
    const r = await prove(script.question, { synth: createScriptedSynthesizer(script.replies), kg, store: createOxigraphStore(kg) });
    expect(r.finished).toBe(true);
    expect(r.kernelRejections).toBe(2);
    expect(r.goal).toEqual({ answer: ["c"], kind: "entity", type: `${EX}City`, many: true });
    expect(r.turns.map((t) => t.status)).toEqual(["accepted", "rejected", "accepted", "accepted", "accepted", "rejected", "accepted", "accepted", "finished"]);
    expect(r.turns[1].feedback).toContain("unknown property ex:hosts (did you mean ex:hosted?)");
    expect(r.turns[5].feedback).toContain("?g is projected but is not an answer");
    expect(r.turns[8].feedback).toBe("context:\n  ?c : ex:City\n  ?g : ex:OlympicGames\nopen goals:\n  goals accomplished\n");
    expect(r.answer?.kind === "bindings" && r.answer.rows.map((row) => row.c.value).sort()).toEqual([`${EX}Albertville`, `${EX}Chamonix`, `${EX}Grenoble`]);
    expect(r.sparql).toBe(`PREFIX ex: <${EX}>\nSELECT DISTINCT ?c\nWHERE {\n  ?c ex:hosted ?g .\n  ?g ex:season "Winter" .\n  ?c ex:country ex:France .\n}\n`);
    expect(r.plan.length).toBe(6);
  });

  it("checks the solution count after execution when one answer was asked for", async () => {
    const script = demo.scripts[2];
    const r = await prove(script.question, { synth: createScriptedSynthesizer(script.replies), kg, store: createOxigraphStore(kg) });
    expect(r.turns[4]).toMatchObject({ status: "rejected" });
    expect(r.turns[4].feedback).toContain("one answer was asked for, but the plan returned 12 solutions");
    expect(r.finished).toBe(true);
    expect(r.answer?.kind === "bindings" && r.answer.rows.map((row) => row.c.value)).toEqual([`${EX}Oslo`]);
  });

  it("refuses ops before the goal, unknown ops and unreadable replies; ill-typed plans never reach the store", async () => {
    const queried: string[] = [];
    const store: SparqlStore = { name: "spy", query: async (q) => (queried.push(q), { kind: "boolean", boolean: true }) };
    const r = await prove("Did Paris host?", {
      synth: createScriptedSynthesizer([
        { op: "triple", s: "ex:Paris", p: "ex:hosted", o: "?g" },
        "I think the answer is yes",
        { op: "goal", kind: "boolean", many: false },
        { op: "jion" },
        { op: "triple", s: "ex:Paris", p: "ex:hosted", o: '"Summer"' },
        { op: "finish" },
        { op: "triple", s: "ex:Paris", p: "ex:hosted", o: "?g" },
        { op: "ask" },
      ]),
      kg,
      store,
    });
    expect(r.turns.map((t) => t.status)).toEqual(["rejected", "unreadable", "accepted", "rejected", "rejected", "rejected", "accepted", "accepted", "finished"]);
    expect(r.kernelRejections).toBe(4);
    expect(r.turns[4].feedback).toContain('type mismatch: ex:hosted expects an entity of ex:OlympicGames, got the literal "Summer"');
    expect(queried).toEqual([`PREFIX ex: <${EX}>\nASK\nWHERE {\n  ex:Paris ex:hosted ?g .\n}\n`]);
    expect(r.answer).toEqual({ kind: "boolean", boolean: true });
  });

  it("drives an OpenAI-compatible model (stub server on 127.0.0.1): the model sees the plan state after each op", async () => {
    const replies = demo.scripts[1].replies.map((op) => `Next op:\n\`\`\`json\n${JSON.stringify(op)}\n\`\`\``);
    const stub = await startStub((_, i) => ({ content: replies[i] ?? '{"op":"finish"}' }));
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: stub.baseUrl, model: "stub-model" });
    const r = await prove(demo.scripts[1].question, { synth, kg, store: createOxigraphStore(kg) });
    expect(r.finished).toBe(true);
    expect(r.answer).toMatchObject({ rows: [{ n: { value: "2" } }] });
    await stub.close();
    const requests = stub.requests.map((r) => r.body);
    expect(requests[0].model).toBe("stub-model");
    expect(requests[0].messages[1].content).toContain("ex:hosted (ex:City → ex:OlympicGames)");
    expect(requests[1].messages.at(-1)!.content).toBe("context:\nopen goals:\n  answer ?n is not projected\n");
  });

  it("gives up after the turn budget with no answer", async () => {
    const r = await prove("?", { synth: createScriptedSynthesizer(Array(5).fill("no")), kg, store: createOxigraphStore(kg), maxTurns: 3 });
    expect(r).toMatchObject({ finished: false, answer: null, sparql: null });
    expect(r.turns.length).toBe(3);
  });
});
