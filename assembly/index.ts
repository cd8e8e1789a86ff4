// The one WebAssembly module of groundwire: every hot path is exported from here.
// Each kernel lives in its own file; bindings/ types the exports it uses.
export * from "./sequence-match";
export * from "./closure";
export * from "./listing";
export * from "./quote-index/index";
