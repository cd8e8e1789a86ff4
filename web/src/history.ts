/** A document's history: the citations of its first version followed across the versions (current / moved / stale / lost). */
import { api } from "./api.js";
import { field, fill, h } from "./dom.js";
import { barChart, showError } from "./render.js";

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
      fill(out, h("ul", { class: "legend", "aria-label": "Statuses" }, STATUSES.map((st) => h("li", {}, h("span", { class: `swatch v-${st}`, "aria-hidden": "true" }), st))), chart, h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "Citations by version" }, table), tree);
      fill(tree, h("p", { class: "muted" }, "Click a version's name for its fragment tree."));
    } catch (e) {
      fill(out);
      showError(error, e);
    }
  };

  paste.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void follow([
      { name: "first", text: first.value },
      { name: "later", text: second.value },
    ]);
  });

  void api<{ histories: Array<{ name: string; versions: Array<{ name: string }> }> }>("GET", "/histories").then(
    (r) => {
      if (!r.histories.length) return fill(pick, h("p", { class: "muted" }, "The server was started with no --history folder; paste two versions below."));
      const select = h("select", { name: "history" }, r.histories.map((x) => h("option", { value: x.name }, `${x.name} (${x.versions.length} versions)`)));
      fill(pick, field("History", select), h("button", { type: "submit" }, "Show its timeline"));
      pick.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const hist = r.histories.find((x) => x.name === select.value)!;
        try {
          const texts = await Promise.all(hist.versions.map((v) => api<{ text: string }>("GET", `/histories/${encodeURIComponent(hist.name)}/${encodeURIComponent(v.name)}`)));
          await follow(hist.versions.map((v, i) => ({ name: v.name, text: texts[i]!.text })));
        } catch (e) {
          showError(error, e);
        }
      });
    },
    (e) => showError(error, e),
  );
  fill(root, h("div", { class: "cols wide" }, h("div", { class: "side" }, h("h2", {}, "A document's history"), pick, h("h2", {}, "Or paste two versions"), paste), h("div", { class: "center" }, error, out)));
}
