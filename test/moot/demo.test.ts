// `npm run demo` (scripts/demo.mjs, on the built dist/): the offline moot, then the fixture's
// chat-shaped replies checked live. Nothing here is copied from the demo's output: every
// verdict asserted is recomputed with the library's own check on the same books.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkGrounding, createQuoteIndex, snapQuotes } from "../../ts/moot/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = `${ROOT}dist/cli.js`;

describe.skipIf(!existsSync(CLI))("npm run demo (scripts/demo.mjs; run `npm run build` first)", () => {
  it("prints the moot with labelled stats, then at least one snap and one refusal, each with its word diff", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY"]) delete env[k];
    const r = spawnSync(process.execPath, [`${ROOT}scripts/demo.mjs`], { cwd: ROOT, env, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;

    // the moot ran, and its stats line has no bare number in parentheses: every rate is named
    const stats = out.slice(out.indexOf("\nstats:"), out.indexOf("replies shaped"));
    expect(stats).toContain("corrections: snapped");
    expect(stats).not.toMatch(/\(\d/);
    expect(stats).toMatch(/\(rate (\d|n\/a)/);

    // what the library's check says of the fixture's replies, recomputed here
    const fixture = JSON.parse(readFileSync(`${ROOT}scripts/demo-replies.json`, "utf8")) as { replies: { book: string; reply: string }[] };
    const books = new Map(loadBooks(`${ROOT}data/books`).map((b) => [b.key, b]));
    let snapped = 0;
    let refused = 0;
    for (const { book, reply } of fixture.replies) {
      const pool = books.get(book)!.passages.map((p) => p.content);
      const { snaps } = snapQuotes(reply, pool, undefined, undefined, { index: createQuoteIndex(pool) });
      for (const s of snaps) {
        if (s.action === "snapped") {
          snapped++;
          // the snap is printed with a diff that holds the book's words, and the snapped quote is verbatim
          const at = out.indexOf(`“${s.text}”`);
          expect(at).toBeGreaterThan(0);
          const block = out.slice(at, out.indexOf("\n  “", at + 1) >= 0 ? out.indexOf("\n  “", at + 1) : undefined);
          expect(block).toContain("SNAPPED");
          expect(block).toMatch(/diff: .*\[-.+-\].*\{\+.+\+\}/);
          expect(checkGrounding(`"${s.to}" [s1]`, [{ tag: "s1", content: pool.join("\n\n") }]).quotesFound).toBe(1);
        } else {
          refused++;
          const at = out.indexOf(`“${s.text}”`);
          expect(at).toBeGreaterThan(0);
          expect(out.slice(at)).toMatch(/^“[^\n]*\n {4}REFUSED: [^\n]*\n {4}diff: [^\n]*\[-/);
        }
      }
    }
    expect(snapped).toBeGreaterThanOrEqual(1);
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(out).toMatch(new RegExp(`snapped ${snapped} · refused ${refused}\\n`));
  }, 120_000);
});
