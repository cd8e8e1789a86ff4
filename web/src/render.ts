/** What every view shares: a reply with its quotes marked by verdict, the legend, the passage panel, word diffs and small charts. */
import { api, ApiError } from "./api.js";
import { fill, h, s } from "./dom.js";

export interface Quote {
  text: string;
  found: boolean;
  source: "own" | "other" | "self";
  attribution?: "cited" | "misattributed" | "uncited";
  cites?: string[];
  reason?: string;
}
export interface Snap {
  text: string;
  source: string;
  action: string;
  to: string | null;
  ratio: number;
  reason: string | null;
}
export type Verdict = "found" | "snapped" | "unquoted" | "misattributed" | "other";
export type DiffOp = { op: "=" | "-" | "+"; text: string };

export const VERDICTS: Array<[Verdict, string]> = [
  ["found", "found: the book's words, where its tag says"],
  ["snapped", "snapped: a near miss, corrected to the book's words"],
  ["unquoted", "unquoted: in no passage (the quote marks are dropped)"],
  ["misattributed", "misattributed: in the book, not in the passage its tag cites"],
  ["other", "the other book's words"],
];

export function verdictOf(quote: Quote, snaps: readonly Snap[]): Verdict {
  const snap = snaps.find((x) => x.text === quote.text);
  if (!quote.found) return snap?.action === "snapped" ? "snapped" : "unquoted";
  if (quote.attribution === "misattributed") return "misattributed";
  if (quote.source === "other") return "other";
  return "found";
}

export function legend(): HTMLElement {
  return h("ul", { class: "legend", "aria-label": "Verdicts" }, VERDICTS.map(([v, text]) => h("li", {}, h("span", { class: `swatch v-${v}`, "aria-hidden": "true" }), text)));
}

const QUOTE_MARKS = "\"“”„«»";

/**
 * A button that flows with the text around it (a <button> is an atomic inline box, so a long
 * quote in one would break the paragraph into blocks): a span with role=button, focusable,
 * Enter and Space activate it.
 */
export function inlineButton(label: string, attrs: Record<string, string>, activate: () => void): HTMLElement {
  const el = h("span", { ...attrs, role: "button", tabindex: "0", onclick: activate });
  el.append(label);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      activate();
    }
  });
  return el;
}

const TAG_RE = /\[\s*[so]\d+(?:\s*,\s*[so]\d+)*\s*\]/gi;

/** Text with its `[sN]` tags as buttons. */
function withTags(text: string, onTag: ((tag: string) => void) | null): Array<Node | string> {
  if (!onTag) return [text];
  const out: Array<Node | string> = [];
  let at = 0;
  for (const m of text.matchAll(TAG_RE)) {
    out.push(text.slice(at, m.index));
    const tags = m[0].match(/[so]\d+/gi) ?? [];
    out.push("[");
    tags.forEach((t, i) => {
      if (i) out.push(", ");
      out.push(h("button", { type: "button", class: "tag", "data-tag": t.toLowerCase(), onclick: () => onTag(t.toLowerCase()) }, t));
    });
    out.push("]");
    at = m.index! + m[0].length;
  }
  out.push(text.slice(at));
  return out;
}

/** A reply with each quote a button marked by its verdict, and its tags as buttons. */
export function renderReply(text: string, quotes: readonly Quote[], snaps: readonly Snap[], onQuote: (q: Quote, v: Verdict) => void, onTag: ((tag: string) => void) | null): HTMLElement {
  const p = h("p", { class: "reply" });
  let at = 0;
  for (const quote of quotes) {
    const i = quote.text ? text.indexOf(quote.text, at) : -1;
    if (i < 0) continue;
    const v = verdictOf(quote, snaps);
    // the quote's own marks go inside its button, so the reply reads as written
    const open = i > at && QUOTE_MARKS.includes(text[i - 1]!) ? 1 : 0;
    const close = QUOTE_MARKS.includes(text[i + quote.text.length] ?? "") ? 1 : 0;
    p.append(...withTags(text.slice(at, i - open), onTag));
    p.append(inlineButton(text.slice(i - open, i + quote.text.length + close), { class: `q v-${v}`, "data-verdict": v, "data-quote": quote.text, title: VERDICTS.find(([x]) => x === v)![1] }, () => onQuote(quote, v)));
    at = i + quote.text.length + close;
  }
  p.append(...withTags(text.slice(at), onTag));
  return p;
}

export function diffView(ops: readonly DiffOp[], ratio: number): HTMLElement {
  return h(
    "div",
    { class: "diff" },
    h("p", { class: "diff-head" }, "Model's words against the book's, ratio ", h("strong", { class: "ratio" }, ratio.toFixed(3)), ": ", h("del", {}, "only the model's"), " ", h("ins", {}, "only the book's")),
    h("p", { class: "diff-body" }, ops.map((o, i) => [i ? " " : "", o.op === "-" ? h("del", {}, o.text) : o.op === "+" ? h("ins", {}, o.text) : h("span", {}, o.text)])),
  );
}

/** A passage as POST /passages/show answers it (a pasted one has no node, book nor title). */
export interface Passage {
  node: string | null;
  book: string | null;
  title: string | null;
  label: string | null;
  content: string;
  marks: Array<{ quote: string; start: number; end: number; ratio: number; text: string; diff: DiffOp[] }>;
}

const HINT = "Click a quote or a tag to see its passage.";

/** The passage panel: one per page, shared by the views. */
export const panel = h("aside", { id: "passage", class: "passage", "aria-label": "Passage", "aria-live": "polite", tabindex: "0" }, h("p", { class: "muted" }, HINT));

/** Empty the panel: a view was opened (`busy` false) or a passage is being fetched (true). */
export function resetPanel(busy = false): void {
  fill(panel, h("p", { class: "muted" }, busy ? "looking…" : HINT));
  panel.setAttribute("aria-busy", String(busy));
}

export function showPassage(p: Passage, mark: { start: number; end: number } | null, extra: { note?: string; diff?: DiffOp[]; ratio?: number } = {}): void {
  const body = h("p", { class: "passage-text" });
  if (mark && mark.end > mark.start) {
    body.append(p.content.slice(0, mark.start), h("mark", { "data-start": mark.start, "data-end": mark.end }, p.content.slice(mark.start, mark.end)), p.content.slice(mark.end));
  } else body.append(p.content);
  panel.setAttribute("aria-busy", "false");
  fill(
    panel,
    h("h2", {}, p.label ?? "Passage"),
    p.node ? h("p", { class: "muted" }, `${p.title} · `, h("code", {}, p.node)) : h("p", { class: "muted" }, "a pasted passage"),
    extra.note ? h("p", { class: "note" }, extra.note) : null,
    extra.diff && extra.ratio !== undefined && extra.ratio < 1 ? diffView(extra.diff, extra.ratio) : null,
    body,
  );
  panel.querySelector("mark")?.scrollIntoView({ block: "nearest" });
  panel.focus({ preventScroll: true });
}

export function showPanelError(e: unknown): void {
  panel.setAttribute("aria-busy", "false");
  fill(panel, h("p", { class: "error", role: "alert" }, messageOf(e)));
}

export const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e));

/** An error line in a view (role=alert), or cleared. */
export function showError(el: HTMLElement, e: unknown | null): void {
  fill(el, e === null ? null : messageOf(e));
  el.hidden = e === null;
}

/** A form's submit, as every view does it: the page stays, the view's error line is cleared, and a failure of `work` is shown there in the API's words. */
export function onSubmit(form: HTMLFormElement, error: HTMLElement, work: () => Promise<void>): void {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(error, null);
    try {
      await work();
    } catch (e) {
      showError(error, e);
    }
  });
}

/** Ratio at or above which a quote counts as in a passage when the page looks for it there. */
const IN_PASSAGE = 0.75;

/**
 * Open a quote: in the passage its tag cites when it is there, else where POST /locate finds
 * it in `book`; the quoted words highlighted at the offsets the API reports, a near miss as a word diff.
 */
export async function openQuote(quote: string, node: string | null, book: string | null): Promise<void> {
  resetPanel(true);
  try {
    let cited: Passage | null = null;
    if (node) {
      cited = await api<Passage>("POST", "/passages/show", { node, quotes: [quote] });
      const m = cited.marks[0]!;
      if (m.ratio >= IN_PASSAGE) return showPassage(cited, m, { diff: m.diff, ratio: m.ratio });
    }
    if (book) {
      const found = await api<{ spans: Array<{ node: string; label: string; start: number; end: number; ratio: number; diff: DiffOp[] }> }>("POST", "/locate", { quote, book, limit: 1 });
      const span = found.spans[0];
      if (span) {
        const p = await api<Passage>("POST", "/passages/show", { node: span.node });
        return showPassage(p, span, { note: cited ? `Not in the cited passage (${cited.label}); found in ${span.label}.` : undefined, diff: span.diff, ratio: span.ratio });
      }
    }
    if (cited) return showPassage(cited, null, { note: `These words are not in the cited passage (best window ratio ${cited.marks[0]!.ratio.toFixed(3)})${book ? " nor anywhere in the book" : ""}.` });
    panel.setAttribute("aria-busy", "false");
    fill(panel, h("p", { class: "note" }, `These words are not in ${book ?? "the book"}.`));
  } catch (e) {
    showPanelError(e);
  }
}

/**
 * Open a quote of a reply checked against pasted passages: the passage its tag cites when the
 * words are there, else the pasted passage holding its best window; highlighted as the API marks it.
 */
export async function openPastedQuote(quote: string, cites: readonly string[], passages: readonly string[]): Promise<void> {
  resetPanel(true);
  try {
    const show = (i: number) => api<Passage>("POST", "/passages/show", { text: passages[i]!, label: `s${i + 1}`, quotes: [quote] });
    const cited = cites.map((t) => Number(/^s(\d+)$/i.exec(t)?.[1] ?? 0) - 1).find((i) => i >= 0 && i < passages.length);
    let best = cited === undefined ? null : await show(cited);
    if (!best || best.marks[0]!.ratio < IN_PASSAGE) {
      for (let i = 0; i < passages.length; i++) {
        if (i === cited) continue;
        const p = await show(i);
        if (!best || p.marks[0]!.ratio > best.marks[0]!.ratio) best = p;
      }
    }
    if (!best) return showPassage({ node: null, book: null, title: null, label: null, content: "", marks: [] }, null, { note: "No passage was pasted." });
    const m = best.marks[0]!;
    const note = cited !== undefined && best.label !== `s${cited + 1}` ? `Not in the cited passage (s${cited + 1}); found in ${best.label}.` : undefined;
    if (m.ratio < IN_PASSAGE) return showPassage(best, null, { note: `These words are in no pasted passage (best window ratio ${m.ratio.toFixed(3)}, in ${best.label}).` });
    showPassage(best, m, { note, diff: m.diff, ratio: m.ratio });
  } catch (e) {
    showPanelError(e);
  }
}

export async function openNode(node: string): Promise<void> {
  resetPanel(true);
  try {
    showPassage(await api<Passage>("POST", "/passages/show", { node }), null);
  } catch (e) {
    showPanelError(e);
  }
}

/** Stacked horizontal bars, one row per label, segments per key (CSS class `v-<key>` colours them). */
export function barChart(title: string, rows: Array<{ label: string; counts: Record<string, number> }>, keys: readonly string[]): SVGElement {
  const width = 320, rowH = 18, labelW = 70, gap = 4;
  const max = Math.max(1, ...rows.map((r) => keys.reduce((a, k) => a + (r.counts[k] ?? 0), 0)));
  const height = rows.length * (rowH + gap) + gap;
  const summary = rows.map((r) => `${r.label}: ${keys.filter((k) => r.counts[k]).map((k) => `${r.counts[k]} ${k}`).join(", ") || "no quotes"}`).join("; ");
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": `${title}. ${summary}` });
  rows.forEach((r, i) => {
    const y = gap + i * (rowH + gap);
    svg.append(s("text", { x: 0, y: y + rowH - 5, class: "chart-label" }, r.label));
    let x = labelW;
    for (const k of keys) {
      const n = r.counts[k] ?? 0;
      if (!n) continue;
      const w = ((width - labelW - 4) * n) / max;
      svg.append(s("rect", { x, y, width: Math.max(w - 1, 1), height: rowH, class: `v-${k}` }, s("title", {}, `${n} ${k}`)));
      x += w;
    }
  });
  return svg;
}
