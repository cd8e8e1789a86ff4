// Quote grounding: the field cases of issue 2 (all but the two bestSpan ones, which are in best-span.test.ts),
// on the bundled books where a real passage is needed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkGrounding,
  findQuotes,
  MAX_QUOTE_WORDS,
  normalize,
  parseBook,
  parseTags,
  passesGrounding,
  quoteIn,
  prepareHaystack,
  snapQuotes,
  SNAP_MIN_RATIO,
  translateQuoteChars,
  words,
} from "../../ts/moot/index.js";

const BOOKS = new URL("../../data/books/", import.meta.url);
const frankenstein = parseBook("novel/frankenstein", readFileSync(new URL("novel__frankenstein.txt", BOOKS), "utf8"));
const LEASE = "Under section 4 the tenant is not allowed to sublet the flat during the lease.";
const tagged = (contents: string[]) => contents.map((content, i) => ({ tag: `s${i + 1}`, content }));

describe("parseTags and findQuotes", () => {
  it("reads tags in order, lower-cased, groups split, repeats kept", () => {
    expect(parseTags("As I said [s1, S3] and [o2]; again [s1]. Not a tag: [x1] [s] [will]")).toEqual(["s1", "s3", "o2", "s1"]);
  });

  it("extracts curly-quoted spans and drops markdown emphasis and edge punctuation", () => {
    expect(findQuotes("The author says “the river remembers every flood” [s2].")).toEqual(["the river remembers every flood"]);
    expect(findQuotes("The author says “**the river remembers every flood**” [s2].")).toEqual(["the river remembers every flood"]);
    expect(findQuotes('She wrote "_the river remembers every flood,_" then "two words" [s1].')).toEqual([
      "the river remembers every flood",
    ]);
  });
});

describe("checkGrounding", () => {
  const passages = tagged(frankenstein.passages.slice(100, 103).map((p) => p.content));

  it("curly quotes and emphasis: a quote its passage lacks is extracted and is a miss", () => {
    for (const reply of [
      "The author says “the river remembers every flood” [s2].",
      "The author says “**the river remembers every flood**” [s2].",
    ]) {
      const g = checkGrounding(reply, passages);
      expect(g.quotes).toEqual([{ text: "the river remembers every flood", found: false, source: "own", reason: "not in source", attribution: "misattributed", cites: ["s2"] }]);
      expect(g.quotesFound).toBe(0);
      expect(g.quotesTotal).toBe(1);
      expect(passesGrounding(g)).toBe(false);
    }
  });

  it("a verbatim quote of a real passage is found, under curly quotes and with different case and punctuation", () => {
    const ws = words(passages[1]!.content).slice(20, 30);
    const exact = passages[1]!.content.slice(ws[0]!.start, ws.at(-1)!.end);
    const shouted = exact.toUpperCase().replace(/,/g, "");
    const g = checkGrounding(`I said “${shouted}” [s2].`, passages);
    expect(g.quotes).toEqual([{ text: shouted, found: true, source: "own", attribution: "cited", cites: ["s2"] }]);
    expect(passesGrounding(g)).toBe(true);
  });

  it("a tag beyond the passages given makes the tags invalid; a quote never checked never counts", () => {
    const ws = words(passages[0]!.content).slice(5, 12);
    const exact = passages[0]!.content.slice(ws[0]!.start, ws.at(-1)!.end);
    const g = checkGrounding(`As "${exact}" [s1] shows, and "so true" [s7].`, passages);
    expect(g.tagsValid).toBe(false);
    expect(g.tagsCited).toBe(2);
    expect(g.quotes).toEqual([{ text: exact, found: true, source: "own", attribution: "cited", cites: ["s1"] }]); // "so true" (2 words) is not checked
    expect(g.quotesTotal).toBe(1);
    expect(passesGrounding(g)).toBe(false);
  });

  it("a reply with no tags has valid tags but cites nothing, so it does not pass", () => {
    const g = checkGrounding("Nothing quoted, nothing cited.", passages);
    expect(g).toMatchObject({ tagsValid: true, tagsCited: 0, quotesTotal: 0 });
    expect(passesGrounding(g)).toBe(false);
  });

  it("own quotes are checked against the whole pool of the moot, not only this turn's passages", () => {
    const earlier = frankenstein.passages[5]!.content;
    const ws = words(earlier).slice(3, 9);
    const q = earlier.slice(ws[0]!.start, ws.at(-1)!.end);
    expect(checkGrounding(`"${q}" [s1]`, passages).quotesFound).toBe(0);
    expect(checkGrounding(`"${q}" [s1]`, passages, [...passages, { content: earlier }]).quotesFound).toBe(1);
  });

  it("[oN] quotes the moot: other tree or own earlier turn, counted apart; moot words under [sN] are a miss", () => {
    const others = new Map([[1, "I remember the great fire that took the old mill."]]);
    const own = new Map([[2, "My pages keep the ashes of many winters."]]);
    const g = checkGrounding(
      'You spoke of "the great fire that took" [o1], and I of "ashes of many winters" [o2]; "the old mill" [s1] is yours, and "a fire I invented" [o1] is not.',
      passages,
      undefined,
      others,
      own,
    );
    expect(g.quotes).toEqual([
      { text: "the great fire that took", found: true, source: "other" },
      { text: "ashes of many winters", found: true, source: "self" },
      { text: "the old mill", found: false, source: "own", reason: "not in source", attribution: "misattributed", cites: ["s1"] },
      { text: "a fire I invented", found: false, source: "other", reason: "not in source" },
    ]);
    expect(g).toMatchObject({ quotesFound: 0, quotesTotal: 1, otherQuotesFound: 1, otherQuotesTotal: 2, selfQuotesFound: 1, selfQuotesTotal: 1 });
  });
});

describe("ellipsis that inverts meaning", () => {
  const passages = tagged([LEASE]);

  it("an elision that drops a negation is not found, with that reason", () => {
    const g = checkGrounding('The lease: "the tenant is ... allowed to sublet" [s1].', passages);
    expect(g.quotes).toEqual([{ text: "the tenant is ... allowed to sublet", found: false, source: "own", reason: "elision drops a negation", attribution: "misattributed", cites: ["s1"] }]);
  });

  it("fragments out of order are not found", () => {
    const g = checkGrounding('The lease: "sublet the flat … the tenant is" [s1].', passages);
    expect(g.quotes).toEqual([{ text: "sublet the flat … the tenant is", found: false, source: "own", reason: "ellipsis", attribution: "misattributed", cites: ["s1"] }]);
  });

  it("an honest elision is found, and a negation kept inside a fragment is fine", () => {
    expect(quoteIn("the tenant is not allowed ... during the lease", [prepareHaystack(LEASE)])).toEqual({ found: true });
    expect(quoteIn("the tenant is not ... the flat", [prepareHaystack(LEASE)])).toEqual({ found: true });
    // a later place of the first fragment that elides no negation still counts
    const twice = "He did not go home. He said he would go to the river and go home.";
    expect(quoteIn("He said he would ... go home", [prepareHaystack(twice)])).toEqual({ found: true });
    expect(quoteIn("He did ... go home", [prepareHaystack(twice)])).toEqual({ found: false, reason: "elision drops a negation" });
  });

  it("snapping unquotes both, keeping the words", () => {
    const reply = 'It says "the tenant is ... allowed to sublet" [s1] and "sublet the flat ... the tenant is" [s1].';
    const { text, snaps } = snapQuotes(reply, [LEASE]);
    expect(text).toBe("It says the tenant is ... allowed to sublet [s1] and sublet the flat ... the tenant is [s1].");
    expect(snaps.map((s) => [s.action, s.reason])).toEqual([
      ["unquoted", "elision drops a negation"],
      ["unquoted", "ellipsis"],
    ]);
  });
});

describe("snapQuotes", () => {
  it("a snap must not flip meaning: adding a negation is refused, the quote unquoted", () => {
    const { text, snaps } = snapQuotes('The lease says "the tenant is allowed to sublet" [s1].', [LEASE]);
    expect(text).toBe("The lease says the tenant is allowed to sublet [s1].");
    expect(snaps).toEqual([
      { text: "the tenant is allowed to sublet", source: "own", action: "unquoted", to: null, ratio: 0.939, reason: "negation differs" },
    ]);
    expect(0.939).toBeGreaterThanOrEqual(SNAP_MIN_RATIO);
  });

  it("a near miss of a real passage is snapped to the source's exact words, marks and edge punctuation kept", () => {
    // A passage with a long word among its 11th–19th words (the quote's inside).
    const content = frankenstein.passages.slice(200).map((p) => p.content).find((c) => words(c).slice(10, 19).some((w) => w.end - w.start >= 6))!;
    const ws = words(content).slice(10, 20);
    const exact = content.slice(ws[0]!.start, ws.at(-1)!.end);
    const long = ws.slice(0, -1).find((w) => w.end - w.start >= 6)!; // a long word inside the quote
    const cut = long.start + 2 - ws[0]!.start;
    const misspelt = exact.slice(0, cut) + exact.slice(cut + 1); // one letter dropped
    expect(misspelt).not.toBe(exact);
    const { text, snaps } = snapQuotes(`He wrote “${misspelt},” [s1] and "too short" [s1].`, [content]);
    expect(text).toBe(`He wrote “${exact},” [s1] and too short [s1].`);
    expect(snaps[0]).toMatchObject({ text: misspelt, action: "snapped", to: exact, reason: null });
    expect(snaps[0]!.ratio).toBeGreaterThanOrEqual(SNAP_MIN_RATIO);
    expect(snaps[1]).toEqual({ text: "too short", source: "own", action: "unquoted", to: null, ratio: 0, reason: "under 3 words" });
  });

  it("a quote far from every passage is unquoted as not in source; found quotes are left alone", () => {
    const content = frankenstein.passages[50]!.content;
    const ws = words(content).slice(0, 6);
    const exact = content.slice(ws[0]!.start, ws.at(-1)!.end);
    const reply = `"${exact}" [s1], and "the quick brown fox jumps over the lazy dog" [s1].`;
    const { text, snaps } = snapQuotes(reply, [content]);
    expect(text).toBe(`"${exact}" [s1], and the quick brown fox jumps over the lazy dog [s1].`);
    expect(snaps).toHaveLength(1);
    expect(snaps[0]).toMatchObject({ action: "unquoted", reason: "not in source" });
    expect(snaps[0]!.ratio).toBeLessThan(SNAP_MIN_RATIO);
  });

  it("an [oN] near miss snaps to the other tree's words, not the book's", () => {
    const others = new Map([[3, "I watched the city burn from the river stairs."]]);
    const { text, snaps } = snapQuotes('You "watched the city burning from the river stairs" [o3].', [LEASE], others);
    expect(text).toBe('You "watched the city burn from the river stairs" [o3].');
    expect(snaps[0]).toMatchObject({ source: "other", action: "snapped", to: "watched the city burn from the river stairs" });
  });
});

describe("long quotes", () => {
  const body = frankenstein.passages.map((p) => p.content).join("\n\n");
  const ws = words(body);

  it("a 10,000-word quote that is the whole source is found verbatim by the exact path", () => {
    const source = translateQuoteChars(body.slice(ws[0]!.start, ws[9_999]!.end)).replace(/"/g, "");
    expect(words(source)).toHaveLength(10_000);
    const reply = `As I wrote, "${source}" [s1].`;
    const g = checkGrounding(reply, tagged([source]));
    expect(g.quotes).toHaveLength(1);
    expect(g.quotes[0]!.found).toBe(true);
    expect(snapQuotes(reply, [source]).snaps).toEqual([]);
  });

  it(`a quote over MAX_QUOTE_WORDS (${MAX_QUOTE_WORDS}) that misses is unquoted as too long, never searched`, () => {
    const n = MAX_QUOTE_WORDS + 50;
    const quote = normalize(body.slice(ws[0]!.start, ws[n - 1]!.end)).replace(/ (\w+)$/, " zzzword");
    const { text, snaps } = snapQuotes(`Long: "${quote}" [s1].`, [body]);
    expect(snaps).toEqual([{ text: quote, source: "own", action: "unquoted", to: null, ratio: 0, reason: "too long" }]);
    expect(text).toBe(`Long: ${quote} [s1].`);
  });
});
