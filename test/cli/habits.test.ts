// What a command-line user expects of every command (dist/cli.cjs, run as users run it):
// an unknown option answered with the command's own nearest options, `--format` by the names
// the API uses, numbers with their units, `--jsonl` streams equal to `--json`, and a bin that
// is executable straight after `npm run build`.
// npm test runs a fixed sample of each test's repeats (each kind of message, each record shape of
// --jsonl); npm run test:deep (test/depth.ts) runs all of them. What a test leaves to the deep run
// is said beside it.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gw } from "../io/run-cli.js";
import { DEEP } from "../depth.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const GRAPH = join(ROOT, "test/fixtures/triple-index/dbpedia-mountains.input.ttl");
const DOC = join(ROOT, "test/fixtures/evidence/awesome-v001.md");

describe("CLI habits (dist/cli.cjs)", () => {
  it("the bin is executable after the build", () => {
    expect(statSync(join(ROOT, "dist/cli.cjs")).mode & 0o111).toBe(0o111);
  });

  it("help about help (help help, help --help, help -h) prints the usage, exit 0, from the bin and from dist/cli.js", async () => {
    const usage = (await gw(["--help"])).stdout;
    expect(usage).toMatch(/^usage: groundwire <command> \[options\]\n/);
    for (const args of [["help", "help"], ["help", "--help"], ["help", "-h"]]) {
      const bin = await gw(args);
      expect([bin.code, bin.stdout, bin.stderr], args.join(" ")).toEqual([0, usage, ""]);
      const esm = spawnSync(process.execPath, [join(ROOT, "dist/cli.js"), ...args], { encoding: "utf8" });
      expect([esm.status, esm.stdout, esm.stderr], args.join(" ")).toEqual([0, usage, ""]);
    }
  });

  it("an unknown option names the nearest options of that command and where to look, exit 2", async () => {
    const cases: Array<[string[], string]> = [
      [["locate", "harbour", "--min-ration", "0.9"], 'groundwire locate: unknown option "--min-ration"; did you mean --min-ratio? (groundwire help locate lists its options)\n'],
      [["index", GRAPH, "--jsn"], 'groundwire index: unknown option "--jsn"; did you mean --json or --jsonl? (groundwire help index lists its options)\n'],
      [["books", "--pasages", "novel/frankenstein"], 'groundwire books: unknown option "--pasages"; did you mean --passages? (groundwire help books lists its options)\n'],
      [["fragments", DOC, "--zzzzzzzz"], 'groundwire fragments: unknown option "--zzzzzzzz" (groundwire help fragments lists its options)\n'],
      [["books", "-x"], 'groundwire books: unknown option "-x" (groundwire help books lists its options)\n'],
    ];
    // npm test: one nearest option (locate), none (fragments), a short option (-x); two nearest
    // (index) is test/cli/parse-errors.test.ts's case with the case ignored (--JSON), books the
    // same kind as locate; npm run test:deep (test/depth.ts): all five
    for (const [args, stderr] of cases.filter((_, i) => DEEP || i === 0 || i === 3 || i === 4)) {
      const r = await gw(args);
      expect(r.stderr, args.join(" ")).toBe(stderr);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
    }
  });

  it("--format takes the API's names (turtle, ntriples, n-quads, markdown) as well as the short ones", async () => {
    const turtle = await gw(["index", "-", "--format", "turtle", "--json"], { input: "<urn:a> <urn:b> <urn:c> ." });
    const short = await gw(["index", "-", "--format", "ttl", "--json"], { input: "<urn:a> <urn:b> <urn:c> ." });
    expect(turtle.code).toBe(0);
    expect(JSON.parse(turtle.stdout).fingerprint).toBe(JSON.parse(short.stdout).fingerprint);
    expect(JSON.parse(turtle.stdout).triples).toBe(1);
    const nq = await gw(["index", "-", "--format", "N-Quads", "--json"], { input: "<urn:a> <urn:b> <urn:c> <urn:g> ." });
    expect(nq.code).toBe(0);
    expect(JSON.parse(nq.stdout).triples).toBe(1);
    const md = await gw(["fragments", "-", "--artifact", "doc", "--format", "markdown", "--json"], { input: "# Title\n\nA paragraph.\n" });
    expect(md.code).toBe(0);
    expect(JSON.parse(md.stdout).fragments.map((f: { kind: string }) => f.kind)).toEqual(["section", "paragraph"]);
    const bad = await gw(["index", "-", "--format", "rdfxml"], { input: "" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('groundwire index: --format must be one of ttl, nt, nq, trig (or turtle, ntriples, nquads), got "rdfxml"\n');
  });

  it("durations and sizes take a unit; a bare number keeps the unit the help names; a bad unit is named", async () => {
    // --timeout of locate is seconds bare: 0.0001 s and 100ms both are budgets the search may exceed
    const tooSmall = await gw(["locate", "harbour", "--timeout", "0ms"]);
    expect(tooSmall.code).toBe(2);
    expect(tooSmall.stderr).toBe('groundwire locate: --timeout must be a duration from 1 ms to 1 h (120s, 2m, 500ms), got "0ms"\n');
    // over the ceiling with a unit: npm test runs the size's (1GiB, below); npm run test:deep (test/depth.ts) the duration's too
    if (DEEP) {
      const tooLong = await gw(["locate", "harbour", "--timeout", "2h"]);
      expect(tooLong.stderr).toBe('groundwire locate: --timeout must be a duration from 1 ms to 1 h (120s, 2m, 500ms), got "2h"\n');
    }
    const unit = await gw(["locate", "harbour", "--timeout", "5 fortnights"]);
    expect(unit.code).toBe(2);
    expect(unit.stderr).toBe('groundwire locate: --timeout must be a duration from 1 ms to 1 h (120s, 2m, 500ms), got "5 fortnights": unknown unit "fortnights" (ms, s, m, h)\n');
    const bare = await gw(["locate", "harbour", "--timeout", "0"]);
    expect(bare.stderr).toBe('groundwire locate: --timeout must be a number of seconds above 0 and at most 3600, got "0"\n');
    const ok = await gw(["locate", "It was on a dreary night of November", "--timeout", "1m", "--book", "novel/frankenstein", "--json"], { limitMs: 120_000 });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)[0].ratio).toBe(1);
    // sizes: --max-bytes of fragments, in bytes bare
    const small = await gw(["fragments", "-", "--artifact", "doc", "--format", "md", "--max-bytes", "1kB"], { input: "x".repeat(1500) });
    expect(small.stderr).toBe("groundwire fragments: <stdin>: over the 1,000 bytes a document may hold (--max-bytes raises it, up to 128 MiB)\n");
    const kib = await gw(["fragments", "-", "--artifact", "doc", "--format", "md", "--max-bytes", "2KiB", "--json"], { input: "x".repeat(1500) });
    expect(kib.code).toBe(0);
    const over = await gw(["fragments", DOC, "--max-bytes", "1GiB"]);
    expect(over.stderr).toBe('groundwire fragments: --max-bytes must be a size from 1 B to 128 MiB (8MiB, 500kB, 1GiB), got "1GiB"\n');
  });

  it("books --jsonl: every line typed, as index's and fragments' are; a book's line the same with --passages", async () => {
    const json = JSON.parse((await gw(["books", "--json"])).stdout) as { key: string }[];
    const lines = (await gw(["books", "--jsonl"])).stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(json.length).toBeGreaterThan(1);
    expect(lines).toEqual(json.map((b) => ({ type: "book", ...b })));
    const frankenstein = lines.find((b) => b.key === "novel/frankenstein");
    expect(frankenstein).toMatchObject({ type: "book", title: "Frankenstein, or The Modern Prometheus", structure: "chapters" });
    const passages = (await gw(["books", "--passages", "novel/frankenstein", "--jsonl"])).stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(passages[0]).toEqual(frankenstein);
    expect(passages.length).toBe(frankenstein.passages + 1);
    expect(passages.slice(1).every((p) => p.type === "passage")).toBe(true);
  });

  it("--jsonl prints one JSON object per line, the same records --json prints", async () => {
    // npm test: index (a header record, then one per row, as fragments and books) and locate (the
    // records of a JSON array); npm run test:deep (test/depth.ts): fragments and books too
    const json = JSON.parse((await gw(["index", GRAPH, "--json"])).stdout);
    const lines = (await gw(["index", GRAPH, "--jsonl"])).stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.slice(0, -1)).toEqual(json.lines.map((l: object) => ({ type: "triple", ...l })));
    const { lines: _, ...summary } = json;
    expect(lines.at(-1)).toEqual({ type: "summary", ...summary });

    if (DEEP) {
      const fj = JSON.parse((await gw(["fragments", DOC, "--artifact", "doc", "--json"])).stdout);
      const fl = (await gw(["fragments", DOC, "--artifact", "doc", "--jsonl"])).stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
      expect(fl[0]).toEqual({ type: "artifact", ...fj.artifact });
      expect(fl.slice(1)).toEqual(fj.fragments.map((f: object) => ({ type: "fragment", ...f })));
      expect(fl.length).toBeGreaterThan(20);

      const bj = JSON.parse((await gw(["books", "--passages", "novel/frankenstein", "--json"])).stdout);
      const bl = (await gw(["books", "--passages", "novel/frankenstein", "--jsonl"])).stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
      expect(bl[0]).toMatchObject({ type: "book", key: bj.key, title: bj.title, structure: bj.structure });
      expect(bl.slice(1)).toEqual(bj.passages.map((p: object) => ({ type: "passage", ...p })));
    }

    const lj = JSON.parse((await gw(["locate", "It was on a dreary night of November", "--book", "novel/frankenstein", "--json"], { limitMs: 120_000 })).stdout);
    const ll = (await gw(["locate", "It was on a dreary night of November", "--book", "novel/frankenstein", "--jsonl"], { limitMs: 120_000 })).stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(ll).toEqual(lj);

    const both = await gw(["books", "--json", "--jsonl"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe("groundwire books: --json and --jsonl are two output forms; give one\n");
  });
});
