// Every regex of ts/ through a ReDoS checker (recheck), and each regex that was fixed for
// reading client or model text run on a long run (≥ 100,000) of its worst character in a
// worker thread that must finish within a generous bound (not a timing assertion: the
// quadratic versions took tens of seconds to hours on these inputs).
//
// npm test: recheck (the slow part, a fraction of a second a pattern) on a
// fixed sample of the unreviewed patterns: QUICK_PER_PART of each part of ts/ (each folder, and each
// file at its top), spread over the part in source order, so a part's first and last pattern are
// always checked; the collection, the review lists and the long runs in full. Nothing is cached:
// each run checks its sample afresh. npm run test:deep (test/depth.ts), which CI runs: every
// pattern, so a regex added anywhere in ts/ is audited there even when npm test's sample skips it.
import { Worker } from "node:worker_threads";
import { checkSync } from "recheck";
import { describe, expect, it } from "vitest";
import { collectRegexes, type FoundRegex } from "./regex-collect.js";
import { ROOT } from "./serve-process.js";
import { DEEP, spreadEach } from "../depth.js";

/** How many distinct unreviewed patterns of each part of ts/ npm test hands recheck. */
const QUICK_PER_PART = 2;
/** The part of ts/ a regex is in: its folder under ts/, or the file at the top of ts/. */
const partOf = (r: FoundRegex) => r.where.replace(/:\d+$/, "").split("/").slice(0, 2).join("/");

const { found, dynamic } = collectRegexes(ROOT, "ts");

/**
 * Regexes recheck does not call safe, each with why it may stay. "bounded": a counted
 * quantifier caps the work per start (linear in the text, with the cap as factor; the
 * long-run test below runs it). "operator": reads only what the operator gives at start
 * (the corpus files, file names, the model URL), never a request or a model reply.
 */
const REVIEWED: Record<string, string> = {
  "ts/evidence/fragment/definitions.ts|writtenLabel": "bounded: a label is at most 999 characters, started at an unescaped [ only",
  "ts/net/redact.ts|\\b([a-z][a-z0-9+.\\-]{0,63}:\\/\\/)[^\\s/?#@]*@": "bounded: a scheme of at most 64 characters",
  "ts/moot/book-structure.ts": "operator: the corpus's book files, read at start",
  "ts/moot/book-text.ts": "operator: the corpus's book files, read at start (book-structure.ts's text helpers)",
  "ts/moot/book-cover.ts": "operator: the headings of the corpus's book files, read at start",
  "ts/moot/book-metadata.ts": "operator: the first 6,000 characters of the corpus's book files",
  "ts/moot/book-poems.ts": "operator: the corpus's book files, read at start",
  "ts/moot/gutenberg.ts": "operator: the Project Gutenberg header and footer of the corpus's book files",
  "ts/moot/retrieval.ts|\\n\\s*[A-Z][A-Z0-9 –—-]+\\s*$": "operator: diary entries of the corpus's book files",
  "ts/net/http.ts|\\/+$": "operator: the model's base URL (--base-url)",
};

/** `new RegExp` calls whose pattern is built at run time, each reviewed by hand. */
const DYNAMIC: Record<string, string> = {
  "ts/evidence/fragment/hashing.ts": "^(?:[ \\t]*>){1,depth}: anchored, a blank class then '>' (no overlap); tested below",
  "ts/kernel/algebra.ts": "one class char, then the prefix name with - and . escaped (PN_PREFIX has no other metacharacter), then ':'",
  "ts/kernel/check/scope.ts": "'AS ?name)' at the end: a SPARQL variable name holds no metacharacter",
  "ts/deps/traqula-lexing.ts": "Traqula's own PNameNs/PNameLn patterns made sticky (the lexer ran them unchanged before), and one class of the SPARQL grammar's PN_CHARS, starred or tested on one character",
  "ts/kernel/plan-schema.ts": "anchored '^[?$]' then VARNAME_SOURCE (algebra.ts, audited there as VARNAME) then '$'",
  "ts/kernel/syntax-hints.ts": "(^|\\s) then a variable as written: literal",
  "ts/memdsl/untrusted.ts": "built from constant tables (fence letters, invisible characters, '<' look-alikes): '<', a class run, then letters",
  "ts/moot/book-structure.ts": "operator: the corpus's book files",
  "ts/moot/book-metadata.ts": "operator: a header field name from a constant list, in the first 6,000 characters of a book file",
};

const key = (r: FoundRegex) => `${r.where.replace(/:\d+$/, "")}|${r.source}`;
const reviewed = (r: FoundRegex) =>
  REVIEWED[key(r)] ?? REVIEWED[r.where.replace(/:\d+$/, "")] ?? (r.where.startsWith("ts/evidence/fragment/definitions.ts") && r.source.startsWith("\\[(?<=") ? REVIEWED["ts/evidence/fragment/definitions.ts|writtenLabel"] : undefined);

describe("the regexes of ts/", () => {
  it("are collected by the TypeScript parser: every literal, every constant new RegExp", () => {
    expect(found.length).toBeGreaterThan(250);
    // the fixed tag regex of grounding.ts is found by folding String.raw and its constant parts
    expect(found.some((r) => r.where.startsWith("ts/moot/quote-spans.ts") && r.flags === "iy" && r.source.startsWith("\\s*(?:[.,;:!?…]+\\s*)?"))).toBe(true);
    expect(dynamic.map((d) => d.where.replace(/:\d+$/, "")).filter((f) => !DYNAMIC[f])).toEqual([]);
  });

  it(`are all safe by recheck, but those reviewed (bounded, or reading the operator's files only)${DEEP ? "" : ": a fixed sample in npm test"}`, { timeout: 600_000 }, () => {
    // A reviewed regex may stay whatever recheck says, so it is not checked; a pattern written in
    // several places (same source and flags) is checked once. npm test checks a fixed sample of
    // the others, QUICK_PER_PART of each part of ts/ (see the header); npm run test:deep checks every one.
    const unique = new Map<string, FoundRegex[]>();
    for (const r of found) if (!reviewed(r)) unique.set(`${r.flags}/${r.source}`, [...(unique.get(`${r.flags}/${r.source}`) ?? []), r]);
    const flagged: string[] = [];
    const sample = spreadEach([...unique.values()], ([first]) => partOf(first), QUICK_PER_PART);
    // every part of ts/ with an unreviewed pattern keeps one in the sample
    expect(new Set(sample.map(([first]) => partOf(first)))).toEqual(new Set([...unique.values()].map(([first]) => partOf(first))));
    for (const [first, ...rest] of sample) {
      const result = checkSync(first.source, first.flags, { timeout: 20_000 });
      if (result.status !== "safe") {
        for (const r of [first, ...rest]) flagged.push(`${r.where} /${r.source}/${r.flags}: ${result.status}${result.status === "vulnerable" ? ` (${result.complexity.type}, ${result.attack.pattern})` : ""}`);
      }
    }
    expect(flagged).toEqual([]);
  });
});

/** Run `regex` over `input` (matchAll for g/y, exec otherwise) in a worker; the number of matches, or "timeout". */
function runInWorker(source: string, flags: string, input: string, ms = 20_000): Promise<number | "timeout"> {
  const code = `
    const { parentPort, workerData: { source, flags, input } } = require("node:worker_threads");
    const re = new RegExp(source, flags);
    let n = 0;
    if (re.global) for (const _ of input.matchAll(re)) n++;
    else if (re.sticky) { re.lastIndex = 0; n = re.exec(input) ? 1 : 0; }
    else n = re.exec(input) ? 1 : 0;
    parentPort.postMessage(n);`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { source, flags, input } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve("timeout");
    }, ms);
    worker.once("message", (n: number) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(n);
    });
    worker.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

const N = 100_000;
/** Each regex fixed for ReDoS, found in the source by its file and a piece of its pattern, with the run that was its worst case. */
const LONG_RUNS: Array<{ file: string; piece: string; inputs: string[] }> = [
  { file: "ts/moot/quote-spans.ts", piece: "(?:[.,;:!?…]+\\s*)?", inputs: [" ".repeat(N) + "x", "\t".repeat(N) + ",O0]", ` ${".".repeat(N)}x`] },
  { file: "ts/cli/common.ts", piece: "^(\\d+(?:\\.\\d*)?", inputs: ["0".repeat(N) + "E", `1.${"0".repeat(N)}x`] },
  { file: "ts/evidence/fragment/definitions.ts", piece: "{1,999})\\]:", inputs: ["[\\".repeat(N), "[^\\".repeat(N) + "\t", "\\[".repeat(N) + "[x]:", "\\".repeat(N) + "[x]:"] },
  { file: "ts/evidence/fragment/definitions.ts", piece: "|\\\\$){1,999}$", inputs: ["\\".repeat(N) + "\t", "\\".repeat(998) + " "] },
  { file: "ts/net/redact.ts", piece: "{0,63}:\\/\\/", inputs: ["a+".repeat(N) + "\0a://@", "a".repeat(N)] },
  { file: "ts/moot/synth.ts", piece: "^\\[(s\\d+)\\] \\(", inputs: ["[s0] (\r".repeat(N / 5) + "\n"] },
  { file: "ts/moot/synth.ts", piece: "\\[[^[\\]]*\\]|\"", inputs: ["[".repeat(N) + '"'] },
  { file: "ts/moot/synth.ts", piece: "\\[[^[\\]]*\\]|[\"", inputs: ["[".repeat(N) + '"'] },
  { file: "ts/moot/synth.ts", piece: "^Turn (\\d+), ", inputs: ["st said: \rTurn 0, \r".repeat(N / 10) + "x"] },
];

describe("each fixed regex on a long run of its worst character", () => {
  for (const { file, piece, inputs } of LONG_RUNS) {
    it(`${file} /…${piece}…/ finishes`, { timeout: 120_000 }, async () => {
      const matches = found.filter((r) => r.where.startsWith(`${file}:`) && r.source.includes(piece));
      expect(matches.length, `${file}: no regex holds ${piece}`).toBeGreaterThan(0);
      for (const r of matches) for (const input of inputs) expect(await runInWorker(r.source, r.flags, input)).not.toBe("timeout");
    });
  }

  it("the one-line message helpers (`\\s+` holding a line break) finish on 100,000 tabs", { timeout: 120_000 }, async () => {
    const ones = found.filter((r) => r.source === "\\s+" && ["ts/kernel/goal.ts", "ts/kernel/ops.ts", "ts/triple-index/critique.ts"].some((f) => r.where.startsWith(f)));
    expect(ones.length).toBeGreaterThanOrEqual(3);
    for (const r of ones) expect(await runInWorker(r.source, r.flags, `${"\t".repeat(N)}\0\n`)).toBe(2);
  });

  it("the quote-depth marker regex of fragment/hashing.ts (built at run time) finishes on a deep run", { timeout: 120_000 }, async () => {
    expect(await runInWorker("^(?:[ \\t]*>){1,1000}", "", `${" ".repeat(N)}x`)).toBe(0);
    expect(await runInWorker("^(?:[ \\t]*>){1,1000}", "", `${"> ".repeat(N / 2)}x`)).toBe(1);
  });
});
