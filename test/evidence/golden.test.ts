// Golden fragment trees of a small real markdown file (awesome v000, CC0): the
// listing and the JSON, compared byte for byte. UPDATE=1 rewrites the expected files.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createArtifact, formatFragmentListing, fragmentMarkdown } from "../../ts/evidence/index.js";

const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);

function golden(name: string, actual: string): void {
  const url = new URL(name, FIXTURES);
  if (process.env.UPDATE === "1" || !existsSync(url)) writeFileSync(url, actual);
  expect(actual).toBe(readFileSync(url, "utf8"));
}

describe("golden fragment trees", () => {
  const input = readFileSync(new URL("awesome-v000.input.md", FIXTURES), "utf8");
  const artifact = createArtifact({ sourceObjectId: "awesome/readme.md", content: input });
  const fragments = fragmentMarkdown(artifact.artifactId, input);

  it("listing (awesome-v000.expected.txt)", () => {
    golden("awesome-v000.expected.txt", formatFragmentListing(fragments, artifact));
  });

  it("JSON (awesome-v000.expected.json)", () => {
    golden("awesome-v000.expected.json", `${JSON.stringify({ artifact, fragments }, null, 1)}\n`);
  });

  it("the tree has the shape a reader expects", () => {
    expect(fragments.filter((f) => f.depth === 0).map((f) => f.path)).toEqual(["section:awesome"]);
    expect(fragments.filter((f) => f.kind === "item")).toHaveLength(8);
    expect(fragments.filter((f) => f.kind === "section").map((f) => f.path)).toEqual(["section:awesome", "section:awesome/section:license"]);
  });
});
