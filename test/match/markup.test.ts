// Markup as a reader sees it (ts/match/markup.ts, docs/match.md "Markup"): a link's
// destination is no words, and a span never splits an emphasis, code, link or bracket run.
// Both backends, bestSpan, the quote matcher, locate, and the moot's snap, on the repo's
// books and a markdown fixture cut by the evidence spine.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bestSpan, createQuoteIndex, createQuoteMatcher, linkTails, markupRuns, markupSafeSpan, readerText, words } from "../../ts/match/index.js";
import { checkGrounding, passesGrounding, snapQuotes } from "../../ts/moot/index.js";
import { loadBooks } from "../../ts/node.js";
import { fragmentMarkdown } from "../../ts/evidence/index.js";

const keys = (t: string) => words(t).map((w) => w.key).join(" ");
const guidePath = new URL("../fixtures/evidence/setup-guide.md", import.meta.url);
const guide = readFileSync(guidePath, "utf8");
const frankenstein = loadBooks(new URL("../../data/books/", import.meta.url)).find((b) => b.key === "novel/frankenstein")!;

/** Every `_`, `*`, backtick and bracket of `span` paired within it, as a reader would check by eye. */
function balanced(span: string): boolean {
  const count = (re: RegExp) => (span.match(re) ?? []).length;
  return count(/_/g) % 2 === 0 && count(/`/g) % 2 === 0 && count(/\[/g) === count(/\]/g);
}

describe("link text: the reader's words", () => {
  it("blanks a link's destination and title, same length, and nothing else", () => {
    const md = 'Please see the [setup page](setup.md "How") before you start.';
    const r = readerText(md);
    expect(r.length).toBe(md.length);
    expect(r).toBe("Please see the [setup page]" + " ".repeat('(setup.md "How")'.length) + " before you start.");
    expect(keys(md)).toBe("please see the setup page before you start");
    // a quote written with the link's markup is its link text too
    expect(keys('"see the [setup page](setup.md) before you start"')).toBe("see the setup page before you start");
    // images keep their alt text; <dest>, nested parentheses in a URL
    expect(keys("the ![tide chart](img/tide_chart.png) shows")).toBe("the tide chart shows");
    expect(keys("[notes](<a b.md>) and [wiki](https://w.org/A_(b)) end")).toBe("notes and wiki end");
  });

  it("leaves alone what is no link: a space before `(`, no `[`, a space in the destination, a blank line", () => {
    for (const t of ["see [s1] (as I said) here", "a] (b) c", "word](x) y", "[a](b c) d", "[a\n\nb](c) d", "[Footnote 3: see p. 4] more"]) {
      expect(readerText(t), t).toBe(t);
    }
  });

  it("reads a reference link as its text when the text defines the label, and never reads the definition", () => {
    const md = "Kept in [the log][log], which no one reads.\n\n[log]: https://example.org/log\n";
    expect(keys(md)).toBe("kept in the log which no one reads");
    // an undefined label (a Gutenberg footnote pair) is text
    expect(keys("as he said[1][2] then")).toBe("as he said 1 2 then");
    expect(linkTails("no links at all")).toEqual([]);
  });

  it("matches a quote of link text in an evidence fragment, and gives offsets into the .md file", () => {
    const fragments = fragmentMarkdown("setup-guide.md", guide);
    const para = fragments.find((f) => f.kind === "paragraph" && f.text.includes("setup page"))!;
    expect(para.text).toContain("[setup page](setup.md");
    const reply = 'The guide says "see the setup page before you start, and keep the release notes open" [s1].';
    const g = checkGrounding(reply, [{ tag: "s1", content: para.text }]);
    expect(g.quotes.map((q) => [q.found, q.attribution])).toEqual([[true, "cited"]]);
    expect(passesGrounding(g)).toBe(true);
    // the same quote written with the link markup is found in the plain text of it
    const plain = "Please see the setup page before you start, and keep the release notes open beside it.";
    expect(checkGrounding('As written: "see the [setup page](setup.md) before you start" [s1].', [{ tag: "s1", content: plain }]).quotes[0]!.found).toBe(true);
    // a near miss located in the whole file: the span is the whole link, file offsets
    const index = createQuoteIndex([{ key: "setup-guide.md", text: guide }]);
    for (const backend of ["wasm", "ts"] as const) {
      const [span] = createQuoteIndex([{ key: "setup-guide.md", text: guide }], { backend }).locate("keep the release notes open beside", { limit: 1 });
      expect(span!.ratio).toBe(1);
      expect(span!.text).toBe("keep the\n[release notes](https://example.org/notes/v2_(final)) open beside");
      expect(guide.slice(span!.start, span!.end)).toBe(span!.text);
    }
    const [ref] = index.locate("are kept in the log which no one", { limit: 1 });
    expect(ref!.text).toBe("are kept in [the log][log], which no one");
  });
});

describe("bounded work on hostile text", () => {
  it("reads `](` repeated 100,000 times, and runs of markers, in linear work with every word kept", () => {
    const links = "x](".repeat(100_000);
    expect(words(links).length).toBe(100_000);
    const marks = `one ${"*_`[".repeat(3000)} two three ${"_*]`".repeat(3000)} four`;
    const at = marks.indexOf("two");
    const span = markupSafeSpan(marks, at, at + "two three".length);
    expect(span.start).toBeLessThanOrEqual(at);
    expect(span.end).toBeGreaterThanOrEqual(at + "two three".length);
  });

  it("reads definition lines one line at a time: \\r ends a line, and recheck's attack on the old pattern is plain text", () => {
    // the old one-pattern scan (`^…$` under the m flag, classes that crossed "\r") was quadratic on this
    const attack = '"]:>\t(\r'.repeat(100_000) + "\n";
    expect(linkTails(attack)).toEqual([]);
    expect(words(attack).length).toBe(0);
    const md = "See [the log][log] daily.\r\n[log]: https://example.org/log \"Log\"\r\nEnd.";
    const def = md.indexOf("[log]:");
    expect(linkTails(md)).toEqual([md.indexOf("[log] daily") , md.indexOf(" daily"), def, md.indexOf("\r\nEnd")]);
    expect(keys(md)).toBe("see the log daily end");
  });
});

describe("markup-safe span edges", () => {
  it("widens a span over the rest of an emphasis, code, link or bracket run it splits", () => {
    const cases: Array<[string, string, string]> = [
      // [source, the window's words as found, the span reported]
      ["He meant to get into a _scrape_, and did.", "to get into a _scrape", "to get into a _scrape_"],
      ["He meant to get into a _scrape_, and did.", "scrape_, and did", "_scrape_, and did"],
      ["it was **very** late", "was **very", "was **very**"],
      ["it was *very* late", "very* late", "*very* late"],
      ["run `harbour --check` once", "run `harbour", "run `harbour --check`"],
      ["see the [setup page](setup.md) first", "see the [setup page", "see the [setup page](setup.md)"],
      ["as noted [Footnote 3: on the quay] here", "as noted [Footnote 3", "as noted [Footnote 3: on the quay]"],
      ["a _scrape and a bruise_ then", "a _scrape", "a _scrape and a bruise_"],
    ];
    for (const [src, window, want] of cases) {
      const start = src.indexOf(window);
      const got = markupSafeSpan(src, start, start + window.length);
      expect(src.slice(got.start, got.end), window).toBe(want);
    }
  });

  it("leaves a span alone when it splits no run: inside a run's text, or stray markers", () => {
    const cases: Array<[string, string]> = [
      ["the _long dark night_ fell", "long dark night"],
      ["the _long dark night_ fell", "dark"],
      ["call snake_case_name here", "snake_case"],
      ["a footnote mark* here and there", "mark* here"],
      ["one\n\n_two_ three", "one"],
      ["_open\n\nclose_ after", "close_ after"], // no run crosses a blank line
    ];
    for (const [src, window] of cases) {
      const start = src.indexOf(window);
      expect(markupSafeSpan(src, start, start + window.length), window).toEqual({ start, end: start + window.length });
    }
  });

  it("finds the runs as CommonMark pairs them: nested, intraword `_` ignored, code holds no emphasis", () => {
    const t = "a **b _c_ d** e `x_y_z` f_g_h";
    const runs = markupRuns(t, 0, t.length).map((r) => t.slice(r.open, r.close)).sort();
    expect(runs).toEqual(["**b _c_ d**", "_c_", "`x_y_z`"]);
  });

  it("bestSpan and the matcher give the same widened span on both backends; edges: words gives the window", () => {
    const src = ["He meant to get into a _scrape_, and he did."];
    for (const backend of ["wasm", "ts"] as const) {
      expect(bestSpan("to get into a scrape", src, { backend })).toEqual({ text: "to get into a _scrape_", ratio: 1, source: 0, start: 9, end: 31 });
      expect(bestSpan("to get into a scrape", src, { backend, edges: "words" }).text).toBe("to get into a _scrape");
      expect(createQuoteMatcher(src, { backend }).match(["get into a scrape"])[0]!.text).toBe("get into a _scrape_");
    }
    expect(() => bestSpan("a b c", src, { edges: "chars" as never })).toThrow(/edges must be "markup" or "words"/);
  });

  it("on Frankenstein: a quote ending in `_keeping;_` or `_shall_` gets both underscores from locate, on both backends", () => {
    const index = createQuoteIndex([frankenstein]);
    for (const backend of ["wasm", "ts"] as const) {
      const ix = createQuoteIndex([frankenstein], { backend });
      const [a] = ix.locate("want as the painters call it keeping", { limit: 1 });
      expect(a!.text).toBe("want (as the painters\ncall it) _keeping;_");
      const [b] = ix.locate("But success shall", { limit: 1 });
      expect(b!.text).toBe("But success _shall_");
      const [w] = ix.locate("But success shall", { limit: 1, edges: "words" });
      expect(w!.text).toBe("But success _shall");
      expect([w!.ratio, w!.word, w!.words]).toEqual([b!.ratio, b!.word, b!.words]);
    }
    // every window that touches an emphasis run of the book: the reported span pairs its markers
    const text = frankenstein.text!;
    const ws = words(text);
    let checked = 0;
    for (const m of text.matchAll(/_[^_\n]+(?:\n[^_\n]+)?_/g)) {
      const first = ws.findIndex((w) => w.start > m.index!);
      for (const [from, n] of [[first - 3, 4], [first, 3], [first + 1, 4]] as const) {
        if (from < 0) continue;
        const quote = text.slice(ws[from]!.start, ws[from + n - 1]!.end);
        const [span] = index.locate(quote, { limit: 1 });
        expect(balanced(span!.text), `${quote} → ${span!.text}`).toBe(true);
        expect(text.slice(span!.start, span!.end)).toBe(span!.text);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("the moot's snap writes the book's markup whole", () => {
    const pool = ["He said that he meant to get into a _scrape_, and he did so that night."];
    const { text, snaps } = snapQuotes('I recall "he meant to get in a scrape" [s1].', pool);
    expect(snaps[0]).toMatchObject({ action: "snapped", to: "he meant to get into a _scrape_" });
    expect(text).toBe('I recall "he meant to get into a _scrape_" [s1].');
    expect(checkGrounding(text, [{ tag: "s1", content: pool[0]! }]).quotes[0]!.found).toBe(true);
  });
});
