// The demo page's script: holds a grounded moot between two bundled books entirely in the
// browser (embedded BM25 corpus + the deterministic extractive synthesizer, no network
// beyond fetching the book files from the same origin), then renders the transcript:
// every quote highlighted (green when found verbatim in the passages its turn cited,
// red otherwise), every [sN] tag a link to its passage, and each passage with the quoted
// words highlighted where they occur. Plain JS so the page loads it as it is.
import * as gw from "/dist/browser/groundwire.js";

const BOOKS = [
  { key: "novel/frankenstein", file: "novel__frankenstein.txt" },
  { key: "diary/pepys-1660", file: "diary__pepys-1660.txt" },
];

const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

async function loadBooks() {
  return Promise.all(
    BOOKS.map(async (b) => {
      // each book is cut by its own structure, as the Node corpus does (dated entries, chapters)
      const text = await (await fetch(`/data/books/${b.file}`)).text();
      return gw.parseBook(b.key, text);
    }),
  );
}

/** Where in `content` a quote sits: the best span (difflib ratio over words), as UTF-16 offsets. */
function locate(quote, content) {
  const m = gw.bestSpan(quote, [content]);
  return m && m.ratio >= gw.SNAP_MIN_RATIO ? m : null;
}

/** The utterance text as HTML: quotes marked, tags linked to this turn's passages. */
function renderText(u, passageOf) {
  const marks = [];
  for (const span of gw.quoteSpans(u.text)) {
    // a quote of an earlier turn ([oN] right after it) links to that turn, not to a passage
    const turnTag = /^\s*\[\s*o(\d+)\s*\]/i.exec(u.text.slice(span.end));
    if (turnTag) {
      marks.push({ start: span.start, end: span.end, html: (inner) => `<a class="quote earlier" href="#turn-${turnTag[1]}" title="a quote of turn ${turnTag[1]}"><mark>${inner}</mark></a>` });
      continue;
    }
    const where = passageOf(span.text);
    marks.push({ start: span.start, end: span.end, html: (inner) => `<a class="quote ${where ? "found" : "missing"}" ${where ? `href="#${where.anchor}"` : ""} title="${where ? `verbatim in ${esc(where.tag)} (${esc(where.label)})` : "not found in the cited passages"}"><mark>${inner}</mark></a>` });
  }
  for (const m of u.text.matchAll(/\[\s*[so]\d+(?:\s*,\s*[so]\d+)*\s*\]/gi)) {
    const inside = marks.some((q) => m.index >= q.start && m.index < q.end);
    if (inside) continue;
    const tags = m[0].slice(1, -1).split(",").map((t) => t.trim().toLowerCase());
    marks.push({
      start: m.index,
      end: m.index + m[0].length,
      html: () =>
        `[${tags
          .map((t) => (t.startsWith("s") && u.cited[t] ? `<a class="tag" href="#t${u.turn}-${t}">${t}</a>` : t.startsWith("o") ? `<a class="tag" href="#turn-${t.slice(1)}">${t}</a>` : `<span class="tag">${t}</span>`))
          .join(", ")}]`,
    });
  }
  marks.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const m of marks) {
    out += esc(u.text.slice(at, m.start)) + m.html(esc(u.text.slice(m.start, m.end)));
    at = m.end;
  }
  return out + esc(u.text.slice(at));
}

/** A passage as HTML: the quoted words marked, shown in a window of context around them. */
function renderPassage(u, r, content, quotes) {
  const spans = quotes.map((q) => locate(q, content)).filter(Boolean).sort((a, b) => a.start - b.start);
  const CONTEXT = 160;
  const from = spans.length ? Math.max(0, spans[0].start - CONTEXT) : 0;
  const to = spans.length ? Math.min(content.length, spans[spans.length - 1].end + CONTEXT) : Math.min(content.length, 2 * CONTEXT);
  let html = from > 0 ? "… " : "";
  let at = from;
  for (const s of spans) {
    if (s.start < at) continue;
    html += esc(content.slice(at, s.start)) + `<mark>${esc(content.slice(s.start, s.end))}</mark>`;
    at = s.end;
  }
  html += esc(content.slice(at, to)) + (to < content.length ? " …" : "");
  const note = r.turn !== u.turn ? ` · returned in turn ${r.turn}` : u.cited[r.tag] ? "" : " · not cited";
  return `<li id="t${r.turn}-${r.tag}" class="passage"><b>${r.tag}</b> <span class="label">${esc(r.label)}${note}</span><div class="content">${html}</div></li>`;
}

export async function runDemo({ topic = "fire and ruin", turns = 4 } = {}) {
  const books = await loadBooks();
  const contentOf = new Map(books.flatMap((b) => b.passages.map((p) => [p.node_id, p.content])));
  const corpus = gw.createEmbeddedCorpus(books);
  const transcript = await gw.runMoot(corpus, gw.createExtractiveSynthesizer(), BOOKS.map((b) => b.key), topic, turns);
  const data = transcript.toDict();
  const main = document.querySelector("main");
  const stats = data.stats;
  document.querySelector("#summary").innerHTML =
    `${esc(data.trees.map((t) => `${t.title} (${t.author})`).join(" × "))} on “${esc(topic)}” · ${stats.turns} turns · ` +
    `${stats.groundedTurns} grounded · quotes found ${stats.quotesFound}/${stats.quotesTotal} · backend ${gw.backendInfo().active}`;
  /** Every passage each speaker's book returned so far: own quotes may come from any of them. */
  const seenBySpeaker = new Map();
  for (const u of data.utterances) {
    const passages = u.retrieved.map((r) => ({ ...r, turn: u.turn, content: contentOf.get(r.nodeId) ?? "" }));
    const seen = seenBySpeaker.get(u.speaker) ?? [];
    seenBySpeaker.set(u.speaker, seen);
    seen.push(...passages);
    const shown = passages.filter((p) => u.cited[p.tag]);
    const passageOf = (quote) => {
      const has = (p) => gw.quoteIn(quote, [gw.prepareHaystack(p.content)]).found;
      let p = shown.find(has);
      if (!p) {
        // verbatim in a passage this book returned earlier (or uncited this turn): show it too
        p = seen.find(has);
        if (p && !shown.includes(p)) shown.push(p);
      }
      return p ? { ...p, anchor: `t${p.turn}-${p.tag}` } : null;
    };
    const quotes = gw.quoteSpans(u.text).map((q) => q.text);
    const text = renderText(u, passageOf);
    const section = document.createElement("section");
    section.className = `turn ${u.grounded ? "grounded" : "ungrounded"}`;
    section.id = `turn-${u.turn}`;
    section.innerHTML =
      `<h2>Turn ${u.turn} · ${esc(u.title)} <small>${esc(u.speaker)} · ${esc(u.intent)} · ${u.grounded ? "grounded ✓" : "not grounded ✗"}</small></h2>` +
      `<p class="text">${text}</p>` +
      `<ol class="passages">${shown.map((p) => renderPassage(u, p, p.content, quotes)).join("")}</ol>`;
    main.append(section);
  }
  return data;
}
