// ts/moot: public API of this part (browser-safe). Filled in by its issue.
export {};
