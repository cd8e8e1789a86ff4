import { readFileSync } from "node:fs";
import { fragmentMarkdown } from "../../dist/node.js";
const text = readFileSync("/work/shared/data/markdown/system-design-primer/v039.md", "utf8");
for (let i = 0; i < 400; i++) fragmentMarkdown("bench", text);
