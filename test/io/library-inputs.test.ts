// Issue 12 items 1, 2, 7, 10, 12–16 at the library level: ts/files.ts and ts/cli/io.ts helpers,
// TypeErrors naming the argument, closure validation parity, re-entrancy, prefix caches,
// canonicalHash defaults.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeUtf8, InputFileError, OutputFileError, readTextFile, writeFileAtomic } from "../../ts/files.js";
import { checkJsonDepth, echo, jsonFlagArgs } from "../../ts/cli/io.js";
import { escapeTerminal } from "../../ts/cli/common.js";
import { parseGraph, PrefixMap } from "../../ts/rdf/index.js";
import { loadGraphFile } from "../../ts/rdf/load.js";
import { buildTripleIndex, canonicalHash, CanonicalizationLimitError, fingerprintGraph, renderListing } from "../../ts/triple-index/index.js";
import { computeClosure, createKernel } from "../../ts/kernel/index.js";
import { citationStatus } from "../../ts/evidence/index.js";
import { checkGrounding } from "../../ts/moot/grounding.js";
import { backendInfo } from "../../bindings/wasm.js";
import { ArgumentError } from "../../ts/errors.js";
import { spread } from "../depth.js";

const SHARED_RDF = new URL("../../../shared/data/rdf/", import.meta.url);
const tmp = () => mkdtempSync(join(tmpdir(), "gw-lib-"));

describe("item 1: strict UTF-8 with the byte offset", () => {
  it.each([
    [[0x61, 0x62, 0xe9, 0x63], 2],
    [[0xe2, 0x82, 0xac, 0x20, 0xc3], 4], // a truncated sequence at the end
    [[0xef, 0xbf, 0xbd, 0x41, 0xff], 4], // a real U+FFFD first is valid text
    [[0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80], 4], // an encoded surrogate is invalid
  ])("%j → byte %i", (bytes, offset) => {
    expect(() => decodeUtf8(Uint8Array.from(bytes), "f.ttl")).toThrow(`f.ttl: invalid UTF-8 at byte ${offset}`);
  });

  it("UTF-16, with or without a byte-order mark, is named as such (it used to pass as UTF-8 with a NUL beside every letter)", () => {
    const le = Buffer.from("# Title\n\nbody text\n", "utf16le");
    const be = Buffer.from(le).swap16();
    for (const bytes of [le, be, Buffer.concat([Buffer.from([0xff, 0xfe]), le]), Buffer.concat([Buffer.from([0xfe, 0xff]), be])]) {
      expect(() => decodeUtf8(bytes, "u.md")).toThrow("u.md: UTF-16, not UTF-8 text (convert it first, e.g. iconv -f utf-16 -t utf-8)");
    }
    // a NUL here and there is text (CommonMark reads it as U+FFFD)
    expect(decodeUtf8(Buffer.from("a\0b c d e f\0"), "n.md")).toBe("a\0b c d e f\0");
  });

  it("keeps a BOM unless asked to strip it; loadGraphFile refuses Latin-1", () => {
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41]), "x")).toBe("\uFEFFA");
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41]), "x", { stripBom: true })).toBe("A");
    const dir = tmp();
    const file = join(dir, "latin1.ttl");
    writeFileSync(file, Buffer.concat([Buffer.from('<http://e/a> <http://e/b> "caf'), Buffer.from([0xe9]), Buffer.from('" .\n')]));
    expect(() => loadGraphFile(file)).toThrow(`${file}: invalid UTF-8 at byte 30`);
  });
});

describe("item 2: writeFileAtomic", () => {
  it("replaces the file whole, keeps its mode, writes through a symlink, leaves no temporary", () => {
    const dir = tmp();
    const target = join(dir, "out.ttl");
    writeFileSync(target, "old\n");
    chmodSync(target, 0o640);
    writeFileAtomic(target, "new\n");
    expect(readFileSync(target, "utf8")).toBe("new\n");
    expect(statSync(target).mode & 0o777).toBe(0o640);
    const link = join(dir, "link.ttl");
    symlinkSync(target, link);
    writeFileAtomic(link, "through\n");
    expect(readFileSync(target, "utf8")).toBe("through\n");
    expect(readdirSync(dir).sort()).toEqual(["link.ttl", "out.ttl"]);
  });

  it("a failed write leaves the old file and no temporary", () => {
    const dir = tmp();
    const target = join(dir, "out.ttl");
    writeFileSync(target, "old\n");
    // a string too large to encode fails inside the write (as ENOSPC would), after the temporary exists
    const huge = { length: 1 } as unknown as string;
    expect(() => writeFileAtomic(target, huge)).toThrow(OutputFileError);
    expect(readFileSync(target, "utf8")).toBe("old\n");
    expect(readdirSync(dir)).toEqual(["out.ttl"]);
    expect(() => writeFileAtomic(join(dir, "missing", "x.ttl"), "x")).toThrow(/^cannot write .*x\.ttl: no such file or folder \(ENOENT\)$/);
  });

  it("reads refuse folders and devices, and cap the size", () => {
    const dir = tmp();
    expect(() => readTextFile(dir)).toThrow(`${dir}: is a directory, not a file`);
    expect(() => readTextFile("/dev/null")).toThrow("/dev/null: is not a regular file");
    const file = join(dir, "big.txt");
    writeFileSync(file, "x".repeat(1000));
    expect(() => readTextFile(file, { maxBytes: 999 })).toThrow(`${file}: is 1000 bytes, over the limit of 999 bytes`);
    expect(() => readTextFile(join(dir, "none"))).toThrow(InputFileError);
  });
});

describe("item 7 and 12: terminal escaping and echo truncation", () => {
  it("escapes C0 (but LF and TAB), DEL and C1; JSON keeps the exact text", () => {
    const model = "ok\tline\n\u001b[2J\u001b]52;c;aGk=\u0007\r\u007f\u009b31m";
    expect(escapeTerminal(model)).toBe("ok\tline\n\\x1B[2J\\x1B]52;c;aGk=\\x07\\x0D\\x7F\\x9B31m");
    expect(JSON.parse(JSON.stringify({ model })).model).toBe(model);
  });

  it("echo quotes at most 80 characters with an ellipsis and the length", () => {
    expect(echo("short")).toBe('"short"');
    const long = "y".repeat(50_000_000);
    const shown = echo(long);
    expect(shown).toBe(`"${"y".repeat(80)}"… (50000000 characters)`);
  });

  it("--json takes a file, - or nothing", () => {
    expect(jsonFlagArgs(["a", "--json"])).toEqual(["a", "--json", "-"]);
    expect(jsonFlagArgs(["--json", "--turns", "2"])).toEqual(["--json", "-", "--turns", "2"]);
    expect(jsonFlagArgs(["--json", "t.json"])).toEqual(["--json", "t.json"]);
    expect(jsonFlagArgs(["--json", "-"])).toEqual(["--json", "-"]);
  });
});

describe("item 10: JSON depth", () => {
  it("refuses 1,001 levels with the line, accepts 1,000, ignores brackets in strings", () => {
    expect(() => checkJsonDepth(`\n\n${"[".repeat(1001)}${"]".repeat(1001)}`, "c.json")).toThrow("c.json: nesting deeper than 1,000 at line 3");
    expect(() => checkJsonDepth(`${"[".repeat(1000)}${"]".repeat(1000)}`, "c.json")).not.toThrow();
    expect(() => checkJsonDepth(JSON.stringify({ s: "[".repeat(5000) + '\\"' }), "c.json")).not.toThrow();
  });
});

describe("item 12: the public API refuses a wrong argument with an ArgumentError naming it", () => {
  it.each([
    ["buildTripleIndex({})", () => buildTripleIndex({} as never), /buildTripleIndex: graph must be a Graph/],
    ["buildTripleIndex(null)", () => buildTripleIndex(null as never), /buildTripleIndex: graph must be a Graph \(from parseGraph, createGraph or loadGraphFile\), got null/],
    ["buildTripleIndex(g, {scope: 1})", () => buildTripleIndex(parseGraph(""), { scope: 1 as never }), /buildTripleIndex: options.scope must be a Graph/],
    ["citationStatus(null, …)", () => citationStatus(null as never, []), /citationStatus: citation must be a version id string or a Citation, got null/],
    ["citationStatus(id, null)", () => citationStatus("x", null as never), /citationStatus: fragments must be/],
    ["checkGrounding(null, …)", () => checkGrounding(null as never, []), /checkGrounding: text must be a string, got null/],
    ["checkGrounding(text, null)", () => checkGrounding("x", null as never), /checkGrounding: passages must be an array/],
    ["createKernel(null)", () => createKernel(null as never), /createKernel: schema must be a Schema/],
  ])("%s", (_name, call, message) => {
    expect(call).toThrow(ArgumentError);
    expect(call).toThrow(message);
  });
});

describe("item 13: computeClosure validates counts and ids identically on both backends", () => {
  const backends = backendInfo().active === "wasm" ? (["wasm", "ts"] as const) : (["ts"] as const);
  const u = (xs: number[]) => Uint32Array.from(xs);
  it.each([
    ["n = -1", -1, u([]), u([]), ArgumentError, "computeClosure: n must be an integer in 0..16777216, got -1"],
    ["n = 2**31", 2 ** 31, u([]), u([]), ArgumentError, "computeClosure: n must be an integer in 0..16777216, got 2147483648"],
    ["n = 1e9", 1e9, u([]), u([]), ArgumentError, "computeClosure: n must be an integer in 0..16777216, got 1000000000"],
    ["n = NaN", NaN, u([]), u([]), ArgumentError, "computeClosure: n must be a number, got NaN"],
    ["n = 2.5", 2.5, u([]), u([]), ArgumentError, "computeClosure: n must be an integer node count, got 2.5"],
    ["an edge to node -7 (plain array)", 3, [0] as never, [-7] as never, ArgumentError, "computeClosure: child must be a Uint32Array, got an array"],
    ["an edge to node 3 of 3", 3, u([0]), u([3]), ArgumentError, "computeClosure: child and parent must be node ids in 0..2, got an edge naming a node outside 0..2"],
    ["lengths differ", 3, u([0, 1]), u([1]), ArgumentError, "computeClosure: parent must be as long as child (2 edges), got 1 edges"],
  ])("%s", (_name, n, child, parent, type, message) => {
    for (const backend of backends) {
      const call = () => computeClosure(n as number, child as Uint32Array, parent as Uint32Array, { backend });
      expect(call, backend).toThrow(type);
      expect(call, backend).toThrow(message as string);
    }
  });

  it("valid input still gives the same closure on both backends", () => {
    const outs = backends.map((backend) => computeClosure(3, u([0, 1, 2]), u([1, 2, 0]), { backend }));
    for (const c of outs) expect(Array.from(c.ancestors)).toEqual([0, 1, 2]);
  });
});

describe("item 14: re-entering buildTripleIndex from a PrefixMap getter", () => {
  it("the outer call is right, not 'memory access out of bounds'", () => {
    const outerText = readFileSync(new URL("../fixtures/triple-index/dbpedia-mountains.input.ttl", import.meta.url), "utf8");
    const outer = parseGraph(outerText);
    const other = parseGraph("@prefix ex: <http://example.org/> . ex:x ex:y ex:z , ex:w .");
    const expected = buildTripleIndex(outer);
    let inner = "";
    class Hostile extends PrefixMap {
      override get shorteningOrder() {
        inner = buildTripleIndex(other).fingerprint;
        return super.shorteningOrder;
      }
    }
    const got = buildTripleIndex({ ...outer, prefixes: new Hostile(outer.prefixes) as never });
    expect(inner).toBe(buildTripleIndex(other).fingerprint);
    expect(got.fingerprint).toBe(expected.fingerprint);
    expect(renderListing(got)).toBe(renderListing(expected));
  });
});

describe("item 15: prefixes edited in place are seen", () => {
  it("the listing and fingerprint follow graph.prefixes after an in-place edit", () => {
    const text = "<http://example.org/a> <http://example.org/b> <http://example.org/c> .";
    const graph = parseGraph(text);
    const before = buildTripleIndex(graph);
    expect(renderListing(before)).toContain("<http://example.org/a>");
    graph.prefixes.ex = "http://example.org/";
    const after = buildTripleIndex(graph);
    expect(renderListing(after)).toContain("ex:a ex:b ex:c");
    const fresh = parseGraph(`@prefix ex: <http://example.org/> . ${text}`);
    expect(after.fingerprint).toBe(buildTripleIndex(fresh).fingerprint);
    expect(fingerprintGraph(graph)).toBe(fingerprintGraph(fresh));
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });
});

describe("item 16: canonicalHash defaults", () => {
  const ex = "@prefix ex: <http://example.org/> .\n";
  it.each([
    ["a list of equal literals", `${ex}ex:s ex:p ( 1 1 1 1 ) .`],
    ["a 2-cycle of blank nodes", `${ex}_:a ex:p _:b . _:b ex:p _:a .`],
    ["a 3-cycle of blank nodes", `${ex}_:a ex:p _:b . _:b ex:p _:c . _:c ex:p _:a .`],
  ])("accepts %s, identically for a relabelled copy", async (_name, text) => {
    const a = await canonicalHash(parseGraph(text));
    const b = await canonicalHash(parseGraph(text.replace(/_:a/g, "_:q").replace(/_:b/g, "_:r")));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
  });

  it("refuses a 20-node blank-node clique within the bound", async () => {
    let text = ex;
    for (let i = 0; i < 20; i++) for (let j = 0; j < 20; j++) if (i !== j) text += `_:n${i} ex:p _:n${j} .\n`;
    await expect(canonicalHash(parseGraph(text))).rejects.toThrow(CanonicalizationLimitError);
  });

  // npm test: the DBpedia ontology; npm run test:deep (test/depth.ts): schema.org too
  it.skipIf(!existsSync(SHARED_RDF))("accepts the shared ontologies (needs ../shared/data; WordNet is left to the bench: 30 MB)", async () => {
    for (const file of spread(["dbpedia-ontology.ttl", "schemaorg-30.0-current-https.ttl"], 1)) {
      const hash = await canonicalHash(loadGraphFile(new URL(file, SHARED_RDF).pathname));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
  }, 120_000);
});
