/** The moots view: start a moot, watch its turns arrive, open every quote against its passage; saved moots reopen. */
import { api } from "./api.js";
import { bookSelect, books } from "./books.js";
import { field, fill, h } from "./dom.js";
import { barChart, legend, openNode, openQuote, panel, renderReply, showError, verdictOf, VERDICTS, type Quote, type Snap } from "./render.js";

interface Utterance {
  turn: number;
  speaker: string;
  title: string;
  text: string;
  rawText?: string;
  cited: Record<string, string>;
  quotes: Quote[];
  snaps?: Snap[];
  retrieved?: Array<{ tag: string; label: string; nodeId: string }>;
  grounded: boolean;
}
interface MootDict {
  id: string;
  done: boolean;
  topic: string | null;
  trees: Array<{ key: string; title: string }>;
  settings: { turns: number };
  utterances: Utterance[];
  stats?: { turns: number; groundedTurns: number; quotesFound: number; quotesTotal: number; quotesSnapped: number; quotesUnquoted: number; quotesMisattributed: number; retriedTurns: number };
}

const KEYS = VERDICTS.map(([v]) => v);
const countsOf = (u: Utterance) => {
  const counts: Record<string, number> = {};
  for (const q of u.quotes) counts[verdictOf(q, u.snaps ?? [])] = (counts[verdictOf(q, u.snaps ?? [])] ?? 0) + 1;
  return counts;
};

export function mootsView(root: HTMLElement): void {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const list = h("ul", { class: "saved", "aria-label": "Saved moots" });
  const transcript = h("section", { class: "transcript", "aria-label": "Transcript", "aria-live": "polite" });
  const charts = h("section", { class: "charts", "aria-label": "Statistics" });
  const form = h("form", { class: "stack", "aria-label": "Start a moot" });
  let running = false;

  const refreshSaved = async () => {
    try {
      const r = await api<{ moots: Array<{ id: string; topic: string | null; keys: string[]; spoken: number; turns: number; done: boolean }> }>("GET", "/moots");
      fill(list, r.moots.length ? r.moots.map((m) => h("li", {}, h("button", { type: "button", class: "link", "data-id": m.id, onclick: () => open(m.id) }, `${m.keys.join(" vs ")}${m.topic ? ` on “${m.topic}”` : ""}`), h("span", { class: "muted" }, ` ${m.spoken}/${m.turns} turns`))) : h("li", { class: "muted" }, "No moot yet."));
    } catch (e) {
      showError(error, e);
    }
  };

  const utteranceView = (m: MootDict, u: Utterance) => {
    const other = m.trees.find((t) => t.key !== u.speaker)?.key ?? u.speaker;
    const nodeOf = (tag: string) => u.cited[tag] ?? u.retrieved?.find((r) => r.tag === tag)?.nodeId ?? null;
    const raw = u.rawText ?? u.text;
    return h(
      "article",
      { class: "turn", "data-turn": u.turn },
      h("h3", {}, `Turn ${u.turn}: ${u.title}`),
      renderReply(raw, u.quotes, u.snaps ?? [], (q) => void openQuote(q.text, q.cites?.[0] ? nodeOf(q.cites[0]) : null, q.source === "other" ? other : u.speaker), (tag) => {
        const node = nodeOf(tag);
        if (node) void openNode(node);
        else fill(panel, h("p", { class: "note" }, `[${tag}] names no passage retrieved for this turn.`));
      }),
      raw !== u.text ? h("details", {}, h("summary", {}, "Corrected reply"), h("p", { class: "reply corrected" }, u.text)) : null,
    );
  };

  const drawCharts = (m: MootDict) => {
    const rows = m.utterances.map((u) => ({ label: `turn ${u.turn}`, counts: countsOf(u) }));
    const total: Record<string, number> = {};
    for (const r of rows) for (const [k, n] of Object.entries(r.counts)) total[k] = (total[k] ?? 0) + n;
    const st = m.stats;
    fill(
      charts,
      h("h3", {}, "Quotes by verdict"),
      barChart("Quotes by verdict per turn", rows, KEYS),
      barChart("Quotes by verdict, whole moot", [{ label: "moot", counts: total }], KEYS),
      st
        ? h(
            "dl",
            { class: "stats" },
            [
              ["grounded turns", `${st.groundedTurns} of ${st.turns}`],
              ["quotes found", `${st.quotesFound} of ${st.quotesTotal}`],
              ["snapped", st.quotesSnapped],
              ["unquoted", st.quotesUnquoted],
              ["misattributed", st.quotesMisattributed],
              ["turns retried", st.retriedTurns],
            ].map(([k, v]) => h("div", {}, h("dt", {}, String(k)), h("dd", { "data-stat": String(k) }, String(v)))),
          )
        : null,
    );
  };

  const show = (m: MootDict) => {
    fill(transcript, h("h2", {}, `${m.trees.map((t) => t.title).join(" vs ")}${m.topic ? ` on “${m.topic}”` : ""}`), m.utterances.map((u) => utteranceView(m, u)));
    drawCharts(m);
  };

  /** Speak the remaining turns one by one, a placeholder showing the turn in progress. */
  const run = async (id: string) => {
    running = true;
    try {
      let m = await api<MootDict>("GET", `/moots/${encodeURIComponent(id)}`);
      show(m);
      while (!m.done && m.utterances.length < m.settings.turns) {
        const n = m.utterances.length + 1;
        const speaker = m.trees[(n - 1) % 2]!.title;
        const pending = h("article", { class: "turn pending", "aria-busy": "true" }, h("h3", {}, `Turn ${n}: ${speaker}`), h("p", { class: "muted" }, "speaking…"));
        transcript.append(pending);
        const u = await api<Utterance>("POST", `/moots/${encodeURIComponent(id)}/turns`);
        m = { ...m, utterances: [...m.utterances, u] };
        pending.replaceWith(utteranceView(m, u));
        drawCharts(m);
        m = await api<MootDict>("GET", `/moots/${encodeURIComponent(id)}`);
        drawCharts(m);
      }
      transcript.dataset.done = "yes";
    } catch (e) {
      showError(error, e);
      transcript.querySelector(".pending")?.remove();
    } finally {
      running = false;
      void refreshSaved();
    }
  };

  const open = (id: string) => {
    if (running) return;
    showError(error, null);
    delete transcript.dataset.done;
    void run(id);
  };

  void books().then(
    (list) => {
      const a = bookSelect(list, list[1]?.key);
      const b = bookSelect(list, list[0]?.key);
      a.name = "a";
      b.name = "b";
      const topic = h("input", { name: "topic", value: "fire" });
      const turns = h("input", { name: "turns", type: "number", min: 1, max: 20, value: 4 });
      fill(form, field("First book", a), field("Second book", b), field("Topic", topic), field("Turns", turns), h("button", { type: "submit" }, "Start the moot"));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        if (running) return;
        showError(error, null);
        try {
          const created = await api<{ id: string }>("POST", "/moots", { keys: [a.value, b.value], topic: topic.value.trim() || undefined, turns: Number(turns.value) });
          void refreshSaved();
          open(created.id);
        } catch (e) {
          showError(error, e);
        }
      });
    },
    (e) => showError(error, e),
  );
  void refreshSaved();
  fill(root, h("div", { class: "cols" }, h("div", { class: "side" }, h("h2", {}, "Start a moot"), form, h("h2", {}, "Saved moots"), list, legend()), h("div", { class: "center" }, error, transcript, charts), panel));
}
