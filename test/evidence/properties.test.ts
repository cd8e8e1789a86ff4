// Random edits of a small document: a moved citation always points at identical
// content, an untouched fragment always stays current, resolution never throws.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { citationStatus, citeFragment, fragmentMarkdown, indexFragments, normalizeWhitespace } from "../../ts/evidence/index.js";

const SENTENCES = [
  "The cache holds recent answers.",
  "Writes go to the primary first.",
  "Replicas lag by a few seconds.",
  "The cache holds recent answers.", // a duplicate on purpose
  "Shard keys decide the placement.",
  "- a list item\n- another item",
  "```\ncode here\n```",
  "| k | v |\n|---|---|\n| a | 1 |",
  "> quoted words",
];

const block = fc.constantFrom(...SENTENCES);
const section = fc.record({ title: fc.constantFrom("Intro", "Setup", "Setup", "Usage", "Notes"), level: fc.integer({ min: 1, max: 3 }), body: fc.array(block, { maxLength: 4 }) });
const doc = fc.array(section, { minLength: 1, maxLength: 6 });
type Doc = { title: string; level: number; body: string[] }[];
const render = (d: Doc) => d.map((s) => [`${"#".repeat(s.level)} ${s.title}`, ...s.body].join("\n\n")).join("\n\n") + "\n";

const edit = fc.oneof(
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), text: block }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("rename" as const), at: fc.nat(), title: fc.constantFrom("Intro", "Install", "Usage") }),
  fc.record({ op: fc.constant("swap" as const), at: fc.nat() }),
);

function apply(d: Doc, e: { op: string; at: number; text?: string; title?: string }): Doc {
  const out = d.map((s) => ({ ...s, body: [...s.body] }));
  const s = out[e.at % out.length];
  if (e.op === "insert") s.body.splice(e.at % (s.body.length + 1), 0, e.text!);
  if (e.op === "delete" && s.body.length) s.body.splice(e.at % s.body.length, 1);
  if (e.op === "rename") s.title = e.title!;
  if (e.op === "swap" && out.length > 1) {
    const i = e.at % (out.length - 1);
    [out[i], out[i + 1]] = [out[i + 1], out[i]];
  }
  return out;
}

describe("citations under random edits", () => {
  it("moved → identical content; same path + same content → current; every citation gets one status", () => {
    fc.assert(
      fc.property(doc, fc.array(edit, { minLength: 1, maxLength: 3 }), (d, edits) => {
        const before = fragmentMarkdown("p.md", render(d));
        const after = fragmentMarkdown("p.md", render(edits.reduce(apply, d)));
        const index = indexFragments(after);
        const byPath = new Map(after.map((f) => [f.path, f]));
        for (const f of before) {
          const r = citationStatus(citeFragment(f), index);
          if (r.status === "moved") {
            expect(r.fragment!.kind).toBe(f.kind);
            expect(normalizeWhitespace(r.fragment!.text)).toBe(normalizeWhitespace(f.text));
            expect(r.fragment!.fragmentId).not.toBe(f.fragmentId);
          }
          const same = byPath.get(f.path);
          if (same && same.contentHash === f.contentHash) expect(r.status).toBe("current");
          if (r.status === "lost" && r.candidates.length && r.candidates[0].score === 1) expect(r.candidates.length).toBeGreaterThan(1);
        }
      }),
      { numRuns: 150, seed: 4 },
    );
  });
});
