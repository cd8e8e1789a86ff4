/** The moots view: start a moot, watch its turns arrive, open every quote against its passage; saved moots reopen. */
import { api, ApiError, streamEvents } from "./api.js";
import { bookSelect, books } from "./books.js";
import { field, fill, h } from "./dom.js";
import { barChart, legend, onSubmit, openNode, openQuote, panel, renderReply, showError, verdictOf, VERDICTS, type Quote, type Snap } from "./render.js";

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

/** The event stream of the moot shown; a view opened again stops the last one's. */
let active: AbortController | null = null;

export function mootsView(root: HTMLElement): void {
  active?.abort();
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const list = h("ul", { class: "saved", "aria-label": "Saved moots" });
  const transcript = h("section", { class: "transcript", "aria-label": "Transcript", "aria-live": "polite" });
  const charts = h("section", { class: "charts", "aria-label": "Statistics" });
  const status = h("p", { class: "muted", role: "status" });
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

  /**
   * Show a moot and speak its remaining turns. The turns are drawn as they are spoken, from the
   * moot's event stream (GET /moots/:id/events): this tab's turns and any other client's alike,
   * a placeholder holding the place of the turn in progress. A turn another client is speaking
   * (409) is waited for on the stream, or re-read after a few seconds.
   */
  const run = async (id: string) => {
    running = true;
    active?.abort();
    const ctl = new AbortController();
    active = ctl;
    const path = `/moots/${encodeURIComponent(id)}`;
    let landed: () => void = () => {};
    try {
      let m = await api<MootDict>("GET", path);
      show(m);
      const titleOf = (key: string) => m.trees.find((t) => t.key === key)?.title ?? key;
      const placeOf = (n: number) => transcript.querySelector<HTMLElement>(`article.turn[data-turn="${n}"]`);
      const pending = (n: number, speaker: string) => {
        if (placeOf(n) || n > m.settings.turns) return;
        transcript.append(h("article", { class: "turn pending", "data-turn": n, "aria-busy": "true" }, h("h3", {}, `Turn ${n}: ${titleOf(speaker)}`), h("p", { class: "muted" }, "speaking…")));
      };
      const add = (u: Utterance) => {
        if (m.utterances.some((x) => x.turn === u.turn)) return;
        m = { ...m, utterances: [...m.utterances, u].sort((a, b) => a.turn - b.turn) };
        const view = utteranceView(m, u);
        const place = placeOf(u.turn);
        if (place) place.replaceWith(view);
        else transcript.append(view);
        drawCharts(m);
        landed();
      };
      const events = (event: string, data: any) => {
        if (!transcript.isConnected) return ctl.abort();
        if (event === "state" && data.speaking) pending(data.speaking, m.trees[(data.speaking - 1) % 2]!.key);
        else if (event === "speaking") pending(data.turn, data.speaker);
        else if (event === "utterance") {
          m = { ...m, stats: data.stats ?? m.stats, done: data.done || m.done };
          add(data.utterance);
        } else if (event === "failed") {
          placeOf(data.turn)?.classList.contains("pending") && placeOf(data.turn)!.remove();
          showError(error, new ApiError(data.message, data.code, 0));
        } else if (event === "deleted") showError(error, new ApiError("this moot was deleted", "not_found", 404));
      };
      if (!m.done) void streamEvents(`${path}/events`, events, ctl.signal).catch(() => {}); // the turns' own answers still land without it
      while (!m.done && m.utterances.length < m.settings.turns && !ctl.signal.aborted) {
        const n = m.utterances.length + 1;
        pending(n, m.trees[(n - 1) % 2]!.key);
        try {
          add(await api<Utterance>("POST", `${path}/turns`));
          m = { ...m, ...(await api<MootDict>("GET", path)), utterances: m.utterances };
          drawCharts(m);
        } catch (e) {
          if (!(e instanceof ApiError && e.code === "conflict")) throw e;
          // another client is speaking this turn: its utterance comes on the stream (or is re-read)
          await new Promise<void>((resolve) => {
            landed = resolve;
            setTimeout(resolve, 3_000);
          });
          const fresh = await api<MootDict>("GET", path);
          fresh.utterances.forEach(add);
          m = { ...m, done: fresh.done, stats: fresh.stats };
          drawCharts(m);
        }
      }
      if (!ctl.signal.aborted) transcript.dataset.done = "yes";
    } catch (e) {
      showError(error, e);
      transcript.querySelectorAll(".pending").forEach((p) => p.remove());
    } finally {
      ctl.abort();
      running = false;
      void refreshSaved();
      if (next !== null && transcript.isConnected) {
        const id = next;
        next = null;
        open(id);
      }
    }
  };

  /** A moot asked for while another is speaking here: opened when the turn in progress ends. */
  let next: string | null = null;
  const open = (id: string) => {
    showError(error, null);
    if (running) {
      // the turn in progress cannot be taken back (the server saves it): stop after it, then open `id`
      next = id;
      active?.abort();
      fill(status, "The moot opens when the turn in progress ends.");
      return;
    }
    fill(status);
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
      onSubmit(form, error, async () => {
        const created = await api<{ id: string }>("POST", "/moots", { keys: [a.value, b.value], topic: topic.value.trim() || undefined, turns: Number(turns.value) });
        void refreshSaved();
        open(created.id);
      });
    },
    (e) => showError(error, e),
  );
  void refreshSaved();
  fill(root, h("div", { class: "cols" }, h("div", { class: "side" }, h("h2", {}, "Start a moot"), form, h("h2", {}, "Saved moots"), list, legend()), h("div", { class: "center" }, error, status, transcript, charts), panel));
}
