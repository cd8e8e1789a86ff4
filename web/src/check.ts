/** Check a reply: paste a model's reply, pick a book; the verdicts, the snaps and the corrected reply to copy. */
import { api } from "./api.js";
import { bookSelect, books } from "./books.js";
import { field, fill, h } from "./dom.js";
import { legend, openQuote, panel, renderReply, showError, type Quote, type Snap } from "./render.js";

export function checkView(root: HTMLElement): void {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const out = h("section", { class: "result", "aria-label": "Result", "aria-live": "polite" });
  const reply = h("textarea", { name: "reply", rows: 8, placeholder: 'He wrote "on a dreary night in November" [s1].' });
  const form = h("form", { class: "stack", "aria-label": "Check a reply" });
  void books().then(
    (list) => {
      const book = bookSelect(list, list.find((b) => b.key.includes("frankenstein"))?.key);
      fill(form, field("Reply", reply), field("Book", book), h("button", { type: "submit" }, "Check"));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        showError(error, null);
        try {
          const r = await api<{ passes: boolean; grounding: { quotes: Quote[] }; snapped: string; snaps: Snap[] }>("POST", "/quotes/verify", { reply: reply.value, book: book.value });
          const corrected = h("textarea", { readonly: true, rows: 5, class: "corrected", "aria-label": "Corrected reply" });
          corrected.value = r.snapped;
          const copy = h("button", { type: "button" }, "Copy");
          const copied = h("span", { role: "status", class: "muted" });
          copy.addEventListener("click", async () => {
            corrected.select();
            try {
              await navigator.clipboard.writeText(r.snapped);
              copied.textContent = "copied";
            } catch {
              copied.textContent = "selected: press Ctrl+C to copy";
            }
          });
          fill(
            out,
            h("p", { class: r.passes ? "pass" : "fail" }, r.passes ? "Every quote is the book's." : `${r.grounding.quotes.filter((q) => !q.found).length} of ${r.grounding.quotes.length} quotes are not the book's words.`),
            renderReply(reply.value, r.grounding.quotes, r.snaps, (q) => void openQuote(q.text, null, book.value), null),
            h("h3", {}, "Corrected reply"),
            corrected,
            h("p", {}, copy, " ", copied),
          );
        } catch (e) {
          showError(error, e);
        }
      });
    },
    (e) => showError(error, e),
  );
  fill(root, h("div", { class: "cols" }, h("div", { class: "side" }, h("h2", {}, "Check a reply"), form, legend()), h("div", { class: "center" }, error, out), panel));
}
