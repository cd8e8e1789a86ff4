/**
 * Evidence-spine bench.
 * - large: fragmentMarkdown on the CommonMark spec 0.31.2 source (205 KB) and on the
 *   largest system-design-primer version (../shared/data/markdown): MB/s, side by side
 *   with the micromark → mdast fragmenter it replaced (test/evidence/reference-fragmenter.ts,
 *   same addresses), markdown-it's bare `parse` (the issue-15 yardstick: fragmentMarkdown
 *   within 2× of it) and the bare mdast parse; plus peak RSS of fragmenting a 50 MB
 *   concatenation of real docs in a fresh process (bench/evidence-memory.ts). The two issue-15
 *   ratios (speed-up over the old fragmenter, ≥ 25×; fragmentMarkdown ÷ markdown-it parse, ≤ 2×)
 *   come from a separate interleaved measurement of the three (same warm-up, same rounds,
 *   order rotated each round, each contender's block opened by settling runs that absorb the
 *   previous contender's garbage: see `interleavedMedians`), printed with the case as
 *   "TARGET …": the harness times contenders one after another, which a shared machine's
 *   changing load skews.
 * - small: a real 815-byte README (awesome v000, the golden fixture): per-call overhead.
 * - large: 10,000 citations resolved against a 10,000-fragment document (1,000
 *   sections × 9 paragraphs of Frankenstein, data/books) after an edit that moves,
 *   rewrites and keeps fragments: indexed `citationStatus` vs a linear scan, the
 *   pathological contender kept on purpose.
 * - large: citationStatus over a whole markdown history, suggestions off vs default options
 *   (bench/citation-history.ts; GROUNDWIRE_BENCH_HISTORY picks another history).
 * Every contender's output is checked before it is timed.
 * Run: npx tsx bench/run.ts evidence
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import MarkdownIt from "markdown-it";
import { fragmentMarkdown as referenceFragmentMarkdown } from "../test/evidence/reference-fragmenter.js";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { citationStatus, fragmentMarkdown, indexFragments, type CitationStatus, type Fragment } from "../ts/evidence/index.js";
import type { BenchCase, BenchSuite } from "./harness.js";
import { citationHistoryCase, historyDir } from "./citation-history.js";

const SPEC = new URL("../../shared/data/markdown/commonmark/spec.txt", import.meta.url);
const PRIMER = new URL("../../shared/data/markdown/system-design-primer/v039.md", import.meta.url);
const markdownIt = new MarkdownIt();
const SMALL = new URL("../test/fixtures/evidence/awesome-v000.input.md", import.meta.url);
const BOOK = new URL("../data/books/novel__frankenstein.txt", import.meta.url);

const parseOnly = (text: string) =>
  fromMarkdown(text, { extensions: [frontmatter(["yaml", "toml"]), gfm()], mdastExtensions: [frontmatterFromMarkdown(["yaml", "toml"]), gfmFromMarkdown()] });

/** Peak RSS of fragmenting `mb` MB of concatenated real docs, measured in a child process. */
function memoryFigures(mb: number): Record<string, string | number> {
  const r = spawnSync(process.execPath, ["--import", "tsx", new URL("./evidence-memory.ts", import.meta.url).pathname, String(mb)], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) return { [`fragments ${mb} MB`]: `failed: ${(r.stderr || "").trim().split("\n").pop()}` };
  const m = JSON.parse(r.stdout.trim()) as { bytes: number; fragments: number; ms: number; maxRssMB: number };
  return {
    [`fragments ${mb} MB: input bytes`]: m.bytes,
    [`fragments ${mb} MB: fragments`]: m.fragments,
    [`fragments ${mb} MB: ms`]: m.ms,
    [`fragments ${mb} MB: peak RSS MB`]: m.maxRssMB,
    [`fragments ${mb} MB: peak RSS MB per input MB`]: (m.maxRssMB / (m.bytes / 1e6)).toFixed(1),
  };
}

/**
 * Rounds of the interleaved measurement: GROUNDWIRE_BENCH_ROUNDS, else 3 with --quick, else 9.
 * The old fragmenter takes 0.3–1 s a run and runs twice a round, so 9 rounds cost ~10–20 s per file.
 */
function interleavedRounds(): number {
  const env = Number(process.env.GROUNDWIRE_BENCH_ROUNDS);
  if (Number.isInteger(env) && env > 0) return env;
  return process.argv.includes("--quick") ? 3 : 9;
}

/** A contender run slower than this (ms, warm) is timed once per round after one settling run; faster ones three times after settling. */
const SLOW_RUN_MS = 100;

/**
 * A fast contender's settling runs in each block last at least this long (ms), and are at least 2:
 * long enough for V8 to finish the collection of the garbage the contender before it left (see
 * `interleavedMedians`; measured 35–50 ms of slowed runs after one old-fragmenter run).
 */
const SETTLE_MS = 100;

/**
 * The issue-15 ratios, measured so that every contender sees the same conditions: the same
 * warm-up (2 runs each, after the checked run the harness already made), then `rounds`
 * rounds that give each contender a short block of runs, in an order rotated every round, so
 * a load change on a shared machine hits all of them alike. Returns each contender's median ms.
 *
 * Each block starts with untimed settling runs (for a contender faster than SLOW_RUN_MS: runs
 * until SETTLE_MS have passed, at least 2, then 3 timed; 1 then 1 for a slower one): a run right
 * after another contender pays for that contender's garbage (V8 finishes the incremental marking,
 * the sweeping and the promotion the other left behind in whichever code allocates next). The old
 * fragmenter leaves hundreds of MB. Settling runs give each contender its own garbage only, as the
 * harness's timed blocks do, while keeping the rotation. How long the debt lasts (primer v039, idle
 * machine, medians of 12 rounds): fragmentMarkdown's 1st–4th runs after one old-fragmenter run took
 * 10.4, 11.4, 12.0 and 12.6 ms, the 5th–12th 6.6–7.8 ms, against 6.3 ms with no old run between;
 * with only 2 settling runs the interleaved median charged the old fragmenter's collection to
 * fragmentMarkdown (12.8 ms against 8.9 ms in the harness's timed block). A forced `gc()` before
 * each run is no fix: V8 then ran the next fragmentMarkdown 5–10× slower.
 */
function interleavedMedians(contenders: readonly { name: string; run: () => unknown }[], rounds: number): Map<string, number> {
  const slow = new Map<string, boolean>();
  for (const c of contenders) {
    c.run();
    const t = performance.now();
    c.run();
    slow.set(c.name, performance.now() - t > SLOW_RUN_MS);
  }
  const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(r + k) % contenders.length];
      const isSlow = slow.get(c.name)!;
      const timed = isSlow ? 1 : 3;
      const settleStart = performance.now();
      for (let i = 0; i < (isSlow ? 1 : 2) || (!isSlow && performance.now() - settleStart < SETTLE_MS); i++) c.run();
      for (let i = 0; i < timed; i++) {
        const t = performance.now();
        c.run();
        samples.get(c.name)!.push(performance.now() - t);
      }
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  return new Map([...samples].map(([name, xs]) => [name, median(xs)]));
}

/** The two issue-15 targets on one file, from one interleaved measurement; printed with the case. */
function targetFigures(text: string): Record<string, string | number> {
  const rounds = interleavedRounds();
  const m = interleavedMedians(
    [
      { name: "new", run: () => fragmentMarkdown("bench", text) },
      { name: "markdown-it", run: () => markdownIt.parse(text, {}) },
      { name: "old", run: () => referenceFragmentMarkdown("bench", text) },
    ],
    rounds,
  );
  const [fresh, peer, old] = [m.get("new")!, m.get("markdown-it")!, m.get("old")!];
  const speedup = old / fresh;
  const vsParse = fresh / peer;
  return {
    "interleaved rounds": rounds,
    "interleaved median ms (per round and contender: settling runs for ≥ 100 ms (at least 2) + 3 timed runs, 1 + 1 for a run over 100 ms): fragmentMarkdown / markdown-it parse / old fragmenter": `${fresh.toFixed(1)} / ${peer.toFixed(1)} / ${old.toFixed(0)}`,
    "TARGET speed-up over the old fragmenter (>= 25x)": `${speedup.toFixed(1)}x ${speedup >= 25 ? "met" : "NOT MET"}`,
    "TARGET fragmentMarkdown / markdown-it parse (<= 2x)": `${vsParse.toFixed(2)}x ${vsParse <= 2 ? "met" : "NOT MET"}`,
  };
}

/** `fragmentMarkdown` on `text` as a contender, checked to give the version ids `ids` (one per line) on every run. */
function fragmenter(text: string, ids: string) {
  return {
    name: "fragmentMarkdown",
    run: () => fragmentMarkdown("bench", text),
    check: (out: unknown) => {
      if (versionIds(out as Fragment[]) !== ids) throw new Error("fragment ids differ between runs");
    },
  };
}

/** The fragments' version ids, one per line. */
const versionIds = (fragments: readonly Fragment[]) => fragments.map((f) => f.versionId).join("\n");

function fragmentCase(name: string, size: BenchCase["size"], text: string, contenders = true, memoryMb = 0): BenchCase {
  const reference = fragmentMarkdown("bench", text);
  const bytes = new TextEncoder().encode(text).byteLength;
  const ids = versionIds(reference);
  return {
    name: `${name}: ${bytes} bytes, ${reference.length} fragments`,
    size,
    units: { count: bytes, unit: "bytes" },
    contenders: [
      fragmenter(text, ids),
      ...(contenders
        ? [
            {
              name: "markdown-it parse (bare, peer)",
              run: () => markdownIt.parse(text, {}),
              check: (out: unknown) => {
                if (!(out as unknown[]).length) throw new Error("no tokens");
              },
            },
            {
              name: "micromark fragmenter (before, same addresses)",
              run: () => referenceFragmentMarkdown("bench", text),
              check: (out: unknown) => {
                if ((out as Fragment[]).map((f) => f.versionId).join("\n") !== ids) throw new Error("the reference fragmenter gives other addresses");
              },
            },
            {
              name: "mdast parse only (peer)",
              run: () => parseOnly(text),
              check: (out: unknown) => {
                if (!(out as { children: unknown[] }).children.length) throw new Error("empty tree");
              },
            },
          ]
        : []),
    ],
    extra: () => ({ fragments: reference.length, bytes, ...(contenders ? targetFigures(text) : {}), ...(memoryMb ? memoryFigures(memoryMb) : {}) }),
  };
}

/**
 * A task-heavy list (issue 15's input-bounded time, task items): 50,000 items of a TODO list or
 * changelog, every marker, `[ ]`, `[x]`, `[X]`, the check followed by text, emphasis, code, a link,
 * two spaces or a line ending, nested items, and one in 25 with a URL right after the check (a GFM
 * autolink literal: micromark decides those, in batches). The peer is the same list without the checks.
 */
function taskList(items: number, checks: boolean): string {
  const forms: ((i: number) => string)[] = [
    (i) => `- [ ] task ${i}`,
    (i) => `- [x] done ${i}`,
    (i) => `* [X] **bold** item ${i}`,
    (i) => `1. [ ] \`code\` step ${i}`,
    (i) => `- [ ] [link ${i}](https://example.com/${i})`,
    (i) => `  - [x] nested ${i}`,
    (i) => `- [ ]  two spaces ${i}`,
    (i) => `- [x] *emphasis* ${i}`,
    (i) => `- [ ]\n  on the next line ${i}`,
  ];
  const out: string[] = [];
  for (let i = 0; i < items; i++) out.push(i % 25 === 24 ? `- [ ] https://example.com/issue/${i}` : forms[i % forms.length](i));
  const text = `${out.join("\n")}\n`;
  return checks ? text : text.replace(/\[[ xX]\] ?/g, "");
}

function taskListCase(): BenchCase {
  const text = taskList(50_000, true);
  const peer = taskList(50_000, false);
  const reference = fragmentMarkdown("bench", text);
  const ids = versionIds(reference);
  const bytes = new TextEncoder().encode(text).byteLength;
  return {
    name: `task list: 50,000 GFM task items (${bytes} bytes, ${reference.length} fragments)`,
    size: "large",
    units: { count: bytes, unit: "bytes" },
    contenders: [
      fragmenter(text, ids),
      {
        name: "fragmentMarkdown, the same list without checks (peer)",
        run: () => fragmentMarkdown("bench", peer),
        check: (out) => {
          if ((out as Fragment[]).length !== reference.length) throw new Error("the peer list has another shape");
        },
      },
    ],
    extra: () => ({ fragments: reference.length, bytes, "peer bytes": new TextEncoder().encode(peer).byteLength }),
  };
}

/**
 * `n` sections, each with a footnote call in its heading, a table whose cells call it, and a
 * paragraph; the `n` footnote definitions last. Each heading and cell is read by micromark with the
 * definitions it uses appended; with every definition appended to every piece (before session 8)
 * 400 sections took 105 s.
 */
function footnoteSections(n: number, calls = true): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const c = calls ? `[^n${i}]` : "";
    s += `# Section ${i} with note${c}\n\n| a${c} | b |\n|---|---|\n| x${c} | y |\n\nText${c}.\n\n`;
  }
  for (let i = 0; i < n; i++) s += `[^n${i}]: the note ${i}\n`;
  return s;
}

/** The footnote-heavy document against the same sections without footnote calls (the peer: no micromark). */
function footnoteCase(): BenchCase {
  const text = footnoteSections(1_000);
  const peer = footnoteSections(1_000, false);
  const sections = (fs: readonly Fragment[]) => fs.filter((f) => f.kind === "section").length;
  const reference = fragmentMarkdown("bench", text);
  const bytes = new TextEncoder().encode(text).byteLength;
  return {
    name: `footnotes: 1,000 sections calling 1,000 footnotes from headings, cells and text (${bytes} bytes)`,
    size: "pathological",
    units: { count: bytes, unit: "bytes" },
    contenders: [
      fragmenter(text, versionIds(reference)),
      {
        name: "fragmentMarkdown, the same sections without footnote calls (peer)",
        run: () => fragmentMarkdown("bench", peer),
        check: (out) => {
          if (sections(out as Fragment[]) !== sections(reference)) throw new Error("the peer has another number of sections");
        },
      },
    ],
    extra: () => ({ fragments: reference.length, bytes }),
  };
}

/** 1,000 sections × 9 paragraphs (Frankenstein's paragraphs, numbered so each is unique) = 10,000 fragments. */
function tenThousand(): { v1: readonly Fragment[]; v2: readonly Fragment[] } {
  const paras = readFileSync(BOOK, "utf8")
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p.length > 40);
  const doc = (edit: boolean) => {
    const out: string[] = [];
    for (let s = 0; s < 1000; s++) {
      out.push(`## Part ${s}`);
      if (edit && s % 10 === 0) out.push(`Inserted note for part ${s}.`); // same-kind sibling above: the rest move
      for (let p = 0; p < 9; p++) {
        let body = `${s}.${p} ${paras[(s * 9 + p) % paras.length]}`;
        if (edit && p === 4 && s % 7 === 0) body = body.replace(/ the /, " a "); // a rewrite: stale
        out.push(body);
      }
    }
    return `${out.join("\n\n")}\n`;
  };
  return { v1: fragmentMarkdown("novel", doc(false)), v2: fragmentMarkdown("novel", doc(true)) };
}

/** The naive resolver: the same rules by scanning every fragment for each citation. */
function linearStatus(c: Fragment, fragments: readonly Fragment[]): CitationStatus {
  const at = fragments.find((f) => f.fragmentId === c.fragmentId);
  if (at && at.contentHash === c.contentHash) return "current";
  const carriers = fragments.filter((f) => f.contentHash === c.contentHash);
  if (carriers.length === 1) return "moved";
  if (carriers.length > 1) return "lost";
  return at ? "stale" : "lost";
}

function citationCases(): BenchCase[] {
  const { v1, v2 } = tenThousand();
  const index = indexFragments(v2);
  const tally = (statuses: CitationStatus[]) => statuses.reduce<Record<string, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {});
  const expected = JSON.stringify(tally(v1.map((f) => citationStatus(f.versionId, index).status)));
  const check = (out: unknown) => {
    const got = JSON.stringify(tally(out as CitationStatus[]));
    if (got !== expected) throw new Error(`statuses differ: ${got} vs ${expected}`);
  };
  // The linear scan is O(n) per citation: it gets its own case on every 20th citation.
  const sample = v1.filter((_, i) => i % 20 === 0);
  const want = JSON.stringify(sample.map((f) => citationStatus(f.versionId, index).status));
  const checkSample = (out: unknown) => {
    if (JSON.stringify(out) !== want) throw new Error("statuses differ from the indexed resolver");
  };
  return [
    {
      name: `citationStatus: ${v1.length} citations vs a ${v2.length}-fragment version (${expected})`,
      size: "large",
      units: { count: v1.length, unit: "citations" },
      contenders: [
        { name: "indexed (prebuilt index)", run: () => v1.map((f) => citationStatus(f.versionId, index).status), check },
        { name: "indexed incl. building the index", run: () => { const ix = indexFragments(v2); return v1.map((f) => citationStatus(f.versionId, ix).status); }, check },
      ],
      extra: () => ({ fragmentsV1: v1.length, fragmentsV2: v2.length }),
    },
    {
      name: `citationStatus: ${sample.length} citations (every 20th) vs the same ${v2.length}-fragment version, indexed vs a linear scan`,
      size: "pathological",
      units: { count: sample.length, unit: "citations" },
      contenders: [
        { name: "indexed (prebuilt index)", run: () => sample.map((f) => citationStatus(f.versionId, index).status), check: checkSample },
        { name: "linear scan per citation", run: () => sample.map((f) => linearStatus(f, v2)), check: checkSample },
      ],
    },
  ];
}

const suite: BenchSuite = {
  part: "evidence",
  async cases() {
    const cases: BenchCase[] = [fragmentCase("small README (awesome v000)", "small", readFileSync(SMALL, "utf8"), false), taskListCase(), footnoteCase(), ...citationCases()];
    if (existsSync(SPEC) && existsSync(PRIMER)) {
      cases.unshift(
        fragmentCase("CommonMark spec.txt", "large", readFileSync(SPEC, "utf8"), true, 50),
        fragmentCase("system-design-primer README v039 (largest version)", "large", readFileSync(PRIMER, "utf8")),
      );
    } else suite.skipped = "../shared/data absent: the spec.txt / system-design-primer throughput and 50 MB memory cases are skipped";
    const history = historyDir();
    if (history.present) cases.push(citationHistoryCase());
    else suite.skipped = `${suite.skipped ? `${suite.skipped}; ` : ""}${history.dir.pathname} absent: the citationStatus whole-history case (suggestions on vs off) is skipped`;
    return cases;
  },
};
export default suite;
