// The input shapes are exact types derived from their zod schemas (z.infer), and the same
// schemas validate at run time. This file is type-checked (`npm run typecheck`): each
// `@ts-expect-error` line must fail to compile, or the check fails.
import { describe, expect, expectTypeOf, it } from "vitest";
import { parseGraph } from "../../ts/rdf/index.js";
import {
  applyCritique,
  buildTripleIndex,
  critiqueItemSchema,
  CritiqueFormatError,
  type CritiqueItem,
} from "../../ts/triple-index/index.js";
import { compileOps, createKernel, goalSchema, opSchema, parseGoal, PlanError, Schema, type GoalInput, type Op } from "../../ts/kernel/index.js";
import { readFileSync } from "node:fs";
import type { z } from "zod";

const TTL = "@prefix ex: <http://example.org/> .\nex:a ex:p ex:b .\nex:a ex:q ex:c .\n";
const KG = readFileSync(new URL("../fixtures/kernel/olympics.ttl", import.meta.url), "utf8");

describe("critique items", () => {
  it("are a discriminated union derived from the schema", () => {
    expectTypeOf<CritiqueItem>().toEqualTypeOf<z.output<typeof critiqueItemSchema>>();
    expectTypeOf<Extract<CritiqueItem, { op: "remove" }>>().toEqualTypeOf<{ op: "remove"; tripleIds: number[] }>();
    expectTypeOf<CritiqueItem["op"]>().toEqualTypeOf<"remove" | "replace">();
  });

  it("refuse loose input in the types and at run time", () => {
    const g = parseGraph(TTL);
    const idx = buildTripleIndex(g);
    // @ts-expect-error: a number is not a critique
    expect(() => applyCritique(g, idx, 42)).toThrow(CritiqueFormatError);
    // @ts-expect-error: "delete" is not an op
    expect(() => applyCritique(g, idx, [{ op: "delete", tripleIds: [1] }])).toThrow('critique item 1: unknown op "delete" (expected "remove" or "replace")');
    // @ts-expect-error: ids are numbers
    expect(() => applyCritique(g, idx, [{ op: "remove", tripleIds: [true] }])).toThrow("critique item 1: triple id true is not a positive integer");
    // the JSON text of a critique is accepted, as the CLI reads it
    expect(applyCritique(g, idx, '[{"op":"REMOVE","tripleIds":["1"]}]').removedCount).toBe(1);
  });
});

describe("ops", () => {
  it("are a discriminated union over every op kind, derived from the schema", () => {
    expectTypeOf<Op>().toEqualTypeOf<z.infer<typeof opSchema>>();
    expectTypeOf<Op["op"]>().toEqualTypeOf<
      "prefix" | "goal" | "triple" | "filter" | "bind" | "optional" | "minus" | "union" | "values" | "group" | "aggregate" | "project" | "distinct" | "having" | "ask" | "order" | "limit" | "offset" | "finish"
    >();
    expectTypeOf<Extract<Op, { op: "triple" }>>().toEqualTypeOf<{ op: "triple"; s: string; p: string; o: string }>();
    // nested lists hold pattern ops only
    expectTypeOf<Extract<Op, { op: "optional" }>["ops"][number]["op"]>().toEqualTypeOf<"triple" | "filter" | "bind" | "optional" | "minus" | "union" | "values">();
  });

  it("refuse a misspelt op, a missing field and a nested non-pattern op in the types and at run time", () => {
    // @ts-expect-error: no op "tripel"
    expect(() => compileOps([{ op: "tripel" }])).toThrow(PlanError);
    // @ts-expect-error: a triple needs o
    expect(() => compileOps([{ op: "triple", s: "?s", p: "?p" }])).toThrow('op 1: triple needs "o" as a non-empty string, got undefined');
    // @ts-expect-error: limit takes a number
    expect(() => compileOps([{ op: "limit", n: "1" }])).toThrow(/op 1: limit needs "n"/);
    // @ts-expect-error: project is not allowed inside optional
    expect(() => compileOps([{ op: "optional", ops: [{ op: "project", vars: ["?x"] }] }])).toThrow(/not allowed inside a nested op list/);
    const ok: Op[] = [{ op: "triple", s: "?s", p: "?p", o: "?o" }, { op: "limit", n: 1 }];
    expect(compileOps(ok).query.limit).toBe(1);
  });

  it("where the compiler is lenient, the schema still refuses", () => {
    // the compiler ignores an unknown field's type; the schema checks `distinct` is a boolean
    const loose = [{ op: "aggregate", fn: "count", of: "?x", as: "?n", distinct: "yes" }] as unknown as Op[];
    expect(() => compileOps(loose)).toThrow(PlanError);
  });
});

describe("goals", () => {
  const kernel = createKernel(Schema.fromGraph(parseGraph(KG)));
  const q = "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c ex:hosted ?g }";

  it("are typed from the schema; kernel.check takes a goal object or the JSON text the docs show", () => {
    expectTypeOf<GoalInput>().toEqualTypeOf<z.infer<typeof goalSchema>>();
    expectTypeOf<GoalInput["kind"]>().toEqualTypeOf<"entity" | "literal" | "number" | "boolean">();
    const asText = kernel.check(q, '{"answer":["?c"],"kind":"entity","type":"ex:City"}');
    const asObject = kernel.check(q, { answer: ["?c"], kind: "entity", type: "ex:City" });
    expect(asText.openGoals).toEqual(asObject.openGoals);
    expect(asText.goal).toEqual({ answer: ["c"], kind: "entity", type: "http://example.org/olympics/City", many: true });
    // @ts-expect-error: "place" is not a kind
    expect(() => kernel.check(q, { answer: ["?c"], kind: "place" })).toThrow('malformed goal: "kind" must be one of entity, literal, number, boolean, got "place"');
    // @ts-expect-error: a goal is not a number
    expect(() => kernel.check(q, 7)).toThrow("Kernel.check: goal must be an object or a string, got 7");
    expect(() => parseGoal({ answer: ["?c"], kind: "entity", colour: "red" })).toThrow('malformed goal: unknown field "colour" (expected answer, kind, type, many)');
  });
});
