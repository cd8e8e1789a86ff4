/**
 * The fragmenter's markdown-it instance (`md`): block rules wrapped to record where a block starts
 * inside its containers, the reference rule recording labels as written, plain token states and
 * line table, and links neither validated nor rewritten.
 */
import type MarkdownIt from "markdown-it";
import type { Env, StateBlock, StateInline, Token } from "markdown-it";
import { markdown } from "../../deps/markdown.js";
import { MAX_MARKDOWN_NESTING } from "./limits.js";
import { tableExtent } from "./table-rule.js";

/** A markdown-it parser. */
type MarkdownItInstance = InstanceType<typeof MarkdownIt>;

/** markdown-it's `env` as the fragmenter uses it: its own `references`, and `labels` (`labelRecorder`). */
export type FragmentEnv = Env & { labels?: string[]; labelsAt?: number[]; oddSpace?: boolean };

/**
 * markdown-it's reference-definition rule, recording each definition's label as written (lines
 * joined by "\n", each from its content start as the rule reads it) in `env.labels` (and where its
 * `[` stands in markdown-it's string in `env.labelsAt`), and in
 * `env.oddSpace` whether one holds white space micromark does not collapse. markdown-it keys
 * `env.references` by its `normalizeReference`, which trims and collapses all Unicode white space
 * (U+00A0, U+2003, U+FEFF, …); micromark's `normalizeIdentifier` and CommonMark (§4.7, matching
 * labels) only spaces, tabs and line endings. So `[a\u00A0b]: /u` defines the key "A B" for
 * markdown-it, and `[t][a b]` resolved there, not in micromark. The labels as written are what a
 * piece parsed alone needs (`definitionLines`), and `inlinePlainText` leaves links to micromark
 * in a document where the two keys may differ.
 */
function labelRecorder(stock: (...a: never[]) => boolean) {
  return (state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean => {
    const ok = (stock as unknown as (s: StateBlock, a: number, b: number, c: boolean) => boolean)(state, startLine, endLine, silent);
    if (!ok || silent) return ok;
    const { src, bMarks, tShift, eMarks } = state;
    let line = startLine;
    let pos = bMarks[line] + tShift[line] + 1;
    let segment = pos;
    let raw = "";
    for (;;) {
      if (pos >= eMarks[line]) {
        raw += `${src.slice(segment, eMarks[line])}\n`;
        if (++line >= state.lineMax) return ok; // (never: the rule found the label's end)
        pos = segment = bMarks[line] + tShift[line];
        continue;
      }
      const c = src.charCodeAt(pos);
      if (c === 0x5d) break;
      pos += c === 0x5c ? 2 : 1;
    }
    raw += src.slice(segment, pos);
    const env = state.env as FragmentEnv;
    (env.labels ??= []).push(raw);
    (env.labelsAt ??= []).push(bMarks[startLine] + tShift[startLine]);
    if (ODD_SPACE.test(raw)) env.oddSpace = true;
    return ok;
  };
}

/** A definition-like start whose label is white space only, some of it white space CommonMark does not collapse (`ODD_SPACE`). */
export const ODD_BLANK_LABEL = /^\[[\t\n\r ]*[^\S\t\n\r ]\s*\]:/;

/**
 * Whether markdown-it's inline reading of `content` may resolve a link label otherwise than
 * micromark: it holds a `[` and white space markdown-it collapses and micromark keeps stands in it
 * or in a definition's label (`env.oddSpace`, `labelRecorder`). Then micromark decides.
 */
export function labelsMayDiffer(content: string, env: Env): boolean {
  return content.includes("[") && ((env as FragmentEnv).oddSpace === true || ODD_SPACE.test(content));
}

/** White space other than what CommonMark collapses in a label (space, tab, line endings): where markdown-it's keys and micromark's differ. */
export const ODD_SPACE = /[^\S\t\n\r ]/;

let mdInstance: MarkdownItInstance | null = null;

/**
 * Token index → offset of its first character / of its first line's start within its
 * containers (in markdown-it's string), recorded by the rule that opened it (arrays indexed
 * like `state.tokens`, which block rules only push to: cheaper than a map per token), for
 * blocks inside containers only: a top-level block's come from the line table.
 */
export let firstCharAt: number[] = [];
export let lineStartAt: number[] = [];

/**
 * Where, on a line, the current container's content begins: the first character at
 * column `blkIndent` (markdown-it's list-item indentation; block quotes move `bMarks`
 * instead). -1 when a tab straddles that column (micromark then decides).
 */
function columnStart(src: string, bMark: number, eMark: number, blkIndent: number, bsCount: number): number {
  let p = bMark;
  // A tab right after a quote's `>` is partly its optional space: micromark's column, not markdown-it's.
  if (src.charCodeAt(p) === 0x09 && p > 0 && src.charCodeAt(p - 1) === 0x3e) return -1;
  if (blkIndent === 0) return p;
  let col = 0;
  while (col < blkIndent && p < eMark) {
    const c = src.charCodeAt(p);
    if (c === 0x20) col++;
    else if (c === 0x09) col += 4 - ((col + bsCount) % 4);
    else break;
    p++;
  }
  return col === blkIndent ? p : -1;
}

// Every block rule is wrapped to record where, within its containers, the block it opens starts:
// markdown-it keeps only line ranges (`map`), and its per-line marks are rewritten while a
// container is parsed and restored afterwards, so the position must be read while the rule runs.
/** The markdown-it instance, made (and its block rules wrapped) on first use. */
export function md(): MarkdownItInstance {
  if (mdInstance) return mdInstance;
  const instance = new (markdown().MarkdownIt)("default", { html: true, linkify: false, typographer: false, maxNesting: MAX_MARKDOWN_NESTING + 2 });
  const rules = (instance.block.ruler as unknown as { __rules__?: { name: string; alt: string[]; fn: (...a: unknown[]) => boolean }[] }).__rules__;
  if (!Array.isArray(rules)) throw new Error("fragmentMarkdown: markdown-it's block ruler changed shape; pin markdown-it 15.0.x");
  for (const { name, alt, fn: stock } of [...rules]) {
    const fn = name === "table" ? tableExtent(stock) : name === "reference" ? labelRecorder(stock) : stock;
    const wrapped = (state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean => {
      // Silent calls (a paragraph asking, line after line, whether a rule would end it) open nothing.
      // At the top level (no container open) the marks are the line table's own, which no rule
      // leaves changed (containers restore what they rewrite): GroupReader reads them there.
      if (silent || state.level === 0) return fn(state, startLine, endLine, silent);
      const at = state.tokens.length;
      // The marks as they are before the rule runs (a container rewrites them while it parses its content).
      const bMark = state.bMarks[startLine];
      const tShift = state.tShift[startLine];
      const eMark = state.eMarks[startLine];
      const blkIndent = state.blkIndent;
      const bsCount = state.bsCount[startLine];
      const ok = fn(state, startLine, endLine, silent);
      if (ok && state.tokens.length > at) {
        firstCharAt[at] = bMark + tShift;
        lineStartAt[at] = columnStart(state.src, bMark, eMark, blkIndent, bsCount);
      }
      return ok;
    };
    instance.block.ruler.at(name, wrapped as never, { alt: [...alt] });
  }
  // micromark neither validates nor rewrites link destinations and autolinks; markdown-it's defaults
  // refuse `javascript:`, `vbscript:`, `file:` and most `data:` URLs (so `[a]: javascript:x` was a
  // paragraph to markdown-it and a definition to micromark, `[x](javascript:y)` text against a link),
  // and percent-decode an autolink's text (mdast keeps it as written). With these three the
  // fragmenter's markdown-it reads links, definitions and autolinks as micromark does (the hrefs
  // are never rendered: only their `~` are counted, which neither rewrite changed), and the URL
  // parsing and punycode they cost (a twentieth of the fragmenter's time on the primer's link
  // tables) are gone.
  instance.validateLink = () => true;
  instance.normalizeLink = (url: string) => url;
  instance.normalizeLinkText = (text: string) => text;
  plainTokenStates(instance);
  return (mdInstance = instance);
}

type StateConstructor<S> = new (src: string, md: MarkdownItInstance, env: Env, tokens: Token[]) => S;

/**
 * Give `instance` block and inline states that make plain tokens. markdown-it 15's published
 * build sets each defaulted field of a Token, and of an inline state, through a transpiled
 * `_defineProperty` helper (a `toPropertyKey`, a `typeof` and an `in` test per field, per
 * object): on the primer that was an eighth of all the fragmenter's time, more than its block
 * rules. The states here are markdown-it 15.0.3's, line for line: the block state subclasses
 * `StateBlock` (its constructor builds the line table once per document) with `push`; the
 * inline state (one per heading label or table cell read) has `StateInline`'s constructor, `push`
 * and `pushPending`. Their tokens assign the same fields plainly, in the same order, and share
 * Token's prototype (its attr* methods, `instanceof`); rules make tokens only through `push`,
 * `pushPending` and `state.Token`. `md.block.State` / `md.inline.State` are own fields of the
 * parsers, which `parse` instantiates, so markdown-it's own parse loops run unchanged.
 * test/evidence/markdown-it-golden.test.ts holds the tokens and state fields equal to the stock
 * ones over real documents, so an upgrade that changes either is caught.
 */
function plainTokenStates(instance: MarkdownItInstance): void {
  const BlockBase = instance.block.State as unknown as StateConstructor<StateBlock>;
  const InlineBase = instance.inline.State as unknown as StateConstructor<StateInline>;
  const TokenClass = new BlockBase("", instance, {}, []).Token;
  // Plain assignments in a function (class fields would compile to defineProperty semantics).
  function PlainToken(this: Record<string, unknown>, type: string, tag: string, nesting: number): void {
    this.map = null;
    this.level = 0;
    this.children = null;
    this.content = "";
    this.markup = "";
    this.info = "";
    this.block = false;
    this.hidden = false;
    this.type = type;
    this.tag = tag;
    this.attrs = null;
    this.nesting = nesting;
    this.meta = null;
  }
  PlainToken.prototype = TokenClass.prototype;
  const NewToken = PlainToken as unknown as new (type: string, tag: string, nesting: number) => Token;

  class BlockState extends BlockBase {
    constructor(src: string, md: MarkdownItInstance, env: Env, tokens: Token[]) {
      // The stock constructor reads the whole text a code unit at a time for the line table (a
      // twentieth of the fragmenter's time on the primer): on an empty text it builds none, and
      // `lineTable` builds the same one with indexOf from each line's first non-blank unit.
      super("", md, env, tokens);
      this.src = src;
      lineTable(this, src);
    }

    override push(type: string, tag: string, nesting: Token["nesting"]): Token {
      const token = new NewToken(type, tag, nesting);
      token.block = true;
      if (nesting < 0) this.level--;
      token.level = this.level;
      if (nesting > 0) this.level++;
      this.tokens.push(token);
      return token;
    }
  }
  (BlockState.prototype as { Token: unknown }).Token = NewToken;

  type Inline = StateInline;
  function InlineState(this: Record<string, unknown>, src: string, md: MarkdownItInstance, env: Env, outTokens: Token[]): void {
    this.pos = 0;
    this.level = 0;
    this.pending = "";
    this.pendingLevel = 0;
    this.cache = {};
    this.backticks = {};
    this.backticksScanned = false;
    this.skipHtmlSpecial = false;
    this.linkLevel = 0;
    this.delimiters = [];
    this._prev_delimiters = [];
    this.Token = NewToken;
    this.src = src;
    this.env = env;
    this.md = md;
    this.tokens = outTokens;
    this.tokens_meta = Array(outTokens.length);
    this.posMax = src.length;
  }
  const inline = Object.create(InlineBase.prototype) as Inline;
  inline.pushPending = function (this: Inline): Token {
    const token = new NewToken("text", "", 0);
    token.content = this.pending;
    token.level = this.pendingLevel;
    this.tokens.push(token);
    this.pending = "";
    return token;
  };
  inline.push = function (this: Inline, type: string, tag: string, nesting: Token["nesting"]): Token {
    if (this.pending) this.pushPending();
    const token = new NewToken(type, tag, nesting);
    let tokenMeta: StateInline["tokens_meta"][number] = undefined;
    if (nesting < 0) {
      this.level--;
      this.delimiters = this._prev_delimiters.pop()!;
    }
    token.level = this.level;
    if (nesting > 0) {
      this.level++;
      this._prev_delimiters.push(this.delimiters);
      this.delimiters = [];
      tokenMeta = { delimiters: this.delimiters };
    }
    this.pendingLevel = this.level;
    this.tokens.push(token);
    this.tokens_meta.push(tokenMeta);
    return token;
  };
  InlineState.prototype = inline;
  (instance.block as { State: unknown }).State = BlockState;
  (instance.inline as { State: unknown }).State = InlineState;
}

/**
 * markdown-it 15.0.3's line table (`StateBlock`'s constructor), the same arrays: per line its
 * start (`bMarks`), its end before the LF (`eMarks`), its indentation in code units (`tShift`)
 * and in columns, tabs to the next multiple of 4 (`sCount`), `bsCount` 0; then one entry at the
 * text's end, and `lineMax` = the number of lines. The stock loop tests every code unit; here
 * only a line's leading spaces and tabs are read one by one, the rest of it is skipped with
 * `indexOf("\n")`. Its quirk is kept: a last line of spaces and tabs alone, with no LF after it,
 * gets no entry (the stock loop's blank test skips its end-of-text test).
 */
function lineTable(state: StateBlock, s: string): void {
  const bMarks: number[] = [];
  const eMarks: number[] = [];
  const tShift: number[] = [];
  const sCount: number[] = [];
  const bsCount: number[] = [];
  const len = s.length;
  for (let pos = 0; pos < len; ) {
    const start = pos;
    let offset = 0;
    let c = s.charCodeAt(pos);
    while (c === 0x20 || c === 0x09) {
      offset += c === 0x09 ? 4 - (offset % 4) : 1;
      c = s.charCodeAt(++pos); // NaN past the end
    }
    if (pos >= len) break;
    const lf = s.indexOf("\n", pos);
    const end = lf < 0 ? len : lf;
    bMarks.push(start);
    eMarks.push(end);
    tShift.push(pos - start);
    sCount.push(offset);
    bsCount.push(0);
    pos = end + 1;
  }
  bMarks.push(len);
  eMarks.push(len);
  tShift.push(0);
  sCount.push(0);
  bsCount.push(0);
  state.bMarks = bMarks;
  state.eMarks = eMarks;
  state.tShift = tShift;
  state.sCount = sCount;
  state.bsCount = bsCount;
  state.lineMax = bMarks.length - 1;
}

/** @internal Test hook: the fragmenter's markdown-it instance (plain-token states, URLs neither validated nor rewritten). */
export function fragmenterMarkdownIt(): MarkdownItInstance {
  return md();
}

/** Forget the positions recorded for the last tokenizing pass (`firstCharAt`, `lineStartAt`): `parseBlocks` calls it before each chunk and at the end. */
export function resetBlockStarts(): void {
  firstCharAt = [];
  lineStartAt = [];
}
