// The `groundwire index` and `groundwire critique` commands: real fixtures, bad input, nothing written on error.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import indexCommand from "../../ts/cli/index-command.js";
import critiqueCommand from "../../ts/cli/critique.js";
import { CliError } from "../../ts/cli/common.js";

const FIXTURE = new URL("../fixtures/triple-index/dbpedia-mountains.input.ttl", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;

let out = "";
let err = "";
beforeEach(() => {
  out = "";
  err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

async function fingerprintOf(path: string): Promise<string> {
  out = "";
  await indexCommand.run([path]);
  return /fingerprint: ([0-9a-f]{64})/.exec(out)![1];
}

function workdir(): { dir: string; graph: string } {
  const dir = mkdtempSync(join(tmpdir(), "gw-critique-"));
  const graph = join(dir, "graph.ttl");
  copyFileSync(FIXTURE, graph);
  return { dir, graph };
}

describe("groundwire index", () => {
  it("prints the listing and the fingerprint", async () => {
    expect(await indexCommand.run([FIXTURE])).toBe(0);
    expect(out).toMatch(/^\[1\] :Mountain rdf:type owl:Class\n/);
    expect(out).toContain("\nfingerprint: ");
    expect(out).toContain("triples: 71 (71 with ids)");
  });
  it("--json gives ids, lines and the fingerprint; --scope marks read-only lines", async () => {
    const { dir } = workdir();
    const scope = join(dir, "scope.ttl");
    writeFileSync(scope, readFileSync(FIXTURE, "utf8").replace(/^:Volcano[\s\S]*?\n\n/m, ""));
    await indexCommand.run([FIXTURE, "--scope", scope, "--json"]);
    const json = JSON.parse(out);
    expect(json.triples).toBe(71);
    expect(json.ids).toBeLessThan(71);
    expect(json.lines.filter((l: { id: number | null }) => l.id === null).every((l: { s: string }) => l.s === ":Volcano")).toBe(true);
    expect(json.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });
  it("fails with one clear line on a missing file, an unknown format, an unparsable graph", async () => {
    await expect(indexCommand.run(["/nonexistent/g.ttl"])).rejects.toThrow("no such file: /nonexistent/g.ttl");
    await expect(indexCommand.run(["graph.rdf"])).rejects.toThrow("unknown RDF format for graph.rdf");
    const { dir } = workdir();
    const bad = join(dir, "bad.ttl");
    writeFileSync(bad, "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:a ex:b \"open .\n");
    await expect(indexCommand.run([bad])).rejects.toThrow(new RegExp(`^cannot parse ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:\\d+: `));
  });
});

describe("groundwire critique", () => {
  it("never writes over the input through -o (same path, another spelling, a symlink), nor into a missing folder", async () => {
    const { dir, graph } = workdir();
    const before = readFileSync(graph, "utf8");
    const fingerprint = await fingerprintOf(graph);
    const critique = join(dir, "critique.json");
    writeFileSync(critique, JSON.stringify([{ op: "remove", tripleIds: [1] }]));
    const link = join(dir, "link.ttl");
    symlinkSync(graph, link);
    for (const target of [graph, join(dir, ".", "graph.ttl"), link]) {
      await expect(critiqueCommand.run([graph, critique, "--fingerprint", fingerprint, "-o", target])).rejects.toThrow("is the input graph; pass --in-place to overwrite it");
    }
    await expect(critiqueCommand.run([graph, critique, "--fingerprint", fingerprint, "-o", join(dir, "missing", "out.ttl")])).rejects.toThrow(/cannot write .*out\.ttl: folder .*missing does not exist/);
    expect(readFileSync(graph, "utf8")).toBe(before);
    expect(existsSync(join(dir, "missing"))).toBe(false);
  });
  it("applies a critique to -o and leaves the input alone", async () => {
    const { dir, graph } = workdir();
    const before = readFileSync(graph, "utf8");
    const fp = await fingerprintOf(graph);
    const critique = join(dir, "critique.json");
    writeFileSync(critique, JSON.stringify([{ op: "remove", tripleIds: [2] }, { op: "replace", tripleIds: [18], correctValue: ":Mountain rdfs:subClassOf :Place ." }]));
    out = "";
    expect(await critiqueCommand.run([graph, critique, "--fingerprint", fp, "-o", join(dir, "out.ttl")])).toBe(0);
    expect(out).toContain("applied 2 of 2 items: 2 triples removed, 1 added");
    expect(readFileSync(graph, "utf8")).toBe(before);
    out = "";
    await indexCommand.run([join(dir, "out.ttl")]);
    expect(out).toContain(":Mountain rdfs:subClassOf :Place\n");
    expect(out).not.toContain(":Mountain owl:disjointWith :Person");
    expect(out).toContain("triples: 70 ");
  });
  it("--in-place overwrites the input only when asked", async () => {
    const { dir, graph } = workdir();
    const fp = await fingerprintOf(graph);
    const critique = join(dir, "c.json");
    writeFileSync(critique, '{"items":[{"op":"remove","tripleIds":[1]}]}');
    await critiqueCommand.run([graph, critique, "--fingerprint", fp, "--in-place"]);
    expect(await fingerprintOf(graph)).not.toBe(fp);
  });
  it("refuses a drifted graph naming both fingerprints, and writes nothing", async () => {
    const { dir, graph } = workdir();
    const critique = join(dir, "c.json");
    writeFileSync(critique, '[{"op":"remove","tripleIds":[1]}]');
    const stale = "0".repeat(64);
    const output = join(dir, "out.ttl");
    const fp = await fingerprintOf(graph);
    await expect(critiqueCommand.run([graph, critique, "--fingerprint", stale, "-o", output])).rejects.toThrow(
      `${graph}: graph drifted since it was indexed: the index has fingerprint ${stale}, the graph now has ${fp}; no item was applied (a listing made with --scope needs the same --scope here)`,
    );
    expect(existsSync(output)).toBe(false);
  });
  it("rejects invalid JSON, an unknown op, a missing critique file — nothing written", async () => {
    const { dir, graph } = workdir();
    const fp = await fingerprintOf(graph);
    const output = join(dir, "out.ttl");
    const badJson = join(dir, "bad.json");
    writeFileSync(badJson, "[{op: remove}]");
    await expect(critiqueCommand.run([graph, badJson, "--fingerprint", fp, "-o", output])).rejects.toThrow(/bad\.json: critique is not valid JSON/);
    const badOp = join(dir, "op.json");
    writeFileSync(badOp, '[{"op":"delete","tripleIds":[1]}]');
    await expect(critiqueCommand.run([graph, badOp, "--fingerprint", fp, "-o", output])).rejects.toThrow('critique item 1: unknown op "delete" (expected "remove" or "replace")');
    await expect(critiqueCommand.run([graph, join(dir, "none.json"), "--fingerprint", fp, "-o", output])).rejects.toThrow("no such file:");
    await expect(critiqueCommand.run([graph, badOp, "--fingerprint", fp, "-o", join(dir, "out.rdf")])).rejects.toThrow(/unknown RDF format/);
    await expect(critiqueCommand.run([graph, badOp])).rejects.toBeInstanceOf(CliError);
    expect(existsSync(output)).toBe(false);
  });
});

describe("groundwire critique: numbering, nothing applied, written format, directories (fresh-clone QA findings)", () => {
  it("with --scope the fingerprint covers the numbering: a critique checked under another scope (or none) is refused, nothing written", async () => {
    const { dir, graph } = workdir();
    const scope = join(dir, "scope.ttl");
    writeFileSync(scope, readFileSync(FIXTURE, "utf8").replace(/^:Volcano[\s\S]*?\n\n/m, ""));
    const unscoped = await fingerprintOf(graph);
    out = "";
    await indexCommand.run([graph, "--scope", scope]);
    const scoped = /^fingerprint: ([0-9a-f]{64})$/m.exec(out)![1];
    expect(scoped).not.toBe(unscoped);
    expect(out).toContain(`graph fingerprint: ${unscoped} (the fingerprint above also covers the scope)`);
    const critique = join(dir, "c.json");
    writeFileSync(critique, '[{"op":"remove","tripleIds":[1]}]');
    const output = join(dir, "out.ttl");
    await expect(critiqueCommand.run([graph, critique, "--fingerprint", scoped, "-o", output])).rejects.toThrow(
      `${graph}: graph drifted since it was indexed: the index has fingerprint ${scoped}, the graph now has ${unscoped}; no item was applied (a listing made with --scope needs the same --scope here)`,
    );
    await expect(critiqueCommand.run([graph, critique, "--fingerprint", unscoped, "--scope", scope, "-o", output])).rejects.toThrow(
      `${graph}: the listing the critic read has fingerprint ${unscoped}, this graph with --scope ${scope} has ${scoped} (same graph, other scope: its ids would name other triples); pass the --scope the listing was made with; no item was applied`,
    );
    expect(existsSync(output)).toBe(false);
    expect(await critiqueCommand.run([graph, critique, "--fingerprint", scoped, "--scope", scope, "-o", output])).toBe(0);
    expect(out).toContain("applied 1 of 1 items: 1 triples removed, 0 added");
  });

  it("a critique of which no item applies exits non-zero and writes nothing", async () => {
    const { dir, graph } = workdir();
    const fp = await fingerprintOf(graph);
    const critique = join(dir, "c.json");
    writeFileSync(critique, '[{"op":"remove","tripleIds":[99]},{"op":"replace","tripleIds":[1],"correctValue":"not turtle"}]');
    const output = join(dir, "out.ttl");
    await expect(critiqueCommand.run([graph, critique, "--fingerprint", fp, "-o", output])).rejects.toThrow(/c\.json: no item was applied \(item 1: unknown triple id 99: the listing has ids 1\.\.71 .*; item 2: .*\); nothing written$/);
    expect(existsSync(output)).toBe(false);
  });

  it("the fingerprint reported after writing N-Triples is the one `index` gives for that file (no prefixes there)", async () => {
    const { dir, graph } = workdir();
    const fp = await fingerprintOf(graph);
    const critique = join(dir, "c.json");
    writeFileSync(critique, '[{"op":"remove","tripleIds":[1]}]');
    const nt = join(dir, "out.nt");
    out = "";
    await critiqueCommand.run([graph, critique, "--fingerprint", fp, "-o", nt]);
    const reported = / -> ([0-9a-f]{64})$/m.exec(out)![1];
    expect(await fingerprintOf(nt)).toBe(reported);
  });

  it("a directory given as the graph or as -o is named in one clear line", async () => {
    const { dir, graph } = workdir();
    await expect(indexCommand.run([dir])).rejects.toThrow(`${dir}: is a directory, not a file`);
    const fp = await fingerprintOf(graph);
    const critique = join(dir, "c.json");
    writeFileSync(critique, '[{"op":"remove","tripleIds":[1]}]');
    const folder = join(dir, "od.ttl");
    mkdirSync(folder);
    await expect(critiqueCommand.run([graph, critique, "--fingerprint", fp, "-o", folder])).rejects.toThrow(`cannot write ${folder}: it is a directory`);
  });

  it("invalid JSON is reported on one line", async () => {
    const { dir, graph } = workdir();
    const fp = await fingerprintOf(graph);
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "[{op: remove}]\n");
    const error = await critiqueCommand.run([graph, bad, "--fingerprint", fp]).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/bad\.json: critique is not valid JSON: /);
    expect((error as Error).message).not.toContain("\n");
  });
});

describe("end to end through the dispatcher", () => {
  it("exits non-zero with one stderr line on an unparsable graph", () => {
    const { dir } = workdir();
    const bad = join(dir, "bad.nt");
    writeFileSync(bad, "<urn:a> <urn:b> .\n");
    let status = 0;
    let stderr = "";
    try {
      execFileSync("npx", ["tsx", "ts/cli/index.ts", "index", bad], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = (error as { stderr: string }).stderr;
    }
    expect(status).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^groundwire index: cannot parse .*bad\\.nt:1:\\d+: `));
  });
});
