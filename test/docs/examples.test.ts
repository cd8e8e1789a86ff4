/**
 * Every example in README.md and docs/*.md runs as written, against the built package.
 *
 * Fenced code blocks are read from each page:
 * - ```ts / ```js blocks run in a child `node` process: `from "groundwire"` is pointed at
 *   dist/node.js (`"groundwire/browser"` at dist/browser/groundwire.js), TypeScript is stripped by
 *   esbuild (imports kept as written, so a name the package does not export fails), the working
 *   folder is the repository root. A line `// → RESULT` (or `expr; // → RESULT`) after an
 *   expression statement shows what it evaluates to: the value printed must contain RESULT
 *   (quotes and white space aside; `…` stands for any text in between). After a `console.log(…)`
 *   line, RESULT is looked for in the whole output.
 * - ```sh blocks: every command must start with `groundwire ` and runs as
 *   `node dist/cli.cjs …` (through bash, for the quoting) from the repository root, offline
 *   (GROUNDWIRE_* and OPENAI_API_KEY unset, empty standard input). It must exit 0, or the code a
 *   following `# exit N` line names; a following `# → RESULT` line must occur in its
 *   stdout + stderr (as above).
 * - A transcript (a text, console or bare block whose first line is `$ groundwire …`) runs each
 *   `$ ` command the same way; the lines after it, up to the next `$ `, must occur in its
 *   stdout + stderr in that order (a line `…` stands for lines left out), and it must exit 0.
 * - Other blocks (text, console, json, sparql, bare fences) show output or file contents and are
 *   not run.
 * A ts/js/sh block that cannot run says why in an HTML comment on the line before its fence,
 * `<!-- not-run: REASON -->`; it is reported as a skipped test with that reason, never dropped
 * silently. A block that can neither run nor says why fails.
 * `npm test` runs the last runnable example of each page (the others are reported as skipped,
 * saying so): every page, and every kind of block (ts, js, sh and a transcript), keeps one (a
 * test below checks so); `npm run test:deep` (test/depth.ts), which CI runs, runs every one.
 *
 * Needs `npm run build` (npm test's pretest does it).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { DEEP } from "../depth.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DIST_NODE = join(ROOT, "dist/node.js");
const DIST_BROWSER = join(ROOT, "dist/browser/groundwire.js");
const CLI = join(ROOT, "dist/cli.cjs");

/**
 * A block run by another suite says so in its own not-run marker (`<!-- not-run:
 * test/server/docs-session.test.ts runs it with a server -->`): no page is exempt as a whole,
 * so an example added beside such a session is run here. A marker that names a test file must
 * name one that exists and reads that page.
 */
const NAMED_TEST = /\btest\/[\w./-]+\.test\.ts\b/g;

interface Block {
  page: string;
  line: number; // 1-based line of the opening fence
  lang: string;
  code: string;
  notRun: string | null;
}

const RUNNABLE = new Set(["ts", "typescript", "js", "javascript", "mjs", "sh", "bash", "shell"]);
const TRANSCRIPT_LANGS = new Set(["text", "console", ""]);

/** Whether a block is a transcript: a text, console or bare block that starts with `$ groundwire `. */
function isTranscript(block: Block): boolean {
  return TRANSCRIPT_LANGS.has(block.lang) && /^\s*\$ groundwire /.test(block.code);
}

/** The fenced code blocks of a markdown text, with the `not-run` reason written before each. */
function blocksOf(page: string, markdown: string): Block[] {
  return fencesOf(markdown).blocks.map((b) => ({ ...b, page }));
}

/**
 * The fenced blocks of a markdown text, and the lines inside a block that look like an opening
 * fence with an info string (```ts): CommonMark does not close a block there, so such a line
 * means the block above was left unclosed, and it swallowed the prose and examples below it.
 */
function fencesOf(markdown: string): { blocks: Omit<Block, "page">[]; strayOpenings: number[] } {
  const lines = markdown.split("\n");
  const out: Omit<Block, "page">[] = [];
  const strayOpenings: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3}|\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      const opening = /^\s*(`{3,}|~{3,})\s*[\w+-]+\s*$/.exec(lines[j]);
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) strayOpenings.push(j + 1);
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === "") k--;
    const marker = k >= 0 ? /^\s*<!--\s*not-run:\s*(.*?)\s*-->\s*$/.exec(lines[k]) : null;
    out.push({ line: i + 1, lang: lang.toLowerCase(), code: body.join("\n"), notRun: marker ? marker[1] : null });
    i = j;
  }
  return { blocks: out, strayOpenings };
}

/** Quotes and white space aside, does `actual` hold `expected` (with `…` as any text)? */
function holds(actual: string, expected: string): boolean {
  const norm = (s: string) => s.replace(/['"`‘’“”]/g, '"').replace(/\s+/g, "");
  const hay = norm(actual);
  let from = 0;
  for (const piece of expected.split("…").map(norm).filter(Boolean)) {
    const at = hay.indexOf(piece, from);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

interface Expectation {
  id: number; // the __show id, or -1: look in the whole output
  text: string;
  line: string;
}

/** The runnable module for a ts/js block, and what its `// →` lines expect. */
function scriptOf(code: string, lang: string): { source: string; expects: Expectation[] } {
  const lines = code.split("\n");
  const expects: Expectation[] = [];
  const wrapped = new Map<number, number>(); // line index → show id
  let lastCode = -1;
  const wrap = (index: number, shown: string): number => {
    // the statement without its `;` and a trailing `// comment` (an explanation beside the code)
    const m = /^(\s*)(.*?);\s*(?:\/\/.*)?$/.exec(lines[index]) ?? /^(\s*)(.*?);?\s*$/.exec(lines[index])!;
    if (/^(const|let|var|import|export|if|for|while|function|class|return)\b/.test(m[2])) {
      throw new Error(`a "→" result must follow an expression statement, not: ${shown}`);
    }
    const id = wrapped.size;
    wrapped.set(index, id);
    lines[index] = `${m[1]}__show(${id}, (${m[2]}));`;
    return id;
  };
  for (let i = 0; i < lines.length; i++) {
    const alone = /^\s*\/\/\s*→\s?(.*)$/.exec(lines[i]);
    const inline = alone ? null : /^(.*\S)\s*\/\/\s*→\s?(.*)$/.exec(lines[i]);
    if (alone) {
      if (lastCode < 0) throw new Error(`"→" with no statement before it: ${lines[i]}`);
      const target = lines[lastCode].trim();
      const id = target.startsWith("console.") ? -1 : (wrapped.get(lastCode) ?? wrap(lastCode, target));
      expects.push({ id, text: alone[1].trim(), line: target });
      continue;
    }
    if (inline) {
      lines[i] = inline[1];
      const target = inline[1].trim();
      const id = target.startsWith("console.") ? -1 : wrap(i, target);
      expects.push({ id, text: inline[2].trim(), line: target });
      lastCode = i;
      continue;
    }
    if (lines[i].trim() !== "" && !lines[i].trim().startsWith("//")) lastCode = i;
  }
  let source = lines
    .join("\n")
    .replace(/(from\s+|import\s*\(\s*)(["'])groundwire\/browser\2/g, (_, lead: string) => `${lead}${JSON.stringify(pathToFileURL(DIST_BROWSER).href)}`)
    .replace(/(from\s+|import\s*\(\s*)(["'])groundwire\2/g, (_, lead: string) => `${lead}${JSON.stringify(pathToFileURL(DIST_NODE).href)}`);
  if (lang === "ts" || lang === "typescript") {
    source = transformSync(source, {
      loader: "ts",
      format: "esm",
      target: "node20",
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    }).code;
  }
  const prelude =
    'import { inspect as __inspect } from "node:util";\n' +
    "const __show = (id, v) => { process.stdout.write(`\\u0001${id}\\u0002${JSON.stringify(" +
    '{ s: typeof v === "string" ? v : null, i: __inspect(v, { depth: null, breakLength: Infinity }) })}\\n`); return v; };\n';
  return { source: prelude + source, expects };
}

/** The commands of an sh block (continuation lines joined), each with its expectations. */
function commandsOf(code: string): { command: string; exit: number; expects: string[] }[] {
  const joined = code.replace(/\s*\\\n\s*/g, " ").split("\n");
  const out: { command: string; exit: number; expects: string[] }[] = [];
  for (const raw of joined) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("#")) {
      const last = out.at(-1);
      const arrow = /^#\s*→\s?(.*)$/.exec(line);
      const exit = /^#\s*exit\s+(\d+)\s*$/.exec(line);
      if (last && arrow) last.expects.push(arrow[1].trim());
      else if (last && exit) last.exit = Number(exit[1]);
      continue;
    }
    if (!line.startsWith("groundwire ")) {
      throw new Error(`a command that is not "groundwire …" (mark the block <!-- not-run: REASON --> if it cannot run here): ${line}`);
    }
    out.push({ command: line, exit: 0, expects: [] });
  }
  return out;
}

/** The blocks npm test runs of a page's blocks: the last that runs (all of them in test:deep). */
function sampleOf(blocks: Block[]): Set<Block> {
  const runs = blocks.filter((b) => b.notRun === null);
  return new Set(DEEP ? runs : runs.slice(-1));
}

/** The kind of runner a block goes through. */
function runnerOf(block: Block): string {
  if (isTranscript(block)) return "transcript";
  return { typescript: "ts", javascript: "js", mjs: "js", bash: "sh", shell: "sh" }[block.lang] ?? block.lang;
}

const pages = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const built = existsSync(DIST_NODE) && existsSync(CLI);
const work = mkdtempSync(join(tmpdir(), "groundwire-doc-examples-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The environment of a run: offline (no model endpoint, no key), no colours. */
function offlineEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("GROUNDWIRE_") || k === "OPENAI_API_KEY" || k.startsWith("VITEST")) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: "1" };
}

function runScript(block: Block): void {
  const { source, expects } = scriptOf(block.code, block.lang);
  const file = join(work, `${block.page.replace(/\W/g, "_")}_${block.line}.mjs`);
  writeFileSync(file, source);
  const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: "utf8", env: offlineEnv(), input: "", timeout: 120_000 });
  const where = `${block.page}:${block.line}`;
  expect(r.status, `${where} exited ${r.status}${r.signal ? ` (${r.signal})` : ""}:\n${r.stderr}`).toBe(0);
  const shown = new Map<number, { s: string | null; i: string }>();
  const plain: string[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = /^\u0001(\d+)\u0002(.*)$/.exec(line);
    if (m) shown.set(Number(m[1]), JSON.parse(m[2]));
    else plain.push(line);
  }
  for (const e of expects) {
    if (e.id < 0) {
      expect(holds(plain.join("\n"), e.text), `${where}: ${e.line}\n  expected output holding: ${e.text}\n  got: ${plain.join("\n")}`).toBe(true);
      continue;
    }
    const value = shown.get(e.id);
    expect(value, `${where}: ${e.line} was never evaluated`).toBeDefined();
    const ok = holds(value!.i, e.text) || (value!.s !== null && holds(value!.s, e.text));
    expect(ok, `${where}: ${e.line}\n  expected: ${e.text}\n  got: ${value!.s ?? value!.i}`).toBe(true);
  }
}

function runCommands(block: Block): void {
  const where = `${block.page}:${block.line}`;
  for (const { command, exit, expects } of commandsOf(block.code)) {
    const argv = `node ${JSON.stringify(CLI)} ${command.slice("groundwire ".length)}`;
    const r = spawnSync("bash", ["-c", argv], { cwd: ROOT, encoding: "utf8", env: offlineEnv(), input: "", timeout: 120_000, maxBuffer: 64 << 20 });
    const output = `${r.stdout}\n${r.stderr}`;
    expect(r.status, `${where}: ${command}\nexited ${r.status}${r.signal ? ` (${r.signal})` : ""}:\n${r.stderr.slice(0, 2000)}`).toBe(exit);
    for (const text of expects) {
      expect(holds(output, text), `${where}: ${command}\n  expected output holding: ${text}\n  got: ${output.slice(0, 2000)}`).toBe(true);
    }
  }
}

/** The commands of a transcript, each with the output lines shown after it (`…` lines dropped). */
function transcriptOf(code: string): { command: string; shown: string[] }[] {
  const out: { command: string; shown: string[] }[] = [];
  for (const line of code.split("\n")) {
    const command = /^\s*\$ (.*)$/.exec(line);
    if (command) {
      if (!command[1]!.startsWith("groundwire ")) throw new Error(`a transcript command that is not "groundwire …": ${command[1]}`);
      out.push({ command: command[1]!, shown: [] });
    } else if (line.trim() !== "" && line.trim() !== "…") out.at(-1)!.shown.push(line);
  }
  return out;
}

function runTranscript(block: Block): void {
  const where = `${block.page}:${block.line}`;
  for (const { command, shown } of transcriptOf(block.code)) {
    const argv = `node ${JSON.stringify(CLI)} ${command.slice("groundwire ".length)}`;
    const r = spawnSync("bash", ["-c", argv], { cwd: ROOT, encoding: "utf8", env: offlineEnv(), input: "", timeout: 120_000, maxBuffer: 64 << 20 });
    const output = `${r.stdout}\n${r.stderr}`;
    expect(r.status, `${where}: $ ${command}\nexited ${r.status}:\n${r.stderr.slice(0, 2000)}`).toBe(0);
    // each shown line in order; a line the page cut with … matches its beginning
    expect(holds(output, shown.map((l) => l.replace(/\s*…\s*$/, "")).join("…")), `${where}: $ ${command}\n  expected, in order:\n${shown.join("\n")}\n  got: ${output.slice(0, 3000)}`).toBe(true);
  }
}

describe("examples in README.md and docs/*.md run as written", () => {
  it("the build is there (npm run build; npm test's pretest does it)", () => {
    expect(built, "dist/node.js and dist/cli.cjs: run npm run build first").toBe(true);
  });

  it("npm test's sample runs an example of every page that has one, and of every kind of block", () => {
    const all = pages.flatMap((page) => blocksOf(page, readFileSync(join(ROOT, page), "utf8")).filter((b) => RUNNABLE.has(b.lang) || isTranscript(b)));
    const sampled = pages.flatMap((page) => [...sampleOf(all.filter((b) => b.page === page))]);
    const runs = all.filter((b) => b.notRun === null);
    expect(new Set(sampled.map((b) => b.page))).toEqual(new Set(runs.map((b) => b.page)));
    expect(new Set(sampled.map(runnerOf))).toEqual(new Set(runs.map(runnerOf)));
  });

  it("no page leaves a block unclosed (an opening fence inside a block swallows what follows)", () => {
    const stray = pages.flatMap((page) => fencesOf(readFileSync(join(ROOT, page), "utf8")).strayOpenings.map((line) => `${page}:${line}`));
    expect(stray, "a fence with an info string inside a block: close the block above it").toEqual([]);
  });

  for (const page of pages) {
    const blocks = blocksOf(page, readFileSync(join(ROOT, page), "utf8")).filter((b) => RUNNABLE.has(b.lang) || isTranscript(b));
    // npm test runs a sample of each page's examples (the last it runs); npm run test:deep
    // (test/depth.ts), which CI runs, runs every one. Markers are checked on every block.
    const sampled = sampleOf(blocks);
    for (const block of blocks) {
      const name = `${page}:${block.line} (${isTranscript(block) ? "transcript" : block.lang})`;
      for (const test of block.notRun?.match(NAMED_TEST) ?? []) {
        it(`${name}: the test its marker names (${test}) exists and reads ${page}`, () => {
          expect(existsSync(join(ROOT, test)), `${test} does not exist`).toBe(true);
          expect(readFileSync(join(ROOT, test), "utf8"), `${test} does not read ${page}`).toContain(page);
        });
      }
      if (block.notRun === "") {
        it(`${name}: a not-run marker says why`, () => expect.fail(`${name}: <!-- not-run: --> needs a reason`));
        continue;
      }
      if (block.notRun !== null) {
        it.skip(`${name} — not run: ${block.notRun}`, () => {});
        continue;
      }
      if (!sampled.has(block)) {
        it.skip(`${name} — npm test runs a sample of the page's examples; npm run test:deep runs this one`, () => {});
        continue;
      }
      const sh = block.lang === "sh" || block.lang === "bash" || block.lang === "shell";
      it(name, { timeout: 240_000, skip: !built }, () => (isTranscript(block) ? runTranscript(block) : sh ? runCommands(block) : runScript(block)));
    }
  }
});

describe("the example runner itself", () => {
  it("reads fences, markers and results", () => {
    const md = "a\n<!-- not-run: needs a model endpoint -->\n```sh\ngroundwire moot a b\n```\n\n```ts\nf(1);\n// → 2\n```\n";
    const blocks = blocksOf("x.md", md);
    expect(fencesOf("```text\n$ groundwire books\n\nprose\n```ts\nf();\n```\n").strayOpenings).toEqual([5]);
    expect(blocks.map((b) => [b.line, b.lang, b.notRun])).toEqual([[3, "sh", "needs a model endpoint"], [7, "ts", null]]);
    const { source, expects } = scriptOf("const f = (x: number) => x + 1;\nf(1);\n// → 2\nconsole.log(f(2)); // → 3", "ts");
    expect(source).toMatch(/__show\(0, \(?f\(1\)\)?\);/);
    expect(expects.map((e) => [e.id, e.text])).toEqual([[0, "2"], [-1, "3"]]);
    expect(scriptOf('f("a;b");   // why\n// → 1', "js").source).toContain('__show(0, (f("a;b")));');
    expect(commandsOf('groundwire check q.rq \\\n  --schema s.ttl\n# → unknown property\n# exit 1').map((c) => [c.command, c.exit, c.expects])).toEqual([
      ["groundwire check q.rq --schema s.ttl", 1, ["unknown property"]],
    ]);
    expect(() => commandsOf("npm run demo")).toThrow(/not-run/);
    expect(isTranscript({ page: "x.md", line: 1, lang: "text", code: "$ groundwire books\nout", notRun: null })).toBe(true);
    expect(isTranscript({ page: "x.md", line: 1, lang: "json", code: "$ groundwire books", notRun: null })).toBe(false);
    expect(transcriptOf("$ groundwire books\na\n…\nb\n\n$ groundwire books --json\n{")).toEqual([
      { command: "groundwire books", shown: ["a", "b"] },
      { command: "groundwire books --json", shown: ["{"] },
    ]);
    expect(holds(`{ text: 'old mill', ratio: 0.8 }`, '{ text: "old mill", … 0.8 }')).toBe(true);
    expect(holds("abc", "c … a")).toBe(false);
  });

  it("fails an example whose result or exit code differs from the page", { skip: !built, timeout: 60_000 }, () => {
    const block = (lang: string, code: string): Block => ({ page: "self-test.md", line: 1, lang, code, notRun: null });
    expect(() => runScript(block("js", 'import { sequenceRatio } from "groundwire";\nsequenceRatio("abcd", "bcde");\n// → 0.5'))).toThrow(/expected: 0.5/);
    expect(() => runScript(block("js", "undefinedName;"))).toThrow(/ReferenceError/);
    expect(() => runCommands(block("sh", "groundwire books --passages novel/nope"))).toThrow(/exited 2/);
    expect(() => runCommands(block("sh", "groundwire books\n# → no such title"))).toThrow(/no such title/);
    expect(() => runTranscript(block("text", "$ groundwire books\nnovel/frankenstein\n…\ndiary/pepys-1660"))).toThrow(/expected, in order/);
    expect(() => runTranscript(block("text", "$ groundwire books\ndiary/pepys-1660  The Diary …\n…\nnovel/frankenstein"))).not.toThrow();
  });
});
