import { api } from "./api.js";
import { h } from "./dom.js";

export interface BookInfo {
  key: string;
  title: string;
  author: string;
  genre: string;
  structure: string;
  passages: number;
}
let cached: Promise<BookInfo[]> | null = null;
export function books(): Promise<BookInfo[]> {
  cached ??= api<{ books: BookInfo[] }>("GET", "/books").then((r) => r.books, (e) => ((cached = null), Promise.reject(e)));
  return cached;
}
export function bookSelect(list: BookInfo[], selected?: string): HTMLSelectElement {
  return h("select", {}, list.map((b) => h("option", { value: b.key, selected: b.key === selected }, `${b.title} (${b.key})`)));
}
