import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import check from "../../ts/cli/check.js";
import prove from "../../ts/cli/prove.js";
import { CliError } from "../../ts/cli/common.js";
import { DBPEDIA_ONTOLOGY, hasShared } from "./real-data.js";

const KG = fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "groundwire-kernel-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
let out = "";
beforeEach(() => {
  out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((out += String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

describe("groundwire check", () => {
  it("prints context, errors with did-you-mean and location, and exits 1", async () => {
    const q = file("bad.rq", 'PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE {\n  ?c ex:hosts ?g .\n}\n');
    expect(await check.run([q, "--schema", KG])).toBe(1);
    expect(out).toBe(`context:\n  ?c : entity\nopen goals:\n  goals accomplished\nerrors:\n  ${q}:3:6: unknown property ex:hosts (did you mean ex:hosted?)\n`);
  });

  it("checks an op-list plan with a goal, exits 0 when no error remains; --json is machine-readable", async () => {
    const plan = file("plan.json", JSON.stringify([
      { op: "triple", s: "?c", p: "ex:hosted", o: "?g" },
      { op: "project", vars: ["?c", "?g"] },
    ]));
    expect(await check.run([plan, "--schema", KG, "--goal", '{"answer":["?c"],"kind":"entity","type":"ex:City","many":true}'])).toBe(0);
    expect(out).toBe("context:\n  ?c : ex:City\n  ?g : ex:OlympicGames\nopen goals:\n  ?g is projected but is not an answer\n");
    out = "";
    expect(await check.run([plan, "--schema", KG, "--json"])).toBe(0);
    const json = JSON.parse(out);
    expect(json.errors).toEqual([]);
    expect(json.sparql).toContain("SELECT ?c ?g");
  });

  it("turns bad input into one clear error", async () => {
    await expect(check.run([file("syntax.rq", "SELECT ?x WHERE {\n  ?x ?y }"), "--schema", KG])).rejects.toThrow(/syntax\.rq:2:9: SPARQL syntax error: unexpected '}'/);
    await expect(check.run([file("op.json", '[{"op":"jion"}]'), "--schema", KG])).rejects.toThrow(/op\.json: op 1: unknown op "jion"/);
    await expect(check.run([file("ok.rq", "SELECT * { ?s ?p ?o }"), "--schema", KG, "--goal", '{"answer":["?s"],"kind":"thing"}'])).rejects.toThrow(/malformed goal: "kind" must be one of/);
    await expect(check.run([file("ok2.rq", "SELECT * { ?s ?p ?o }"), "--schema", KG, "--goal", "{nope"])).rejects.toThrow(/malformed goal: not JSON/);
    await expect(check.run([file("ok3.rq", "SELECT * { ?s ?p ?o }"), "--schema", KG, "--goal", "/nonexistent/goal.json"])).rejects.toThrow("--goal: no such file: /nonexistent/goal.json");
    await expect(check.run([file("ok3.rq", "SELECT * { ?s ?p ?o }"), "--schema", file("bad.ttl", "@prefix ex: <http://e/> .\nex:a ex:b .\n")])).rejects.toThrow(/^schema .*bad\.ttl:2:\d+: /);
    await expect(check.run([join(dir, "missing.rq"), "--schema", KG])).rejects.toThrow(/no such plan file/);
    await expect(check.run(["x.rq"])).rejects.toMatchObject({ exitCode: 2 });
  });

  it.skipIf(!hasShared)("runs on real data: a QALD-9 gold query against the DBpedia ontology (needs ../shared/data; skipped when it is absent)", async () => {
    const q = file("qald374.rq", "PREFIX dbo: <http://dbpedia.org/ontology/> PREFIX res: <http://dbpedia.org/resource/>\nASK WHERE { res:Abraham_Lincoln dbo:deathPlace ?p . ?p dbo:website ?w }");
    expect(await check.run([q, "--schema", DBPEDIA_ONTOLOGY, "--goal", '{"kind":"boolean","many":false}'])).toBe(1);
    expect(out).toContain(`${q}:2:56: unknown property dbo:website (did you mean dbo:Website?)`);
    expect(out).toContain("?p : dbo:Place");
  });
});

describe("groundwire prove (scripted planner, embedded Oxigraph)", () => {
  it("answers a bundled demo question end to end", async () => {
    expect(await prove.run(["How many Olympic Games did Tokyo host?", "--kg", KG])).toBe(0);
    expect(out).toContain("kernel rejections: 0");
    expect(out).toContain('answer:\n"2"\n');
  });

  it("says clearly when a question has no script and no model is given", async () => {
    await expect(prove.run(["What is the capital of Mars?", "--kg", KG])).rejects.toThrow(CliError);
    await expect(prove.run(["What is the capital of Mars?", "--kg", KG])).rejects.toThrow(/no scripted plan for this question/);
    await expect(prove.run(["q", "--kg", KG, "--model", "m"])).rejects.toThrow(/--model needs a model endpoint: give --base-url/);
  });

  it("bad usage: the fault and the usage line (not the whole help), exit 2", async () => {
    const usage = 'usage: groundwire prove "<question>" --kg <graph.ttl|-> [--base-url URL [--model M] [--api-key-file FILE] [--timeout T]] [--script plan.json|-] [--endpoint URL] [--max-turns N] [--format ttl|nt|nq|trig|json] [--json] [--quiet]';
    const cases: Array<[string[], string]> = [
      [["--kg", KG], `prove: expected one question (quote it)\n${usage}`],
      [["q"], `prove: --kg is required\n${usage}`],
      [["  ", "--kg", KG], `prove: the question is empty\n${usage}`],
      [["q", "--kg", KG, "--max-turns", "-3"], 'prove: --max-turns must be a positive integer, got "-3"'],
      [["q", "--kg", KG, "--max-turns", "0x10"], 'prove: --max-turns must be a positive integer, got "0x10"'],
      [["q", "--kg", KG, "--max-turns", "0"], 'prove: --max-turns must be a positive integer, got "0"'],
    ];
    for (const [args, message] of cases) {
      const error = await prove.run(args).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(CliError);
      expect(error).toMatchObject({ message, exitCode: 2 });
    }
  });
});
