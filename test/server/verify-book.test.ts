// POST /quotes/verify with `book`: the whole book is the pool, searched through a quote index built once per
// book (an exhaustive bestSpan per missed quote held the server for ~60 s). Same snaps as the exhaustive path.
import { describe, expect, it } from "vitest";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { snapQuotes } from "../../ts/moot/grounding.js";
import { words } from "../../ts/match/words.js";
import { verifyQuotes, type CheckContext } from "../../ts/server/checks.js";

const corpus = loadCorpus(new URL("../../data/books/", import.meta.url));
const ctx: CheckContext = { corpus, graphs: new Map(), schemas: new Map() };

describe("verify_quotes against a whole book", () => {
  it("a near miss is snapped to the book's words, as the exhaustive search snaps it; a stranger is unquoted", () => {
    const book = corpus.book("novel/frankenstein")!;
    const content = book.passages[40]!.content;
    const ws = words(content).slice(5, 17);
    const exact = content.slice(ws[0]!.start, ws.at(-1)!.end);
    const missing = content.slice(ws[0]!.start, ws[3]!.start) + content.slice(ws[4]!.start, ws.at(-1)!.end); // word 4 dropped
    const reply = `He said "${missing}" and then "purple elephants dance on the frozen moon tonight".`;
    const got = verifyQuotes(ctx, { reply, book: "novel/frankenstein" } as never);
    expect(got.snaps[0]).toMatchObject({ action: "snapped", to: exact });
    expect(got.snaps[1]).toMatchObject({ action: "unquoted", reason: "not in source" });
    const exhaustive = snapQuotes(reply, book.passages.map((p) => p.content));
    expect(got.snapped).toBe(exhaustive.text);
    expect(got.snaps.map((s) => [s.action, s.to, s.reason])).toEqual(exhaustive.snaps.map((s) => [s.action, s.to, s.reason]));
    // the second request reuses the book's index: same answer
    expect(verifyQuotes(ctx, { reply, book: "novel/frankenstein" } as never)).toEqual(got);
  });
});
