// `groundwire render`, run in process on the bundled excerpts: output, options, and clear errors.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import render from "../../ts/cli/render.js";
import { CliError } from "../../ts/cli/common.js";
import { parseEnvelope, type Envelope } from "../../ts/memdsl/index.js";

const BOOK = fileURLToPath(new URL("../fixtures/memdsl/schema-book.input.ttl", import.meta.url));
const CITY = fileURLToPath(new URL("../fixtures/memdsl/dbo-city.input.ttl", import.meta.url));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((err += String(s)), true));
  try {
    return { code: await render.run(args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

async function failure(args: string[]): Promise<CliError> {
  try {
    await run(args);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }
  throw new Error("expected a CliError");
}

afterEach(() => vi.restoreAllMocks());

describe("groundwire render", () => {
  it("renders a prefixed-name focus as MemDSL text that parses", async () => {
    const { code, out } = await run([BOOK, "schema:Book"]);
    expect(code).toBe(0);
    const env = parseEnvelope(out);
    expect(env.focus).toBe("n2");
    expect(env.nodes[1]).toMatchObject({ token: "https://schema.org/Book", title: "Book", status: "asserted" });
  });

  it("takes a full IRI (bare or in <>) and the dbo default prefix ':'", async () => {
    const a = (await run([CITY, "http://dbpedia.org/ontology/City"])).out;
    expect((await run([CITY, "<http://dbpedia.org/ontology/City>"])).out).toBe(a);
    expect((await run([CITY, ":City"])).out).toBe(a);
    expect(a).toBe(readFileSync(new URL("../fixtures/memdsl/dbo-city.full.expected.memdsl", import.meta.url), "utf8").replaceAll("dbpedia-ontology.ttl", CITY));
  });

  it("--max-body-chars elides, --expanded removes expand handles, --json prints the Envelope", async () => {
    const { out } = await run([BOOK, "schema:Book", "--max-body-chars", "10", "--expanded", "schema:CreativeWork,https://schema.org/isbn", "--json"]);
    const env = JSON.parse(out) as Envelope;
    const book = env.nodes.find((n) => n.token === "https://schema.org/Book")!;
    expect(book.affordances.map((a) => a.target)).not.toContain("https://schema.org/CreativeWork");
    expect(book.affordances.map((a) => a.target)).not.toContain("https://schema.org/isbn");
    expect(env.gaps.filter((g) => g.kind === "elided").length).toBeGreaterThan(0);
  });

  it("--hops 0 renders the focus alone", async () => {
    expect(parseEnvelope((await run([BOOK, "schema:Book", "--hops", "0"])).out).nodes).toHaveLength(1);
  });

  it.each([
    [["--hops", "x"], 2, '--hops must be a non-negative integer, got "x"'],
    [["--hops", "-1"], 2, "render: "],
    [["--max-body-chars", "1.5"], 2, "--max-body-chars must be a non-negative integer"],
    [["--expanded", "nope:X"], 2, 'unknown prefix "nope:"'],
  ])("bad option %j → usage error", async (extra, exitCode, message) => {
    const e = await failure([BOOK, "schema:Book", ...extra]);
    expect(e.exitCode).toBe(exitCode);
    expect(e.message).toContain(message);
  });

  it("unknown focus, unknown prefix, missing file, unparsable graph, wrong arity → one clear error", async () => {
    expect((await failure([BOOK, "schema:Nope"])).message).toBe(`render: unknown focus <https://schema.org/Nope>: it occurs in no triple of ${BOOK}`);
    expect((await failure([BOOK, "dbo:City"])).message).toBe('render: focus "dbo:City" uses the unknown prefix "dbo:"');
    expect((await failure(["/nonexistent/x.ttl", "schema:Book"])).message).toBe("render: no such file: /nonexistent/x.ttl");
    const dir = mkdtempSync(join(tmpdir(), "memdsl-"));
    const bad = join(dir, "bad.ttl");
    writeFileSync(bad, "@prefix ex: <http://example.org/> .\nex:a ex:b .\n");
    const e = await failure([bad, "ex:a"]);
    expect(e.message).toMatch(new RegExp(`^render: cannot parse ${bad}:2:`));
    expect(e.exitCode).toBe(1);
    expect((await failure([BOOK])).exitCode).toBe(2);
    // an unknown extension is bad input (exit 1), as in index and critique
    const unknown = await failure([join(dir, "graph.rdf"), "ex:a"]);
    expect(unknown.message).toBe(`render: unknown RDF format for ${join(dir, "graph.rdf")}: extension .rdf (expected .ttl, .nt, .nq or .trig) or --format`);
    expect(unknown.exitCode).toBe(1);
  });

  it("a too-large count, an IRI holding a space, and a missing focus: usage errors that say what is wrong", async () => {
    const big = await failure([BOOK, "schema:Book", "--hops", "99999999"]);
    expect(big).toMatchObject({ message: "render: --hops must be at most 9999999, got \"99999999\"", exitCode: 2 });
    expect((await failure([BOOK, "schema:Book", "--max-body-chars", "1e3"])).message).toBe('render: --max-body-chars must be a non-negative integer, got "1e3"');
    // not "uses the unknown prefix http:"
    expect((await failure([BOOK, "http://e/a b"])).message).toBe('render: focus "http://e/a b" is not an absolute IRI');
    const arity = await failure([BOOK]);
    expect(arity.message).toBe("render: expected <graph> and <focus>, got 1 argument(s)\nusage: groundwire render <graph.ttl|.nt|.nq> <focus IRI or prefixed name> [options]");
  });
});
