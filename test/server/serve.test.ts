// `groundwire serve` from the built CLI on a free 127.0.0.1 port: every route with good and
// bad input, auth on and off, limits, unknown ids, and moots that survive SIGKILL.
// npm test kills the resumed moot's server once (after turn 4, before the summary is rebuilt)
// and the saving servers once; npm run test:deep (test/depth.ts) after each of turns 1 to 4, and
// at three moments of the saves.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpWorkerClient } from "../../ts/moot/retrieval.js";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { call, CLI, rawRequest, ROOT, startServer, startSlowModel, TEST_TOKEN, type RunningServer } from "./serve-process.js";
import { Moot } from "../../ts/moot/moot.js";
import { createExtractiveSynthesizer } from "../../ts/moot/synth.js";
import { createMootStore } from "../../ts/server/moot-store.js";
import { spread } from "../depth.js";

const GRAPH = fileURLToPath(new URL("../fixtures/triple-index/dbpedia-mountains.input.ttl", import.meta.url));
const SCHEMA = fileURLToPath(new URL("../fixtures/kernel/olympics.ttl", import.meta.url));
const BOOK = fileURLToPath(new URL("../fixtures/memdsl/schema-book.input.ttl", import.meta.url));
const KEYS = ["novel/frankenstein", "diary/pepys-1660"];

const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };

function runCli(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY", "GROUNDWIRE_TOKEN"]) delete env[k];
  Object.assign(env, extraEnv);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe.skipIf(!existsSync(CLI))("groundwire serve (dist/cli.js; run `npm run build` first)", () => {
  let server: RunningServer;
  const data = mkdtempSync(join(tmpdir(), "gw-serve-"));

  beforeAll(async () => {
    server = await startServer(["--data", data, "--graph", `mountains=${GRAPH}`, "--graph", `book=${BOOK}`, "--schema", `olympics=${SCHEMA}`, "--max-body", "200000"]);
  }, 60_000);
  afterAll(async () => server?.stop());

  it("answers health without auth and lists the books", async () => {
    expect((await call(server.url, "GET", "/health")).json).toMatchObject({ ok: true, moots: 0 });
    const { status, json } = await call(server.url, "GET", "/books");
    expect(status).toBe(200);
    expect(json.books.map((b: { key: string }) => b.key)).toEqual(["diary/pepys-1660", "novel/frankenstein"]);
  });

  it("POST /query gives the embedded corpus's hits, and createHttpWorkerClient pointed at it gives the same", async () => {
    const corpus = loadCorpus(join(ROOT, "data/books"));
    const local = await corpus.query("the creature on the ice", { corpus: "novel/frankenstein", k: 4 });
    const remote = await createHttpWorkerClient({ baseUrl: server.url, headers: AUTH }).query("the creature on the ice", { corpus: "novel/frankenstein", k: 4 });
    expect(remote.hits.length).toBe(4);
    expect(remote).toEqual(local);
  });

  it("refuses bad input with 400 naming the field, unknown books and routes with 404", async () => {
    const missing = await call(server.url, "POST", "/query", { text: "x", k: 2 });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toEqual({ code: "bad_request", message: expect.stringMatching(/^corpus: /), requestId: missing.headers.get("x-request-id") });
    expect((await call(server.url, "POST", "/query", { text: "x", corpus: "novel/frankenstein", k: 0 })).json.error.message).toMatch(/^k: /);
    expect((await call(server.url, "POST", "/query", { text: "x", corpus: "novel/frankenstein", extra: 1 })).status).toBe(400);
    const notJson = await call(server.url, "POST", "/query", "{nope");
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.code).toBe("bad_request");
    const unknown = await call(server.url, "POST", "/query", { text: "x", corpus: "novel/frankenstien" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain('did you mean "novel/frankenstein"');
    expect((await call(server.url, "GET", "/nowhere")).status).toBe(404);
  });

  it("refuses a body that is not Content-Type JSON with 415 rather than reading it as {}", async () => {
    const body = JSON.stringify({ keys: ["diary/pepys-1660", "novel/frankenstein"], turns: 2 });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", undefined]) {
      // Bytes, not a string: fetch labels a string body text/plain itself.
      const response = await fetch(`${server.url}/moots`, { method: "POST", body: new TextEncoder().encode(body), headers: type ? { ...AUTH, "content-type": type } : AUTH });
      expect(response.status).toBe(415);
      const { error } = await response.json();
      expect(error.code).toBe("unsupported_media_type");
      expect(error.message).toContain(type ? JSON.stringify(type) : "none");
    }
    const withCharset = await fetch(`${server.url}/quotes/verify`, {
      method: "POST",
      body: JSON.stringify({ reply: "x", passages: ["x"] }),
      headers: { ...AUTH, "content-type": "application/json; charset=utf-8" },
    });
    expect(withCharset.status).toBe(200);
  });

  it("refuses a body nested 20,000 deep with 400 naming the field (not a stack overflow), and a bad graph/schema reference saying what it must be", async () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n); // 20,000 deep overflows zod's walk; the body stays under --max-body
    for (const [route, body, field] of [
      ["/sparql/check", `{"ops":${deep(20_000)},"schema":{"name":"olympics"}}`, "ops"],
      ["/graph/critique", `{"graph":{"name":"mountains"},"fingerprint":"${"a".repeat(64)}","critique":{"items":[{"op":"remove","tripleIds":${deep(20_000)}}]}}`, "critique"],
      ["/quotes/verify", deep(20_000), "body"],
    ] as const) {
      const response = await call(server.url, "POST", route, body);
      expect(response.status).toBe(400);
      expect(response.json.error).toEqual({ code: "bad_request", message: `${field}: nested deeper than 1,000 levels of arrays and objects`, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
    const named = await call(server.url, "POST", "/sparql/check", { query: "SELECT ?s WHERE { ?s ?p ?o }", schema: "olympics" });
    expect(named.status).toBe(400);
    expect(named.json.error.message).toMatch(/^schema: must be \{"name": …\} \(a schema the server was started with\) or \{"text": …/);
    expect((await call(server.url, "POST", "/graph/index", { graph: "mountains" })).json.error.message).toMatch(/^graph: must be \{"name": …\} \(a graph the server was started with\)/);
    expect((await call(server.url, "GET", "/health")).json.ok).toBe(true);
  });

  it("refuses a body over --max-body with 413", async () => {
    const big = await call(server.url, "POST", "/quotes/verify", { reply: "x".repeat(250_000), passages: ["x"] });
    expect(big.status).toBe(413);
    expect(big.json.error.code).toBe("too_large");
  });

  it("a client still writing a body over --max-body reads the 413, never a reset (the rest is read and dropped before the close)", async () => {
    const body = JSON.stringify({ reply: "x ".repeat(1_000_000), passages: ["x"] }); // 10× --max-body
    const headers = { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" };
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await rawRequest(server.url, "POST", "/quotes/verify", headers, body).catch((error: NodeJS.ErrnoException) => error.code ?? error.message);
      outcomes.push(typeof r === "string" ? r : `${r.status} ${r.connection} ${JSON.parse(r.body).error.code}`);
    }
    expect(outcomes).toEqual(Array(12).fill("413 close too_large"));
  });

  it("holds a live moot: create, turns, transcript, unknown ids, delete; saved after every turn", async () => {
    const created = await call(server.url, "POST", "/moots", { keys: KEYS, topic: "fire", turns: 2, k: 3 });
    expect(created.status).toBe(201);
    const id: string = created.json.id;
    expect(created.json.trees.map((t: { key: string }) => t.key)).toEqual(KEYS);
    const first = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ turn: 1, speaker: KEYS[0], grounded: true });
    const saved = JSON.parse(readFileSync(join(data, `${id}.json`), "utf8"));
    expect(saved.transcript.utterances.length).toBe(1);
    expect((await call(server.url, "POST", `/moots/${id}/turns`)).json.turn).toBe(2);
    const over = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(over.status).toBe(409);
    const transcript = await call(server.url, "GET", `/moots/${id}`);
    expect(transcript.json).toMatchObject({ id, done: true, topic: "fire", stats: { turns: 2 } });
    expect((await call(server.url, "GET", "/moots/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await call(server.url, "GET", "/moots/..%2Fetc")).status).toBe(404);
    // an unknown id is echoed cut to 64 characters, not whole
    const long = await call(server.url, "GET", `/moots/${"x".repeat(5000)}`);
    expect(long.status).toBe(404);
    expect(JSON.stringify(long.json)).toContain(`no moot \\"${"x".repeat(64)}…\\"`);
    expect(JSON.stringify(long.json).length).toBeLessThan(300);
    expect((await call(server.url, "POST", "/moots", { keys: [KEYS[0], "novel/nope"], turns: 2 })).status).toBe(404);
    expect((await call(server.url, "POST", "/moots", { keys: [KEYS[0], KEYS[0]], turns: 2 })).status).toBe(400);
    expect((await call(server.url, "DELETE", `/moots/${id}`)).json).toEqual({ deleted: id });
    expect(existsSync(join(data, `${id}.json`))).toBe(false);
    expect((await call(server.url, "DELETE", `/moots/${id}`)).status).toBe(404);
  });

  it("POST /quotes/verify checks quotes against inline passages or a corpus book, and snaps", async () => {
    const passages = ["It was on a dreary night of November that I beheld the accomplishment of my toils."];
    const ok = await call(server.url, "POST", "/quotes/verify", { reply: 'I saw it "on a dreary night of November" [s1].', passages });
    expect(ok.json).toMatchObject({ passes: true, grounding: { quotesFound: 1, quotesTotal: 1, tagsValid: true }, snaps: [] });
    const snapped = await call(server.url, "POST", "/quotes/verify", { reply: 'I saw it "on a dreary night in November" [s1].', passages });
    expect(snapped.json.passes).toBe(false);
    expect(snapped.json.snaps[0]).toMatchObject({ action: "snapped", to: "on a dreary night of November" });
    expect(snapped.json.snapped).toBe('I saw it "on a dreary night of November" [s1].');
    const badTag = await call(server.url, "POST", "/quotes/verify", { reply: 'It was "on a dreary night of November" [s2].', passages });
    expect(badTag.json.grounding.tagsValid).toBe(false);
    const book = await call(server.url, "POST", "/quotes/verify", { reply: 'He wrote "It was on a dreary night of November".', book: "novel/frankenstein" });
    expect(book.json.grounding).toMatchObject({ quotesFound: 1, quotesTotal: 1 });
    const both = await call(server.url, "POST", "/quotes/verify", { reply: "x", passages, book: "novel/frankenstein" });
    expect(both.status).toBe(400);
    expect(both.json.error.message).toMatch(/exactly one of "passages" and "book"/);
  });

  it("POST /sparql/check checks a query and an op list against a named or inline schema", async () => {
    const query = "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c ex:hostd ?g }";
    const r = await call(server.url, "POST", "/sparql/check", { query, schema: { name: "olympics" } });
    expect(r.status).toBe(200);
    expect(r.json.errors[0].message).toBe("unknown property ex:hostd (did you mean ex:hosted?)");
    const ops = [{ op: "triple", s: "?c", p: "ex:hosted", o: "?g" }, { op: "project", vars: ["?c"] }];
    const goal = '{"answer":["?c"],"kind":"entity","type":"ex:City"}';
    const viaOps = await call(server.url, "POST", "/sparql/check", { ops, schema: { text: readFileSync(SCHEMA, "utf8") }, goal });
    expect(viaOps.json.errors).toEqual([]);
    expect(viaOps.json.openGoals).toEqual([]);
    const typo = await call(server.url, "POST", "/sparql/check", { ops: [{ op: "tripel" }], schema: { name: "olympics" } });
    expect(typo.status).toBe(400);
    expect(typo.json.error.message).toMatch(/^ops\.0\.op: unknown op "tripel"/);
    expect((await call(server.url, "POST", "/sparql/check", { query: "SELECT ?x WHERE {", schema: { name: "olympics" } })).status).toBe(400);
    expect((await call(server.url, "POST", "/sparql/check", { query, schema: { name: "nope" } })).status).toBe(404);
  });

  it("POST /graph/index and /graph/critique: ids, fingerprint, drift refused with 409", async () => {
    const index = await call(server.url, "POST", "/graph/index", { graph: { name: "mountains" } });
    expect(index.json.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(index.json.listing.split("\n")[0]).toBe("[1] :Mountain rdf:type owl:Class");
    const applied = await call(server.url, "POST", "/graph/critique", { graph: { name: "mountains" }, fingerprint: index.json.numbering, critique: [{ op: "remove", tripleIds: [1] }] });
    expect(applied.status).toBe(200);
    expect(applied.json.applied).toHaveLength(1);
    expect(applied.json.removedCount).toBe(1);
    expect(applied.json.fingerprintNext).not.toBe(index.json.numbering);
    // the named graph is never mutated: the same listing still applies
    expect((await call(server.url, "POST", "/graph/index", { graph: { name: "mountains" } })).json.numbering).toBe(index.json.numbering);
    const drift = await call(server.url, "POST", "/graph/critique", { graph: { name: "mountains" }, fingerprint: "0".repeat(64), critique: [{ op: "remove", tripleIds: [1] }] });
    expect(drift.status).toBe(409);
    expect(drift.json.error.code).toBe("drift");
    const badOp = await call(server.url, "POST", "/graph/critique", { graph: { name: "mountains" }, fingerprint: index.json.numbering, critique: [{ op: "delete", tripleIds: [1] }] });
    expect(badOp.status).toBe(400);
    const inline = await call(server.url, "POST", "/graph/index", { graph: { text: "@prefix ex: <http://e/> . ex:a ex:p ex:b ." } });
    expect(inline.json.tripleCount).toBe(1);
    const broken = await call(server.url, "POST", "/graph/index", { graph: { text: "ex:a ex:p" } });
    expect(broken.status).toBe(400);
    expect((await call(server.url, "POST", "/graph/index", { graph: { name: "/etc/passwd" } })).status).toBe(404);
  });

  it("POST /graph/render renders MemDSL; an unknown focus is 400", async () => {
    const r = await call(server.url, "POST", "/graph/render", { graph: { name: "book" }, focus: "schema:Book" });
    expect(r.status).toBe(200);
    expect(r.json.envelope.nodes[1]).toMatchObject({ token: "https://schema.org/Book", title: "Book" });
    expect(r.json.text.split("\n")[0]).toBe("memdsl 1");
    expect((await call(server.url, "POST", "/graph/render", { graph: { name: "book" }, focus: "schema:Nope" })).status).toBe(400);
  });

  it("moot --worker URL runs a moot on the worker's corpus, word for word the local moot", async () => {
    const args = ["moot", ...KEYS, "--topic", "fire", "--turns", "2", "--k", "3"];
    const remote = await runCli([...args, "--worker", server.url], { GROUNDWIRE_TOKEN: TEST_TOKEN });
    const local = await runCli(args);
    expect(remote.code).toBe(0);
    expect(remote.stdout).toContain("[2] The Diary of Samuel Pepys");
    expect(remote.stdout).toBe(local.stdout);
    const unknown = await runCli(["moot", KEYS[0]!, "novel/nope", "--turns", "1", "--worker", server.url], { GROUNDWIRE_TOKEN: TEST_TOKEN });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/HTTP 404.*unknown book/);
  }, 60_000);

  it("POST /fragments and /citations/resolve: fragments, then current and moved citations", async () => {
    const v1 = "# Guide\n\nInstall it.\n\n## Use\n\nRun it.\n";
    const f = await call(server.url, "POST", "/fragments", { text: v1, artifactId: "guide" });
    const para = f.json.fragments.find((x: { text: string }) => x.text === "Run it.");
    expect(para.kind).toBe("paragraph");
    const v2 = "# Guide\n\nInstall it.\n\n## Usage\n\nRun it.\n";
    const r = await call(server.url, "POST", "/citations/resolve", { text: v2, artifactId: "guide", citations: [para.versionId] });
    expect(r.json.reports[0].status).toBe("moved");
    expect((await call(server.url, "POST", "/citations/resolve", { text: v2, citations: ["nope"] })).status).toBe(400);
  });
});

describe.skipIf(!existsSync(CLI))("groundwire serve with a token", () => {
  let server: RunningServer;
  const dir = mkdtempSync(join(tmpdir(), "gw-token-"));
  beforeAll(async () => {
    writeFileSync(join(dir, "token"), "s3cret-token\n");
    server = await startServer(["--token-file", join(dir, "token")]);
  }, 60_000);
  afterAll(async () => server?.stop());

  it("requires the bearer token on every route but /health", async () => {
    expect((await call(server.url, "GET", "/health")).status).toBe(200);
    const none = await call(server.url, "GET", "/books", undefined, { authorization: "" });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("unauthorized");
    expect(none.json.error.message).not.toContain("s3cret");
    expect((await call(server.url, "GET", "/books", undefined, { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await call(server.url, "GET", "/books", undefined, { authorization: "Bearer s3cret-token" })).status).toBe(200);
    expect((await call(server.url, "POST", "/query", { text: "fire", corpus: "diary/pepys-1660" }, { authorization: "" })).status).toBe(401);
  });

  it("GROUNDWIRE_TOKEN works the same", async () => {
    const other = await startServer([], { GROUNDWIRE_TOKEN: "env-token" });
    try {
      expect((await call(other.url, "GET", "/books", undefined, { authorization: "" })).status).toBe(401);
      expect((await call(other.url, "GET", "/books", undefined, { authorization: "Bearer env-token" })).status).toBe(200);
    } finally {
      await other.stop();
    }
  }, 60_000);
});

describe.skipIf(!existsSync(CLI))("groundwire serve limits on moot turns", () => {
  it("answers 504 past --turn-timeout and 429 past --max-turns; the late turn is still saved", async () => {
    const model = await startSlowModel();
    const data = mkdtempSync(join(tmpdir(), "gw-limits-"));
    const server = await startServer(["--data", data, "--turn-timeout", "400", "--max-turns", "1", "--base-url", model.baseUrl]);
    try {
      const a = (await call(server.url, "POST", "/moots", { keys: KEYS, turns: 2, k: 2 })).json.id;
      const b = (await call(server.url, "POST", "/moots", { keys: KEYS, turns: 2, k: 2 })).json.id;
      const slow = await call(server.url, "POST", `/moots/${a}/turns`);
      expect(slow.status).toBe(504);
      expect(slow.json.error.code).toBe("timeout");
      // the turn of moot a still waits on the model: one turn running, the cap
      const busy = await call(server.url, "POST", `/moots/${b}/turns`);
      expect(busy.status).toBe(429);
      expect(busy.headers.get("retry-after")).toBe("1");
      const again = await call(server.url, "POST", `/moots/${a}/turns`);
      expect(again.status).toBe(409);
      model.release();
      for (let i = 0; i < 100 && (await call(server.url, "GET", "/health")).json.running > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await call(server.url, "GET", `/moots/${a}`)).json.utterances).toHaveLength(1);
      expect(JSON.parse(readFileSync(join(data, `${a}.json`), "utf8")).transcript.utterances).toHaveLength(1);
    } finally {
      await server.stop();
      await model.close();
    }
  }, 60_000);
});

describe.skipIf(!existsSync(CLI))("moots survive SIGKILL", () => {
  // one --data folder for both tests: the second goes on with the server the first leaves
  // running (the first test's finished moot is one more saved file it checks whole)
  const data = mkdtempSync(join(tmpdir(), "gw-kill-"));
  let running: RunningServer | undefined;
  afterAll(async () => running?.stop());

  it("a server killed between two turns resumes the moot at the next turn, saying what an uninterrupted one says", async () => {
    // 5 turns: the rolling summary is rebuilt before turn 5, from the resumed state
    const body = { keys: KEYS, topic: "fire and ruin", turns: 5, k: 4 };
    // the same moot uninterrupted, as the server holds one (its corpus, the extractive synthesizer)
    const whole = new Moot(loadCorpus(join(ROOT, "data/books")), createExtractiveSynthesizer(), KEYS, body.topic, body.turns, { k: body.k, modelName: "extractive" });
    await whole.start();
    for (let t = 0; t < 5; t++) await whole.nextTurn();
    const expected = whole.transcript!.utterances.map((u) => u.text);
    // npm test: killed after turn 4 (the resumed state then rebuilds the summary before turn 5);
    // npm run test:deep (test/depth.ts): after each of turns 1 to 4
    const killedAfter = new Set(spread([4, 1, 2, 3], 1));
    let server = await startServer(["--data", data]);
    running = server;
    const id = (await call(server.url, "POST", "/moots", body)).json.id;
    for (let t = 1; t <= 4; t++) {
      expect((await call(server.url, "POST", `/moots/${id}/turns`)).json.turn).toBe(t);
      if (!killedAfter.has(t)) continue;
      await server.kill();
      running = undefined;
      server = await startServer(["--data", data]);
      running = server;
    }
    const last = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(last.json.turn).toBe(5);
    const transcript = (await call(server.url, "GET", `/moots/${id}`)).json;
    expect(transcript.done).toBe(true);
    expect(transcript.utterances.map((u: { text: string }) => u.text)).toEqual(expected);
    expect(transcript.summaries.length).toBeGreaterThan(0);
  }, 180_000);

  it("a server killed while saving leaves every saved moot whole (the previous turn or the new one)", async () => {
    let server = running ?? (await startServer(["--data", data]));
    running = server;
    const ids: string[] = [];
    for (let m = 0; m < 3; m++) ids.push((await call(server.url, "POST", "/moots", { keys: KEYS, topic: "the sea", turns: 40, k: 6 })).json.id);
    // npm test: the first of the three kill moments; npm run test:deep (test/depth.ts): all three
    for (const round of spread([0, 1, 2], 1)) {
      // a loop of turns (each a save) on every moot, killed at a moment it does not choose
      const loop = Promise.all(ids.map(async (id) => {
        for (;;) {
          try {
            await call(server.url, "POST", `/moots/${id}/turns`);
          } catch {
            return;
          }
        }
      }));
      await new Promise((r) => setTimeout(r, 150 + 170 * round));
      await server.kill();
      running = undefined;
      await loop;
      for (const file of readdirSync(data)) {
        if (!file.endsWith(".json")) continue;
        const saved = JSON.parse(readFileSync(join(data, file), "utf8"));
        expect(saved.version).toBe(1);
        expect(saved.transcript.utterances.every((u: { turn: number }, i: number) => u.turn === i + 1)).toBe(true);
      }
      server = await startServer(["--data", data]);
      running = server;
      expect(server.stderr()).not.toContain("skipped");
      for (const id of ids) {
        const before = (await call(server.url, "GET", `/moots/${id}`)).json.utterances.length;
        const next = await call(server.url, "POST", `/moots/${id}/turns`);
        expect(next.json.turn).toBe(before + 1);
      }
    }
  }, 180_000);
});

describe("saved moots outside POST /moots's bounds", () => {
  it("are skipped at start with the field named, and an in-bounds save resumes", async () => {
    const corpus = loadCorpus(join(ROOT, "data/books"));
    const synth = createExtractiveSynthesizer();
    const moot = new Moot(corpus, synth, ["diary/pepys-1660", "novel/frankenstein"], "fear", 4, { k: 3 });
    await moot.start();
    const state = moot.toState();
    const data = mkdtempSync(join(tmpdir(), "gw-store-"));
    const save = (n: number, s: unknown) => writeFileSync(join(data, `0000000${n}-0000-4000-8000-000000000000.json`), JSON.stringify(s));
    save(1, state);
    save(2, { ...state, turns: 1e300 });
    save(3, { ...state, options: { ...state.options, k: 1_000_000_000 } });
    save(4, { ...state, turns: 201 });
    const skipped: string[] = [];
    const store = createMootStore({ dataDir: data, client: corpus, synth, modelName: "extractive", onSkipped: (file, reason) => skipped.push(`${file.slice(-41, -33)} ${reason}`) });
    expect(store.ids()).toEqual(["00000001-0000-4000-8000-000000000000"]);
    expect(skipped).toEqual([
      expect.stringMatching(/^00000002 saved moot: turns: Too big/),
      expect.stringMatching(/^00000003 saved moot: k: Too big: expected number to be <=50/),
      expect.stringMatching(/^00000004 saved moot: turns: Too big: expected number to be <=200/),
    ]);
  });
});
