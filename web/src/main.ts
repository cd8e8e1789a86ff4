/** The page of `groundwire serve` (docs/page.md): four views over the HTTP API, plain DOM, no framework. */
import { onUnauthorized, token, tokenProblem } from "./api.js";
import { checkView } from "./check.js";
import { h } from "./dom.js";
import { historyView } from "./history.js";
import { libraryView } from "./library.js";
import { mootsView } from "./moots.js";
import { resetPanel } from "./render.js";
import "./style.css";

const VIEWS = [
  ["moots", "Moots", mootsView],
  ["check", "Check a reply", checkView],
  ["history", "History", historyView],
  ["library", "Library", libraryView],
] as const;

const main = document.getElementById("main")!;
const tabs = document.getElementById("tabs")!;
const tokenInput = document.getElementById("token") as HTMLInputElement;
const tokenState = document.getElementById("token-state")!;

const buttons = VIEWS.map(([id, name]) => h("button", { type: "button", role: "tab", id: `tab-${id}`, "aria-controls": "main", "data-view": id }, name));
tabs.append(...buttons);

function show(id: string): void {
  const view = VIEWS.find(([v]) => v === id) ?? VIEWS[0];
  buttons.forEach((b) => {
    const on = b.dataset.view === view[0];
    b.setAttribute("aria-selected", String(on));
    b.tabIndex = on ? 0 : -1;
  });
  main.setAttribute("aria-labelledby", `tab-${view[0]}`);
  main.dataset.view = view[0];
  resetPanel();
  view[2](main);
}
buttons.forEach((b, i) => {
  b.addEventListener("click", () => (location.hash = b.dataset.view!));
  b.addEventListener("keydown", (e) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = buttons[(i + step + buttons.length) % buttons.length]!;
    next.focus();
    next.click();
  });
});
window.addEventListener("hashchange", () => show(location.hash.slice(1)));

const tokenShown = () => (tokenState.textContent = token.get() ? "token set for this tab" : "no token (a server started with --no-auth needs none)");
document.getElementById("token-form")!.addEventListener("submit", (e) => {
  e.preventDefault();
  const typed = tokenInput.value.trim();
  const problem = tokenProblem(typed);
  if (problem) {
    tokenState.textContent = problem;
    tokenInput.setAttribute("aria-invalid", "true");
    tokenInput.focus();
    return;
  }
  tokenInput.removeAttribute("aria-invalid");
  token.set(typed);
  tokenInput.value = "";
  tokenShown();
  show(location.hash.slice(1));
});
onUnauthorized.push((e) => {
  tokenState.textContent = `${e.message}: enter the server's token`;
  tokenInput.focus();
});
tokenShown();
show(location.hash.slice(1));
