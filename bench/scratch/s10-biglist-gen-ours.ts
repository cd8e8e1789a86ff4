// Probe (session 10): fragmentMarkdown alone on largeListDocument(seed, n, breaks).
import { fragmentMarkdown } from "../../ts/node.js";
import { largeListDocument } from "../../test/evidence/large-list-document.js";
const text = largeListDocument(Number(process.argv[2] ?? 1), Number(process.argv[3] ?? 3800), process.argv[4] !== "one");
const t = performance.now();
console.log(fragmentMarkdown("d", text).length, (performance.now() - t).toFixed(0), "ms");
const { micromarkLoad } = await import("../../ts/evidence/fragment/index.js");
console.log("micromark load", micromarkLoad(), "code units for", text.length);
