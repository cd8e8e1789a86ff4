// The fragmenter's markdown-it states make plain tokens (markdown-it 15's build sets every field of a
// token and of an inline state through a transpiled defineProperty helper, an eighth of the
// fragmenter's time): their tokens must be the stock states' tokens, field for field, on real
// documents, so that a markdown-it upgrade that changes a state or a token is caught here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import MarkdownIt from "markdown-it";
import type { Env, StateBlock, StateInline, Token } from "markdown-it";
import { describe, expect, it } from "vitest";
import { fragmenterMarkdownIt } from "../../ts/evidence/fragment/index.js";

const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);
const MARKDOWN = new URL("../../../shared/data/markdown/", import.meta.url);

type StateClass<S> = new (src: string, md: unknown, env: object, tokens: Token[]) => S;

/** Real documents: the fixtures, and spec.txt and the largest primer when ../shared/data is there. */
function documents(): [string, string][] {
  const docs: [string, string][] = readdirSync(FIXTURES)
    .filter((n) => n.endsWith(".md") && n !== "NOTICE.md")
    .map((n) => [n, readFileSync(new URL(n, FIXTURES), "utf8")]);
  for (const p of ["commonmark/spec.txt", "system-design-primer/v039.md", "awesome/v039.md"]) {
    const url = new URL(p, MARKDOWN);
    if (existsSync(url)) docs.push([p, readFileSync(url, "utf8")]);
  }
  return docs;
}

/** A token as data: every own field, in order, children included; and whether it is a markdown-it Token. */
function plain(tokens: readonly Token[], TokenClass: unknown): unknown[] {
  return tokens.map((t) => ({
    keys: Object.keys(t).join(","),
    json: JSON.stringify(t),
    isToken: t instanceof (TokenClass as new () => Token),
    children: t.children ? plain(t.children, TokenClass) : null,
  }));
}

/** `tokens` without what lies between a table_open and its table_close. */
function withoutTableInsides(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  let inTable = false;
  for (const t of tokens) {
    if (t.type === "table_close") inTable = false;
    if (!inTable) out.push(t);
    if (t.type === "table_open") inTable = true;
  }
  return out;
}

describe("the fragmenter's table rule ends tables where markdown-it's own rule does", () => {
  const md = fragmenterMarkdownIt();
  // A stock instance with the fragmenter's options and link overrides (the reference rule consults them).
  const stock = new MarkdownIt("default", { html: true, linkify: false, typographer: false, maxNesting: md.options.maxNesting });
  stock.validateLink = () => true;
  stock.normalizeLink = (url: string) => url;
  stock.normalizeLinkText = (text: string) => text;
  const TokenClass = new (stock.block.State as unknown as StateClass<StateBlock>)("", stock, {}, []).Token;
  const tokenize = (m: typeof md, text: string) => {
    const state = new (m.block.State as unknown as StateClass<StateBlock>)(text, m, {}, []);
    m.block.tokenize(state, 0, state.lineMax);
    return state.tokens;
  };
  const cases: [string, string][] = [
    ...documents(),
    ["a table in a list, a quote after one, a blank-cell row", "- | a | b |\n  | - | - |\n  | 1 |\n\n| x |\n| :-: |\n| y |\n> q\n\n| p | q |\n|---|---|\n\u00a0\n"],
    ["a table ended by an indented line and by a less indented one", "| a |\n| - |\n| b |\n    code\n\n> | a |\n> | - |\n> | b |\nc\n"],
  ];
  for (const [name, text] of cases) {
    it(name, () => {
      const stockTokens = tokenize(stock, text);
      // The made-up cases and the primer (10 tables) do hold tables.
      if (!/\.(md|txt)$/.test(name) || name.startsWith("system-design-primer")) expect(stockTokens.some((t) => t.type === "table_open")).toBe(true);
      expect(plain(tokenize(md, text), TokenClass)).toEqual(plain(withoutTableInsides(stockTokens), TokenClass));
    });
  }
});

describe("the fragmenter's markdown-it states make the stock states' tokens", () => {
  const md = fragmenterMarkdownIt();
  const Block = md.block.State as unknown as StateClass<StateBlock>;
  const StockBlock = Object.getPrototypeOf(Block) as StateClass<StateBlock>;
  const Inline = md.inline.State as unknown as StateClass<StateInline>;
  const StockInline = (Object.getPrototypeOf(Inline.prototype) as { constructor: StateClass<StateInline> }).constructor;
  const TokenClass = new StockBlock("", md, {}, []).Token;

  it("the block state's line table is the stock constructor's (every string of up to 5 of: space, tab, LF, CR, a, é, two spaces; 19,608 strings)", () => {
    const table = (s: StateBlock) => JSON.stringify([s.bMarks, s.eMarks, s.tShift, s.sCount, s.bsCount, s.lineMax, s.src, Object.keys(s)]);
    const alphabet = [" ", "\t", "\n", "\r", "a", "\u00e9", "  "];
    let checked = 0;
    const visit = (s: string, depth: number): void => {
      expect(table(new Block(s, md, {}, [])), JSON.stringify(s)).toBe(table(new StockBlock(s, md, {}, [])));
      checked++;
      if (depth < 5) for (const c of alphabet) visit(s + c, depth + 1);
    };
    visit("", 0);
    // Longer ones: a trailing blank line without LF, tabs after text, indentation past 4 columns.
    for (const s of ["a\n \t", "  \t  x\n\t\ty\n   ", "x\n\n\n", "\n", "\t\n \n", "a\tb\n    c\n\t  d"]) {
      expect(table(new Block(s, md, {}, [])), JSON.stringify(s)).toBe(table(new StockBlock(s, md, {}, [])));
    }
    expect(checked).toBe((7 ** 6 - 1) / 6);
  });

  it("the states are markdown-it's own classes underneath", () => {
    expect(StockBlock.name).toBe("StateBlock");
    expect(StockInline.name).toBe("StateInline");
    expect(new Inline("x", md, {}, [])).toBeInstanceOf(StockInline);
  });

  it("an inline state has the stock state's fields, and the same values after a parse", () => {
    const fields = (s: object) => Object.keys(s).sort();
    expect(fields(new Inline("a *b* [c](d)", md, {}, []))).toEqual(fields(new StockInline("a *b* [c](d)", md, {}, [])));
    const after = (S: StateClass<StateInline>) => {
      const state = new S("a *b* `c` [d](e~f) <g@h.i> ~~j~~ &amp;", md, {}, []);
      md.inline.tokenize(state);
      const { md: _m, env: _e, Token: _t, tokens, ...rest } = state as unknown as Record<string, unknown>;
      return { rest: JSON.stringify(rest), tokens: plain(tokens as Token[], TokenClass) };
    };
    expect(after(Inline)).toEqual(after(StockInline));
  });

  for (const [name, text] of documents()) {
    it(`block and inline tokens of ${name}`, () => {
      const tokenize = (S: StateClass<StateBlock>) => {
        const env: Env = {};
        const state = new S(text, md, env, []);
        md.block.tokenize(state, 0, state.lineMax);
        return { tokens: state.tokens, env };
      };
      const ours = tokenize(Block);
      const stock = tokenize(StockBlock);
      expect(ours.tokens.length).toBeGreaterThan(10);
      expect(plain(ours.tokens, TokenClass)).toEqual(plain(stock.tokens, TokenClass));
      // Every inline content (paragraphs and headings: the fragmenter's table rule makes no cell tokens), parsed by both inline states.
      const parse = (S: StateClass<StateInline>, content: string, env: Env) => {
        const previous = md.inline.State;
        (md.inline as { State: unknown }).State = S;
        try {
          const tokens: Token[] = [];
          md.inline.parse(content, md, env, tokens);
          return plain(tokens, TokenClass);
        } finally {
          (md.inline as { State: unknown }).State = previous;
        }
      };
      let inlines = 0;
      for (const t of ours.tokens) {
        if (t.type !== "inline") continue;
        inlines++;
        expect(parse(Inline, t.content, ours.env), t.content).toEqual(parse(StockInline, t.content, stock.env));
      }
      expect(inlines).toBeGreaterThan(5);
    });
  }
});
