// Golden listings: each *.input.ttl beside its *.expected.txt, byte for byte. UPDATE=1 rewrites.
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGraph } from "../../ts/rdf/index.js";
import { buildTripleIndex, renderListing } from "../../ts/triple-index/index.js";

const FIXTURES = new URL("../fixtures/triple-index/", import.meta.url);
const inputs = readdirSync(FIXTURES).filter((f) => f.endsWith(".input.ttl")).sort();

describe("golden listings", () => {
  it("has fixtures", () => expect(inputs.length).toBeGreaterThanOrEqual(3));
  for (const input of inputs) {
    it(input, () => {
      const text = readFileSync(new URL(input, FIXTURES), "utf8");
      const graph = parseGraph(text, { format: "turtle", source: input });
      const index = buildTripleIndex(graph);
      const actual = `${renderListing(index)}fingerprint: ${index.fingerprint}\n`;
      const expectedUrl = new URL(input.replace(".input.ttl", ".expected.txt"), FIXTURES);
      if (process.env.UPDATE === "1" || !existsSync(expectedUrl)) writeFileSync(expectedUrl, actual);
      expect(actual).toBe(readFileSync(expectedUrl, "utf8"));
    });
  }
});
