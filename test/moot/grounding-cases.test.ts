// Issue 11 §1–3 and issue 12 item 9 (grounding parts): every case the issues list, with its right
// value, on both backends (the backend is the best-span search snapQuotes runs).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bestSpan,
  checkGrounding,
  MAX_QUOTE_CHARS,
  MAX_QUOTES_CHECKED,
  MAX_REPLY_CHARS,
  passesGrounding,
  prepareHaystack,
  quoteIn,
  quoteSpans,
  snapQuotes,
  words,
} from "../../ts/moot/index.js";

const tagged = (contents: string[]) => contents.map((content, i) => ({ tag: `s${i + 1}`, content }));
const graphemes = (s: string) => [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(s)].map((g) => g.index);
/** Whether [start, end) of `text` starts and ends on grapheme cluster boundaries. */
const onClusters = (text: string, start: number, end: number) => {
  const b = new Set([...graphemes(text), text.length]);
  return b.has(start) && b.has(end);
};

describe("words: UAX #29 over the matching text, offsets into the text as given", () => {
  it("keeps combining marks in their word, folds ligatures, ignores soft hyphens, splits at _", () => {
    const src = "She ordered a cafe\u0301 au lait; the \uFB01rst \uFB02ight; exam\u00ADple; _not_ snake_case; don't well-known";
    expect(words(src).map((w) => [w.key, src.slice(w.start, w.end)])).toEqual([
      ["she", "She"], ["ordered", "ordered"], ["a", "a"], ["café", "cafe\u0301"], ["au", "au"], ["lait", "lait"],
      ["the", "the"], ["first", "\uFB01rst"], ["flight", "\uFB02ight"], ["example", "exam\u00ADple"],
      ["not", "not"], ["snake", "snake"], ["case", "case"], ["dont", "don't"], ["well", "well"], ["known", "known"],
    ]);
  });

  it("gives words to scripts without spaces and keeps Devanagari vowel signs", () => {
    expect(words("我们今天去公园。").map((w) => w.key)).toEqual(["我们", "今天", "去", "公园"]);
    expect(words("नमस्ते दुनिया").map((w) => w.key)).toEqual(["नमस्ते", "दुनिया"]);
    expect(words("วันนี้อากาศดีมาก").length).toBeGreaterThan(1);
  });

  it("never cuts a grapheme cluster (a Prepend mark joins the word after it)", () => {
    const t = "x \u0600abc and e\u0301 done";
    for (const w of words(t)) expect(onClusters(t, w.start, w.end)).toBe(true);
    expect(t.slice(words(t)[1]!.start, words(t)[1]!.end)).toBe("\u0600abc");
  });

  it("gives the same words on long texts as on short ones (segmenting is done chunk by chunk)", () => {
    const unit = "The mill_race ran \u201cfast\u201d past the caf\u00e9 \u2014 don\u2019t stop. 我们今天去公园。 ";
    const long = unit.repeat(400);
    const short = words(unit);
    const all = words(long);
    expect(all.length).toBe(short.length * 400);
    all.forEach((w, i) => {
      const s = short[i % short.length]!;
      expect([w.key, w.start - Math.floor(i / short.length) * unit.length]).toEqual([s.key, s.start]);
    });
  });
});

describe.each(["wasm", "ts"] as const)("issue 11 cases — %s backend", (backend) => {
  const opts = { backend };
  const snap = (reply: string, pool: string[], others?: Map<number, string>) => snapQuotes(reply, pool, others, undefined, opts);

  describe("§1 text as Unicode defines it", () => {
    it("decomposed source, composed quote (and the reverse): found, grounded, nothing snapped", () => {
      const decomposed = "She ordered a cafe\u0301 au lait and sat by the window.";
      const composed = decomposed.normalize("NFC");
      expect(composed).not.toBe(decomposed);
      for (const [source, quote] of [[decomposed, "a caf\u00e9 au lait and sat"], [composed, "a cafe\u0301 au lait and sat"]] as const) {
        const reply = `He wrote "${quote}" [s1].`;
        const g = checkGrounding(reply, tagged([source]));
        expect(g.quotes).toEqual([{ text: quote, found: true, source: "own", attribution: "cited", cites: ["s1"] }]);
        expect(passesGrounding(g)).toBe(true);
        expect(snap(reply, [source])).toEqual({ text: reply, snaps: [] });
      }
    });

    it("ligatures and soft hyphens in the source: found", () => {
      const lig = "It was the \uFB01rst \uFB02ight over the sea.";
      expect(checkGrounding('"the first flight over the sea" [s1]', tagged([lig])).quotes[0]).toMatchObject({ found: true, attribution: "cited" });
      const shy = "A simple exam\u00ADple of the method works well.";
      expect(checkGrounding('"simple example of the method" [s1]', tagged([shy])).quotes[0]).toMatchObject({ found: true, attribution: "cited" });
      expect(snap('"the first flight over the sea" [s1]', [lig]).snaps).toEqual([]);
      expect(snap('"simple example of the method" [s1]', [shy]).snaps).toEqual([]);
    });

    it("a snap never leaves half a character: a quote one word short snaps to the source's full words, accents included", () => {
      const source = "Yesterday the old re\u0301sume\u0301 of the cafe\u0301 was read aloud.";
      const reply = 'She read "the old r\u00e9sum\u00e9 of caf\u00e9" [s1].';
      const { text, snaps } = snap(reply, [source]);
      const want = "the old re\u0301sume\u0301 of the cafe\u0301";
      expect(snaps).toEqual([{ text: "the old r\u00e9sum\u00e9 of caf\u00e9", source: "own", action: "snapped", to: want, ratio: 0.917, reason: null }]);
      expect(text).toBe(`She read "${want}" [s1].`);
      const span = bestSpan("the old r\u00e9sum\u00e9 of caf\u00e9", [source], opts);
      expect(span.text).toBe(want);
      expect(onClusters(source, span.start, span.end)).toBe(true);
      expect(source.slice(span.start, span.end)).toBe(span.text);
    });

    it("bestSpan over a ligature source returns the source's own characters, whole", () => {
      const source = "It was the \uFB01rst \uFB02ight over the sea.";
      const span = bestSpan("the first flight ovr", [source], opts);
      expect(span.text).toBe("the \uFB01rst \uFB02ight over");
      expect(span.ratio).toBe(0.975609756097561); // python: SequenceMatcher(None, "the first flight over", "the first flight ovr", autojunk=False).ratio()
    });
  });

  describe("§2 tags and quotes as models place them", () => {
    const harbour = "At first light the ferry left the harbour and turned north.";
    const river = "By morning the river had risen over the lower fields.";

    it("a tag group inside the closing mark belongs to the quote: found, grounded, text unchanged", () => {
      for (const reply of ['The crossing began: "the ferry left the harbour [s1]."', 'The crossing began: "the ferry left the harbour [s1, s2]."']) {
        const g = checkGrounding(reply, tagged([harbour, river]));
        expect(g.quotes).toEqual([{ text: "the ferry left the harbour", found: true, source: "own", attribution: "cited", cites: reply.includes("s2") ? ["s1", "s2"] : ["s1"] }]);
        expect(passesGrounding(g)).toBe(true);
        expect(snap(reply, [harbour, river])).toEqual({ text: reply, snaps: [] });
      }
    });

    it("a snap never removes or damages a tag, inside the marks or among the words", () => {
      expect(snap('The crossing began: "the ferry leaves the harbour [s1]."', [harbour]).text).toBe('The crossing began: "the ferry left the harbour [s1]."');
      expect(snap('So: "the ferry leaves the harbour [s1, s2]" and more.', [harbour]).text).toBe('So: "the ferry left the harbour [s1, s2]" and more.');
      expect(snap('So: "the ferry [s1] leaves the harbour."', [harbour]).text).toBe('So: "the ferry left the harbour [s1]."');
      expect(quoteSpans('"the ferry [s1] left the harbour."')).toEqual([{ text: "the ferry left the harbour", start: 0, end: 34, tags: ["s1"] }]);
    });

    it("a tag after the sentence's closing punctuation belongs to the quote before it", () => {
      const others = new Map([[1, "I never trusted the letter that came on Sunday, and I burned it."]]);
      const reply = 'You said "I never trusted the letter that came on Sunday". [o1] The letter was real [s1].';
      const g = checkGrounding(reply, tagged([river]), undefined, others);
      expect(g.quotes).toEqual([{ text: "I never trusted the letter that came on Sunday", found: true, source: "other" }]);
      expect(g).toMatchObject({ quotesTotal: 0, otherQuotesFound: 1, otherQuotesTotal: 1 });
      expect(snap(reply, [river], others)).toEqual({ text: reply, snaps: [] });
    });

    it("a quote with no word at all is unquoted with a reason of its own, and never checked", () => {
      const reply = 'In symbols "\u2200 \u2203 \u2286" and a rule "--- *** ---", then "the river had risen" [s1].';
      expect(checkGrounding(reply, tagged([river])).quotes.map((q) => q.text)).toEqual(["the river had risen"]);
      const { text, snaps } = snap(reply, [river]);
      expect(text).toBe('In symbols \u2200 \u2203 \u2286 and a rule --- *** ---, then "the river had risen" [s1].');
      expect(snaps).toEqual([
        // what stood between the marks, so a reader can tell which (the quote's words would be "")
        { text: "\u2200 \u2203 \u2286", source: "own", action: "unquoted", to: null, ratio: 0, reason: "no words" },
        { text: "--- *** ---", source: "own", action: "unquoted", to: null, ratio: 0, reason: "no words" },
      ]);
    });
  });

  describe("a source's own quotation nested inside a quote with the same mark", () => {
    const novel = '"Begone!" he cried, and fled the house before the fire reached the stair.';
    const diary = "I heard him say \u201cthe fire is at the stair\u201d before dawn, and I ran.";

    it("the outer quote is the one checked, found, with its tags (marks read by context)", () => {
      for (const [reply, text] of [
        // the quote's text runs from its first word to its last: the inner opening mark is edge punctuation
        ['He wrote "\"Begone!\" he cried, and fled the house" [s1].', 'Begone!" he cried, and fled the house'],
        ["She wrote \u201cI heard him say \u201cthe fire is at the stair\u201d before dawn\u201d [s2].", 'I heard him say "the fire is at the stair" before dawn'],
      ] as const) {
        const g = checkGrounding(reply, tagged([novel, diary]));
        expect(g.quotes, reply).toEqual([{ text, found: true, source: "own", attribution: "cited", cites: [reply.includes("[s2]") ? "s2" : "s1"] }]);
        expect(passesGrounding(g)).toBe(true);
      }
    });

    it("a misquoted nested quote is snapped whole to the source's words", () => {
      const { text, snaps } = snap('She wrote "I heard him say "the fire was at the stair" before dawn" [s1].', [diary]);
      expect(text).toBe("She wrote \"I heard him say \u201cthe fire is at the stair\u201d before dawn\" [s1].");
      expect(snaps).toMatchObject([{ action: "snapped", source: "own" }]);
    });

    it("marks whose context is unclear pair two by two, as before", () => {
      expect(quoteSpans('one"two" "three four five"').map((q) => q.text)).toEqual(["two", "three four five"]);
      expect(quoteSpans('"a b c" and "d e f" [s1]').map((q) => [q.text, q.tags])).toEqual([["a b c", []], ["d e f", ["s1"]]]);
    });
  });

  describe("§3 attribution", () => {
    const passages = tagged(["The lamp burned low while the storm passed over the house.", "By morning the river had risen over the lower fields."]);

    it("a real quote of s2 tagged [s1] is found but misattributed; [s1, s2] is cited; no tag is uncited", () => {
      const wrong = checkGrounding('We learn that "the river had risen over the lower fields" [s1].', passages);
      expect(wrong.quotes).toEqual([{ text: "the river had risen over the lower fields", found: true, source: "own", attribution: "misattributed", cites: ["s1"] }]);
      expect(wrong).toMatchObject({ quotesFound: 1, quotesTotal: 1, quotesCited: 0, quotesMisattributed: 1, quotesUncited: 0 });
      expect(passesGrounding(wrong)).toBe(true); // the seed's rule by default
      expect(passesGrounding(wrong, { strictCitations: true })).toBe(false);

      const both = checkGrounding('We learn that "the river had risen over the lower fields" [s1, s2].', passages);
      expect(both.quotes[0]).toMatchObject({ found: true, attribution: "cited", cites: ["s1", "s2"] });
      expect(passesGrounding(both, { strictCitations: true })).toBe(true);

      const none = checkGrounding('We learn that "the river had risen over the lower fields", as [s2] says.', passages);
      expect(none.quotes[0]).toMatchObject({ found: true, attribution: "uncited", cites: [] });
      expect(none).toMatchObject({ quotesUncited: 1, quotesCited: 0 });
    });
  });

  describe("issue 12 item 9: bounded work on model replies", () => {
    const river = "By morning the river had risen over the lower fields.";

    it(`checks at most ${MAX_QUOTES_CHECKED} quotes; the rest are unchecked (the reply fails) and unquoted`, () => {
      const reply = Array.from({ length: MAX_QUOTES_CHECKED + 3 }, () => '"the river had risen" [s1]').join(" ");
      const g = checkGrounding(reply, tagged([river]));
      expect(g).toMatchObject({ quotesTotal: MAX_QUOTES_CHECKED, quotesFound: MAX_QUOTES_CHECKED, quotesUnchecked: 3 });
      expect(passesGrounding(g)).toBe(false);
      const { text, snaps } = snap(reply, [river]);
      expect(snaps).toEqual(Array.from({ length: 3 }, () => ({ text: "the river had risen", source: "own", action: "unquoted", to: null, ratio: 0, reason: "unchecked" })));
      expect(text.endsWith("the river had risen [s1] the river had risen [s1] the river had risen [s1]")).toBe(true);
      expect(checkGrounding(reply, tagged([river]), undefined, undefined, undefined, { maxQuotes: 100 }).quotesUnchecked).toBe(0);
    });

    it("reads a reply for quotes up to maxReplyChars: quotes past it are unchecked, never passed", () => {
      const head = '"the river had risen" [s1]. ';
      const reply = `${head}${"x".repeat(100)} "a quote far past the cap" [s1].`;
      const g = checkGrounding(reply, tagged([river]), undefined, undefined, undefined, { maxReplyChars: 64 });
      expect(g).toMatchObject({ quotesTotal: 1, quotesFound: 1, quotesUnchecked: 1 });
      expect(passesGrounding(g)).toBe(false);
      const { text, snaps } = snapQuotes(reply, [river], undefined, undefined, { ...opts, maxReplyChars: 64 });
      expect(snaps).toEqual([{ text: "a quote far past the cap", source: "own", action: "unquoted", to: null, ratio: 0, reason: "unchecked" }]);
      expect(text).toBe(`${head}${"x".repeat(100)} a quote far past the cap [s1].`);
      expect(quoteSpans(reply, { maxReplyChars: 64 })[1]).toMatchObject({ unchecked: true, tags: [] });
    });

    it("a 1 MB reply of quotes under 3 words is unquoted in one pass, every mark removed and nothing else", () => {
      const reply = '"ab cd" '.repeat(131_072);
      const { text, snaps } = snap(reply, [river]);
      expect(snaps.length).toBe(131_072);
      // the spans closing within MAX_REPLY_CHARS are too short; the rest were never read: unchecked
      const within = Math.floor((MAX_REPLY_CHARS + 1) / 8);
      expect(snaps.slice(0, within).every((s) => s.reason === "under 3 words")).toBe(true);
      expect(snaps.slice(within).every((s) => s.reason === "unchecked")).toBe(true);
      expect(text).toBe("ab cd ".repeat(131_072));
    });

    it(`a missed quote of over MAX_QUOTE_CHARS (${MAX_QUOTE_CHARS}) characters in few words is unquoted as too long, and bestSpan refuses it`, () => {
      const quote = `the ${"r".repeat(MAX_QUOTE_CHARS)} had risen`;
      expect(() => bestSpan(quote, [river], opts)).toThrow(/MAX_QUOTE_CHARS \(2000\)/);
      expect(snap(`"${quote}" [s1]`, [river]).snaps).toEqual([{ text: quote, source: "own", action: "unquoted", to: null, ratio: 0, reason: "too long" }]);
    });
  });
});

describe("quoteIn with an ellipsis over a large haystack (linear: every occurrence considered once)", () => {
  // 64 KB of one phrase repeated, a negation in each: the seed's loop was quadratic here (11 s).
  const unit = "the tenant may sublet the flat but not the garden ";
  const hay = prepareHaystack(unit.repeat(Math.ceil(65_536 / unit.length)));

  it("finds an honest elision and refuses one that drops a negation, on 64 KB", () => {
    expect(quoteIn("the tenant may ... the flat", [hay])).toEqual({ found: true });
    expect(quoteIn("the tenant may sublet ... the garden", [hay])).toEqual({ found: false, reason: "elision drops a negation" });
    expect(quoteIn("the garden ... the garden ... the garden", [hay])).toEqual({ found: false, reason: "elision drops a negation" });
    expect(quoteIn("but not the garden ... the tenant may", [hay])).toEqual({ found: true });
    expect(quoteIn("the flat ... the moon", [hay])).toEqual({ found: false, reason: "ellipsis" });
  });

  it("picks any chain that elides no negation, not only the first from each start", () => {
    // "A" then "B" twice: the first B leaves a negation in the next stretch, the second does not
    const h = prepareHaystack("alpha beta not gamma beta gamma");
    expect(quoteIn("alpha ... gamma", [h])).toEqual({ found: false, reason: "elision drops a negation" });
    expect(quoteIn("alpha beta ... beta gamma", [h])).toEqual({ found: false, reason: "elision drops a negation" });
    expect(quoteIn("alpha ... not gamma", [h])).toEqual({ found: true });
  });
});

describe("the ASCII fast path of words equals Intl.Segmenter", () => {
  it("on random strings over letters, digits and every joiner UAX #29 knows", () => {
    expect(words("e.g. U.S.A. a:b 3.14 1,000 10:30").map((w) => w.key)).toEqual(["e", "g", "u", "s", "a", "a", "b", "3.14", "1,000", "10", "30"]);
    const seg = new Intl.Segmenter("en", { granularity: "word" });
    const icu = (t: string) => {
      const out: string[] = [];
      for (const s of seg.segment(t)) {
        if (!s.isWordLike) continue;
        let i = 0;
        // the cut words.ts makes on top of ICU: at "_", and at "." or ":" unless between two digits
        for (const piece of s.segment.split(/_|(?<![0-9])[.:]|[.:](?![0-9])/)) {
          if (piece) out.push(`${s.index + i}:${piece.toLowerCase().replace(/'/g, "")}`);
          i += piece.length + 1;
        }
      }
      return out;
    };
    const alphabet = fc.constantFrom("a", "B", "z", "0", "7", ":", ".", ",", ";", "'", "_", " ", "-", "\n", '"', "!", "(");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (cs) => {
        const t = cs.join("");
        expect(words(t).map((w) => `${w.start}:${w.key}`)).toEqual(icu(t));
      }),
      { numRuns: 3000 },
    );
  });
});
