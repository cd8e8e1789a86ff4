/** Check a reply: paste a model's reply, pick a book or paste its passages; the verdicts, the snaps and the corrected reply to copy. */
import { api } from "./api.js";
import { bookSelect, books } from "./books.js";
import { field, fill, h, uid } from "./dom.js";
import { legend, onSubmit, openPastedQuote, openQuote, panel, renderReply, showError, type Quote, type Snap } from "./render.js";

/** Pasted passages: separated by a blank line, tagged s1, s2… in order (as POST /quotes/verify tags them). */
export const splitPassages = (text: string) => text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);

export function checkView(root: HTMLElement): void {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const out = h("section", { class: "result", "aria-label": "Result", "aria-live": "polite" });
  const reply = h("textarea", { name: "reply", rows: 8, placeholder: 'He wrote "on a dreary night in November" [s1].' });
  const pasted = h("textarea", { name: "passages", rows: 8, placeholder: "One passage per paragraph: the first is [s1], the next [s2]…" });
  const form = h("form", { class: "stack", "aria-label": "Check a reply" });
  const name = uid("against");
  const choice = (value: string, label: string, checked: boolean) => {
    const input = h("input", { type: "radio", name, value, checked, id: uid("r") });
    return h("label", { class: "choice", for: input.id }, input, ` ${label}`);
  };
  const against = h("fieldset", { class: "choices" }, h("legend", {}, "Check against"), choice("book", "a book", true), choice("passages", "pasted passages", false));
  void books().then(
    (list) => {
      const book = bookSelect(list, list.find((b) => b.key.includes("frankenstein"))?.key);
      const bookField = field("Book", book);
      const passagesField = field("Passages (a blank line between two)", pasted);
      const mode = () => (form.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value ?? "book") as "book" | "passages";
      const switched = () => {
        bookField.hidden = mode() !== "book";
        passagesField.hidden = mode() !== "passages";
      };
      against.addEventListener("change", switched);
      fill(form, field("Reply", reply), against, bookField, passagesField, h("button", { type: "submit" }, "Check"));
      switched();
      onSubmit(form, error, async () => {
        const sources = mode() === "passages" ? splitPassages(pasted.value) : null;
        const r = await api<{ passes: boolean; grounding: { quotes: Quote[] }; snapped: string; snaps: Snap[] }>("POST", "/quotes/verify", sources ? { reply: reply.value, passages: sources } : { reply: reply.value, book: book.value });
        const key = book.value;
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
        const open = (q: Quote) => void (sources ? openPastedQuote(q.text, q.cites ?? [], sources) : openQuote(q.text, null, key));
        fill(
          out,
          h("p", { class: r.passes ? "pass" : "fail" }, r.passes ? `Every quote is the ${sources ? "passages'" : "book's"} words.` : `${r.grounding.quotes.filter((q) => !q.found).length} of ${r.grounding.quotes.length} quotes are not the ${sources ? "passages'" : "book's"} words.`),
          renderReply(reply.value, r.grounding.quotes, r.snaps, open, null),
          h("h3", {}, "Corrected reply"),
          corrected,
          h("p", {}, copy, " ", copied),
        );
      });
    },
    (e) => showError(error, e),
  );
  fill(root, h("div", { class: "cols" }, h("div", { class: "side" }, h("h2", {}, "Check a reply"), form, legend()), h("div", { class: "center" }, error, out), panel));
}
