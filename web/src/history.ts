/** A document's history: the citations of its first version followed across the versions (current / moved / stale / lost). */
import { api } from "./api.js";
import { field, fill, h, s as svg, uid } from "./dom.js";
import { barChart, onSubmit, showError } from "./render.js";

interface Fragment {
  versionId: string;
  path: string;
  kind: string;
  label: string | null;
  depth: number;
  text: string;
}
interface Report {
  status: "current" | "moved" | "stale" | "lost";
  fragment: { path: string } | null;
  reason: string;
}
const STATUSES = ["current", "moved", "stale", "lost"] as const;
/** Most arrows one moves figure draws. */
const MAX_ARROWS = 60;
const short = (path: string, n = 42) => (path.length > n ? `…${path.slice(-(n - 1))}` : path);

/**
 * The citations that moved between the first version and `version`, drawn to their new place:
 * the old addresses on the left in the first version's order, the new ones on the right in the
 * later version's order, an arrow from each old address to its new one.
 */
function movesFigure(version: string, moves: Array<{ from: string; to: string }>, order: readonly string[]): HTMLElement {
  const shown = moves.slice(0, MAX_ARROWS);
  const right = [...shown].sort((a, b) => order.indexOf(a.to) - order.indexOf(b.to));
  const rowH = 20, top = 18, width = 660, leftEnd = 262, rightStart = 398;
  const height = top + shown.length * rowH + 6;
  const marker = uid("arrow");
  const fig = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "moves", role: "img", "aria-label": `Citations moved in ${version}: ${shown.map((m) => `${m.from} to ${m.to}`).join("; ")}` });
  fig.append(
    svg("defs", {}, svg("marker", { id: marker, viewBox: "0 0 8 8", refX: 8, refY: 4, markerWidth: 7, markerHeight: 7, orient: "auto" }, svg("path", { d: "M0,0 L8,4 L0,8 z", class: "arrow-head" }))),
    svg("text", { x: 0, y: 12, class: "chart-label muted-label" }, "first version"),
    svg("text", { x: rightStart, y: 12, class: "chart-label muted-label" }, version.slice(0, 40)),
  );
  shown.forEach((m, i) => {
    const y1 = top + i * rowH + rowH / 2;
    const y2 = top + right.indexOf(m) * rowH + rowH / 2;
    fig.append(
      svg("text", { x: 0, y: y1 + 4, class: "chart-label", "data-from": m.from }, short(m.from), svg("title", {}, m.from)),
      svg("line", { x1: leftEnd + 4, y1, x2: rightStart - 6, y2, class: "arrow", "marker-end": `url(#${marker})`, "data-from": m.from, "data-to": m.to }, svg("title", {}, `${m.from} → ${m.to}`)),
    );
  });
  right.forEach((m, i) => fig.append(svg("text", { x: rightStart, y: top + i * rowH + rowH / 2 + 4, class: "chart-label", "data-to": m.to }, short(m.to), svg("title", {}, m.to))));
  return h("figure", { class: "moves-wrap", "data-version": version }, h("figcaption", {}, `${moves.length} citation${moves.length > 1 ? "s" : ""} moved in ${version}${moves.length > shown.length ? ` (the first ${shown.length} drawn)` : ""}`), fig);
}
const MAX_CITATIONS = 1000;

export function historyView(root: HTMLElement): void {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const out = h("section", { class: "timeline-wrap", "aria-label": "Timeline", "aria-live": "polite" });
  const pick = h("form", { class: "stack", "aria-label": "A history of the server" });
  const paste = h("form", { class: "stack", "aria-label": "Two pasted versions" });
  const first = h("textarea", { rows: 6, name: "first" });
  const second = h("textarea", { rows: 6, name: "second" });
  fill(paste, field("First version (markdown)", first), field("Later version", second), h("button", { type: "submit" }, "Follow the citations"));

  const tree = h("section", { class: "tree", "aria-label": "Fragment tree", "aria-live": "polite" });
  /** One version's fragment tree (POST /fragments), indented by depth. */
  const showTree = async (v: { name: string; text: string }) => {
    try {
      const { fragments } = await api<{ fragments: Fragment[] }>("POST", "/fragments", { text: v.text, artifactId: "document" });
      fill(tree, h("h3", {}, `Fragments of ${v.name} (${fragments.length})`), h("ul", { class: "fragments" }, fragments.map((f) => h("li", { class: `depth-${Math.min(f.depth, 5)}`, "data-path": f.path }, h("span", { class: "kind" }, f.kind), " ", f.label ?? f.text.slice(0, 60)))));
    } catch (e) {
      showError(error, e);
    }
  };

  const follow = async (versions: Array<{ name: string; text: string }>) => {
    showError(error, null);
    fill(out, h("p", { class: "muted", "aria-busy": "true" }, "following…"));
    try {
      const artifactId = "document";
      const { fragments } = await api<{ fragments: Fragment[] }>("POST", "/fragments", { text: versions[0]!.text, artifactId });
      const cited = fragments.slice(0, MAX_CITATIONS);
      const citations = cited.map((f) => f.versionId);
      const columns: Report[][] = [cited.map(() => ({ status: "current", fragment: null, reason: "the first version" }) as Report)];
      for (const v of versions.slice(1)) columns.push((await api<{ reports: Report[] }>("POST", "/citations/resolve", { text: v.text, artifactId, citations })).reports);
      const chart = barChart(
        "Citations by status per version",
        versions.map((v, i) => ({ label: v.name.slice(0, 10), counts: Object.fromEntries(STATUSES.map((st) => [st, columns[i]!.filter((r) => r.status === st).length])) })),
        STATUSES,
      );
      const table = h(
        "table",
        { class: "timeline" },
        h("caption", {}, `${cited.length} citations of ${versions[0]!.name} across ${versions.length} versions`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Fragment of the first version"), versions.map((v) => h("th", { scope: "col" }, h("button", { type: "button", class: "link", "data-version": v.name, title: `the fragment tree of ${v.name}`, onclick: () => void showTree(v) }, v.name))))),
        h(
          "tbody",
          {},
          cited.map((f, row) =>
            h(
              "tr",
              {},
              h("th", { scope: "row", class: `depth-${Math.min(f.depth, 5)}` }, h("span", { class: "kind" }, f.kind), " ", f.label ?? f.text.slice(0, 60)),
              columns.map((col) => {
                const r = col[row]!;
                return h("td", { class: `st st-${r.status}`, "data-status": r.status, title: r.reason }, r.status, r.status === "moved" && r.fragment ? h("span", { class: "moved-to" }, ` → ${r.fragment.path}`) : null);
              }),
            ),
          ),
        ),
      );
      // each later version's moved citations, drawn from their old address to the new one
      const figures: HTMLElement[] = [];
      for (let i = 1; i < versions.length; i++) {
        const moves = columns[i]!.flatMap((r, row) => (r.status === "moved" && r.fragment ? [{ from: cited[row]!.path, to: r.fragment.path }] : []));
        if (!moves.length) continue;
        const { fragments: later } = await api<{ fragments: Fragment[] }>("POST", "/fragments", { text: versions[i]!.text, artifactId });
        figures.push(movesFigure(versions[i]!.name, moves, later.map((f) => f.path)));
      }
      fill(out, h("ul", { class: "legend", "aria-label": "Statuses" }, STATUSES.map((st) => h("li", {}, h("span", { class: `swatch v-${st}`, "aria-hidden": "true" }), st))), chart, h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "Citations by version" }, table), figures.length ? h("h3", {}, "Moved citations") : null, figures, tree);
      fill(tree, h("p", { class: "muted" }, "Click a version's name for its fragment tree."));
    } catch (e) {
      fill(out);
      showError(error, e);
    }
  };

  onSubmit(paste, error, () =>
    follow([
      { name: "first", text: first.value },
      { name: "later", text: second.value },
    ]),
  );

  void api<{ histories: Array<{ name: string; versions: Array<{ name: string }> }> }>("GET", "/histories").then(
    (r) => {
      if (!r.histories.length) return fill(pick, h("p", { class: "muted" }, "The server was started with no --history folder; paste two versions below."));
      const select = h("select", { name: "history" }, r.histories.map((x) => h("option", { value: x.name }, `${x.name} (${x.versions.length} versions)`)));
      fill(pick, field("History", select), h("button", { type: "submit" }, "Show its timeline"));
      onSubmit(pick, error, async () => {
        const hist = r.histories.find((x) => x.name === select.value)!;
        const texts = await Promise.all(hist.versions.map((v) => api<{ text: string }>("GET", `/histories/${encodeURIComponent(hist.name)}/${encodeURIComponent(v.name)}`)));
        await follow(hist.versions.map((v, i) => ({ name: v.name, text: texts[i]!.text })));
      });
    },
    (e) => showError(error, e),
  );
  fill(root, h("div", { class: "cols wide" }, h("div", { class: "side" }, h("h2", {}, "A document's history"), pick, h("h2", {}, "Or paste two versions"), paste), h("div", { class: "center" }, error, out)));
}
