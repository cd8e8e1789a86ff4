// ts/moot: public API of this part (browser-safe). Filled in by its issue.
export * from "./words.js";
export * from "./best-span.js";
export * from "./grounding.js";
export * from "./retrieval.js";
export * from "./synth.js";
export * from "./moot.js";
