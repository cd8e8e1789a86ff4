// Parity: both backends against fixtures written by python3's difflib from the
// real books (scripts/make-parity-fixtures.py), and against the naive oracle.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestSpan, createQuoteMatcher, sequenceRatio } from "../../ts/match/best-span.js";
import { words } from "../../ts/match/words.js";
import { markupSafeSpan } from "../../ts/match/markup.js";
import { seqBindingFor } from "../../bindings/sequence-match.js";
import { matchWasmFor as wasmFor } from "../../bindings/match.js";
import { cps, oracleRatio } from "./difflib-oracle.js";

interface Case {
  kind: string;
  quote: string;
  sources: number[];
  text: string;
  source: number;
  ratio: number;
  ratioRepr: string;
  autojunkRatio?: number;
}
const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as {
  passages: string[];
  cases: Case[];
};
const sourcesOf = (c: Case) => c.sources.map((i) => fixture.passages[i]);

function hasPython(): boolean {
  try {
    execFileSync("python3", ["-c", "import difflib"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("parity fixtures", () => {
  it("cover every kind the issue lists, 500+ cases", () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(500);
    const kinds = new Set(fixture.cases.map((c) => c.kind));
    for (const k of ["exact", "drop", "insert", "misspell", "curly", "ellipsis", "accents", "non-bmp", "start", "end", "empty", "one-word", "tie-duplicate-source", "tie-repeated-phrase", "long",
      "nfc-composed-quote", "nfc-decomposed-quote", "nfc-near-miss", "ligature", "ligature-near-miss", "soft-hyphen", "soft-hyphen-near-miss", "cjk", "cjk-near-miss", "thai", "devanagari", "devanagari-near-miss", "underscore", "underscore-near-miss"]) {
      expect(kinds.has(k), k).toBe(true);
    }
    // the ratio stored as a number is the ratio Python printed
    for (const c of fixture.cases) expect(c.ratio).toBe(Number(c.ratioRepr));
  });
});

describe.each(["wasm", "ts"] as const)("bestSpan parity with python3 difflib — %s backend", (backend) => {
  // python's span is the window's (first word to last word): edges "words". The default edges
  // are that span widened over any markup run it splits (ts/match/markup.ts), a post-step
  // checked here on every case: same ratio and source, the span markupSafeSpan gives.
  it("gives python's span, source and ratio on every fixture case", () => {
    const wrong: string[] = [];
    let widened = 0;
    for (const c of fixture.cases) {
      const sources = sourcesOf(c);
      const got = bestSpan(c.quote, sources, { backend, edges: "words" });
      const safe = bestSpan(c.quote, sources, { backend });
      expect([safe.ratio, safe.source]).toEqual([got.ratio, got.source]);
      if (got.source >= 0) {
        const w = markupSafeSpan(sources[got.source], got.start, got.end);
        expect([safe.start, safe.end]).toEqual([w.start, w.end]);
        if (w.start !== got.start || w.end !== got.end) widened++;
      }
      if (got.text !== c.text || got.source !== c.source || got.ratio !== c.ratio) {
        wrong.push(`${c.kind} ${JSON.stringify(c.quote)}: got ${JSON.stringify(got)}, python ${JSON.stringify([c.text, c.source, c.ratio])}`);
      } else if (c.source >= 0) {
        expect(sources[got.source].slice(got.start, got.end)).toBe(got.text);
      } else {
        expect(got).toEqual({ text: "", ratio: 0, source: -1, start: -1, end: -1 });
      }
    }
    expect(wrong).toEqual([]);
    // the fixture has spans that end inside `_…_` and `` `…` `` runs (kinds "underscore", …)
    expect(widened).toBeGreaterThan(0);
  });

  it("gives the same results through one prepared matcher (match) as one call at a time", () => {
    const bySources = new Map<string, Case[]>();
    for (const c of fixture.cases) {
      const k = c.sources.join(",");
      bySources.set(k, [...(bySources.get(k) ?? []), c]);
    }
    for (const cases of bySources.values()) {
      const m = createQuoteMatcher(sourcesOf(cases[0]), { backend, edges: "words" });
      expect(m.backend).toBe(backend);
      const got = m.match(cases.map((c) => c.quote));
      got.forEach((g, i) => expect([g.text, g.source, g.ratio]).toEqual([cases[i].text, cases[i].source, cases[i].ratio]));
    }
  });
});

describe("sequenceRatio against the naive difflib oracle", () => {
  it("agrees on random strings over small alphabets (many ties), code points included", () => {
    const alphabet = fc.constantFrom("a", "b", "c", " ", "é", "𝔞");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), fc.array(alphabet, { maxLength: 40 }), (x, y) => {
        const a = x.join(""), b = y.join("");
        expect(sequenceRatio(a, b)).toBe(oracleRatio(a, b));
      }),
      { numRuns: 600 },
    );
  });

  it("agrees with the WASM kernel's ratio on random id sequences", () => {
    const k = seqBindingFor(wasmFor("wasm")!);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 90 }), fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 90 }), (a, b) => {
        const s = (xs: number[]) => String.fromCodePoint(...xs.map((v) => 97 + v));
        expect(k.ratio(a, b)).toBe(oracleRatio(s(a), s(b)));
      }),
      { numRuns: 400 },
    );
  });

  it("agrees on real passages against misspelled quotes", () => {
    for (const c of fixture.cases.slice(0, 60)) {
      if (!c.text) continue;
      expect(sequenceRatio(c.text.toLowerCase(), c.quote.toLowerCase())).toBe(oracleRatio(c.text.toLowerCase(), c.quote.toLowerCase()));
    }
  });
});

describe.skipIf(!hasPython())("bestSpan against python3 called directly", () => {
  it("matches python3's difflib on fresh cases (not from the fixture)", () => {
    const cases = [
      { quote: "the old mill", sources: ["old mill stood by the river"] },
      { quote: "“It is a truth universally acknowledged”", sources: ["It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife."] },
      { quote: "a singel man in possesion", sources: ["x", "It is a truth universally acknowledged, that a single man in possession of a good fortune"] },
      { quote: "Ça fait déjà naïve", sources: ["Il dit: ça fait déjà une naïve histoire; ça fait déjà naïve."] },
      { quote: "𝔞𝔟 the river 𝔠", sources: ["by 𝔞𝔟 the rivers 𝔠 end", "the river"] },
      { quote: "the first flight over", sources: ["It was the \uFB01rst \uFB02ight over the sea."] },
      { quote: "a café au lait and sit", sources: ["She ordered a cafe\u0301 au lait and sat by the window."] },
    ];
    // Python cannot segment as ICU does: it gets groundwire's words of every text (UTF-16 offsets) and computes the ratios.
    const segmented: Record<string, Array<[number, number, string]>> = {};
    for (const c of cases) for (const t of [c.quote, ...c.sources]) segmented[t] = words(t).map((w) => [w.start, w.end, w.key]);
    const script = [
      "import json, sys",
      "sys.path.insert(0, 'bench/python')",
      "from best_span_reference import best_span, from_utf16",
      "doc = json.load(sys.stdin)",
      "seg = {t: from_utf16(t, s) for t, s in doc['words'].items()}",
      "print(json.dumps([best_span(c['quote'], c['sources'], seg) for c in doc['cases']]))",
    ].join("\n");
    const cwd = new URL("../../", import.meta.url);
    const out = JSON.parse(execFileSync("python3", ["-c", script], { input: JSON.stringify({ cases, words: segmented }), cwd, encoding: "utf8" })) as [string, number, number][];
    for (const backend of ["wasm", "ts"] as const) {
      cases.forEach((c, i) => {
        const got = bestSpan(c.quote, c.sources, { backend, edges: "words" });
        expect([got.text, got.ratio, got.source]).toEqual(out[i]);
      });
    }
    // and the ratio of two raw strings
    const pairs = [["aac", "abcabca"], ["abcabca", "aac"], ["private", "privately"], ["𝔞x𝔞", "x𝔞x"]];
    const py = JSON.parse(execFileSync("python3", ["-c", "import difflib,json,sys; print(json.dumps([difflib.SequenceMatcher(None,a,b,autojunk=False).ratio() for a,b in json.load(sys.stdin)]))"], { input: JSON.stringify(pairs), encoding: "utf8" })) as number[];
    pairs.forEach(([a, b], i) => expect(sequenceRatio(a, b)).toBe(py[i]));
    expect(cps("𝔞").length).toBe(1);
  });
});
