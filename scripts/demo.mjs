#!/usr/bin/env node
/**
 * `npm run demo`: what the library is for, in one run. First an offline moot (the embedded
 * extractive synthesizer, which quotes verbatim, so its corrections are 0); then replies
 * shaped the way chat models write (scripts/demo-replies.json: near-miss quotes, a quote
 * tagged to the wrong passage, quotes the book never says) checked live against the same
 * books with the package's own API (checkGrounding, snapQuotes, the quote index), each
 * quote's verdict printed with a word diff of what was written against what the book says.
 *
 *   node scripts/demo.mjs [--replies FILE] [--no-moot]
 *
 * Runs from a clone after `npm run build` (it imports dist/).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { diffWords } from "diff";
import { checkGrounding, createQuoteIndex, loadBooks, snapQuotes } from "../dist/node.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({ options: { replies: { type: "string" }, "no-moot": { type: "boolean" } } });
const repliesPath = values.replies ?? `${root}scripts/demo-replies.json`;
const color = process.stdout.isTTY && !process.env.NO_COLOR;

if (!values["no-moot"]) {
  const moot = spawnSync(process.execPath, [`${root}dist/cli.js`, "moot", "novel/frankenstein", "diary/pepys-1660", "--topic", "fire and ruin", "--turns", "8"], { stdio: "inherit" });
  if (moot.status !== 0) process.exit(moot.status ?? 1);
}

/** A word diff of what was written against what the book says: `[-written-]{+book+}` (red/green on a terminal). */
function wordDiff(written, book) {
  return diffWords(written, book)
    .map((part) => {
      if (!part.added && !part.removed) return part.value;
      if (color) return `${part.added ? "\x1b[32m" : "\x1b[31;9m"}${part.value}\x1b[0m`;
      return part.added ? `{+${part.value}+}` : `[-${part.value}-]`;
    })
    .join("");
}

const fixture = JSON.parse(readFileSync(repliesPath, "utf8"));
const books = new Map(loadBooks(`${root}data/books`).map((b) => [b.key, b]));
// one quote index per book, over its passages (the snap's pool): snaps, where a quote is, the closest words
const indexes = new Map();
/** How close a span must be to be shown beside a refused quote. */
const CLOSEST_MIN_RATIO = 0.5;
const tally = { quotes: 0, verbatim: 0, misattributed: 0, snapped: 0, refused: 0 };

console.log("\nreplies shaped as chat models write them, checked against the same books");
console.log(`(${repliesPath.startsWith(root) ? repliesPath.slice(root.length) : repliesPath}; [-written-]{+what the book says+})`);
fixture.replies.forEach((r, i) => {
  const book = books.get(r.book);
  if (!book) throw new Error(`${repliesPath}: reply ${i + 1}: no book ${JSON.stringify(r.book)} in data/books`);
  const pool = book.passages.map((p) => p.content);
  const labelOf = (p) => p.label ?? p.name;
  const passages = Object.entries(r.passages).map(([tag, holding]) => {
    const p = book.passages.find((x) => x.content.replace(/\s+/g, " ").includes(holding));
    if (!p) throw new Error(`${repliesPath}: reply ${i + 1}: no passage of ${r.book} holds ${JSON.stringify(holding)}`);
    return { tag, content: p.content, label: labelOf(p) };
  });
  if (!indexes.has(r.book)) indexes.set(r.book, createQuoteIndex(pool));
  const index = indexes.get(r.book);
  const where = (span) => labelOf(book.passages[span.sourceIndex]);
  const grounding = checkGrounding(r.reply, passages, pool);
  const corrected = snapQuotes(r.reply, pool, undefined, undefined, { index });
  const snaps = [...corrected.snaps];
  console.log(`\nreply ${i + 1} · ${book.title} (${r.book}) · given ${passages.map((p) => `${p.tag} ${p.label}`).join(" · ")}`);
  console.log(`  ${r.reply}`);
  for (const q of grounding.quotes) {
    tally.quotes++;
    const tags = q.cites?.length ? ` [${q.cites.join(", ")}]` : "";
    console.log(`  “${q.text}”${tags}`);
    if (q.found) {
      if (q.attribution === "misattributed") {
        tally.misattributed++;
        const at = index.locate(q.text, { limit: 1 })[0];
        const given = q.cites.map((t) => passages.find((p) => p.tag === t)?.label ?? "no such passage").join(", ");
        console.log(`    MISATTRIBUTED: verbatim, but tagged ${q.cites.join(", ")} (${given}); the book says it in ${at ? where(at) : "another passage"}`);
        if (at) console.log(`    diff: ${wordDiff(q.text, at.text)}`);
      } else {
        tally.verbatim++;
        console.log(`    verbatim${q.attribution === "cited" ? ", cited to the passage that holds it" : ""}`);
      }
      continue;
    }
    const s = snaps.findIndex((x) => x.text === q.text);
    const snap = s >= 0 ? snaps.splice(s, 1)[0] : null;
    if (snap?.action === "snapped") {
      tally.snapped++;
      const at = index.locate(snap.to, { limit: 1 })[0];
      console.log(`    SNAPPED to the book's words (ratio ${snap.ratio}${at ? `, ${where(at)}` : ""})`);
      console.log(`    diff: ${wordDiff(q.text, snap.to)}`);
    } else {
      tally.refused++;
      // the closest words the book has above half the quote (what it was refused against), if any
      const closest = index.locate(q.text, { minRatio: CLOSEST_MIN_RATIO, limit: 1 })[0];
      const near = closest ? `closest span ratio ${closest.ratio.toFixed(3)} in ${where(closest)}, under the snap bar` : `no span even at ratio ${CLOSEST_MIN_RATIO}`;
      console.log(`    REFUSED: ${snap?.reason ?? q.reason ?? "not found"}; unquoted, left as paraphrase (${near})`);
      if (closest) console.log(`    diff: ${wordDiff(q.text, closest.text.replace(/\s+/g, " "))}`);
    }
  }
  console.log(`  corrected: ${corrected.text}`);
});
console.log(
  `\nchecked ${tally.quotes} quotes: verbatim ${tally.verbatim} · misattributed ${tally.misattributed} · snapped ${tally.snapped} · refused ${tally.refused}`,
);
