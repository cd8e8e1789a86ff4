/** The library: the books, a book's passages by label, and a locate box that finds a misremembered quote and shows the diff. */
import { api, q } from "./api.js";
import { bookSelect, books, type BookInfo } from "./books.js";
import { field, fill, h } from "./dom.js";
import { diffView, onSubmit, openNode, panel, resetPanel, showError, showPanelError, showPassage, type DiffOp, type Passage } from "./render.js";

const PAGE = 50;

export function libraryView(root: HTMLElement): void {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const shelf = h("ul", { class: "books", "aria-label": "Books" });
  const browse = h("section", { class: "browse", "aria-label": "Passages" });
  const located = h("section", { class: "located", "aria-label": "Located spans", "aria-live": "polite" });
  const locateForm = h("form", { class: "stack", "aria-label": "Locate a quote" });

  const openBook = (b: BookInfo) => {
    const filter = h("input", { type: "search", name: "label", placeholder: "e.g. Chapter 5" });
    const list = h("ol", { class: "passages" });
    const more = h("button", { type: "button", hidden: true }, "More");
    let offset = 0;
    const load = async (reset: boolean) => {
      if (reset) offset = 0;
      try {
        const r = await api<{ total: number; passages: Array<{ label: string; node: string; words: number }> }>("GET", `/books/passages?${q({ book: b.key, label: filter.value, offset, limit: PAGE })}`);
        const items = r.passages.map((p) => h("li", {}, h("button", { type: "button", class: "link", "data-node": p.node, onclick: () => void openNode(p.node) }, p.label), h("span", { class: "muted" }, ` ${p.words} words`)));
        if (reset) fill(list, items);
        else list.append(...items);
        offset += r.passages.length;
        more.hidden = offset >= r.total;
        count.textContent = `${r.total} passages`;
      } catch (e) {
        showError(error, e);
      }
    };
    const count = h("p", { class: "muted", role: "status" });
    let timer = 0;
    filter.addEventListener("input", () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => void load(true), 200);
    });
    more.addEventListener("click", () => void load(false));
    fill(browse, h("h2", {}, b.title), h("p", { class: "muted" }, `${b.author} · ${b.genre} · passages by ${b.structure}`), field("Filter by label", filter), count, list, more);
    void load(true);
  };

  void books().then(
    (list) => {
      fill(shelf, list.map((b) => h("li", {}, h("button", { type: "button", class: "book", "data-key": b.key, onclick: () => openBook(b) }, h("strong", {}, b.title), h("span", {}, `${b.author} · ${b.passages} passages (${b.structure})`)))));
      const quote = h("input", { name: "quote", placeholder: "a misremembered quote" });
      const book = bookSelect(list, list.find((b) => b.key.includes("frankenstein"))?.key);
      fill(locateForm, field("Quote", quote), field("Book", book), h("button", { type: "submit" }, "Locate"));
      onSubmit(locateForm, error, async () => {
        const r = await api<{ spans: Array<{ node: string; label: string; start: number; end: number; ratio: number; text: string; diff: DiffOp[] }> }>("POST", "/locate", { quote: quote.value, book: book.value });
        fill(
          located,
          h("h3", {}, r.spans.length ? `${r.spans.length} span${r.spans.length > 1 ? "s" : ""} found` : "Not found in this book"),
          h("ol", {}, r.spans.map((s) =>
            h(
              "li",
              { class: "span" },
              h("button", {
                type: "button",
                class: "link",
                "data-node": s.node,
                onclick: async () => {
                  resetPanel(true);
                  try {
                    showPassage(await api<Passage>("POST", "/passages/show", { node: s.node }), s, { diff: s.diff, ratio: s.ratio });
                  } catch (e) {
                    showPanelError(e);
                  }
                },
              }, s.label),
              diffView(s.diff, s.ratio),
            ),
          )),
        );
      });
      if (list[0]) openBook(list[0]);
    },
    (e) => showError(error, e),
  );
  fill(root, h("div", { class: "cols" }, h("div", { class: "side" }, h("h2", {}, "Books"), shelf, h("h2", {}, "Locate a quote"), locateForm), h("div", { class: "center" }, error, located, browse), panel));
}
