// breaker: a micromark-read region over 2^18 of top-level lists of one item each (the marker alternates - and *,
// so each item opens a new list; item 3 holds a table): the piece's last block is a one-item list past the piece's start.
import { compare, listDoc } from "./brk-lib.js";
compare("alternating markers", listDoc((i) => `${i % 2 ? "*" : "-"} item ${i} with some text`));
