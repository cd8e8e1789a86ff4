// Issue 11 "Done when": a moot against a local OpenAI-compatible stub server (node:http on
// 127.0.0.1) replying with misquotes of each kind gives the right verdict for each turn.
// The stub reads the passages it is given from the prompt and builds each turn's reply from them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { runMoot, type Transcript } from "../../ts/moot/moot.js";
import { createOpenAICompatibleSynthesizer } from "../../ts/moot/synth.js";
import { words } from "../../ts/match/words.js";
import { startStub, type StubRequest } from "./stub-server.js";

const corpus = loadCorpus(new URL("../../data/books/", import.meta.url));
const KEYS = ["novel/frankenstein", "diary/pepys-1660"];

/** The passages of a turn's prompt: `[sN] (label)` then the text (blank lines collapsed), one part each. */
function passagesOf(req: StubRequest): string[] {
  const user = req.body.messages[1]!.content;
  return user.split("\n\n").filter((p) => /^\[s\d+\] \(/.test(p)).map((p) => p.slice(p.indexOf("\n") + 1));
}

/** `k` words of `text` from its `from`-th word, as written (a passage phrase a model would quote). */
function phrase(text: string, from: number, k: number): string {
  const ws = words(text).filter((w) => /^[a-z]+$/i.test(text.slice(w.start, w.end)));
  const first = ws[from]!;
  const last = ws[from + k - 1]!;
  const raw = text.slice(first.start, last.end);
  // only phrases of plain words and spaces, so the misquotes below are exactly what we make them
  return /^[A-Za-z ]+$/.test(raw) ? raw : phrase(text, from + 1, k);
}

/** The reply for each turn (1-based), from its passages and what was just said. */
function replyFor(turn: number, req: StubRequest): string {
  const ps = passagesOf(req);
  const p1 = phrase(ps[0]!, 2, 6);
  const p2 = phrase(ps[1]!, 2, 6);
  switch (turn) {
    case 1: {
      // §1: a soft hyphen inside a word and a ligature for "fi"/"fl" (as PDF-made text has them);
      // §2: the tag written inside the closing mark
      const longest = p1.split(" ").reduce((a, b) => (b.length > a.length ? b : a));
      const shy = p1.replace(longest, `${longest.slice(0, 2)}\u00AD${longest.slice(2)}`).replace(/fi/g, "\uFB01").replace(/fl/g, "\uFB02");
      return `Listen closely to the pages of my book. As I wrote, "${shy} [s1]."`;
    }
    case 2:
      // §3: a real quote of s2 tagged [s1]
      return `Listen closely to the pages of my book. We learn that "${p2}" [s1].`;
    case 3:
      // §2: a quote of the moot with its tag after the sentence's closing punctuation, then an own quote
      return `You said "Listen closely to the pages of my book". [o2] And I answer that "${p1}" [s1].`;
    case 4:
      // §2: a quote with no word at all beside a good one
      return `In symbols, "\u2200 \u2203 \u2286"; in words, "${p1}" [s1, s2].`;
    default: {
      // a near miss: one letter dropped from a long word (snapped after the retry fails too)
      const longest = p1.split(" ").reduce((a, b) => (b.length > a.length ? b : a));
      return `Consider "${p1.replace(longest, longest.slice(0, 1) + longest.slice(2))}" [s1].`;
    }
  }
}

async function mootWith(strictCitations: boolean): Promise<{ transcript: Transcript; requests: StubRequest[] }> {
  let turn = 0;
  const stub = await startStub((req) => {
    const system = req.body.messages[0]!.content;
    if (system.startsWith("You are an impartial narrator")) return { content: "They spoke of the past." };
    const retry = req.body.messages.at(-1)!.content.startsWith("That reply did not pass");
    if (!retry) turn++;
    return { content: replyFor(turn, req) };
  });
  try {
    const synth = createOpenAICompatibleSynthesizer({ baseUrl: stub.baseUrl, model: "stub" });
    const transcript = await runMoot(corpus, synth, KEYS, "fire", 5, { strictCitations });
    return { transcript, requests: stub.requests };
  } finally {
    await stub.close();
  }
}

describe("a moot against a stub OpenAI-compatible server replying with misquotes of each kind", () => {
  let plain: Transcript;
  let strict: Transcript;
  beforeAll(async () => {
    plain = (await mootWith(false)).transcript;
    strict = (await mootWith(true)).transcript;
  });
  afterAll(() => undefined);

  it("turn 1: soft hyphen and ligatures in the quote, tag inside the closing mark: found, cited, grounded, text unchanged", () => {
    const u = plain.utterances[0]!;
    expect(u.quotes).toHaveLength(1);
    expect(u.quotes[0]).toMatchObject({ found: true, source: "own", attribution: "cited", cites: ["s1"] });
    expect(u).toMatchObject({ grounded: true, attempts: 1, snaps: [], cited: { s1: u.retrieved[0]!.nodeId } });
    expect(u.text).toBe(u.rawText);
    expect(u.text).toMatch(/ \[s1\]\."$/);
  });

  it("turn 2: a quote of s2 tagged [s1] is found but misattributed; it passes by default and fails with strictCitations", () => {
    const u = plain.utterances[1]!;
    expect(u.quotes).toEqual([expect.objectContaining({ found: true, attribution: "misattributed", cites: ["s1"] })]);
    expect(u).toMatchObject({ grounded: true, attempts: 1 });
    const s = strict.utterances[1]!;
    expect(s.quotes[0]).toMatchObject({ found: true, attribution: "misattributed" });
    expect(s).toMatchObject({ grounded: false, attempts: 2 }); // retried like any ungrounded turn (the stub repeats itself)
    expect(strict.settings.strictCitations).toBe(true);
    expect(plain.settings.strictCitations).toBeUndefined();
  });

  it("turn 3: a tag after the sentence's punctuation makes a quote of that turn; the own quote keeps the turn grounded", () => {
    const u = plain.utterances[2]!;
    expect(u.quotes.map((q) => [q.source, q.found, q.attribution])).toEqual([["other", true, undefined], ["own", true, "cited"]]);
    expect(u).toMatchObject({ grounded: true, attempts: 1, snaps: [] });
  });

  it("turn 4: the wordless quote is unquoted with its own reason; the good one, tagged [s1, s2], is cited", () => {
    const u = plain.utterances[3]!;
    expect(u.snaps).toEqual([{ text: "\u2200 \u2203 \u2286", source: "own", action: "unquoted", to: null, ratio: 0, reason: "no words" }]);
    expect(u.text).toContain("In symbols, \u2200 \u2203 \u2286; in words,");
    expect(u.quotes).toEqual([expect.objectContaining({ found: true, attribution: "cited", cites: ["s1", "s2"] })]);
    expect(u.grounded).toBe(true);
  });

  it("turn 5: a near miss is not grounded, retried, then snapped to the source's exact words", () => {
    const u = plain.utterances[4]!;
    expect(u).toMatchObject({ grounded: false, attempts: 2 });
    expect(u.quotes[0]).toMatchObject({ found: false, reason: "not in source", attribution: "misattributed" });
    expect(u.snaps).toHaveLength(1);
    expect(u.snaps[0]).toMatchObject({ action: "snapped", reason: null });
    expect(u.text).toBe(`Consider "${u.snaps[0]!.to}" [s1].`);
  });

  it("the stats count attribution beside the seed's fields", () => {
    const s = plain.stats();
    expect(s).toMatchObject({ turns: 5, quotesTotal: 5, quotesFound: 4, quotesCited: 3, quotesMisattributed: 2, quotesUncited: 0, quoteCitedRate: 0.6, quotesUnchecked: 0 });
    expect(s.groundedTurns).toBe(4);
    expect(strict.stats().groundedTurns).toBe(3);
  });
});
