// fingerprintQuads(parseQuads(text)) equals fingerprintGraph(parseGraph(text)): the store-free
// pair that keeps N3.js's Store out of a fingerprint-only browser page (issue 16 item 4).
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGraph, parseQuads, RdfParseError } from "../../ts/rdf/index.js";
import { fingerprintGraph, fingerprintQuads } from "../../ts/triple-index/index.js";
import "../../ts/index.js";

const FIXTURES = new URL("../fixtures/triple-index/", import.meta.url);
const inputs = readdirSync(FIXTURES).filter((f) => f.endsWith(".input.ttl")).sort();

describe("fingerprintQuads(parseQuads(text)) = fingerprintGraph(parseGraph(text))", () => {
  for (const input of inputs) {
    it(input, () => {
      const text = readFileSync(new URL(input, FIXTURES), "utf8");
      const expected = readFileSync(new URL(input.replace(".input.ttl", ".expected.txt"), FIXTURES), "utf8");
      const golden = /fingerprint: ([0-9a-f]{64})\n$/.exec(expected)![1];
      const parsed = parseQuads(text, { source: input });
      expect(parsed.quads.length).toBeGreaterThan(10);
      expect(fingerprintQuads(parsed)).toBe(golden);
      expect(fingerprintGraph(parseGraph(text))).toBe(golden);
    });
  }

  it("a repeated triple counts once, as in a store; a triple in two named graphs is listed once", () => {
    const text = `<urn:a> <urn:p> "x" .\n<urn:a> <urn:p> "x" .\n<urn:b> <urn:p> _:n .\n`;
    expect(parseQuads(text).quads).toHaveLength(3);
    expect(fingerprintQuads(parseQuads(text))).toBe(fingerprintGraph(parseGraph(text)));
    expect(fingerprintQuads(parseQuads(text))).toBe(fingerprintQuads(parseQuads(`<urn:b> <urn:p> _:n .\n<urn:a> <urn:p> "x" .\n`)));
    const trig = `<urn:g1> { <urn:a> <urn:p> <urn:o> . } <urn:g2> { <urn:a> <urn:p> <urn:o> . <urn:c> a <urn:T> . }`;
    expect(fingerprintQuads(parseQuads(trig, { format: "trig" }))).toBe(fingerprintGraph(parseGraph(trig, { format: "trig" })));
    expect(fingerprintQuads(parseQuads(trig, { format: "trig" }))).toBe(
      fingerprintQuads(parseQuads(`<urn:a> <urn:p> <urn:o> . <urn:c> a <urn:T> .`)),
    );
  });

  it("prefixes render as in the listing; anonymous blank nodes are labelled as parseGraph labels them", () => {
    const text = `@prefix ex: <http://example.org/> . ex:a ex:p [ ex:q "v"@en ] ; ex:r ( 1 2 ) .`;
    const parsed = parseQuads(text);
    expect(parsed.prefixes).toEqual({ ex: "http://example.org/" });
    expect(new Set(parsed.quads.flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === "BlankNode").map((t) => t.value))).toEqual(new Set(["b1", "b2", "b3"]));
    expect(fingerprintQuads(parsed)).toBe(fingerprintGraph(parseGraph(text)));
    expect(fingerprintQuads({ quads: [], prefixes: {} })).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("errors are parseGraph's", () => {
    const bad = `<urn:a> <urn:b> .`;
    const e1 = (() => { try { parseQuads(bad, { source: "x.ttl" }); } catch (e) { return e; } })() as RdfParseError;
    const e2 = (() => { try { parseGraph(bad, { source: "x.ttl" }); } catch (e) { return e; } })() as RdfParseError;
    expect(e1).toBeInstanceOf(RdfParseError);
    expect(e1.message).toBe(e2.message);
    expect(e1.message).toMatch(/^x\.ttl:1:/);
  });
});
