// The moot and books commands, run as the built CLI (node dist/cli.js; `npm test` builds first).
// npm test runs one case of each kind of bad input (a --turns that is not a positive integer: 0);
// npm run test:deep (test/depth.ts) runs every case.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { closedPort, startStub } from "./stub-server.js";
import { DEEP } from "../depth.js";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Run the CLI without any model configured in the environment. */
function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY"]) delete env[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe.skipIf(!existsSync(CLI))("groundwire moot / books (dist/cli.js; run `npm run build` first)", () => {
  const out = mkdtempSync(join(tmpdir(), "gw-moot-"));

  it("books lists the bundled keys with titles", async () => {
    const r = await run(["books"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("diary/pepys-1660    The Diary of Samuel Pepys — Samuel Pepys (368 passages, diary)");
    expect(r.stdout).toMatch(/novel\/frankenstein +Frankenstein, or The Modern Prometheus — Mary Wollstonecraft \(Godwin\) Shelley \(\d+ passages, chapters\)/);
  });

  it("books --passages KEY shows how a book was cut: each passage's label and first words", async () => {
    const r = await run(["books", "--passages", "diary/pepys-1660"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    // the title page as front matter, then the 367 entries
    expect(lines[0]).toBe("diary/pepys-1660: The Diary of Samuel Pepys — 368 passages, cut by diary");
    expect(lines).toHaveLength(369);
    expect(lines[1]).toMatch(/^Front matter +The Diary of Samuel Pepys, January 1659-60 to December 1660 …$/);
    expect(lines[2]).toMatch(/^JANUARY 1659–60 +JANUARY 1659–60 Blessed be God, at the end of the …$/);
    expect(lines[3]).toMatch(/^JANUARY 1659–60: Jan\. 1st \(Lord’s day\) +Jan\. 1st \(Lord’s day\)\. This morning \(we living lately in …$/);
    expect(lines.at(-1)).toMatch(/^DECEMBER 1660: 31st +31st\. At the office all the morning and after that …$/);
    const json = await run(["books", "--passages", "novel/frankenstein", "--json"]);
    const d = JSON.parse(json.stdout);
    expect(d).toMatchObject({ key: "novel/frankenstein", structure: "chapters" });
    expect(d.passages[2]).toMatchObject({ name: "letter-1-1", label: "Letter 1, part 1", firstWords: "Letter 1 _To Mrs. Saville, England._ St. Petersburgh, Dec. 11th, …" });
    const bad = await run(["books", "--passages", "diary/pepys"]);
    expect(bad.code).toBe(2); // a usage error, as an unknown key is in moot
    expect(bad.stderr).toMatch(/^groundwire books: unknown book "diary\/pepys"; did you mean "diary\/pepys-1660"\?\n$/);
  });

  it("an offline moot prints each utterance and the stats, and --json writes the transcript", async () => {
    const json = join(out, "moot.json");
    const r = await run(["moot", "novel/frankenstein", "diary/pepys-1660", "--topic", "fire and ruin", "--turns", "4", "--json", json]);
    // the notice goes to stderr (issue 16 item 7), the transcript to stdout
    expect(r.stderr).toBe("groundwire moot: no model configured (--base-url / GROUNDWIRE_BASE_URL); the embedded extractive synthesizer speaks, offline\n");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("[1] Frankenstein, or The Modern Prometheus (novel/frankenstein) · open");
    expect(r.stdout).toContain("[4] The Diary of Samuel Pepys (diary/pepys-1660) · close");
    expect(r.stdout).toMatch(/cites: s\d 16\d\d-\d\d-\d\d/);
    expect(r.stdout).toContain("stats:");
    const d = JSON.parse(readFileSync(json, "utf8"));
    expect(d.utterances).toHaveLength(4);
    expect(d.stats.turns).toBe(4);
    expect(r.stdout).toContain(`own-book quotes found ${d.stats.quotesFound}/${d.stats.quotesTotal}`);
  });

  it("each rolling summary is printed where it was made: before the turn it was built for", async () => {
    const r = await run(["moot", "novel/frankenstein", "diary/pepys-1660", "--topic", "fire and ruin", "--turns", "9", "--json", "-"]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.summaries.map((s: { beforeTurn: number }) => s.beforeTurn)).toEqual([5, 9]);
    // --json -: the human text is on stderr
    for (const s of d.summaries) {
      const line = `summary before turn ${s.beforeTurn}: ${s.text}`;
      const at = r.stderr.indexOf(`\n${line}\n\n[${s.beforeTurn}] `);
      expect(at).toBeGreaterThan(r.stderr.indexOf(`\n[${s.beforeTurn - 1}] `));
    }
    expect(r.stderr.match(/^summary before turn /gm)).toHaveLength(2);
  });

  const bad: Array<[string, string[], RegExp]> = [
    ["an unknown key names the close keys", ["moot", "novel/frankenstien", "diary/pepys-1660"], /^groundwire moot: unknown book "novel\/frankenstien"; did you mean "novel\/frankenstein"\?\n$/],
    ["the same key twice", ["moot", "diary/pepys-1660", "diary/pepys-1660"], /^groundwire moot: a moot needs two different books, got "diary\/pepys-1660" twice\n$/],
    ["--turns 0", ["moot", "novel/frankenstein", "diary/pepys-1660", "--turns", "0"], /^groundwire moot: --turns must be a positive integer, got "0"\n$/],
    ["--turns not a number", ["moot", "novel/frankenstein", "diary/pepys-1660", "--turns", "eight"], /^groundwire moot: --turns must be a positive integer, got "eight"\n$/],
    ["one key only", ["moot", "novel/frankenstein"], /^groundwire moot: needs two book keys, got 1/],
    ["--model without an endpoint", ["moot", "novel/frankenstein", "diary/pepys-1660", "--model", "m"], /--model needs a model endpoint/],
  ];
  // npm test: every kind but "--turns not a number" (the same message as --turns 0); test:deep: all
  it.each(bad.filter(([name]) => DEEP || name !== "--turns not a number"))("bad input: %s → one line, exit 2, nothing written", async (_, args, message) => {
    const json = join(out, `bad-${args.join("_").replace(/\W/g, "")}.json`);
    const r = await run([...args, "--json", json]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
    expect(existsSync(json)).toBe(false);
  });

  it("an unreachable endpoint: one line naming the URL, exit 1, nothing written", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const json = join(out, "unreachable.json");
    const r = await run(["moot", "novel/frankenstein", "diary/pepys-1660", "--base-url", url, "--model", "m", "--json", json]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^groundwire moot: cannot reach the model endpoint ${url.replace(/\./g, "\\.")}/chat/completions: connection refused \\(ECONNREFUSED\\)\\n$`));
    expect(r.stdout).toBe(""); // no transcript header for a moot in which nobody spoke
    expect(existsSync(json)).toBe(false);
  });

  it("a model that misquotes: its quotes are snapped to the book's words, and the corrections printed", async () => {
    // The stub quotes ten words of its first passage with the fifth word dropped.
    const stub = await startStub((req) => {
      const prompt = req.body.messages[1]!.content;
      // its text: the `  | ` lines of the untrusted-data region under `[s1] (label)`, not the region's banner
      const region = /^\[s1\] \([^)]*\)\n<untrusted-data> [^\n]*\n((?: {2}\|[^\n]*\n)+)<\/untrusted-data>/m.exec(prompt)![1]!;
      const passage = region.replace(/^ {2}\| ?/gm, "");
      const ws = passage.split(/\s+/).filter((w) => /^[A-Za-z]+$/.test(w)).slice(0, 10);
      return { content: `I remember "${[...ws.slice(0, 4), ...ws.slice(5)].join(" ")}" [s1].` };
    });
    try {
      const json = join(out, "snapped.json");
      const args = ["moot", "novel/frankenstein", "diary/pepys-1660", "--topic", "fire", "--turns", "2", "--base-url", stub.baseUrl, "--model", "stub"];
      const r = await run([...args, "--json", json]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`moot: model stub at ${stub.baseUrl}`);
      // docs/moot.md shows this run as a transcript (its address aside): the command is this
      // one, and each line it shows is in the output, in order (… marks lines left out)
      const page = readFileSync(join(ROOT, "docs/moot.md"), "utf8");
      const block = /```text\n(\$ groundwire moot [^\n]*--model stub\n[\s\S]*?)```/.exec(page)![1]!;
      const [command, ...shown] = block.split("\n").filter((l) => l.trim() !== "" && l.trim() !== "…");
      const pageUrl = /--base-url (\S+)/.exec(command!)![1]!;
      expect(command!.replace(pageUrl, stub.baseUrl)).toBe(`$ groundwire ${args.join(" ")}`);
      let from = 0;
      for (const line of shown) {
        const at = r.stdout.indexOf(line.replaceAll(pageUrl, stub.baseUrl), from);
        expect(at, `docs/moot.md shows ${JSON.stringify(line)}; not found (in order) in:\n${r.stdout}`).toBeGreaterThanOrEqual(0);
        from = at + line.length;
      }
      const d = JSON.parse(readFileSync(json, "utf8"));
      expect(d.model).toBe("stub");
      for (const u of d.utterances) {
        expect(u.grounded).toBe(false);
        for (const snap of u.snaps) expect(r.stdout).toContain(snap.action === "snapped" ? `snapped "${snap.text}" → "${snap.to}"` : `unquoted "${snap.text}"`);
      }
      expect(d.stats.quotesSnapped + d.stats.quotesUnquoted).toBeGreaterThan(0);
      expect(r.stdout).toContain(`corrections: snapped ${d.stats.quotesSnapped} · unquoted ${d.stats.quotesUnquoted}`);
    } finally {
      await stub.close();
    }
  });

  it("a misattributed quote is shown on its turn's line; --strict-citations fails the turn, which is retried", async () => {
    // The stub quotes six words of its second passage and tags them [s1].
    const stub = await startStub((req) => {
      const parts = req.body.messages[1]!.content.split("\n\n").filter((p) => /^\[s\d+\] \(/.test(p));
      const passage = parts[1]!.slice(parts[1]!.indexOf("\n") + 1);
      const ws = passage.split(/\s+/).filter((w) => /^[A-Za-z]+$/.test(w));
      const i = passage.split(/\s+/).findIndex((_, k, all) => all.slice(k, k + 6).every((w) => /^[A-Za-z]+$/.test(w)));
      const phrase = i >= 0 ? passage.split(/\s+/).slice(i, i + 6).join(" ") : ws.slice(0, 6).join(" ");
      return { content: `We learn that "${phrase}" [s1].` };
    });
    try {
      const base = ["moot", "novel/frankenstein", "diary/pepys-1660", "--topic", "fire", "--turns", "1", "--base-url", stub.baseUrl, "--model", "stub"];
      const plain = await run(base);
      expect(plain.stderr).toBe("");
      expect(plain.code).toBe(0);
      expect(plain.stdout).toMatch(/\n {4}grounded · quotes found 1\/1 · misattributed 1\n {4}misattributed "[A-Za-z ]+" \(tagged s1\)\n/);
      expect(plain.stdout).toContain("attribution: cited 0 · misattributed 1 · uncited 0 (cited rate 0)");
      expect(stub.requests).toHaveLength(1);
      const strict = await run([...base, "--strict-citations"]);
      expect(strict.code).toBe(0);
      expect(strict.stdout).toMatch(/\n {4}NOT grounded · quotes found 1\/1 · misattributed 1 · retried\n/);
      expect(stub.requests).toHaveLength(3);
    } finally {
      await stub.close();
    }
  });

  it("a model that returns nothing: one line, exit 1, nothing written", async () => {
    const stub = await startStub(() => ({ content: "" }));
    try {
      const json = join(out, "empty.json");
      const r = await run(["moot", "novel/frankenstein", "diary/pepys-1660", "--base-url", stub.baseUrl, "--model", "m", "--json", json]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `groundwire moot: the model returned no text twice for Frankenstein, or The Modern Prometheus (endpoint ${stub.baseUrl})\n`,
      );
      expect(existsSync(json)).toBe(false);
      expect(stub.requests).toHaveLength(2);
    } finally {
      await stub.close();
    }
  });
});
