// JSON nesting is bounded in the library as in the CLI: a critique, a plan or a goal nested
// 200,000 deep used to end in "Maximum call stack size exceeded" from zod or the plan compiler.
import { describe, expect, it } from "vitest";
import { jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from "../../ts/json-depth.js";
import { CritiqueFormatError, parseCritique } from "../../ts/triple-index/index.js";
import { compileOps, GoalError, parseGoal, PlanError } from "../../ts/kernel/index.js";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const nestedValue = (depth: number) => {
  let v: unknown = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
};

describe("the nesting bound", () => {
  it("counts arrays and objects outside strings, and names the line where the limit is crossed", () => {
    expect(MAX_JSON_DEPTH).toBe(1000);
    expect(jsonTextTooDeep(nested(1000))).toBeNull();
    expect(jsonTextTooDeep(nested(1001))).toBe(1);
    expect(jsonTextTooDeep(`{"a":\n"[[[[\\"[[[["}`, 1)).toBeNull();
    expect(jsonTextTooDeep(`{\n"a":\n[1]}`, 1)).toBe(3);
    expect(valueTooDeep(nestedValue(1000))).toBe(false);
    expect(valueTooDeep(nestedValue(1001))).toBe(true);
    expect(valueTooDeep({ a: { b: [1, "x", null] } }, 3)).toBe(false);
    expect(valueTooDeep({ a: { b: [1, "x", null] } }, 2)).toBe(true);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(valueTooDeep(cycle)).toBe(true);
  });
});

describe("library inputs nested too deep are typed errors, as text and as values", () => {
  const deep = nested(200_000);
  it("parseCritique", () => {
    expect(() => parseCritique(deep)).toThrow(new CritiqueFormatError("critique nested deeper than 1,000 at line 1"));
    expect(() => parseCritique(`{"items":[{"op":"remove","tripleIds":${deep}}]}`)).toThrow(CritiqueFormatError);
    expect(() => parseCritique({ items: [{ op: "remove", tripleIds: nestedValue(200_000) }] })).toThrow(
      new CritiqueFormatError("critique nested deeper than 1,000"),
    );
    // A real critique still parses.
    expect(parseCritique('[{"op":"remove","tripleIds":[3,4]}]')).toEqual([{ op: "remove", tripleIds: [3, 4] }]);
  });
  it("compileOps", () => {
    expect(() => compileOps(`[{"op":"filter","expr":${deep}}]`)).toThrow(new PlanError("the plan nests deeper than 1,000 at line 1"));
    expect(() => compileOps([{ op: "filter", expr: nestedValue(200_000) }] as never)).toThrow(PlanError);
  });
  it("parseGoal", () => {
    expect(() => parseGoal(`{"kind":"entity","answer":${deep}}`)).toThrow(new GoalError("nested deeper than 1,000 at line 1"));
    expect(() => parseGoal({ kind: "entity", answer: nestedValue(5000) })).toThrow(GoalError);
    expect(parseGoal('{"kind":"entity","answer":["?c"]}').answer).toEqual(["c"]);
  });
});
